/**
 * "Order again" (docs/commerce-api.md, "Order again") on a fresh database (PGlite, or PostgreSQL with
 * TEST_DATABASE_URL): a past order's lines go back into the cart at the quantity ordered, capped by
 * today's stock and the per-line maximum with the cart's merge rule; what was skipped or cut is
 * listed with its reason; only the shopper's own orders; it spends one cart write.
 */
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { products } from '../../db/schema.ts'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { createAdmin, createShopper, type SignedIn } from '../../testing/auth.ts'
import { insertProduct, setStockIn } from '../../testing/fixtures.ts'

let t: TestApp

beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t?.close())

const address = { address_line: '12, Old Airport Road', city: 'Bengaluru', state: 'Karnataka', pincode: '560008', mobile: '9845012345' }
let keySeq = 0

/**
 * A new shopper with one placed order of `lines` (product id and quantity, in that order); the stock
 * of each product is then set to `stockAfter` (the order took its units).
 */
async function shopperWithOrder(lines: { id: string; qty: number }[]): Promise<SignedIn & { orderId: string; orderNumber: string }> {
  const who = await createShopper(t)
  const addressId = (await t.call('address/create', { method: 'POST', json: address, token: who.token })).body.data._id
  for (const line of lines) {
    const added = await t.call('cart/create', { method: 'POST', json: { productId: line.id }, token: who.token })
    expect(added.status).toBe(200)
    if (line.qty > 1) {
      const set = await t.call('cart/update-qty', { method: 'PUT', json: { _id: added.body.data._id, qty: line.qty }, token: who.token })
      expect(set.status).toBe(200)
    }
  }
  const placed = await t.call('order/cash-on-delivery', {
    method: 'POST',
    json: { addressId },
    token: who.token,
    headers: { 'Idempotency-Key': `reorder-key-${process.pid}-${++keySeq}` },
  })
  expect(placed.status).toBe(201)
  return { ...who, orderId: placed.body.data._id, orderNumber: placed.body.data.orderId }
}

const setStock = (id: string, stock: number) => setStockIn(t.db, id, stock)
const reorder = (who: SignedIn, orderId: unknown) => t.call('order/reorder', { method: 'POST', json: { orderId }, token: who.token })
const cartOf = async (who: SignedIn) =>
  ((await t.call('cart/get', { token: who.token })).body.data as { productId: { _id: string }; quantity: number }[]).map((l) => [
    l.productId._id,
    l.quantity,
  ])

