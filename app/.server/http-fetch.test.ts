/**
 * app/.server/http-fetch.ts against a real HTTP server: the answer as `fetch` gives it (status,
 * headers, body), a body-less status, the abort of a stalled answer, and a refused connection.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { httpFetch } from './http-fetch.ts'

let server: http.Server
let base: string
beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = ''
    req.on('data', (chunk) => (body += chunk))
    req.on('end', () => {
      if (req.url === '/empty') return void res.writeHead(204).end()
      if (req.url === '/stall') {
        res.writeHead(200, { 'content-type': 'application/json' })
        return void res.write('{"part')
      }
      res.setHeader('set-cookie', ['a=1', 'b=2'])
      res.writeHead(201, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ method: req.method, body, guest: req.headers['x-guest-cart'] ?? null }))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => {
  server.closeAllConnections()
  server.close()
})

describe('httpFetch', () => {
  it('sends the method, headers and body, and answers status, headers and body as fetch does', async () => {
    const res = await httpFetch(`${base}/echo`, {
      method: 'POST',
      headers: new Headers({ 'content-type': 'application/json', 'X-Guest-Cart': 'g-1' }),
      body: '{"productId":"ü"}',
    })
    expect(res.status).toBe(201)
    expect(res.headers.getSetCookie()).toEqual(['a=1', 'b=2'])
    expect(await res.json()).toEqual({ method: 'POST', body: '{"productId":"ü"}', guest: 'g-1' })
  })

  it('answers a 204 without a body', async () => {
    const res = await httpFetch(`${base}/empty`)
    expect(res.status).toBe(204)
    expect(await res.text()).toBe('')
  })

  it('rejects once the signal aborts, also while the answer is being read', async () => {
    await expect(httpFetch(`${base}/stall`, { signal: AbortSignal.timeout(200) })).rejects.toThrow()
  })

  it('rejects when the API cannot be reached', async () => {
    const closed = http.createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const { port } = closed.address() as AddressInfo
    await new Promise((resolve) => closed.close(resolve))
    await expect(httpFetch(`http://127.0.0.1:${port}/`)).rejects.toThrow()
  })
})
