/**
 * Cache invalidation across instances (api/lib/cache-bus.ts): two API instances on one PostgreSQL
 * database, each with its own catalogue cache. A price change through A is answered by B within a
 * second; after B's listening connection is cut, B listens again by itself, and starts from a clean
 * cache. PostgreSQL only (PGlite is one process).
 */
import { eq } from 'drizzle-orm'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../app.ts'
import { products, type Product } from '../db/schema.ts'
import { createTestApp, type TestApp } from '../testing/app.ts'
import { createAdmin, type SignedIn } from '../testing/auth.ts'
import { insertProduct } from '../testing/fixtures.ts'
import { createCatalogCache } from './cache.ts'
import { CACHE_BUS_APPLICATION, startCacheBus, type CacheBus } from './cache-bus.ts'

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

describe.skipIf(!serverUrl)('catalogue cache across instances (PostgreSQL)', () => {
  beforeAll(async () => {
    a = await createTestApp()
    b = createApp({ db: a.db, cache: createCatalogCache({ ttlMs: 60_000 }) })
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
