import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { closeConnectionsWhileDraining, createShutdown, KEEP_ALIVE_TIMEOUT_MS, tuneKeepAlive, type Lifecycle } from './graceful.ts'
import { captureLog } from '../testing/log-capture.ts'

/** A server whose /slow answers after `ms`, and /ready answers 503 while draining. */
function startServer(lifecycle: Lifecycle) {
  const mark = closeConnectionsWhileDraining(lifecycle)
  const server = http.createServer((req, res) => {
    mark(req, res, () => {
      if (req.url === '/ready') {
        res.statusCode = lifecycle.draining ? 503 : 200
        return res.end()
      }
      setTimeout(() => res.end('done'), 300)
    })
  })
  tuneKeepAlive(server)
  return new Promise<{ server: http.Server; url: string }>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })),
  )
}

describe('graceful shutdown', () => {
  it('keeps idle connections longer than a proxy does', async () => {
    const { server } = await startServer({ draining: false })
    expect(server.keepAliveTimeout).toBe(KEEP_ALIVE_TIMEOUT_MS)
    expect(server.headersTimeout).toBeGreaterThan(KEEP_ALIVE_TIMEOUT_MS)
    server.close()
  })

  it('reports not ready, finishes the request in flight with Connection: close, refuses new connections, then drains', async () => {
    const lifecycle = { draining: false }
    const { server, url } = await startServer(lifecycle)
    const { logger } = captureLog()
    let drained = false
    // A grace far longer than the test's timeout: draining must end because the connections closed.
    const shutdown = createShutdown({
      server,
      lifecycle,
      logger,
      delayMs: 50,
      graceMs: 60_000,
      onDrained: async () => void (drained = true),
    })
    const started = Date.now()
    const inFlight = fetch(`${url}/slow`)
    await new Promise((r) => setTimeout(r, 20))
    const done = shutdown('SIGTERM')
    expect((await fetch(`${url}/ready`)).status).toBe(503)
    const answer = await inFlight
    expect(await answer.text()).toBe('done')
    await done
    expect(drained).toBe(true)
    expect(Date.now() - started).toBeLessThan(2000)
    await expect(fetch(`${url}/ready`)).rejects.toThrow()
  })

  it('cuts requests that outlive the grace period', async () => {
    const lifecycle = { draining: false }
    const { server, url } = await startServer(lifecycle)
    const { logger, lines } = captureLog()
    const shutdown = createShutdown({ server, lifecycle, logger, graceMs: 50, onDrained: async () => undefined })
    const inFlight = fetch(`${url}/slow`).catch(() => 'cut')
    await new Promise((r) => setTimeout(r, 20))
    await shutdown('SIGTERM')
    expect(await inFlight).toBe('cut')
    expect(lines.some((l) => l.includes('grace period'))).toBe(true)
  })

  it('runs onDraining as the shutdown begins, once, before the delay, so long-lived answers end at once', async () => {
    const lifecycle = { draining: false }
    const { server } = await startServer(lifecycle)
    const { logger } = captureLog()
    const seen: boolean[] = []
    const shutdown = createShutdown({
      server,
      lifecycle,
      logger,
      delayMs: 200,
      onDraining: () => seen.push(lifecycle.draining),
      onDrained: async () => undefined,
    })
    const done = shutdown('SIGTERM')
    void shutdown('SIGINT')
    // Called synchronously at the start: already draining, the delay not yet run.
    expect(seen).toEqual([true])
    await done
    expect(seen).toEqual([true])
  })
})
