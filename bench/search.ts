/**
 * `npm run bench:search`: search latency at catalogue sizes, on PGlite and on PostgreSQL, and the
 * store's liveness under a search attack (docs/search.md, "Performance").
 *
 * Latency: for each database and size, a fresh database gets the real catalogue (8,208 products,
 * api/db/seed/data), expanded for larger sizes with plausible variants of its own products
 * (`expandCatalog`: another brand of the same shelf, another pack or size, a name prefix); then
 * every query of the relevance set (api/modules/search/relevance-set.json: English, Hindi-English,
 * brands, typos, multi-word) is sent BENCH_RUNS times through POST /api/product/search-product of an
 * in-process API whose catalogue cache answers no search (every search reaches the database; the
 * shelves and synonyms stay cached, as in the store), as are
 * two adversarial lists: eight random words, and eight words drawn from the catalogue's own
 * vocabulary. Prints p50/p95/p99/max in milliseconds per list: wall time, and CPU time (this
 * process's, plus on PostgreSQL the server backend's from /proc/<pid>/schedstat, one pooled
 * connection), which a machine shared with other work inflates far less than wall time.
 *
 * Attack (`--attack`): starts the production server (needs `npm run build`) on a fresh PGlite folder
 * or PostgreSQL database, and while BENCH_ATTACKERS (40) clients, each from its own address, send
 * searches of eight random words for BENCH_DURATION (10) seconds, probes /healthz and /readyz every
 * 50 ms; prints their p50/p99/max.
 *
 * Every request names a dark store (`X-Store-Id`, in turn), so search and listings rank and label by
 * that store's stock: at sizes above the bundled catalogue the seven seeded stores grow to `--stores`
 * (50) with their own stock of every product (`expandStores`). Besides the searches, 60 sub category
 * listings (first page of 12) are timed as their own list.
 *
 * Options: `--db pglite,postgres` (PostgreSQL needs BENCH_DATABASE_URL or TEST_DATABASE_URL: a server
 * URL; the bench creates and drops its own database there), `--sizes 8208,100000`, `--stores 50`, `--attack`,
 * `--list-options '{"facets":true,"groupSizes":true}'` (JSON merged into every search and listing body:
 * the storefront's own body, docs/search.md, "Facets and sorting"; default none, the original client's).
 * Env: BENCH_RUNS (3), BENCH_PORT (3400), BENCH_DURATION, BENCH_ATTACKERS.
 */
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { sql } from 'drizzle-orm'
import { RateLimiterMemory } from 'rate-limiter-flexible'
import { createApp } from '../api/app.ts'
import type { Database, Db } from '../api/db/client.ts'
import { createTestDatabase } from '../api/testing/db.ts'
import { importCatalog } from '../api/db/seed/import-catalog.ts'
import { BUNDLED_CATALOG_CSV } from '../api/db/seed/ensure.ts'
import { queryRows } from '../api/db/query.ts'
import { productCategories, products, productSubCategories, stores } from '../api/db/schema.ts'
import type { CatalogCache } from '../api/lib/cache.ts'
import { newId } from '../api/lib/ids.ts'
import { logger } from '../server-shared/logger.ts'
import { createRateLimits } from '../api/lib/rate-limit.ts'
import { createDiskStorage } from '../api/lib/storage.ts'
import { bulkStockWrites, refreshStockBits } from '../api/modules/inventory/stock-bits.ts'

const root = path.resolve(import.meta.dirname, '..')
const { values: args } = parseArgs({
  options: {
    db: { type: 'string', default: 'pglite,postgres' },
    sizes: { type: 'string', default: '8208,100000' },
    // Dark stores at catalogues larger than the bundled one (the bundled one keeps the seeded seven).
    stores: { type: 'string', default: '50' },
    attack: { type: 'boolean', default: false },
    'list-options': { type: 'string', default: '{}' },
  },
})
/** Extra fields of every search and listing body (`--list-options`). */
const listOptions = JSON.parse(args['list-options']) as Record<string, unknown>
const runs = Number(process.env.BENCH_RUNS ?? 3)
const serverUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL
const REAL_QUERIES = (
  JSON.parse(fs.readFileSync(path.join(root, 'api/modules/search/relevance-set.json'), 'utf8')) as { queries: Array<{ q: string }> }
).queries.map((q) => q.q)

