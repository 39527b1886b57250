/** api/lib/methods.ts through a real Express server: TRACE and friends are a 405, never a 500. */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import express from 'express'
import { describe, expect, it } from 'vitest'
import { rejectUnknownMethods } from './methods.ts'

function request(port: number, method: string): Promise<{ status: number; allow?: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: '/' }, (res) => {
      res.resume()
      resolve({ status: res.statusCode!, allow: res.headers.allow })
    })
    req.on('error', reject)
    req.end()
  })
}

describe('rejectUnknownMethods', () => {
  it('answers 405 with Allow to TRACE and unknown methods, and passes the usual ones on', async () => {
    const app = express()
    app.use(rejectUnknownMethods)
    app.all('/{*splat}', (_req, res) => void res.send('ok'))
    const server = app.listen(0, '127.0.0.1')
    await new Promise((resolve) => server.once('listening', resolve))
    try {
      const { port } = server.address() as AddressInfo
      for (const method of ['TRACE', 'PROPFIND', 'MKCOL']) {
        const res = await request(port, method)
        expect(res.status, method).toBe(405)
        expect(res.allow).toContain('GET')
      }
      for (const method of ['GET', 'POST', 'DELETE', 'OPTIONS']) expect((await request(port, method)).status, method).toBe(200)
    } finally {
      server.close()
    }
  })
})
