/**
 * Cache invalidation across instances (api/lib/cache-bus.ts): two API instances on one PostgreSQL
 * database, each with its own catalogue cache. A price change through A is answered by B within a
 * second; a stock change on A (an order) reaches B naming the same products, and B drops the same
 * entries only; after B's listening connection is cut, B listens again by itself, and starts from a
 * clean cache. PostgreSQL only (PGlite is one process); the payload's reading runs everywhere.
 */
import { eq } from 'drizzle-orm'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../app.ts'
import { products, type Product } from '../db/schema.ts'
import { createTestApp, type TestApp } from '../testing/app.ts'
import { createAdmin, type SignedIn } from '../testing/auth.ts'
import { SEEDED_DEFAULT_STORE, insertProduct, setStockIn } from '../testing/fixtures.ts'
import { stockKey } from '../../contract/availability.ts'
import { createCatalogCache, type CatalogChange } from './cache.ts'
import { CACHE_BUS_APPLICATION, noticePayload, readNotice, startCacheBus, type CacheBus } from './cache-bus.ts'

const serverUrl = process.env.TEST_DATABASE_URL
let a: TestApp
let b: ReturnType<typeof createApp>
let busA: CacheBus
let busB: CacheBus
let admin: SignedIn
let product: Product

const priceThroughB = async () => {
  const res = await b.app.request('/api/product/get-product-details', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ productId: product.id }),
  })
  return ((await res.json()) as { data: { sellingPrice: number } }).data.sellingPrice
}

async function until(check: () => Promise<boolean>, ms: number): Promise<number> {
  const started = Date.now()
  while (Date.now() - started < ms) {
    if (await check()) return Date.now() - started
    await new Promise((r) => setTimeout(r, 10))
  }
  throw new Error(`not within ${ms} ms`)
}

describe('a notice’s payload', () => {
  it('is the sender’s id for everything, JSON naming the products for a stock change, and reads back', () => {
    expect(noticePayload('a1', { kind: 'all' })).toBe('a1')
    const change: CatalogChange = { kind: 'stock', moved: ['p1', 'p2'], crossed: ['p2'], restocked: [] }
    expect(readNotice(noticePayload('a1', change))).toEqual({ from: 'a1', change })
    // A release before `restocked`: every crossed product counts as back in stock.
    expect(readNotice('{"from":"a1","moved":["p1","p2"],"crossed":["p2"]}')).toEqual({
      from: 'a1',
      change: { ...change, restocked: ['p2'] },
    })
    // The previous release's payload (the id alone), and anything unreadable, mean everything.
    expect(readNotice('a1')).toEqual({ from: 'a1', change: { kind: 'all' } })
    expect(readNotice('{"from":"a1","moved":[1]}')).toEqual({ from: '{"from":"a1","moved":[1]}', change: { kind: 'all' } })
  })

  it('falls back to everything when the products would not fit in one notice', () => {
    const many = Array.from({ length: 400 }, (_, i) => `${'f'.repeat(20)}${String(i).padStart(4, '0')}`)
    expect(noticePayload('a1', { kind: 'stock', moved: many, crossed: [], restocked: [] })).toBe('a1')
  })
})

describe.skipIf(!serverUrl)('catalogue cache across instances (PostgreSQL)', () => {
  beforeAll(async () => {
    a = await createTestApp()
    b = createApp({ db: a.db, jwtSecret: a.deps.jwtSecret, cache: createCatalogCache({ ttlMs: 60_000 }) })
    const { url, pool } = a.database
    busA = startCacheBus({ url: url!, pool: pool!, cache: a.deps.cache, logger: a.deps.logger })
    busB = startCacheBus({ url: url!, pool: pool!, cache: b.deps.cache, logger: a.deps.logger })
    await Promise.all([busA.ready, busB.ready])
    admin = await createAdmin(a)
    product = await insertProduct(a.db, { name: 'Cross Instance Ghee', price: 600, sellingPrice: 550, stock: 10 })
  })
  afterAll(async () => {
    await busA?.close()
    await busB?.close()
    await a?.close()
  })

  it('an admin write through A is answered by B within a second', async () => {
    expect(await priceThroughB()).toBe(550)
    const res = await a.call('product/update-product-details', {
      method: 'PUT',
      json: { _id: product.id, sellingPrice: 525 },
      token: admin.token,
    })
    expect(res.status).toBe(200)
    const ms = await until(async () => (await priceThroughB()) === 525, 1000)
    expect(ms).toBeLessThan(1000)
  })

  it('a stock change on A reaches B with the same products, and B drops only what it makes stale', async () => {
    const heardByB: CatalogChange[] = []
    b.deps.cache.onClear((change) => heardByB.push(change))
    const listingThroughB = async () => {
      const res = await b.app.request('/api/product/get', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ page: 1, limit: 10 }),
      })
      return ((await res.json()) as { data: { _id: string; stock: number }[] }).data.find((p) => p._id === product.id)!.stock
    }
    expect(await listingThroughB()).toBe(10)
    const misses = b.deps.cache.stats.misses
    await setStockIn(a.db, product.id, 7)
    a.deps.cache.stockChanged({ moved: [stockKey(SEEDED_DEFAULT_STORE, product.id)], crossed: [], restocked: [] })
    await until(async () => heardByB.length === 1, 1000)
    expect(heardByB).toEqual([{ kind: 'stock', moved: [stockKey(SEEDED_DEFAULT_STORE, product.id)], crossed: [], restocked: [] }])
    // Still in stock: B keeps its list.
    expect(await listingThroughB()).toBe(10)
    expect(b.deps.cache.stats.misses).toBe(misses)
    await setStockIn(a.db, product.id, 0)
    a.deps.cache.stockChanged({
      moved: [stockKey(SEEDED_DEFAULT_STORE, product.id)],
      crossed: [stockKey(SEEDED_DEFAULT_STORE, product.id)],
      restocked: [],
    })
    await until(async () => heardByB.length === 2, 1000)
    expect(heardByB[1]).toEqual({
      kind: 'stock',
      moved: [stockKey(SEEDED_DEFAULT_STORE, product.id)],
      crossed: [stockKey(SEEDED_DEFAULT_STORE, product.id)],
      restocked: [],
    })
    expect(await listingThroughB()).toBe(0)
  })

  it('a cut listening connection comes back by itself, starting from a clean cache', async () => {
    await priceThroughB()
    // A change B's cache cannot hear about: written straight to the table, no notice at all.
    await a.db.update(products).set({ sellingPrice: 510 }).where(eq(products.id, product.id))
    const killer = new pg.Client({ connectionString: serverUrl })
    await killer.connect()
    const database = new URL(a.database.url!).pathname.slice(1)
    await killer.query('select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1 and datname = $2', [
      CACHE_BUS_APPLICATION,
      database,
    ])
    await killer.end()
    await until(async () => !busB.isListening(), 2000)
    await until(async () => busB.isListening(), 5000)
    // Cleared on reconnect: the direct write shows without any notice.
    expect(await priceThroughB()).toBe(510)
    // And notices flow again.
    await a.call('product/update-product-details', { method: 'PUT', json: { _id: product.id, sellingPrice: 500 }, token: admin.token })
    await until(async () => (await priceThroughB()) === 500, 1000)
  })
})