/** A small seeded generator (mulberry32), so every run builds the same catalogue and queries. */
function random(seed: number) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** A random word of 5 to 9 lower-case letters: never in the catalogue cache, rarely in the catalogue. */
const randomWord = (rnd: () => number) =>
  Array.from({ length: 5 + Math.floor(rnd() * 5) }, () => String.fromCharCode(97 + Math.floor(rnd() * 26))).join('')

/**
 * A fresh, migrated database: in-memory PGlite, or a new database on the PostgreSQL server (dropped
 * by `close`), made as the tests make theirs (api/testing/db.ts).
 */
async function freshDatabase(kind: 'pglite' | 'postgres'): Promise<Database> {
  // One connection: the latency run is sequential, and its backend's CPU time is read by pid.
  process.env.DATABASE_POOL_MAX = '1'
  process.env.TEST_DATABASE_URL = kind === 'postgres' ? serverUrl : ''
  return createTestDatabase()
}

const PREFIXES = ['Premium', 'Classic', 'Value', 'Family', 'Daily', 'Select', 'Fresh', 'Organic']
const BRAND_LINES = ['Select', 'Gold', 'Classic', 'Lite', 'Plus', 'Organic']

/**
 * Grows the imported catalogue to `size` products with variants of its own products, each on the
 * same category and sub category: another brand of the same shelf (or a line of the same brand), a
 * pack of 2 to 6 or another size sold on that shelf, sometimes a name prefix such as "Premium";
 * prices scaled to match, discounts 0-40 %, about 5 % out of stock. Seeded: the same every run.
 */
export async function expandCatalog(db: Db, size: number): Promise<number> {
  const base = await queryRows<{
    name: string
    brand: string
    unit: string
    price: string
    description: string
    image: string[]
    categoryId: string
    subCategoryId: string
  }>(
    db,
    sql`select p.name, coalesce(p.more_details->>'brand', '') as brand, p.unit, p.price, p.description, p.image,
          (select category_id from product_categories where product_id = p.id limit 1) as "categoryId",
          (select sub_category_id from product_sub_categories where product_id = p.id limit 1) as "subCategoryId"
        from products p order by p.created_at desc, p.id`,
  )
  const shelves = new Map<string, { brands: string[]; units: string[] }>()
  for (const p of base) {
    const shelf = shelves.get(p.subCategoryId) ?? { brands: [], units: [] }
    if (!shelf.brands.includes(p.brand)) shelf.brands.push(p.brand)
    if (!shelf.units.includes(p.unit)) shelf.units.push(p.unit)
    shelves.set(p.subCategoryId, shelf)
  }
  const rnd = random(100_000)
  const oldest = Date.now() - 24 * 3600 * 1000
  let made = 0
  const wanted = size - base.length
  while (made < wanted) {
    const batch: Array<{ row: typeof products.$inferInsert & { id: string }; categoryId: string; subCategoryId: string }> = []
    for (let i = 0; i < 1000 && made < wanted; i++, made++) {
      const p = base[made % base.length]!
      const shelf = shelves.get(p.subCategoryId)!
      const otherBrand = shelf.brands[Math.floor(rnd() * shelf.brands.length)]!
      const brand = otherBrand !== p.brand ? otherBrand : `${p.brand} ${BRAND_LINES[Math.floor(rnd() * BRAND_LINES.length)]}`
      let name = p.name
      let unit: string
      let factor = 0.6 + rnd() * 1.9
      if (rnd() < 0.4) {
        const pack = 2 + Math.floor(rnd() * 5)
        name = `${name} (Pack of ${pack})`
        unit = `${pack} x ${p.unit}`
        factor = pack * (0.9 + rnd() * 0.1)
      } else {
        unit = shelf.units[Math.floor(rnd() * shelf.units.length)]!
      }
      if (rnd() < 0.25) name = `${PREFIXES[Math.floor(rnd() * PREFIXES.length)]} ${name}`
      const price = Math.max(5, Math.round(Number(p.price) * factor * 100) / 100)
      const discount = rnd() < 0.4 ? 0 : Math.floor(rnd() * 41)
      const at = new Date(oldest - made)
      batch.push({
        row: {
          id: newId(),
          name,
          image: p.image,
          unit,
          price,
          sellingPrice: Math.round(price * (100 - discount)) / 100,
          discount,
          description: p.description,
          moreDetails: { brand },
          publish: true,
          // As the import does (api/db/seed/import-catalog.ts): the links' triggers find nothing to change.
          searchCategoryIds: [p.categoryId],
          searchSubCategoryIds: [p.subCategoryId],
          createdAt: at,
          updatedAt: at,
        },
        categoryId: p.categoryId,
        subCategoryId: p.subCategoryId,
      })
    }
    await db.transaction(async (tx) => {
      await tx.insert(products).values(batch.map((b) => b.row))
      await tx.insert(productCategories).values(batch.map((b) => ({ productId: b.row.id, categoryId: b.categoryId, position: 0 })))
      await tx.insert(productSubCategories).values(batch.map((b) => ({ productId: b.row.id, subCategoryId: b.subCategoryId, position: 0 })))
    })
  }
  return base.length + made
}

