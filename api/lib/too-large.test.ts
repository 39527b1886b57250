/**
 * api/lib/too-large.ts with server-shared/capped-body.ts, on a real listening server and a raw TCP client:
 * a body over its cap gets its 413 in full, with `Connection: close`, and the server ends the
 * connection right after, whether the client declared the length and stalled, or streams a chunked
 * body on and on. The body is read as the BFF reads it (@react-router/express turns the Node request
 * into a Fetch `Request` with @react-router/node's stream) and as the API does (@hono/node-server).
 */
import http from 'node:http'
import net, { type AddressInfo } from 'node:net'
import express from 'express'
import { Hono } from 'hono'
import { getRequestListener } from '@hono/node-server'
import { createReadableStreamFromReadable } from '@react-router/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { closeAfterTooLarge } from './too-large.ts'
import { readCappedStream } from '../../server-shared/capped-body.ts'
import { tuneKeepAlive } from './graceful.ts'

const CAP = 64 * 1024

class TooLarge extends Error {}

/** An express app as server.ts builds it: the middleware, then a BFF-style form route and the API. */
function startServer() {
  const app = express()
  app.use(closeAfterTooLarge)
  app.post('/form', async (req, res) => {
    const declared = Number(req.headers['content-length'])
    try {
      // As app/lib/form-body.ts: refused by the declared length before a byte is read, else while streaming.
      if (declared > CAP) throw new TooLarge()
      const body = createReadableStreamFromReadable(req)
      await readCappedStream(body, CAP, () => new TooLarge())
      res.send('ok')
    } catch {
      res
        .status(413)
        .type('text/html')
        .send(`<h1>The form is too large to send</h1>${' '.repeat(8000)}`)
    }
  })
  const api = new Hono()
  api.post('/api/echo', async (c) => {
    try {
      await readCappedStream(c.req.raw.body, CAP, () => new TooLarge())
      return c.text('ok')
    } catch {
      return c.json({ message: 'Request body too large' }, 413)
    }
  })
  const apiListener = getRequestListener(api.fetch)
  app.use((req, res, next) => (req.path.startsWith('/api/') ? apiListener(req, res) : next()))
  const server = http.createServer(app)
  tuneKeepAlive(server)
  return new Promise<http.Server>((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)))
}

interface Outcome {
  head: string
  body: string
  /** ms from the first byte of the answer to the server's end of stream; null if it never came. */
  endedAfterMs: number | null
}

/**
 * Sends a POST of `total` bytes to `path` over a raw socket: `declared` sends a Content-Length and
 * stops after 256 KiB (a client waiting on a slow upload); `chunked` keeps streaming chunks.
 */
function send(port: number, path: string, mode: 'declared' | 'chunked', total = 4 * 1024 * 1024): Promise<Outcome> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1')
    let received = ''
    let firstByteAt = 0
    let sent = 0
    const finish = (endedAfterMs: number | null) => {
      clearTimeout(timer)
      socket.destroy()
      const [head = '', body = ''] = received.split('\r\n\r\n')
      resolve({ head, body, endedAfterMs })
    }
    const timer = setTimeout(() => finish(null), 5000)
    socket.on('connect', () => {
      const framing = mode === 'chunked' ? 'Transfer-Encoding: chunked' : `Content-Length: ${total}`
      socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n${framing}\r\n\r\n`)
      const chunk = 'a'.repeat(32 * 1024)
      const pump = () => {
        while (sent < total && !socket.destroyed && socket.writable) {
          sent += chunk.length
          const ok = socket.write(mode === 'chunked' ? `${chunk.length.toString(16)}\r\n${chunk}\r\n` : chunk)
          if (mode === 'declared' && sent >= 256 * 1024) return
          if (!ok) return void socket.once('drain', pump)
        }
      }
      pump()
    })
    socket.on('data', (data) => {
      if (!firstByteAt) firstByteAt = Date.now()
      received += data.toString('latin1')
    })
    socket.on('end', () => finish(firstByteAt ? Date.now() - firstByteAt : 0))
    // Writing into a closed connection: whatever was received is the outcome.
    socket.on('error', () => finish(null))
  })
}

let server: http.Server
let port: number
beforeAll(async () => {
  server = await startServer()
  port = (server.address() as AddressInfo).port
})
afterAll(() => {
  server.closeAllConnections()
  server.close()
})

describe('a 413 answers and closes the connection', () => {
  it.each([
    ['a BFF form, declared too large, the client waiting', '/form', 'declared'],
    ['a BFF form, chunked past the cap', '/form', 'chunked'],
    ['an API body, declared too large, the client waiting', '/api/echo', 'declared'],
    ['an API body, chunked past the cap', '/api/echo', 'chunked'],
  ] as const)('%s', async (_, path, mode) => {
    const outcome = await send(port, path, mode)
    expect(outcome.head).toMatch(/^HTTP\/1\.1 413 /)
    expect(outcome.head).toMatch(/\r\nConnection: close(\r\n|$)/i)
    expect(outcome.body).toMatch(/too large/i)
    // Within a short time of the answer, not the keep-alive timeout's 65 s.
    expect(outcome.endedAfterMs).not.toBeNull()
    expect(outcome.endedAfterMs!).toBeLessThan(1000)
  })

  it('leaves other answers on a kept-alive connection', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/form`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'a=1',
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('connection')).not.toBe('close')
  })
})
