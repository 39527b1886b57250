/**
 * `readBody` off a real socket (as server.ts serves the API through @hono/node-server): a body with a
 * declared length within the cap is read whole, without a web stream; a chunked body through the
 * capped stream; either way the cap, the JSON and the schema rules hold (api/lib/validate.ts).
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Hono } from 'hono'
import { getRequestListener } from '@hono/node-server'
import { z } from 'zod'
import { readBody } from './validate.ts'
import { HttpError } from './errors.ts'

const CAP = 1024
const EchoSchema = z.object({ productId: z.string().min(1) })

let server: http.Server
let base: string
beforeAll(async () => {
  const app = new Hono()
  app.use('*', async (c, next) => {
    c.set('jsonBodyMaxBytes', CAP)
    await next()
  })
  app.post('/echo', async (c) => c.json(await readBody(c, EchoSchema)))
  app.onError((err, c) => c.json({ message: err.message }, err instanceof HttpError ? err.status : 500))
  server = http.createServer(getRequestListener(app.fetch))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => {
  server.closeAllConnections()
  server.close()
})

/** POSTs `body` to /echo; `chunked` sends it as a stream without a length. */
async function post(body: string, chunked = false): Promise<{ status: number; json: unknown }> {
  const init: RequestInit & { duplex?: 'half' } = { method: 'POST', headers: { 'content-type': 'application/json' } }
  if (chunked) {
    init.body = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(body))
        controller.close()
      },
    })
    init.duplex = 'half'
  } else init.body = body
  const res = await fetch(`${base}/echo`, init)
  return { status: res.status, json: await res.json() }
}

describe('readBody off a socket', () => {
  it.each([false, true])('reads a JSON body (chunked: %s) and parses it with the schema', async (chunked) => {
    expect(await post(JSON.stringify({ productId: 'p-1' }), chunked)).toEqual({ status: 200, json: { productId: 'p-1' } })
  })

  it.each([false, true])('refuses a body over the cap with 413 (chunked: %s)', async (chunked) => {
    const { status, json } = await post(JSON.stringify({ productId: 'x'.repeat(CAP) }), chunked)
    expect(status).toBe(413)
    expect(json).toEqual({ message: 'Request body is larger than 1 KB' })
  })

  it('answers 400 for a body that is not JSON, or fails the schema', async () => {
    expect(await post('{"productId":')).toEqual({ status: 400, json: { message: 'Request body must be JSON' } })
    expect((await post('{"productId":""}')).status).toBe(400)
  })
})