/**
 * Grows the seeded dark stores (migration 0010_dark_stores: seven) to `count`, each a copy of a
 * seeded store a few hundred metres away, then gives every store its own stock of every product that
 * has none yet, drawn by the migration's `demo_store_stock` (about 12 in 100 out of stock per store,
 * different products in each; docs/stores.md, "Stock"). On PostgreSQL 100,000 products × 50 stores is
 * 5 million inventory rows. Returns the active store ids.
 */
export async function expandStores(db: Db, count: number): Promise<string[]> {
  const seeded = await db.select().from(stores).orderBy(stores.position, stores.id)
  const extra = Math.max(0, count - seeded.length)
  for (let i = 0; i < extra; i += 50) {
    const rows = Array.from({ length: Math.min(50, extra - i) }, (_, j) => {
      const n = i + j
      const s = seeded[n % seeded.length]!
      return {
        ...s,
        id: `benchStore${String(n + 1).padStart(3, '0')}`,
        name: `${s.name} ${n + 2}`,
        lat: (s.lat ?? 0) + 0.004 * ((n % 5) + 1),
        lng: (s.lng ?? 0) - 0.004 * ((n % 3) + 1),
        position: seeded.length + n,
        createdAt: new Date(),
        updatedAt: new Date(),
      }
    })
    await db.insert(stores).values(rows)
  }
  // A base of 25 units, as the bundled catalogue's typical stock; per product in batches so a
  // PostgreSQL server's memory and a PGlite transaction stay small.
  const ids = (await queryRows<{ id: string }>(db, sql`select id from products order by id`)).map((r) => r.id)
  for (let i = 0; i < ids.length; i += 5000) {
    const batch = ids.slice(i, i + 5000)
    await db.transaction(async (tx) => {
      await bulkStockWrites(tx)
      await tx.execute(sql`insert into inventory (store_id, product_id, stock)
        select s.id, p.id, demo_store_stock(25, s.id, coalesce(p.sku, p.id))
        from products p cross join stores s
        where p.id >= ${batch[0]!} and p.id <= ${batch.at(-1)!}
        on conflict do nothing`)
    })
  }
  // Written with the bit triggers off (api/modules/inventory/stock-bits.ts): every store's at once.
  await refreshStockBits(db)
  return (await queryRows<{ id: string }>(db, sql`select id from stores where active order by position, id`)).map((r) => r.id)
}

