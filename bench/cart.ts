/**
 * The add-to-cart POST's cost, with the BFF and the API apart (`npm run bench`, or alone with
 * `BENCH_ONLY=cart`): two production processes of server.ts, the API on `port + 1` (its own
 * database; an API host alone, `API_ONLY=1`, unless `BENCH_API_ONLY=0`) and the BFF on `port` with
 * `API_URL` pointing at it (docs/scale-out.md, "API and BFF apart"), so each one's CPU time is its
 * own: read from /proc before and after each target (bench/measure.ts `cpuMs`) and divided by the requests answered. On PostgreSQL the database's
 * backends serving this bench's database (`pg_stat_activity`) are read the same way.
 *
 * Targets, one after the other, 32 connections each (BENCH_CONNECTIONS, BENCH_DURATION):
 * - a static file of the home page's size from the BFF (the baseline of the ratios);
 * - the add-to-cart POST a shopper without JavaScript makes: `POST /cart` with `intent=add`,
 *   answered with a 302 and a flash toast (app/routes/cart.tsx); each connection with its own guest
 *   cart, alternating the add and a set-back to 1 so the line never hits its cap;
 * - the API's cart write alone, as the BFF calls it: `POST /api/cart/create` and
 *   `PUT /api/cart/update-qty` with `X-Guest-Cart` and `Prefer: return=minimal`
 *   (app/.server/api/cart.ts).
 *
 * Databases: PostgreSQL when `BENCH_DATABASE_URL` or `TEST_DATABASE_URL` names a server (a database
 * made for the run and dropped after), then PGlite (a fresh DATA_DIR). Each imports the bundled
 * catalogue at start; `BENCH_CART_PGLITE=0` leaves PGlite out when a server is named. `BENCH_CPU_PROF=<dir>` runs both processes under `node --cpu-prof` and prints
 * the top self-time frames of each over the add-to-cart POST's window (bench/cpu-profile.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import autocannon from 'autocannon'
import { onServer, urlOfDatabase } from '../api/testing/pglite-template.ts'
import { newId } from '../api/lib/ids.ts'
import { cpuMs, FORM, guestCart, measure, type MeasureOptions, type Row } from './measure.ts'
import { selfTimeTable, topSelfTime } from './cpu-profile.ts'

const root = path.resolve(import.meta.dirname, '..')

/** The settings of a run: the BFF's port (the API's is the next), seconds per target, connections. */
export interface CartBenchOptions {
  port: number
  seconds: number
  connections: number
}

/** A server.ts process of the bench: its pid, base URL, and a stop that waits for its exit (and its CPU profile). */
interface Proc {
  pid: number
  url: string
  stop(): Promise<void>
}

/** Starts server.ts in production mode on `port`; `profileDir` runs it under `node --cpu-prof`. */
function startServer(port: number, env: Record<string, string>, profileDir: string | null): Proc {
  const args = [...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []), '--import', 'tsx', 'server.ts']
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()))
  return {
    pid: child.pid!,
    url: `http://127.0.0.1:${port}`,
    async stop() {
      // SIGTERM: server.ts drains and exits with process.exit, which writes the CPU profile.
      child.kill('SIGTERM')
      await Promise.race([exited, new Promise((r) => setTimeout(r, 30_000))])
      child.kill('SIGKILL')
    },
  }
}

/** Waits until `${url}/readyz` answers 200 (migrations, the catalogue import and the warm-up done). */
async function waitReady(url: string, timeoutMs = 300_000): Promise<void> {
  const started = Date.now()
  while (Date.now() - started < timeoutMs) {
    try {
      const res = await fetch(`${url}/readyz`)
      await res.arrayBuffer()
      if (res.ok) return
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250))
  }
  throw new Error(`bench: ${url} not ready within ${timeoutMs} ms`)
}

/** The pids of the PostgreSQL backends connected to `database` (the API's pool and its LISTEN connection). */
async function backendPids(serverUrl: string, database: string): Promise<number[]> {
  const client = new pg.Client({ connectionString: serverUrl })
  await client.connect()
  try {
    const { rows } = await client.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [database],
    )
    return rows.map((r) => r.pid)
  } finally {
    await client.end()
  }
}

