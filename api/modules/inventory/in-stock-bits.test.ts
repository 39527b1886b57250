/**
 * The in-stock bits on the product row (migration 0019_store_stock_bits; docs/stores.md,
 * "Availability on the product row"): after any mix of stock writes (set, take, return, delete, a
 * new store) every product's bit for every store says exactly whether that store's stock is above
 * 0, and the reads that order by it (a listing) agree with the inventory. On PGlite, and on
 * PostgreSQL with TEST_DATABASE_URL.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryRows } from '../../db/query.ts'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { insertCategory, insertProducts, SEEDED_DEFAULT_STORE } from '../../testing/fixtures.ts'
import { CreateStoreSchema } from '../../../contract/location.ts'
import { createStore } from '../store/service.ts'
import { setStock, takeStock } from './service.ts'

let t: TestApp
let ids: string[]
let categoryId: string

/** Pairs whose bit disagrees with the inventory (a missing row is stock 0). */
async function disagreements() {
  return queryRows<{ storeId: string; productId: string; stock: number; bit: boolean }>(
    t.db,
    sql`select s.id as "storeId", p.id as "productId", coalesce(i.stock, 0)::int as stock,
          store_in_stock(p.in_stock_slots, s.slot) as bit
        from products p cross join stores s
        left join inventory i on i.store_id = s.id and i.product_id = p.id
        where store_in_stock(p.in_stock_slots, s.slot) <> (coalesce(i.stock, 0) > 0)`,
  )
}

beforeAll(async () => {
  t = await createTestApp()
  const category = await insertCategory(t.db, { name: 'Bits' })
  categoryId = category.id
  const rows = await insertProducts(
    t.db,
    Array.from({ length: 6 }, (_, i) => ({
      name: `Bit product ${i}`,
      categoryIds: [category.id],
      stock: i % 2 === 0 ? 5 : 0,
      storeStock: { storeBlrKoramangala: i < 3 ? 1 : 0 },
    })),
  )
  ids = rows.map((r) => r.id)
})
afterAll(() => t?.close())

describe('in-stock bits', () => {
  it('match the inventory after the first insert (every seeded store)', async () => {
    expect(await disagreements()).toEqual([])
  })

  it('follow each write that crosses 0, and only those', async () => {
    const [a, b] = ids
    // Take the last unit in Koramangala: out there, still in at Indiranagar.
    expect(await t.db.transaction((tx) => takeStock(tx, 'storeBlrKoramangala', a!, 1))).toBe(0)
    expect(await disagreements()).toEqual([])
    // Set from 0 to 3 (an upsert on an existing row), and a row that did not exist (HSR Layout).
    await setStock(t.db, SEEDED_DEFAULT_STORE, b!, 3)
    await setStock(t.db, 'storeBlrHsrLayout', b!, 2)
    expect(await disagreements()).toEqual([])
    // A row deleted is stock 0.
    await t.db.execute(sql`delete from inventory where store_id = ${SEEDED_DEFAULT_STORE} and product_id = ${b!}`)
    expect(await disagreements()).toEqual([])
  })

  it('gives a new store the next slot, with nothing in stock until its stock is set', async () => {
    const store = await createStore(
      t.deps,
      CreateStoreSchema.parse({
        name: 'Domlur',
        area: 'Domlur',
        city: 'Bengaluru',
        addressLine: '1, Domlur Layout',
        pincode: '560071',
        radiusKm: 3,
        opensAt: '06:00',
        closesAt: '24:00',
        pickers: 4,
        active: true,
      }),
    )
    const [{ slot, max }] = await queryRows<{ slot: number; max: number }>(
      t.db,
      sql`select slot, (select max(slot) from stores where id <> ${store._id}) as max from stores where id = ${store._id}`,
    )
    expect(slot).toBeGreaterThan(max)
    expect(await disagreements()).toEqual([])
    await setStock(t.db, store._id, ids[5]!, 4)
    expect(await disagreements()).toEqual([])
  })

  it('keep a listing "in stock in this store first" as the inventory says, after random writes', async () => {
    const stores = ['storeBlrIndiranagar', 'storeBlrKoramangala', 'storeDelHauzKhas']
    let seed = 7
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31)
    for (let i = 0; i < 60; i++) {
      const store = stores[next() % stores.length]!
      const product = ids[next() % ids.length]!
      await setStock(t.db, store, product, next() % 3)
    }
    expect(await disagreements()).toEqual([])
    for (const store of stores) {
      const res = await t.call('product/get-product-by-category-and-subcategory', {
        json: { categoryId, page: 1, limit: 20 },
        headers: { 'X-Store-Id': store },
      })
      const stocks = (res.body.data as Array<{ stock: number }>).map((p) => p.stock > 0)
      // Every in-stock product before every out-of-stock one.
      expect(stocks).toEqual([...stocks].sort((x, y) => Number(y) - Number(x)))
    }
  })
})