/**
 * A cache that never answers a search or a list (every search reaches the database) but keeps the
 * search's reference data (the shelves and synonyms, `search:` keys), as the store's cache keeps
 * them between catalogue writes (api/modules/search/shelves.ts, synonyms.ts).
 */
function answerlessCache(): CatalogCache {
  const kept = new Map<string, Promise<unknown>>()
  return {
    get<T>(key: string, compute: () => Promise<T>): Promise<T> {
      if (!key.startsWith('search:')) return compute()
      if (!kept.has(key)) kept.set(key, compute())
      return kept.get(key) as Promise<T>
    },
    invalidate: () => kept.clear(),
    clearLocal: () => kept.clear(),
    // Stock changes leave the search's reference data alone.
    stockChanged() {},
    applyLocal: (change) => {
      if (change.kind === 'all') kept.clear()
    },
    onInvalidate() {},
    onClear() {},
    stats: { hits: 0, misses: 0 },
  }
}

/** p50/p95/p99/max of `times` (ms). */
function percentiles(times: number[]) {
  const sorted = [...times].sort((a, b) => a - b)
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0
  return { n: sorted.length, p50: at(0.5), p95: at(0.95), p99: at(0.99), max: sorted.at(-1) ?? 0 }
}

interface LatencyRow {
  db: string
  size: number
  list: string
  n: number
  p50: number
  p95: number
  p99: number
  max: number
  /** CPU time per search, ms (see the module comment). */
  cpu: { p50: number; p95: number; p99: number; max: number }
  slowest: string
  /** Answers other than 200, by status. */
  failed: string
}

