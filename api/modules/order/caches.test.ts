/**
 * Orders and the caches (docs/decisions/0019-stock-changes-and-the-caches.md), on PGlite and on
 * PostgreSQL with TEST_DATABASE_URL: an order that leaves a product in stock clears nothing whole
 * and keeps the lists that show it (only the product's own details answer is refreshed); an order
 * that takes the last unit names that product, and the lists showing it answer "0" at once; a
 * cancellation that brings a product back from 0 names it too, one that does not cross 0 does not;
 * an admin's edit still clears everything.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Category, Product } from '../../db/schema.ts'
import type { CatalogChange } from '../../lib/cache.ts'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { createAdmin, createShopper, type SignedIn } from '../../testing/auth.ts'
import { SEEDED_DEFAULT_STORE, insertCategory, insertProduct, stockIn } from '../../testing/fixtures.ts'
import { stockKey } from '../../../contract/availability.ts'

let t: TestApp
let admin: SignedIn
let shelf: Category
const heard: CatalogChange[] = []

beforeAll(async () => {
  // Noon in India: every seeded store is open (Koramangala opens at 06:00).
  t = await createTestApp({ clock: () => new Date('2026-11-26T06:30:00Z') })
  admin = await createAdmin(t)
  shelf = await insertCategory(t.db, { name: 'Dry Fruits' })
  t.deps.cache.onClear((change) => heard.push(change))
})
afterAll(() => t?.close())

const address = { address_line: '4, CMH Road', city: 'Bengaluru', state: 'Karnataka', pincode: '560038', mobile: '9830012345' }
let keySeq = 0

async function shopperWithAddress(): Promise<SignedIn & { addressId: string }> {
  const who = await createShopper(t)
  const res = await t.call('address/create', { method: 'POST', json: address, token: who.token })
  return { ...who, addressId: res.body.data._id }
}
async function buy(who: SignedIn & { addressId: string }, product: Product, quantity: number) {
  for (let i = 0; i < quantity; i++)
    expect((await t.call('cart/create', { method: 'POST', json: { productId: product.id }, token: who.token })).status).toBe(200)
  const res = await t.call('order/cash-on-delivery', {
    method: 'POST',
    json: { addressId: who.addressId },
    token: who.token,
    headers: { 'Idempotency-Key': `cache-key-${process.pid}-${++keySeq}` },
  })
  expect(res.status).toBe(201)
  return res.body.data as { _id: string }
}
/** The shelf's listing as the API answers it: each product's stock by id. */
async function listedStock(): Promise<Record<string, number>> {
  const res = await t.call('product/get-product-by-category-and-subcategory', {
    method: 'POST',
    json: { categoryId: shelf.id, page: 1, limit: 20 },
  })
  expect(res.status).toBe(200)
  return Object.fromEntries((res.body.data as { _id: string; stock: number }[]).map((p) => [p._id, p.stock]))
}
const detailsStock = async (p: Product) =>
  (await t.call('product/get-product-details', { method: 'POST', json: { productId: p.id } })).body.data.stock as number
/** Fixtures are written straight to the tables, past the writes that clear the cache. */
const fixturesWritten = () => t.deps.cache.invalidate()
const stockOf = (p: Product) => stockIn(t.db, p.id)
/** How a stock change names a product of the default store (docs/stores.md, "Stock"). */
const key = (p: Product) => stockKey(SEEDED_DEFAULT_STORE, p.id)
const KORAMANGALA = 'storeBlrKoramangala'

