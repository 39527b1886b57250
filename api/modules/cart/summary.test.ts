/**
 * GET /api/cart/summary (docs/commerce-api.md, "Cart summary") on a fresh database (PGlite, or
 * PostgreSQL with TEST_DATABASE_URL): the same lines, count and items total as GET /api/cart/get, to
 * the paisa, for a guest and a signed-in shopper, after a price change, for an unpublished product's
 * line and for a guest cart idle past 30 days; the same owners and refusals.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Product } from '../../db/schema.ts'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { createShopper, type SignedIn } from '../../testing/auth.ts'
import { insertProduct, setStockIn } from '../../testing/fixtures.ts'
import { CART_EXPIRED } from './service.ts'

let t: TestApp
let shopper: SignedIn
let milk: Product
let saffron: Product
let draft: Product

beforeAll(async () => {
  t = await createTestApp({ commerce: { maxQtyPerLine: 7, deliveryChargePaise: 2500, freeDeliveryAbovePaise: 19900 } })
  shopper = await createShopper(t)
  milk = await insertProduct(t.db, { name: 'Toned Milk', price: 30, sellingPrice: 28.33, stock: 50 })
  saffron = await insertProduct(t.db, { name: 'Saffron', price: 500, sellingPrice: 450.51, stock: 20 })
  draft = await insertProduct(t.db, { name: 'Draft Paneer', price: 90, stock: 20 })
})
afterAll(() => t?.close())

const asGuest = (id: string) => ({ headers: { 'X-Guest-Cart': id } })
const add = (productId: string, auth: object) => t.call('cart/create', { method: 'POST', json: { productId }, ...auth })
const newGuest = async () => (await t.call('cart/guest', { method: 'POST' })).body.data.guestCartId as string

/** The summary GET /api/cart/get implies: its lines in brief, its bill's count and items total. */
async function expectedOf(auth: object) {
  const whole = (await t.call('cart/get', auth)).body
  return {
    lines: whole.data.map((l: { _id: string; productId: { _id: string }; quantity: number }) => ({
      _id: l._id,
      productId: l.productId._id,
      quantity: l.quantity,
    })),
    itemCount: whole.bill.itemCount,
    itemsTotal: whole.bill.itemsTotal,
    maxQtyPerLine: 7,
  }
}

describe('the cart summary', () => {
  it("is the whole cart's lines, count and items total, for a guest and for a shopper", async () => {
    const guest = asGuest(await newGuest())
    const user = { token: shopper.token }
    for (const auth of [guest, user]) {
      expect((await t.call('cart/summary', auth)).body.data).toEqual({ lines: [], itemCount: 0, itemsTotal: 0, maxQtyPerLine: 7 })
      await add(milk.id, auth)
      await add(saffron.id, auth)
      await add(milk.id, auth)
      const res = await t.call('cart/summary', auth)
      expect(res.status).toBe(200)
      expect(res.body.data).toEqual(await expectedOf(auth))
      // 2 × ₹28.33 + ₹450.51, to the paisa.
      expect(res.body.data).toMatchObject({ itemCount: 3, itemsTotal: 507.17 })
      expect(res.body.data.lines.map((l: { productId: string }) => l.productId)).toEqual([milk.id, saffron.id])
    }
  })

  it("follows today's prices and lists an unpublished product's line without counting it, as the whole cart does", async () => {
    const auth = asGuest(await newGuest())
    await add(milk.id, auth)
    await add(draft.id, auth)
    await t.db.execute(sql`update products set selling_price = 27.5 where id = ${milk.id}`)
    await t.db.execute(sql`update products set publish = false where id = ${draft.id}`)
    t.deps.cache.invalidate()
    const summary = (await t.call('cart/summary', auth)).body.data
    expect(summary).toEqual(await expectedOf(auth))
    expect(summary.lines).toHaveLength(2)
    expect(summary).toMatchObject({ itemCount: 1, itemsTotal: 27.5 })
  })

  it('counts only what the store can deliver: a line it has none of is listed but not billed, one above its stock at the stock', async () => {
    const auth = asGuest(await newGuest())
    const ghee = await insertProduct(t.db, { name: 'Cow Ghee', price: 600, sellingPrice: 515, stock: 5 })
    const dal = await insertProduct(t.db, { name: 'Toor Dal', price: 120, sellingPrice: 110.5, stock: 5 })
    await add(ghee.id, auth)
    await add(dal.id, auth)
    await add(dal.id, auth)
    await add(dal.id, auth)
    // The shopper's store now has no ghee and one packet of dal (as after a switch to another store).
    await setStockIn(t.db, ghee.id, 0)
    await setStockIn(t.db, dal.id, 1)
    t.deps.cache.invalidate()
    const whole = (await t.call('cart/get', auth)).body
    expect(whole.data).toHaveLength(2)
    // ₹110.50 + ₹25 delivery: the ghee and two of the dal are not billed.
    expect(whole.bill).toMatchObject({ itemCount: 1, itemsTotal: 110.5, deliveryCharge: 25, grandTotal: 136 })
    const summary = (await t.call('cart/summary', auth)).body.data
    expect(summary).toEqual(await expectedOf(auth))
    expect(summary.lines).toHaveLength(2)
  })

  it('reads a guest cart idle past 30 days as empty, as the whole cart does', async () => {
    const id = await newGuest()
    await add(milk.id, asGuest(id))
    expect((await t.call('cart/summary', asGuest(id))).body.data.itemCount).toBe(1)
    await t.db.execute(sql`update carts set updated_at = now() - interval '31 days' where guest_token_hash is not null`)
    const summary = (await t.call('cart/summary', asGuest(id))).body.data
    expect(summary).toEqual(await expectedOf(asGuest(id)))
    expect(summary).toMatchObject({ lines: [], itemCount: 0, itemsTotal: 0 })
  })

  it('refuses what GET /api/cart/get refuses: no cart named (401), an unknown guest id (401 "Your cart has expired")', async () => {
    expect((await t.call('cart/summary', {})).status).toBe(401)
    const unknown = await t.call('cart/summary', asGuest('x'.repeat(43)))
    expect(unknown.status).toBe(401)
    expect(unknown.body.message).toBe(CART_EXPIRED)
  })
})