async function latency(kind: 'pglite' | 'postgres', size: number): Promise<LatencyRow[]> {
  const database = await freshDatabase(kind)
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'grocery-bench-search-'))
  try {
    const started = performance.now()
    const storage = createDiskStorage(path.join(tmp, 'uploads'))
    await importCatalog({ db: database.db, storage, csvPath: BUNDLED_CATALOG_CSV, logger })
    const total = size > 8208 ? await expandCatalog(database.db, size) : 8208
    const storeIds = await expandStores(database.db, size > 8208 ? Number(args.stores) : 0)
    await database.db.execute(sql`analyze`)
    console.log(`${kind}: ${total} products × ${storeIds.length} stores ready in ${((performance.now() - started) / 1000).toFixed(0)} s`)
    // Each request is for one dark store, in turn (the X-Store-Id header the BFF sends; docs/stores.md).
    let nextStore = 0
    const storeHeader = () => ({ 'X-Store-Id': storeIds[nextStore++ % storeIds.length]! })
    const rateLimits = { ...createRateLimits(), searchByIp: new RateLimiterMemory({ points: 1e9, duration: 1 }) }
    const { app } = createApp({
      db: database.db,
      jwtSecret: randomBytes(32).toString('hex'),
      storage,
      cache: answerlessCache(),
      rateLimits,
    })
    // The server backend's CPU time in ms (PostgreSQL on this machine), or 0 for PGlite.
    let backendPid = 0
    const backendCpuMs = () => {
      if (!backendPid) return 0
      try {
        return Number(fs.readFileSync(`/proc/${backendPid}/schedstat`, 'utf8').split(' ')[0]) / 1e6
      } catch {
        return 0
      }
    }
    let lastCpuMs = 0
    // A query is a search, or `listing:<categoryId>:<subCategoryId>` for a sub category's first page.
    const search = async (q: string) => {
      const cpu0 = process.cpuUsage()
      const backend0 = backendCpuMs()
      const t0 = performance.now()
      const [kindOf, categoryId, subCategoryId] = q.split(':')
      const res =
        kindOf === 'listing'
          ? await app.request('/api/product/get-product-by-category-and-subcategory', {
              method: 'POST',
              headers: { 'Content-Type': 'application/json', ...storeHeader() },
              body: JSON.stringify({ categoryId, subCategoryId, page: 1, limit: 12, ...listOptions }),
            })
          : await app.request('/api/product/search-product', {
              method: 'POST',
              headers: { 'Content-Type': 'application/json', ...storeHeader() },
              body: JSON.stringify({ search: q, page: 1, limit: 12, ...listOptions }),
            })
      await res.arrayBuffer()
      // A refused search (503 past the statement timeout) is counted, with the time it took.
      if (res.status !== 200) failures.set(res.status, (failures.get(res.status) ?? 0) + 1)
      const wall = performance.now() - t0
      const cpu = process.cpuUsage(cpu0)
      lastCpuMs = (cpu.user + cpu.system) / 1000 + (backendCpuMs() - backend0)
      return wall
    }
    const failures = new Map<number, number>()
    const rnd = random(7)
    const vocabulary = (
      await queryRows<{ word: string }>(
        database.db,
        sql`select distinct w as word from products p, unnest(tsvector_to_array(to_tsvector('simple', p.name))) w
            where w ~ '^[a-z]{4,}$' order by 1`,
      )
    ).map((r) => r.word)
    // 60 sub category listings spread over the catalogue's shelves.
    const shelves = await queryRows<{ categoryId: string; subCategoryId: string }>(
      database.db,
      sql`select min(pc.category_id) as "categoryId", psc.sub_category_id as "subCategoryId"
          from product_sub_categories psc join product_categories pc using (product_id)
          group by psc.sub_category_id order by md5(psc.sub_category_id) limit 60`,
    )
    const lists: Array<[string, string[]]> = [
      [`real queries (${REAL_QUERIES.length})`, REAL_QUERIES],
      [`listings (${shelves.length})`, shelves.map((s) => `listing:${s.categoryId}:${s.subCategoryId}`)],
      ['8 random words (40)', Array.from({ length: 40 }, () => Array.from({ length: 8 }, () => randomWord(rnd)).join(' '))],
      [
        '8 catalogue words (40)',
        Array.from({ length: 40 }, () => Array.from({ length: 8 }, () => vocabulary[Math.floor(rnd() * vocabulary.length)]).join(' ')),
      ],
    ]
    for (const q of REAL_QUERIES.slice(0, 10)) await search(q) // warm-up
    if (kind === 'postgres') {
      backendPid = (await queryRows<{ pid: number }>(database.db, sql`select pg_backend_pid() as pid`))[0]!.pid
    }
    const rows: LatencyRow[] = []
    for (const [list, queries] of lists) {
      failures.clear()
      const times: number[] = []
      const cpuTimes: number[] = []
      let slowest = { q: '', ms: 0 }
      for (let r = 0; r < runs; r++) {
        for (const q of queries) {
          const ms = await search(q)
          times.push(ms)
          cpuTimes.push(lastCpuMs)
          if (ms > slowest.ms) slowest = { q, ms }
        }
      }
      const cpu = percentiles(cpuTimes)
      rows.push({
        db: kind,
        size: total,
        list,
        ...percentiles(times),
        cpu: { p50: cpu.p50, p95: cpu.p95, p99: cpu.p99, max: cpu.max },
        slowest: slowest.q,
        failed: JSON.stringify(Object.fromEntries(failures)),
      })
      printRows(rows.slice(-1))
    }
    return rows
  } finally {
    await database.close()
    fs.rmSync(tmp, { recursive: true, force: true })
  }
}