describe('an order and the caches', () => {
  it('leaving the product in stock clears nothing whole and keeps the lists; the product’s details answer is fresh', async () => {
    const cashews = await insertProduct(t.db, { name: 'Cashews', price: 400, stock: 9, categoryIds: [shelf.id] })
    const who = await shopperWithAddress()
    fixturesWritten()
    expect((await listedStock())[cashews.id]).toBe(9)
    expect(await detailsStock(cashews)).toBe(9)
    heard.length = 0
    const misses = t.deps.cache.stats.misses

    await buy(who, cashews, 2)
    expect(await stockOf(cashews)).toBe(7)
    expect(heard).toEqual([{ kind: 'stock', moved: [key(cashews)], crossed: [], restocked: [] }])
    // The list was kept: it still says 9 (in stock either way) and was not computed again.
    expect((await listedStock())[cashews.id]).toBe(9)
    expect(t.deps.cache.stats.misses).toBe(misses)
    // The product's own answer (its page's stepper, the admin's edit form) reads the stock of now.
    expect(await detailsStock(cashews)).toBe(7)
    // Down to 5: "Only 5 left" is shown, so the lists showing it are refreshed.
    await buy(who, cashews, 2)
    expect(heard[1]).toEqual({ kind: 'stock', moved: [key(cashews)], crossed: [key(cashews)], restocked: [] })
    expect((await listedStock())[cashews.id]).toBe(5)
  })

  it('taking the last unit names the product, and the lists showing it answer 0 at once', async () => {
    const almonds = await insertProduct(t.db, { name: 'Almonds', price: 500, stock: 2, categoryIds: [shelf.id] })
    const who = await shopperWithAddress()
    fixturesWritten()
    expect((await listedStock())[almonds.id]).toBe(2)
    heard.length = 0

    await buy(who, almonds, 2)
    expect(heard).toEqual([{ kind: 'stock', moved: [key(almonds)], crossed: [key(almonds)], restocked: [] }])
    expect((await listedStock())[almonds.id]).toBe(0)
    expect(await detailsStock(almonds)).toBe(0)
  })

  it('a cancellation names a product that comes back from 0, not one that stays in stock', async () => {
    const raisins = await insertProduct(t.db, { name: 'Raisins', price: 200, stock: 3, categoryIds: [shelf.id] })
    const dates = await insertProduct(t.db, { name: 'Dates', price: 300, stock: 9, categoryIds: [shelf.id] })
    const who = await shopperWithAddress()
    fixturesWritten()
    const soldOut = await buy(who, raisins, 3)
    const some = await buy(who, dates, 2)
    expect((await listedStock())[raisins.id]).toBe(0)
    heard.length = 0

    const cancel = (order: { _id: string }) => t.call('order/cancel', { method: 'POST', json: { orderId: order._id }, token: who.token })
    expect((await cancel(some)).status).toBe(200)
    expect(heard).toEqual([{ kind: 'stock', moved: [key(dates)], crossed: [], restocked: [] }])
    expect((await cancel(soldOut)).status).toBe(200)
    expect(heard[1]).toEqual({ kind: 'stock', moved: [key(raisins)], crossed: [key(raisins)], restocked: [key(raisins)] })
    expect((await listedStock())[raisins.id]).toBe(3)
  })

  it("a sale in another store refreshes only that store's answers", async () => {
    const walnuts = await insertProduct(t.db, {
      name: 'Walnuts',
      price: 700,
      stock: 9,
      storeStock: { [KORAMANGALA]: 1 },
      categoryIds: [shelf.id],
    })
    fixturesWritten()
    const listIn = async (storeId: string) =>
      (
        await t.call('product/get-product-by-category-and-subcategory', {
          method: 'POST',
          json: { categoryId: shelf.id, page: 1, limit: 20 },
          headers: { 'X-Store-Id': storeId },
        })
      ).body.data as { _id: string; stock: number }[]
    expect((await listIn(KORAMANGALA)).find((p) => p._id === walnuts.id)!.stock).toBe(1)
    expect((await listIn(SEEDED_DEFAULT_STORE)).find((p) => p._id === walnuts.id)!.stock).toBe(9)
    heard.length = 0
    const misses = t.deps.cache.stats.misses
    const who = await createShopper(t)
    const address = await t.call('address/create', {
      method: 'POST',
      json: { address_line: '8, 80 Feet Road', city: 'Bengaluru', state: 'Karnataka', pincode: '560034', mobile: '9845012345' },
      token: who.token,
    })
    expect(
      (
        await t.call('cart/create', {
          method: 'POST',
          json: { productId: walnuts.id },
          token: who.token,
          headers: { 'X-Store-Id': KORAMANGALA },
        })
      ).status,
    ).toBe(200)
    const placed = await t.call('order/cash-on-delivery', {
      method: 'POST',
      json: { addressId: address.body.data._id },
      token: who.token,
      headers: { 'Idempotency-Key': `cache-key-${process.pid}-${++keySeq}`, 'X-Store-Id': KORAMANGALA },
    })
    expect(placed.status).toBe(201)
    expect(heard).toEqual([
      { kind: 'stock', moved: [stockKey(KORAMANGALA, walnuts.id)], crossed: [stockKey(KORAMANGALA, walnuts.id)], restocked: [] },
    ])
    // Indiranagar's listing is kept as it was; Koramangala's is computed again and says 0.
    expect((await listIn(SEEDED_DEFAULT_STORE)).find((p) => p._id === walnuts.id)!.stock).toBe(9)
    expect(t.deps.cache.stats.misses).toBe(misses)
    expect((await listIn(KORAMANGALA)).find((p) => p._id === walnuts.id)!.stock).toBe(0)
  })

  it('an admin’s edit still clears everything', async () => {
    const figs = await insertProduct(t.db, { name: 'Figs', price: 600, stock: 4, categoryIds: [shelf.id] })
    fixturesWritten()
    heard.length = 0
    const res = await t.call('product/update-product-details', { method: 'PUT', json: { _id: figs.id, stock: 6 }, token: admin.token })
    expect(res.status).toBe(200)
    expect(heard).toEqual([{ kind: 'all' }])
    expect((await listedStock())[figs.id]).toBe(6)
  })
})
