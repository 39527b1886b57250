/**
 * A flash sale: many shoppers placing the same product of one store at once
 * (docs/decisions/0043-flash-sale-and-busy-pool.md). On PostgreSQL (TEST_DATABASE_URL) the
 * placements run on separate pooled connections and really queue on the product's row lock, with
 * the order budget counted in PostgreSQL as the server counts it (api/embedded.ts); on PGlite they
 * run one at a time. Either way: as many orders as units, every other buyer a 409 with the cart's
 * `changes`, never a 5xx, and every 201 an order that exists.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRateLimits } from '../../lib/rate-limit.ts'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import type { SignedIn } from '../../testing/auth.ts'
import { insertProduct, setStockIn, stockIn } from '../../testing/fixtures.ts'
import { ORDER_BUSY } from './service.ts'
import { queryRows } from '../../db/query.ts'
import { orderIdsWithProduct, placeWithKey, shopperWithLine } from '../../testing/orders.ts'

let t: TestApp

beforeAll(async () => {
  t = await createTestApp()
  // As the server builds them: on PostgreSQL the order budget is a row in `rate_limits`.
  t.deps.rateLimits = createRateLimits({}, 1, t.database.counterPool)
})
afterAll(() => t?.close())

describe('a flash sale', () => {
  it('40 buyers of 3 units: exactly 3 orders (201) and 37 answers 409 with the cart changes, no 5xx', async () => {
    const product = await insertProduct(t.db, { name: 'Alphonso Mango Box', unit: '1 dozen', price: 1200, sellingPrice: 999, stock: 3 })
    const buyers: (SignedIn & { addressId: string })[] = []
    for (let i = 0; i < 40; i++) buyers.push(await shopperWithLine(t, product.id))

    const answers = await Promise.all(buyers.map((who, i) => placeWithKey(t, who, `flash-sale-${process.pid}-${i}`)))
    const statuses = answers.map((a) => a.status)
    const count = (status: number) => statuses.filter((s) => s === status).length
    expect({ 201: count(201), 409: count(409), other: statuses.filter((s) => s !== 201 && s !== 409) }).toEqual({
      201: 3,
      409: 37,
      other: [],
    })
    for (const loser of answers.filter((a) => a.status === 409)) {
      expect(loser.body.changes).toEqual([{ productId: product.id, name: 'Alphonso Mango Box', kind: 'stock', before: 1, after: 0 }])
    }
    // Every 201 is an order in the database, and there is no other.
    const placed = answers.filter((a) => a.status === 201).map((a) => a.body.data._id as string)
    expect(await orderIdsWithProduct(t.db, product.id)).toEqual([...placed].sort())
    expect(await stockIn(t.db, product.id)).toBe(0)
    // The losers' carts were corrected (the line removed), the winners' emptied.
    const [left] = await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from cart_lines where product_id = ${product.id}`)
    expect(left!.n).toBe(0)
  }, 120_000)
})

describe.skipIf(!process.env.TEST_DATABASE_URL)('a placement that waits too long for a product lock (PostgreSQL)', () => {
  /** Holds `productId`'s row lock from a connection of its own, as a long placement would; `end()` lets it go. */
  async function holdProductLock(productId: string) {
    const client = await t.database.pool!.connect()
    await client.query('begin')
    await client.query('select id from products where id = $1 for update', [productId])
    return {
      async end() {
        await client.query('rollback')
        client.release()
      },
    }
  }
  const place = (who: SignedIn & { addressId: string }, key: string) => placeWithKey(t, who, key)

  it('answers 409 busy with Retry-After when the product is still in stock, and orders nothing', async () => {
    const product = await insertProduct(t.db, { name: 'Kesar Pista Kulfi', unit: '4 pcs', price: 200, stock: 5 })
    const who = await shopperWithLine(t, product.id)
    const lock = await holdProductLock(product.id)
    try {
      const res = await place(who, `lock-wait-${process.pid}-1`)
      expect(res.status).toBe(409)
      expect(res.body.message).toBe(ORDER_BUSY)
      expect(res.headers.get('retry-after')).toBe('1')
    } finally {
      await lock.end()
    }
    expect(await stockIn(t.db, product.id)).toBe(5)
    // The cart is as it was: the same placement goes through once the lock is gone.
    expect((await place(who, `lock-wait-${process.pid}-2`)).status).toBe(201)
  }, 30_000)

  it('answers 409 with the cart changes when the product ran out meanwhile', async () => {
    const product = await insertProduct(t.db, { name: 'Mango Lassi', unit: '200 ml', price: 40, stock: 2 })
    const who = await shopperWithLine(t, product.id)
    const lock = await holdProductLock(product.id)
    try {
      await setStockIn(t.db, product.id, 0)
      const res = await place(who, `lock-wait-${process.pid}-3`)
      expect(res.status).toBe(409)
      expect(res.body.changes).toEqual([{ productId: product.id, name: 'Mango Lassi', kind: 'stock', before: 1, after: 0 }])
    } finally {
      await lock.end()
    }
    const [left] = await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from cart_lines where product_id = ${product.id}`)
    expect(left!.n).toBe(0)
  }, 30_000)
})
