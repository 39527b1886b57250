/**
 * Split mode (docs/scale-out.md, "API and BFF apart"): a BFF alone (`API_URL`) whose API restarts,
 * with real production processes of server.ts on one PostgreSQL database.
 *
 * - One API, stopped and started again: the BFF keeps serving what it can. A page it has kept stays
 *   200 past its TTL while the API is away (stale-if-error, RFC 5861; `X-Page-Cache: stale`); a page
 *   that needs the API answers 503 with `Retry-After`, never a 500 or 502; the API is ready again in
 *   seconds (printed) and the pages that need it answer 200 again.
 * - Two APIs behind the BFF, restarted one after the other under a load of page loads: no page load
 *   fails. How the BFF reaches two APIs: `API_URL` names a balancer in front of them, here the
 *   round-robin proxy of tests/scale/cluster.ts, which probes each API's `/readyz` and retries a
 *   request the draining API refused (docs/scale-out.md, "Balancer"); the APIs drain with
 *   `SHUTDOWN_DELAY_MS` longer than its probe interval.
 *
 * Needs TEST_DATABASE_URL and a build (`npm run build`).
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../api/db/client.ts'
import { insertProduct } from '../../api/testing/fixtures.ts'
import { newId } from '../../api/lib/ids.ts'
import { createDatabase, startInstance, startProxy, tearDown, waitInstanceReady, waitReady, type Instance } from './cluster.ts'

const serverUrl = process.env.TEST_DATABASE_URL
const dbName = `restart_${newId()}`
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'grocery-restart-'))
// Below Linux's ephemeral range (32768-60999, /proc/sys/net/ipv4/ip_local_port_range): a port in it
// can be held as the local port of an outgoing connection, and the instance then cannot listen.
const basePort = Number(process.env.RESTART_PORT ?? 3510)
const report: Record<string, number> = {}

let apiEnv: Record<string, string> = {}
let bffEnv: Record<string, string> = {}
const instances: Instance[] = []

function start(name: string, port: number, env: Record<string, string>): Instance {
  const instance = startInstance(name, port, { ...env, DATA_DIR: path.join(dataDir, name) })
  instances.push(instance)
  return instance
}

/** Stops `instance` as an orchestrator does (SIGTERM) and waits for its exit. */
async function stop(instance: Instance): Promise<void> {
  instance.process.kill('SIGTERM')
  await instance.exited
}

/** GETs a page as a browser without a session: status, `Retry-After`, `X-Page-Cache`, body. */
async function visit(url: string) {
  const res = await fetch(url, { headers: { accept: 'text/html' }, redirect: 'manual', signal: AbortSignal.timeout(15_000) })
  const html = await res.text()
  return { status: res.status, retryAfter: res.headers.get('retry-after'), cache: res.headers.get('x-page-cache'), html }
}