describe('POST /api/order/reorder', () => {
  it('adds every line at the quantity ordered when all are available, in the order’s order, and answers the cart', async () => {
    const atta = await insertProduct(t.db, { name: 'Chakki Atta', unit: '5 kg', price: 300, sellingPrice: 270, stock: 20 })
    const dal = await insertProduct(t.db, { name: 'Moong Dal', unit: '1 kg', price: 160, sellingPrice: 150, stock: 20 })
    const who = await shopperWithOrder([
      { id: atta.id, qty: 2 },
      { id: dal.id, qty: 3 },
    ])
    expect(await cartOf(who)).toEqual([]) // placing emptied it

    const res = await reorder(who, who.orderId)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ success: true, error: false, message: 'Added 5 items to your cart', added: 5, leftOut: [] })
    expect(res.body.data.map((l: { productId: { _id: string }; quantity: number }) => [l.productId._id, l.quantity])).toEqual([
      [atta.id, 2],
      [dal.id, 3],
    ])
    // The bill is the cart's, at today's prices (paise exact): 2 × 270 + 3 × 150.
    expect(res.body.bill).toMatchObject({ itemCount: 5, itemsTotal: 990 })
    expect(res.body.limits).toMatchObject({ maxQtyPerLine: 12 })
    expect(await cartOf(who)).toEqual([
      [atta.id, 2],
      [dal.id, 3],
    ])
  })

  it('leaves out a product out of stock and says so; the others are added', async () => {
    const ghee = await insertProduct(t.db, { name: 'Cow Ghee', unit: '500 ml', stock: 10 })
    const rice = await insertProduct(t.db, { name: 'Basmati Rice', unit: '1 kg', stock: 10 })
    const who = await shopperWithOrder([
      { id: ghee.id, qty: 1 },
      { id: rice.id, qty: 2 },
    ])
    await setStock(ghee.id, 0)

    const res = await reorder(who, who.orderId)
    expect(res.status).toBe(200)
    expect(res.body.message).toBe('Added 2 items to your cart')
    expect(res.body.added).toBe(2)
    expect(res.body.leftOut).toEqual([
      { productId: ghee.id, name: 'Cow Ghee', unit: '500 ml', ordered: 1, added: 0, reason: 'out_of_stock', message: 'out of stock' },
    ])
    expect(await cartOf(who)).toEqual([[rice.id, 2]])
  })

  it('caps a line at today’s stock and says how many were added', async () => {
    const paneer = await insertProduct(t.db, { name: 'Fresh Paneer', unit: '200 g', stock: 10 })
    const who = await shopperWithOrder([{ id: paneer.id, qty: 5 }])
    await setStock(paneer.id, 3)

    const res = await reorder(who, who.orderNumber) // the order number names it too
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ message: 'Added 3 items to your cart', added: 3 })
    expect(res.body.leftOut).toEqual([
      { productId: paneer.id, name: 'Fresh Paneer', unit: '200 g', ordered: 5, added: 3, reason: 'stock', message: 'only 3 added: stock' },
    ])
    expect(await cartOf(who)).toEqual([[paneer.id, 3]])
  })

  it('leaves out products no longer sold: unpublished or deleted', async () => {
    const hidden = await insertProduct(t.db, { name: 'Seasonal Mango', unit: '1 kg', stock: 10 })
    const gone = await insertProduct(t.db, { name: 'Old Biscuit', unit: '100 g', stock: 10 })
    const who = await shopperWithOrder([
      { id: hidden.id, qty: 1 },
      { id: gone.id, qty: 1 },
    ])
    await t.db.update(products).set({ publish: false }).where(eq(products.id, hidden.id))
    await t.db.delete(products).where(eq(products.id, gone.id))

    const res = await reorder(who, who.orderId)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ message: 'Nothing could be added to your cart', added: 0, data: [] })
    expect(res.body.leftOut).toEqual([
      {
        productId: hidden.id,
        name: 'Seasonal Mango',
        unit: '1 kg',
        ordered: 1,
        added: 0,
        reason: 'no_longer_sold',
        message: 'no longer sold',
      },
      { productId: null, name: 'Old Biscuit', unit: '100 g', ordered: 1, added: 0, reason: 'no_longer_sold', message: 'no longer sold' },
    ])
  })

  it('keeps the order’s order for many lines added in one go, even where the database clock stands still', async () => {
    // PGlite's clock ticks in milliseconds: lines inserted within one tick must still come back in
    // the order they were added (api/db/functions/cart_line_add.sql).
    const many = []
    for (let i = 0; i < 8; i++) many.push(await insertProduct(t.db, { name: `Order Keeper ${i}`, unit: '1 pc', stock: 10 }))
    const who = await shopperWithOrder(many.map((p) => ({ id: p.id, qty: 1 })))
    expect((await reorder(who, who.orderId)).body).toMatchObject({ added: 8 })
    expect(await cartOf(who)).toEqual(many.map((p) => [p.id, 1]))
  })

  it('adds up to the cap when repeated, never beyond: the stock, then the per-line maximum', async () => {
    const curd = await insertProduct(t.db, { name: 'Set Curd', unit: '400 g', stock: 20 })
    const eggs = await insertProduct(t.db, { name: 'Brown Eggs', unit: '6 pcs', stock: 50 })
    const who = await shopperWithOrder([
      { id: curd.id, qty: 5 },
      { id: eggs.id, qty: 8 },
    ])
    await setStock(curd.id, 8)

    const first = await reorder(who, who.orderId)
    expect(first.body).toMatchObject({ added: 13, leftOut: [] })
    const second = await reorder(who, who.orderId)
    expect(second.status).toBe(200)
    expect(second.body.added).toBe(3 + 4)
    expect(second.body.leftOut).toEqual([
      expect.objectContaining({ productId: curd.id, ordered: 5, added: 3, reason: 'stock', message: 'only 3 added: stock' }),
      expect.objectContaining({
        productId: eggs.id,
        ordered: 8,
        added: 4,
        reason: 'max_per_line',
        message: 'only 4 added: at most 12 per item',
      }),
    ])
    const third = await reorder(who, who.orderId)
    expect(third.body).toMatchObject({ message: 'Nothing could be added to your cart', added: 0 })
    expect(third.body.leftOut.map((l: { reason: string; message: string }) => [l.reason, l.message])).toEqual([
      ['stock', 'none added: your cart already holds all in stock'],
      ['max_per_line', 'none added: your cart already holds the most allowed (12)'],
    ])
    expect(await cartOf(who)).toEqual([
      [curd.id, 8],
      [eggs.id, 12],
    ])
  })

  it('is 404 for someone else’s order, an admin’s reorder of it included; nothing is added to the caller’s cart', async () => {
    const oil = await insertProduct(t.db, { name: 'Mustard Oil', unit: '1 l', stock: 10 })
    const owner = await shopperWithOrder([{ id: oil.id, qty: 1 }])
    const other = await createShopper(t)
    const admin = await createAdmin(t)
    for (const who of [other, admin]) {
      const res = await reorder(who, owner.orderId)
      expect(res.status).toBe(404)
      expect(res.body).toMatchObject({ success: false, message: 'Order not found' })
      expect(await cartOf(who)).toEqual([])
    }
  })

  it('answers 404 for an unknown order, 400 for an id that is not one, 401 for a visitor; never 500', async () => {
    const who = await createShopper(t)
    // Any text is an id that may exist (as for /details): one that cannot is simply not found.
    for (const unknown of ['no-such-order', 'OD2601010001', 'a b', "x'; drop table orders;--"]) {
      expect((await reorder(who, unknown)).status, unknown).toBe(404)
    }
    for (const bad of ['', '   ', 'x'.repeat(65), 42, null, ['x'], { $ne: 1 }]) {
      const res = await reorder(who, bad)
      expect(res.status, JSON.stringify(bad)).toBe(400)
    }
    expect((await t.call('order/reorder', { method: 'POST', json: {}, token: who.token })).status).toBe(400)
    expect(
      (
        await t.call('order/reorder', {
          method: 'POST',
          body: 'not json',
          token: who.token,
          headers: { 'Content-Type': 'application/json' },
        })
      ).status,
    ).toBe(400)
    expect((await t.call('order/reorder', { method: 'POST', json: { orderId: 'x' } })).status).toBe(401)
  })

  it('spends one cart write of the shopper’s cart budget', async () => {
    const tea = await insertProduct(t.db, { name: 'Assam Tea', unit: '250 g', stock: 10 })
    const who = await shopperWithOrder([{ id: tea.id, qty: 1 }])
    const spend = vi.spyOn(t.deps.rateLimits.cartWriteByCart, 'consume')
    try {
      expect((await reorder(who, who.orderId)).status).toBe(200)
      expect(spend.mock.calls.map((call) => call[0])).toEqual([`user:${who.user.id}`])
    } finally {
      spend.mockRestore()
    }
  })

  it('writes in one transaction: a failure part way leaves the cart as it was', async () => {
    const jam = await insertProduct(t.db, { name: 'Mixed Fruit Jam', unit: '500 g', stock: 10 })
    const honey = await insertProduct(t.db, { name: 'Wild Honey', unit: '250 g', stock: 10 })
    const who = await shopperWithOrder([
      { id: jam.id, qty: 1 },
      { id: honey.id, qty: 1 },
    ])
    // The second line's insert fails (a check that refuses its product); the first line must not stay.
    await t.db.execute(sql.raw(`alter table cart_lines add constraint reorder_test_refuse check (product_id <> '${honey.id}')`))
    try {
      const res = await reorder(who, who.orderId)
      expect(res.status).not.toBe(200)
      expect(await cartOf(who)).toEqual([])
    } finally {
      await t.db.execute(sql.raw('alter table cart_lines drop constraint reorder_test_refuse'))
    }
  })
})
