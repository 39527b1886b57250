/**
 * Outages (docs/scale-out.md, "While PostgreSQL or the API is away"): production server processes
 * whose database or separate API goes away answer pages with 503, `Retry-After` and a "Back in a
 * moment" page, never a 500 or 502, and a BFF waits for a silent API no longer than `API_TIMEOUT_MS`.
 *
 * - PostgreSQL away: an instance on PostgreSQL reaches it through a TCP relay this test closes (what a
 *   database restart looks like to its clients: connections cut, new ones refused), then reopens.
 *   Needs TEST_DATABASE_URL.
 * - API away: a BFF alone (`API_URL`) pointed at a closed port, and one pointed at a server that
 *   accepts connections and never answers.
 *
 * Needs a build (`npm test` runs it after the build, with the scale-out test).
 */
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { newId } from '../../api/lib/ids.ts'
import { startInstance, waitReady, type Instance } from './cluster.ts'

const serverUrl = process.env.TEST_DATABASE_URL
const basePort = Number(process.env.OUTAGE_PORT ?? 3475)
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'grocery-outage-'))
const SECRETS = {
  JWT_SECRET: 'outage-test-jwt-secret-0123456789abcdef',
  SESSION_SECRET: 'outage-test-session-secret-0123456789ab',
  INSECURE_COOKIES: '1',
}
const instances: Instance[] = []

/** A closed local port: listened on once, then released. */
async function closedPort(): Promise<number> {
  const server = net.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as net.AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

/** A TCP server that accepts connections and never answers. */
async function silentServer() {
  const sockets = new Set<net.Socket>()
  const server = net.createServer((socket) => {
    sockets.add(socket)
    socket.on('error', () => {})
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as net.AddressInfo).port,
    async close() {
      for (const socket of sockets) socket.destroy()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}

/** A TCP relay to `target`; `away()` cuts every connection and refuses new ones, `back()` listens again. */
async function relay(target: { host: string; port: number }) {
  const sockets = new Set<net.Socket>()
  let server: net.Server | null = null
  let port = 0
  const listen = async () => {
    server = net.createServer((client) => {
      const upstream = net.connect(target.port, target.host)
      for (const socket of [client, upstream]) {
        sockets.add(socket)
        socket.on('error', () => {})
        socket.on('close', () => {
          sockets.delete(socket)
          client.destroy()
          upstream.destroy()
        })
      }
      client.pipe(upstream).pipe(client)
    })
    await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve))
    port = (server!.address() as net.AddressInfo).port
  }
  await listen()
  return {
    get port() {
      return port
    },
    async away() {
      const closing = new Promise((resolve) => server!.close(resolve))
      for (const socket of sockets) socket.destroy()
      await closing
    },
    back: listen,
  }
}

/** Waits until `${url}/healthz` answers 200 (a BFF alone is never ready while its API is away). */
async function waitLive(url: string, ms = 60_000) {
  const started = Date.now()
  while (Date.now() - started < ms) {
    const ok = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1000) }).then(
      (res) => res.ok,
      () => false,
    )
    if (ok) return
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error(`${url} not live within ${ms} ms`)
}

/** GETs `url` as a browser without a session; answers status, `Retry-After`, the page and the time it took. */
async function visit(url: string) {
  const started = Date.now()
  const res = await fetch(url, { headers: { accept: 'text/html' }, redirect: 'manual' })
  const html = await res.text()
  return { status: res.status, retryAfter: res.headers.get('retry-after'), html, ms: Date.now() - started }
}

/** The answer of a page while the store is away: 503, a wait, and the friendly page. */
function expectUnavailable(answer: Awaited<ReturnType<typeof visit>>) {
  expect(answer.status).toBe(503)
  expect(Number(answer.retryAfter)).toBeGreaterThan(0)
  expect(answer.html).toContain('Back in a moment')
  expect(answer.html).not.toContain('Unexpected')
}

afterAll(async () => {
  for (const i of instances) i.process.kill('SIGKILL')
  await Promise.all(instances.map((i) => i.exited))
  fs.rmSync(dataDir, { recursive: true, force: true })
})

describe('a BFF whose separate API is away', () => {
  it('answers pages with 503, Retry-After and the friendly page when the API refuses connections', async () => {
    const bff = startInstance('bff-refused', basePort + 1, {
      ...SECRETS,
      API_URL: `http://127.0.0.1:${await closedPort()}`,
      DATA_DIR: path.join(dataDir, 'refused'),
    })
    instances.push(bff)
    await waitLive(bff.url)
    for (const page of ['/', '/search?q=milk']) {
      const answer = await visit(`${bff.url}${page}`)
      expectUnavailable(answer)
      expect(answer.ms).toBeLessThan(3000)
    }
  })

  it('gives up on an API that never answers after API_TIMEOUT_MS, with the same 503 page', async () => {
    const silent = await silentServer()
    try {
      const bff = startInstance('bff-silent', basePort + 2, {
        ...SECRETS,
        API_URL: `http://127.0.0.1:${silent.port}`,
        API_TIMEOUT_MS: '1500',
        DATA_DIR: path.join(dataDir, 'silent'),
      })
      instances.push(bff)
      await waitLive(bff.url)
      const answer = await visit(`${bff.url}/`)
      expectUnavailable(answer)
      expect(answer.ms).toBeGreaterThanOrEqual(1400)
      expect(answer.ms).toBeLessThan(5000)
    } finally {
      await silent.close()
    }
  })
})

describe.skipIf(!serverUrl)('an instance whose PostgreSQL is away', () => {
  const dbName = `outage_${newId()}`
  let database: Awaited<ReturnType<typeof relay>>
  let instance: Instance

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: serverUrl })
    await admin.connect()
    await admin.query(`CREATE DATABASE ${dbName}`)
    await admin.end()
    const direct = new URL(serverUrl!)
    database = await relay({ host: direct.hostname, port: Number(direct.port || 5432) })
    const viaRelay = new URL(serverUrl!)
    viaRelay.hostname = '127.0.0.1'
    viaRelay.port = String(database.port)
    viaRelay.pathname = `/${dbName}`
    instance = startInstance('pg', basePort, {
      ...SECRETS,
      DATABASE_URL: viaRelay.toString(),
      SEED_CATALOG: '0',
      DATA_DIR: path.join(dataDir, 'pg'),
    })
    instances.push(instance)
  })

  afterAll(async () => {
    const admin = new pg.Client({ connectionString: serverUrl })
    await admin.connect()
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`)
    await admin.end()
  })

  it('answers pages and form posts with 503 and Retry-After while it is away, and serves again once it is back', async () => {
    await waitReady(instance.url)
    await database.away()
    // Pages neither visited nor rendered by the start's warm-up (`/` and `/search?q=milk`, server.ts):
    // the page cache, and the API's catalogue cache, keep serving what they hold.
    for (const page of ['/search?q=rice', '/search?q=atta']) expectUnavailable(await visit(`${instance.url}${page}`))
    const signIn = await fetch(`${instance.url}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: instance.url },
      body: new URLSearchParams({ email: 'shopper@example.com', password: 'Some-Password-1' }),
      redirect: 'manual',
    })
    expect(signIn.status).toBe(503)
    expect(Number(signIn.headers.get('retry-after'))).toBeGreaterThan(0)
    await signIn.text()

    await database.back()
    const started = Date.now()
    let answer = await visit(`${instance.url}/search?q=rice`)
    while (answer.status !== 200 && Date.now() - started < 10_000) {
      await new Promise((r) => setTimeout(r, 100))
      answer = await visit(`${instance.url}/search?q=rice`)
    }
    expect(answer.status).toBe(200)
  })
})
