/**
 * server-shared/path-first.ts: a path's requests answered ahead of Express get the same steps and the
 * same answer as through Express (headers included: compression's `Vary`, a security header, the
 * client address as Express's `trust proxy` reads it), on real listening servers; every other
 * request, an unknown method and an absolute-form target reach Express.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import express from 'express'
import compression from 'compression'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isUnder, pathFirst, type FrontStep } from './path-first.ts'

describe('isUnder', () => {
  it('takes the prefix, a path below it and its query, in origin form only', () => {
    expect(isUnder('/api', '/api')).toBe(true)
    expect(isUnder('/api/', '/api')).toBe(true)
    expect(isUnder('/api/cart/create', '/api')).toBe(true)
    expect(isUnder('/api?x=1', '/api')).toBe(true)
    expect(isUnder('/apis', '/api')).toBe(false)
    expect(isUnder('/ap', '/api')).toBe(false)
    expect(isUnder('/', '/api')).toBe(false)
    expect(isUnder('http://host/api/cart', '/api')).toBe(false)
    expect(isUnder(undefined, '/api')).toBe(false)
  })
})

/** What a handler saw: which server answered and the client address the steps settled on. */
const seen: string[] = []

/** An Express app as server.ts builds it: trust one proxy, the steps, a page route, the API mounted last. */
function build() {
  const app = express()
  app.disable('x-powered-by')
  app.set('trust proxy', 1)
  const steps: FrontStep[] = [
    compression() as FrontStep,
    (_req, res, next) => {
      res.setHeader('X-Frame-Options', 'DENY')
      next()
    },
    (req, _res, next) => {
      req.headers['x-client-ip'] = (req as IncomingMessage & { ip?: string }).ip ?? 'none'
      next()
    },
  ]
  for (const step of steps) app.use(step)
  app.get('/page', (_req, res) => {
    seen.push('page')
    res.type('text/html').send('<p>page</p>')
  })
  const api = (via: string) => (req: IncomingMessage, res: ServerResponse) => {
    seen.push(`${via} ${req.headers['x-client-ip']}`)
    const body = JSON.stringify({ message: 'ok', data: 'x'.repeat(2000) })
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(body)
  }
  app.use((req, res, next) => (req.path.startsWith('/api/') ? api('express')(req, res) : next()))
  const expressIp = Object.getOwnPropertyDescriptor(express.request, 'ip')!.get!
  const front = pathFirst({
    prefix: '/api',
    methods: ['GET', 'POST'],
    steps,
    clientAddress: (req) => expressIp.call({ app, headers: req.headers, socket: req.socket, connection: req.socket }) as string,
    handler: api('front'),
    rest: app,
  })
  return { app, front }
}

async function listen(listener: http.RequestListener): Promise<{ server: http.Server; base: string }> {
  const server = http.createServer(listener)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }
}

/** The answer's status, the headers that matter here and the body's length as sent. */
async function ask(base: string, path: string, init: { method?: string; headers?: Record<string, string> } = {}) {
  const res = await new Promise<IncomingMessage>((resolve, reject) => {
    const req = http.request(`${base}${path}`, { method: init.method ?? 'GET', headers: init.headers }, resolve)
    req.on('error', reject)
    req.end()
  })
  const chunks: Buffer[] = []
  for await (const chunk of res) chunks.push(chunk as Buffer)
  const pick = ['content-type', 'content-encoding', 'vary', 'x-frame-options']
  return { status: res.statusCode, headers: Object.fromEntries(pick.map((h) => [h, res.headers[h]])), bytes: Buffer.concat(chunks).length }
}

describe('pathFirst', () => {
  let viaExpress: { server: http.Server; base: string }
  let viaFront: { server: http.Server; base: string }
  beforeAll(async () => {
    const { app, front } = build()
    viaExpress = await listen(app)
    viaFront = await listen(front)
  })
  afterAll(() => {
    viaExpress.server.close()
    viaFront.server.close()
  })

  it("answers the path's requests itself, with the answer Express gives", async () => {
    const cases: Array<Record<string, string>> = [{ 'accept-encoding': 'gzip' }, {}, { 'x-forwarded-for': '203.0.113.9, 198.51.100.7' }]
    for (const headers of cases) {
      seen.length = 0
      const expected = await ask(viaExpress.base, '/api/cart/get', { headers })
      const got = await ask(viaFront.base, '/api/cart/get', { headers })
      expect(got).toEqual(expected)
      // The client address as Express's `trust proxy` (1 hop) reads it, whoever ran the steps.
      const [viaE, viaF] = seen
      expect(viaE!.replace('express', '')).toBe(viaF!.replace('front', ''))
      expect(viaF).toMatch(/^front /)
    }
    expect(seen.at(-1)).toBe('front 198.51.100.7')
    const gzipped = await ask(viaFront.base, '/api/x', { headers: { 'accept-encoding': 'gzip' } })
    expect(gzipped.headers['content-encoding']).toBe('gzip')
    expect(gzipped.headers.vary).toBe('Accept-Encoding')
    expect(gzipped.headers['x-frame-options']).toBe('DENY')
  })

  it('leaves every other request to Express: other paths, other methods, absolute-form targets', async () => {
    seen.length = 0
    expect((await ask(viaFront.base, '/page')).status).toBe(200)
    await ask(viaFront.base, '/api/x', { method: 'PUT' })
    await new Promise<void>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: new URL(viaFront.base).port, path: `${viaFront.base}/api/abs` }, (res) => {
        res.resume()
        res.on('end', resolve)
      })
      req.on('error', reject)
      req.end()
    })
    expect(seen).toEqual(['page', expect.stringMatching(/^express /), expect.stringMatching(/^express /)])
  })

  it('answers 500 without a body when a step fails', async () => {
    const failing = pathFirst({
      prefix: '/api',
      methods: ['GET'],
      steps: [
        (_req, _res, next) => next(),
        () => {
          throw new Error('step failed')
        },
      ],
      clientAddress: () => undefined,
      handler: () => {
        throw new Error('not reached')
      },
      rest: (_req, res) => res.end('rest'),
    })
    const { server, base } = await listen(failing)
    try {
      const answer = await ask(base, '/api/x')
      expect(answer.status).toBe(500)
      expect(answer.bytes).toBe(0)
    } finally {
      server.close()
    }
  })
})