describe.skipIf(!serverUrl)('a BFF alone whose API restarts (PostgreSQL)', () => {
  beforeAll(async () => {
    const { url: databaseUrl } = await createDatabase(serverUrl!, dbName)
    const shared = {
      JWT_SECRET: 'restart-test-jwt-secret-0123456789abcdef',
      SESSION_SECRET: 'restart-test-session-secret-0123456789ab',
      INSECURE_COOKIES: '1',
      API_INTERNAL_TOKEN: 'restart-test-internal-token-0123456789ab',
      RATE_LIMIT_IP_MULTIPLIER: '1000',
    }
    apiEnv = {
      ...shared,
      DATABASE_URL: databaseUrl,
      SEED_CATALOG: '0',
      DATABASE_POOL_MAX: '4',
      // Longer than the proxy's probe (every 100 ms, 500 ms timeout): it stops sending first.
      SHUTDOWN_DELAY_MS: '1000',
    }
    // A short TTL, so the restart outlasts the kept pages' freshness.
    bffEnv = { ...shared, PAGE_CACHE_TTL_MS: '1000' }
    const first = start('api-first', basePort, apiEnv)
    await waitReady(first.url)
    const database = await openDatabase({ url: apiEnv.DATABASE_URL })
    try {
      await insertProduct(database.db, { name: 'Toor Dal', unit: '1 kg', price: 180, sellingPrice: 150, stock: 50 })
      await insertProduct(database.db, { name: 'Amul Milk', unit: '500 ml', price: 30, stock: 50 })
    } finally {
      await database.close()
    }
    await stop(first)
  })

  afterAll(async () => {
    await tearDown({ instances, serverUrl, database: dbName, dir: dataDir })
    console.log(`api-restart figures: ${JSON.stringify(report)}`)
  })

  it('one API restarting: kept pages stay 200 (stale), pages that need the API answer 503 with Retry-After, then 200 again', async () => {
    let api = start('api', basePort + 1, apiEnv)
    await waitReady(api.url)
    const bff = start('bff', basePort + 2, { ...bffEnv, API_URL: api.url })
    await waitReady(bff.url)
    const home = await visit(`${bff.url}/`)
    expect(home.status).toBe(200)
    expect((await visit(`${bff.url}/`)).cache).toBe('hit')

    await stop(api)
    // Past the page's freshness (PAGE_CACHE_TTL_MS=1000), with the API away.
    await new Promise((r) => setTimeout(r, 1500))
    for (let i = 0; i < 3; i++) {
      const kept = await visit(`${bff.url}/`)
      expect(kept.status, 'the kept home page while the API is away').toBe(200)
      expect(kept.cache).toBe('stale')
    }
    const needsApi = await visit(`${bff.url}/search?q=dal-${newId()}`)
    expect(needsApi.status).toBe(503)
    expect(Number(needsApi.retryAfter)).toBeGreaterThan(0)
    expect(needsApi.html).toContain('Back in a moment')

    // The API back: ready in seconds, on the same database.
    const restarted = Date.now()
    api = start('api-again', basePort + 1, apiEnv)
    await waitReady(api.url)
    report.apiReadyAfterRestartMs = Date.now() - restarted
    console.log(`API ready ${report.apiReadyAfterRestartMs} ms after its process started (catalogue present)`)
    const again = await visit(`${bff.url}/search?q=dal-${newId()}`)
    expect(again.status).toBe(200)
    const fresh = await visit(`${bff.url}/`)
    expect(fresh.status).toBe(200)
    expect(fresh.cache).not.toBe('stale')
    await Promise.all([stop(bff), stop(api)])
  })

  it('two APIs restarted one after the other under page loads: no page load fails', async () => {
    const ports = [basePort + 3, basePort + 4]
    const apis = ports.map((port, i) => start(`api-${i}`, port, apiEnv))
    await Promise.all(apis.map((a) => waitInstanceReady(a)))
    const proxy = await startProxy(() => apis.map((a) => a.url))
    const bff = start('bff-two', basePort + 5, { ...bffEnv, API_URL: proxy.url })
    try {
      await waitReady(bff.url)
      // A process's first renders are slow (code loaded and compiled on first use): one of each kind
      // first, as a deployment's warm-up or its first visitors would, so the load measures the restarts.
      for (const api of apis) expect((await visit(`${api.url}/search?q=dal`)).status).toBe(200)
      for (const page of ['/', '/search?q=dal']) expect((await visit(`${bff.url}${page}`)).status).toBe(200)
      // Page loads of kept pages and of pages rendered each time (a new search: the API is asked).
      const statuses = new Map<number, number>()
      const failures: string[] = []
      const t0 = Date.now()
      let running = true
      let n = 0
      const loops = Array.from({ length: 4 }, async () => {
        while (running) {
          const page = n++ % 2 === 0 ? '/' : `/search?q=milk&n=${n}`
          const began = Date.now()
          const status = await visit(`${bff.url}${page}`).then(
            (answer) => answer.status,
            () => 0,
          )
          if (status !== 200) failures.push(`${status} ${page} after ${Date.now() - began} ms at +${began - t0} ms`)
          statuses.set(status, (statuses.get(status) ?? 0) + 1)
        }
      })
      await new Promise((r) => setTimeout(r, 1000))
      for (let i = 0; i < apis.length; i++) {
        const restarted = Date.now()
        failures.push(`stop api-${i} at +${restarted - t0} ms`)
        await stop(apis[i]!)
        failures.push(`api-${i} exited at +${Date.now() - t0} ms`)
        apis[i] = start(`api-${i}-again`, ports[i]!, apiEnv)
        await waitInstanceReady(apis[i]!)
        failures.push(`api-${i} ready at +${Date.now() - t0} ms`)
        report[`api${i}RestartMs`] = Date.now() - restarted
        // The proxy's probe sees it ready before the other one goes.
        await new Promise((r) => setTimeout(r, 500))
      }
      running = false
      await Promise.all(loops)
      const total = [...statuses.values()].reduce((sum, count) => sum + count, 0)
      report.rollingPageLoads = total
      console.log(`rolling restart of two APIs behind the BFF: ${JSON.stringify(Object.fromEntries(statuses))} of ${total}`)
      if (failures.some((f) => !f.startsWith('stop') && !f.startsWith('api-'))) console.log(failures.join('\n'))
      expect(total).toBeGreaterThan(20)
      expect(Object.fromEntries(statuses)).toEqual({ 200: total })
    } finally {
      if (process.env.SCALE_DEBUG) for (const i of [...apis, bff]) console.log(i.name, i.log.join('').slice(-3000))
      await proxy.close()
    }
  })
})
