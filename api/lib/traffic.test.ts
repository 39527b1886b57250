/**
 * The count of API requests in flight (api/lib/traffic.ts): a request counts while its handler runs,
 * `quiet` resolves when the last one ends, and after its longest wait under constant traffic.
 */
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { createTraffic } from './traffic.ts'

describe('traffic', () => {
  it('counts a request while its handler runs, and quiet() waits for the last one to end', async () => {
    const traffic = createTraffic()
    const app = new Hono()
    app.use('*', traffic.middleware)
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    app.get('/slow', async (c) => {
      await held
      return c.text('done')
    })
    app.get('/boom', () => {
      throw new Error('boom')
    })
    expect(traffic.inFlight()).toBe(0)
    await traffic.quiet(10_000) // nothing in flight: at once

    const answer = app.request('/slow')
    await new Promise((resolve) => setImmediate(resolve))
    expect(traffic.inFlight()).toBe(1)
    let quiet = false
    const waiting = traffic.quiet(10_000).then(() => (quiet = true))
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(quiet).toBe(false)
    release()
    expect((await answer).status).toBe(200)
    await waiting
    expect(quiet).toBe(true)
    expect(traffic.inFlight()).toBe(0)

    // A handler that throws still stops counting.
    expect((await app.request('/boom')).status).toBe(500)
    expect(traffic.inFlight()).toBe(0)
  })

  it('stops waiting after maxWaitMs while a request keeps running', async () => {
    const traffic = createTraffic()
    const app = new Hono()
    app.use('*', traffic.middleware)
    app.get('/forever', () => new Promise<Response>(() => {}))
    void app.request('/forever')
    await new Promise((resolve) => setImmediate(resolve))
    expect(traffic.inFlight()).toBe(1)
    const started = Date.now()
    await traffic.quiet(50)
    expect(Date.now() - started).toBeGreaterThanOrEqual(45)
    expect(traffic.inFlight()).toBe(1)
  })
})