/** See the module comment ("Attack"). */
async function attack(kind: 'pglite' | 'postgres') {
  if (!fs.existsSync(path.join(root, 'build/server/index.js'))) throw new Error('No build found: run `npm run build` first.')
  const port = Number(process.env.BENCH_PORT ?? 3400)
  const duration = Number(process.env.BENCH_DURATION ?? 10)
  const attackers = Number(process.env.BENCH_ATTACKERS ?? 40)
  const base = `http://127.0.0.1:${port}`
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'grocery-bench-attack-'))
  const database = kind === 'postgres' ? await freshDatabase('postgres') : undefined
  const server = spawn(process.execPath, ['--import', 'tsx', 'server.ts'], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ADMIN_PASSWORD: 'bench-only-admin-password',
      // The attackers play many clients through X-Forwarded-For.
      TRUST_PROXY: '1',
      // The server's own pool, not the latency run's single connection.
      DATABASE_POOL_MAX: '10',
      ...(database ? { DATABASE_URL: database.url } : {}),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  try {
    const started = Date.now()
    for (;;) {
      if (Date.now() - started > 240_000) throw new Error('server did not become healthy')
      const ok = await fetch(`${base}/readyz`).then(
        (r) => r.ok,
        () => false,
      )
      if (ok) break
      await new Promise((r) => setTimeout(r, 250))
    }
    // The first search after start-up warms the search's caches (shelves, synonyms).
    await fetch(`${base}/api/product/search-product`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"search":"milk"}',
    })
    const rnd = random(11)
    const until = Date.now() + duration * 1000
    const statuses = new Map<number, number>()
    const attack = Array.from({ length: attackers }, async (_, i) => {
      while (Date.now() < until) {
        const res = await fetch(`${base}/api/product/search-product`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': `198.18.${i >> 8}.${i & 255}` },
          body: JSON.stringify({ search: Array.from({ length: 8 }, () => randomWord(rnd)).join(' ') }),
        }).catch(() => null)
        statuses.set(res?.status ?? 0, (statuses.get(res?.status ?? 0) ?? 0) + 1)
        await res?.arrayBuffer()
      }
    })
    const probes: Record<'/healthz' | '/readyz', number[]> = { '/healthz': [], '/readyz': [] }
    while (Date.now() < until) {
      for (const probe of ['/healthz', '/readyz'] as const) {
        const t0 = performance.now()
        await (await fetch(`${base}${probe}`)).arrayBuffer()
        probes[probe].push(performance.now() - t0)
      }
      await new Promise((r) => setTimeout(r, 50))
    }
    await Promise.all(attack)
    console.log(`\nsearch attack on ${kind}: ${attackers} clients, 8 random words each, ${duration} s`)
    for (const [probe, times] of Object.entries(probes)) {
      const p = percentiles(times)
      console.log(`- ${probe} (${p.n} probes): p50 ${p.p50.toFixed(0)} ms, p99 ${p.p99.toFixed(0)} ms, max ${p.max.toFixed(0)} ms`)
    }
    console.log(`- attack answers by status: ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`)
  } finally {
    server.kill('SIGTERM')
    await new Promise((r) => server.once('exit', r))
    await database?.close()
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

/** Prints latency rows as markdown table rows. */
function printRows(rows: LatencyRow[]) {
  const f = (x: number) => x.toFixed(1)
  for (const r of rows) {
    console.log(
      `| ${r.db} | ${r.size} | ${r.list} | ${r.n} | ${f(r.p50)} | ${f(r.p95)} | ${f(r.p99)} | ${f(r.max)} | ${f(r.cpu.p50)} / ${f(r.cpu.p95)} / ${f(r.cpu.p99)} / ${f(r.cpu.max)} | ${r.failed} | ${r.slowest.slice(0, 40)} |`,
    )
  }
}

const kinds = (args.db ?? '').split(',').filter((k): k is 'pglite' | 'postgres' => k === 'pglite' || k === 'postgres')
if (kinds.includes('postgres') && !serverUrl) {
  console.error('PostgreSQL skipped: set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to a server URL')
  kinds.splice(kinds.indexOf('postgres'), 1)
}
if (args.attack) {
  for (const kind of kinds) await attack(kind)
} else {
  const rows: LatencyRow[] = []
  for (const kind of kinds) {
    for (const size of (args.sizes ?? '').split(',').map(Number)) rows.push(...(await latency(kind, size)))
  }
  console.log(`\nsearch latency, ${runs} runs of each query, ${os.cpus().length} cores, Node ${process.version}\n`)
  console.log('| database | products | queries | n | p50 ms | p95 ms | p99 ms | max ms | CPU p50/p95/p99/max ms | not 200 | slowest |')
  console.log('|---|---:|---|---:|---:|---:|---:|---:|---|---|---|')
  printRows(rows)
}