/** A row with the CPU time per request of each process, and the monotonic window of the measurement (µs). */
interface CpuRow extends Row {
  bffMs: number
  apiMs: number
  dbMs: number | null
  window: { fromUs: number; toUs: number }
}

const nowUs = () => Number(process.hrtime.bigint() / 1000n)

/**
 * Measures the cart targets on one database: `databaseUrl` (PostgreSQL, `serverUrl` its server) or
 * PGlite when null. Answers the rows, and prints each process's profile summary with `profileDir`.
 */
async function onDatabase(
  label: string,
  opts: CartBenchOptions,
  db: { serverUrl: string; name: string } | null,
  profileDir: string | null,
): Promise<CpuRow[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'grocery-bench-cart-'))
  const shared = {
    JWT_SECRET: 'bench-cart-jwt-secret-0123456789abcdef',
    SESSION_SECRET: 'bench-cart-session-secret-0123456789ab',
    API_INTERNAL_TOKEN: 'bench-cart-internal-token-0123456789ab',
    INSECURE_COOKIES: '1',
    // Every connection hammers its own cart from one address: lift the per-cart and per-address budgets.
    RATE_LIMIT_IP_MULTIPLIER: '1000',
    ADMIN_PASSWORD: 'bench-only-admin-password',
  }
  const profileOf = (who: string) => (profileDir ? path.join(profileDir, `${label}-${who}`) : null)
  // The API host as docs/scale-out.md, "API and BFF apart" deploys it: API_ONLY, no pages (BENCH_API_ONLY=0 serves both, as before).
  const apiOnly: Record<string, string> = process.env.BENCH_API_ONLY === '0' ? {} : { API_ONLY: '1' }
  const api = startServer(
    opts.port + 1,
    {
      ...shared,
      ...apiOnly,
      DATA_DIR: path.join(dataDir, 'api'),
      ...(db ? { DATABASE_URL: urlOfDatabase(db.serverUrl, db.name) } : {}),
    },
    profileOf('api'),
  )
  const bff = startServer(opts.port, { ...shared, DATA_DIR: path.join(dataDir, 'bff'), API_URL: api.url }, profileOf('bff'))
  const baselineFile = path.join(root, 'build/client/bench-cart-baseline.html')
  try {
    await waitReady(api.url)
    await waitReady(bff.url)
    const homeBytes = Buffer.byteLength(await (await fetch(`${bff.url}/`)).text())
    fs.writeFileSync(baselineFile, 'x'.repeat(homeBytes))

    const productRes = await fetch(`${api.url}/api/product/get`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ page: 1, limit: 1 }),
    })
    const productId = ((await productRes.json()) as { data: Array<{ _id: string }> }).data[0]!._id
    // One guest cart per connection, so the adds of one never meet another's per-line cap.
    const formCarts = await fewAtATime(opts.connections, () => guestCart(bff.url, [productId]))
    const apiCarts = await fewAtATime(opts.connections, () => apiGuestCart(api.url, productId))
    let nextForm = 0
    let nextApi = 0
    const targets: Array<[string, MeasureOptions]> = [
      ['static file (baseline, BFF)', { url: `${bff.url}/bench-cart-baseline.html` }],
      [
        'add-to-cart POST (form, no JavaScript)',
        {
          url: `${bff.url}/cart`,
          setupClient(client) {
            const cart = formCarts[nextForm++ % formCarts.length]!
            const headers = { ...FORM, cookie: cart.cookie }
            client.setRequests([
              { method: 'POST', headers, body: `intent=add&productId=${productId}&redirectTo=%2F` },
              { method: 'POST', headers, body: `intent=set&lineId=${cart.lineId}&qty=1&redirectTo=%2F` },
            ])
          },
        },
      ],
      [
        'API cart write alone',
        {
          url: `${api.url}/api/cart/create`,
          setupClient(client) {
            const cart = apiCarts[nextApi++ % apiCarts.length]!
            const headers = {
              'content-type': 'application/json',
              accept: 'application/json',
              'x-guest-cart': cart.guestCartId,
              prefer: 'return=minimal',
              'x-client-ip': '127.0.0.1',
              'x-internal-token': shared.API_INTERNAL_TOKEN,
            }
            client.setRequests([
              { method: 'POST', path: '/api/cart/create', headers, body: JSON.stringify({ productId }) },
              { method: 'PUT', path: '/api/cart/update-qty', headers, body: JSON.stringify({ _id: cart.lineId, qty: 1 }) },
            ])
          },
        },
      ],
    ]
    const rows: CpuRow[] = []
    for (const [name, target] of targets) {
      // A short warm-up so JIT and caches are in the same state for every target.
      await autocannon({ ...target, connections: 4, duration: 1 })
      const pgBefore = new Map((db ? await backendPids(db.serverUrl, db.name) : []).map((pid) => [pid, cpuMs(pid) ?? 0]))
      const before = { bff: cpuMs(bff.pid) ?? 0, api: cpuMs(api.pid) ?? 0 }
      const fromUs = nowUs()
      const row = await measure(`${name}, ${label}`, target, { seconds: opts.seconds, connections: opts.connections, redirectsOk: true })
      const toUs = nowUs()
      // The backends serving the database now, each from its reading before (0 for one opened during
      // the run). A backend that ended during the run is left out: this is a floor.
      const pgAfter = db ? await backendPids(db.serverUrl, db.name) : []
      const dbCpu = pgAfter.reduce((sum, pid) => sum + (cpuMs(pid) ?? 0) - (pgBefore.get(pid) ?? 0), 0)
      const perRequest = (ms: number) => ms / Math.max(1, row.requests)
      rows.push({
        ...row,
        bffMs: perRequest((cpuMs(bff.pid) ?? 0) - before.bff),
        apiMs: perRequest((cpuMs(api.pid) ?? 0) - before.api),
        dbMs: db ? perRequest(dbCpu) : null,
        window: { fromUs, toUs },
      })
    }
    return rows
  } finally {
    await bff.stop()
    await api.stop()
    fs.rmSync(baselineFile, { force: true })
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

/**
 * `n` results of `make`, four at a time, each tried twice: on a loaded machine 32 first adds at once
 * can outlast the BFF's `API_TIMEOUT_MS` on PGlite.
 */
async function fewAtATime<T>(n: number, make: () => Promise<T>): Promise<T[]> {
  const made: T[] = []
  while (made.length < n) {
    const batch = Array.from({ length: Math.min(4, n - made.length) }, () => make().catch(() => make()))
    made.push(...(await Promise.all(batch)))
  }
  return made
}

/** A guest cart made at the API, as the BFF makes one, with one line of `productId`: its id and the line's id. */
async function apiGuestCart(apiUrl: string, productId: string): Promise<{ guestCartId: string; lineId: string }> {
  const started = await fetch(`${apiUrl}/api/cart/guest`, { method: 'POST' })
  const { guestCartId } = ((await started.json()) as { data: { guestCartId: string } }).data
  const headers = { 'content-type': 'application/json', 'x-guest-cart': guestCartId }
  const added = await fetch(`${apiUrl}/api/cart/create`, { method: 'POST', headers, body: JSON.stringify({ productId }) })
  if (!added.ok) throw new Error(`bench: the API's add answered ${added.status}`)
  await added.arrayBuffer()
  const cart = (await (await fetch(`${apiUrl}/api/cart/get`, { headers })).json()) as { data: Array<{ _id: string }> }
  return { guestCartId, lineId: cart.data[0]!._id }
}

/**
 * The main thread's `.cpuprofile` in `dir`, or null: Node names them
 * `CPU.<date>.<time>.<pid>.<thread id>.<sequence>.cpuprofile` (Node docs, "--cpu-prof-name"), the
 * main thread 0 (tsx's module loader has a thread of its own).
 */
function profileIn(dir: string): string | null {
  if (!fs.existsSync(dir)) return null
  const files = fs.readdirSync(dir).filter((f) => /\.\d+\.0\.\d+\.cpuprofile$/.test(f))
  return files.length ? path.join(dir, files.sort().at(-1)!) : null
}

/** Runs the cart measurement on PostgreSQL (when a server is named) and PGlite, and prints the table. */
export async function benchCart(opts: CartBenchOptions): Promise<void> {
  const serverUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || null
  const profileDir = process.env.BENCH_CPU_PROF ? path.resolve(process.env.BENCH_CPU_PROF) : null
  const rows: Array<{ label: string; rows: CpuRow[] }> = []
  if (serverUrl) {
    const name = `bench_cart_${newId()}`
    await onServer(serverUrl, `CREATE DATABASE ${name}`)
    try {
      rows.push({ label: 'PostgreSQL', rows: await onDatabase('PostgreSQL', opts, { serverUrl, name }, profileDir) })
      printTable(opts, rows)
    } finally {
      await onServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    }
  }
  // BENCH_CART_PGLITE=0 measures PostgreSQL alone (comparing changes to the server's figures, run after run).
  if (!serverUrl || process.env.BENCH_CART_PGLITE !== '0') {
    rows.push({ label: 'PGlite', rows: await onDatabase('PGlite', opts, null, profileDir) })
    printTable(opts, rows)
  }
  if (profileDir) printProfiles(profileDir, rows)
}

/** The table of the rows measured so far, with the conditions (the machine's load average). */
function printTable(opts: CartBenchOptions, rows: Array<{ label: string; rows: CpuRow[] }>): void {
  const [load1, load5] = os.loadavg()
  console.log(
    `\nAdd-to-cart, BFF and API apart: autocannon ${opts.connections} connections, ${opts.seconds} s per target, ${os.cpus().length} cores, Node ${process.version}, load average ${load1!.toFixed(1)} / ${load5!.toFixed(1)} (1 / 5 min)\n`,
  )
  console.log(
    '| target | req/s | p50 ms | p90 ms | p99 ms | vs static | BFF CPU ms/req | API CPU ms/req | PostgreSQL CPU ms/req | CPU ms/req in all | errors |',
  )
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|')
  for (const { rows: measured } of rows) {
    const baseline = measured[0]!.rps
    for (const r of measured) {
      const all = r.bffMs + r.apiMs + (r.dbMs ?? 0)
      console.log(
        `| ${r.name} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p90} | ${r.p99} | ${(r.rps / baseline).toFixed(2)} | ${r.bffMs.toFixed(2)} | ${r.apiMs.toFixed(2)} | ${r.dbMs === null ? '–' : r.dbMs.toFixed(2)} | ${all.toFixed(2)} | ${r.errors} |`,
      )
      if (r.statuses && r.errors) console.log(`  answers by status: ${JSON.stringify(r.statuses)}`)
    }
  }
}

/**
 * Each process's top self-time frames over the add-to-cart POST's window, and the API's over the API
 * cart write's alone; each window in µs of the monotonic clock, for `bench/cpu-profile.ts <file> fromUs toUs`.
 */
function printProfiles(profileDir: string, rows: Array<{ label: string; rows: CpuRow[] }>): void {
  for (const { label, rows: measured } of rows) {
    const [, post, write] = measured
    const windows: Array<[string, string, CpuRow | undefined]> = [
      ['bff', 'the add-to-cart POST', post],
      ['api', 'the add-to-cart POST', post],
      ['api', 'the API cart write alone', write],
    ]
    for (const [who, target, row] of windows) {
      const file = profileIn(path.join(profileDir, `${label}-${who}`))
      if (!file || !row) continue
      const { fromUs, toUs } = row.window
      console.log(`\nCPU profile, ${label}, ${who.toUpperCase()} process, over ${target} (${file} ${fromUs} ${toUs}):\n`)
      console.log(selfTimeTable(topSelfTime(file, row.window, 20)).join('\n'))
    }
  }
}
