/**
 * Orders on a fresh database (PGlite, or PostgreSQL with TEST_DATABASE_URL, where the races below
 * run on separate connections for real): authorization, prices from the server only, a changed
 * price or short stock stopping the order and correcting the cart, idempotency keys, two buyers
 * racing for the last unit, the status arrows and concurrent admin changes, cancellation restoring
 * stock, and product deletion after an order.
 */
import { eq } from 'drizzle-orm'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { products, type Product } from '../../db/schema.ts'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { createAdmin, createShopper, type SignedIn } from '../../testing/auth.ts'
import { insertProduct, setStockIn, stockIn } from '../../testing/fixtures.ts'
import { CART_EMPTY, STALE_ORDER } from './service.ts'

let t: TestApp
let admin: SignedIn
let milk: Product
let paneer: Product

beforeAll(async () => {
  t = await createTestApp()
  admin = await createAdmin(t)
  milk = await insertProduct(t.db, {
    name: 'Toned Milk',
    unit: '500 ml',
    price: 30,
    sellingPrice: 28,
    stock: 100,
    moreDetails: { brand: 'Amul' },
  })
  paneer = await insertProduct(t.db, {
    name: 'Paneer',
    unit: '1 kg',
    price: 480,
    sellingPrice: 440,
    stock: 100,
    moreDetails: { brand: 'Milky Mist' },
  })
})
afterAll(() => t?.close())

const address = { address_line: '4, CMH Road', city: 'Bengaluru', state: 'Karnataka', pincode: '560038', mobile: '9830012345' }
let keySeq = 0
const newKey = () => `test-key-${process.pid}-${++keySeq}`

async function shopperWithAddress(): Promise<SignedIn & { addressId: string }> {
  const who = await createShopper(t)
  const res = await t.call('address/create', { method: 'POST', json: address, token: who.token })
  return { ...who, addressId: res.body.data._id }
}
const add = (who: SignedIn, productId: string, times = 1) =>
  (async () => {
    for (let i = 0; i < times; i++)
      expect((await t.call('cart/create', { method: 'POST', json: { productId }, token: who.token })).status).toBe(200)
  })()
const place = (who: SignedIn & { addressId: string }, key = newKey(), extra: object = {}) =>
  t.call('order/cash-on-delivery', {
    method: 'POST',
    json: { addressId: who.addressId, ...extra },
    token: who.token,
    headers: { 'Idempotency-Key': key },
  })
const stockOf = (p: Product) => stockIn(t.db, p.id)
const setProduct = (p: Product, values: Partial<typeof products.$inferInsert>) =>
  t.db.update(products).set(values).where(eq(products.id, p.id))

describe('placing a cash-on-delivery order', () => {
  it('prices every line on the server, ignores the totals a client sends, empties the cart, decrements stock and mails a confirmation', async () => {
    const who = await shopperWithAddress()
    await add(who, milk.id, 2)
    await add(who, paneer.id)
    const before = { milk: await stockOf(milk), paneer: await stockOf(paneer) }
    const res = await place(who, newKey(), { list_items: [{ productId: milk.id, price: 1 }], subTotalAmt: 1, totalAmt: 1 })
    expect(res.status).toBe(201)
    const order = res.body.data
    expect(order.orderId).toMatch(/^OD\d{6}\d{4,}$/)
    expect(order).toMatchObject({
      status: 'placed',
      payment_status: 'CASH ON DELIVERY',
      userId: who.user.id,
      subTotalAmt: 496,
      totalAmt: 496,
      delivery_address: { ...address, country: 'India' },
      bill: { itemCount: 3, itemsTotalMrp: 540, productDiscount: 44, itemsTotal: 496, deliveryCharge: 0, grandTotal: 496 },
    })
    expect(order.items).toEqual([
      expect.objectContaining({
        productId: milk.id,
        name: 'Toned Milk',
        unit: '500 ml',
        brand: 'Amul',
        quantity: 2,
        price: 28,
        mrp: 30,
        lineTotal: 56,
      }),
      expect.objectContaining({
        productId: paneer.id,
        name: 'Paneer',
        brand: 'Milky Mist',
        quantity: 1,
        price: 440,
        mrp: 480,
        lineTotal: 440,
      }),
    ])
    expect(order.statusHistory.map((h: { status: string }) => h.status)).toEqual(['placed'])
    expect((await t.call('cart/get', { token: who.token })).body.data).toEqual([])
    expect(await stockOf(milk)).toBe(before.milk - 2)
    expect(await stockOf(paneer)).toBe(before.paneer - 1)
    // The confirmation is a job written with the order: it is in the outbox once the job ran.
    await t.deps.jobs.drain()
    const outbox = fs.readdirSync(path.join(t.tmpDir, 'outbox')).map((f) => fs.readFileSync(path.join(t.tmpDir, 'outbox', f), 'utf8'))
    expect(outbox.some((mail) => mail.includes(order.orderId) && mail.includes(who.user.email!))).toBe(true)
    const list = await t.call('order/order-list', { token: who.token })
    expect(list.body.data.map((o: { _id: string }) => o._id)).toEqual([order._id])
    const details = await t.call('user/user-details', { token: who.token })
    expect(details.body.data.orderHistory).toEqual([order._id])
  })

  it('charges delivery below the free-delivery value', async () => {
    const who = await shopperWithAddress()
    await add(who, milk.id)
    const res = await place(who)
    expect(res.body.data.bill).toMatchObject({ itemsTotal: 28, deliveryCharge: 25, grandTotal: 53 })
    expect(res.body.data.totalAmt).toBe(53)
  })

  it('refuses an empty cart (400), a malformed idempotency key (400), and another user’s or a removed address (404)', async () => {
    const who = await shopperWithAddress()
    const empty = await place(who)
    expect(empty.status).toBe(400)
    expect(empty.body.message).toBe(CART_EMPTY)
    await add(who, milk.id)
    expect((await place(who, 'short')).status).toBe(400)
    expect((await place(who, 'has space in it')).status).toBe(400)
    const stranger = await shopperWithAddress()
    expect((await place({ ...who, addressId: stranger.addressId })).status).toBe(404)
    await t.call('address/disable', { method: 'DELETE', json: { _id: who.addressId }, token: who.token })
    expect((await place(who)).status).toBe(404)
    expect((await t.call('cart/get', { token: who.token })).body.data).toHaveLength(1)
  })

  it('stops the order when a price changed since the line was added: the cart is corrected, nothing is ordered', async () => {
    const product = await insertProduct(t.db, { name: 'Basmati Rice', price: 200, sellingPrice: 180, stock: 10 })
    const who = await shopperWithAddress()
    await add(who, product.id, 2)
    await setProduct(product, { sellingPrice: 190 })
    const res = await place(who)
    expect(res.status).toBe(409)
    expect(res.body.message).toMatch(/^Your cart was updated: Basmati Rice/)
    expect(res.body.changes).toEqual([{ productId: product.id, name: 'Basmati Rice', kind: 'price', before: 180, after: 190 }])
    expect(await stockOf(product)).toBe(10)
    expect((await t.call('order/order-list', { token: who.token })).body.data).toEqual([])
    // The shopper saw the change; the same cart now goes through at the new price.
    const again = await place(who)
    expect(again.status).toBe(201)
    expect(again.body.data.subTotalAmt).toBe(380)
  })

  it('stops the order when stock ran short: the line is cut to what is left, or removed at 0', async () => {
    const short = await insertProduct(t.db, { name: 'Mangoes', price: 300, stock: 5 })
    const soldOut = await insertProduct(t.db, { name: 'Lychee', price: 200, stock: 5 })
    const who = await shopperWithAddress()
    await add(who, short.id, 4)
    await add(who, soldOut.id)
    await setStockIn(t.db, short.id, 2)
    await setStockIn(t.db, soldOut.id, 0)
    const res = await place(who)
    expect(res.status).toBe(409)
    expect(res.body.changes).toEqual(
      expect.arrayContaining([
        { productId: short.id, name: 'Mangoes', kind: 'stock', before: 4, after: 2 },
        { productId: soldOut.id, name: 'Lychee', kind: 'stock', before: 1, after: 0 },
      ]),
    )
    const cart = (await t.call('cart/get', { token: who.token })).body.data
    expect(cart.map((l: { productId: { _id: string }; quantity: number }) => [l.productId._id, l.quantity])).toEqual([[short.id, 2]])
    expect(await stockOf(short)).toBe(2)
  })

  it('one idempotency key gives one order, also for concurrent double submits', async () => {
    const who = await shopperWithAddress()
    await add(who, milk.id, 3)
    const key = newKey()
    const [a, b] = await Promise.all([place(who, key), place(who, key)])
    expect([a.status, b.status].sort()).toEqual([200, 201])
    expect(a.body.data._id).toBe(b.body.data._id)
    const again = await place(who, key)
    expect(again.status).toBe(200)
    expect(again.body.data._id).toBe(a.body.data._id)
    expect((await t.call('order/order-list', { token: who.token })).body.data).toHaveLength(1)
  })

  it('two buyers racing for the last unit: exactly one order, stock never below 0', async () => {
    for (let round = 0; round < 5; round++) {
      const last = await insertProduct(t.db, { name: `Last Jar ${round}`, price: 250, stock: 1 })
      const buyers = await Promise.all([shopperWithAddress(), shopperWithAddress(), shopperWithAddress()])
      for (const b of buyers) await add(b, last.id)
      const results = await Promise.all(buyers.map((b) => place(b)))
      expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409])
      expect(await stockOf(last)).toBe(0)
    }
  })
})

describe('authorization', () => {
  it('visitor 401; another user’s order 404; shopper on admin endpoints 403', async () => {
    const who = await shopperWithAddress()
    await add(who, milk.id)
    const order = (await place(who)).body.data
    const stranger = await createShopper(t)
    expect((await t.call('order/order-list')).status).toBe(401)
    expect((await t.call('order/cash-on-delivery', { method: 'POST', json: { addressId: who.addressId } })).status).toBe(401)
    expect((await t.call('order/details', { method: 'POST', json: { orderId: order._id }, token: stranger.token })).status).toBe(404)
    expect((await t.call('order/cancel', { method: 'POST', json: { orderId: order._id }, token: stranger.token })).status).toBe(404)
    expect((await t.call('order/admin-list', { method: 'POST', json: {}, token: who.token })).status).toBe(403)
    expect(
      (await t.call('order/update-status', { method: 'PUT', json: { orderId: order._id, status: 'packed' }, token: who.token })).status,
    ).toBe(403)
    // By order number too; an admin reads any order, with the customer.
    const own = await t.call('order/details', { method: 'POST', json: { orderId: order.orderId }, token: who.token })
    expect(own.body.data._id).toBe(order._id)
    const asAdmin = await t.call('order/details', { method: 'POST', json: { orderId: order._id }, token: admin.token })
    expect(asAdmin.body.data.customer).toEqual({ name: who.user.name, email: who.user.email })
  })
})

describe('status changes', () => {
  const update = (json: object, who: SignedIn = admin) => t.call('order/update-status', { method: 'PUT', json, token: who.token })

  it('follow the arrows to delivered; other arrows are 409 with a clear message', async () => {
    const who = await shopperWithAddress()
    await add(who, milk.id)
    const order = (await place(who)).body.data
    const skip = await update({ orderId: order._id, status: 'delivered' })
    expect(skip.status).toBe(409)
    expect(skip.body.message).toBe('Cannot change an order from placed to delivered')
    for (const status of ['packed', 'out_for_delivery', 'delivered'])
      expect((await update({ orderId: order._id, status })).status).toBe(200)
    const cancel = await update({ orderId: order._id, status: 'cancelled' })
    expect(cancel.status).toBe(409)
    const seen = await t.call('order/details', { method: 'POST', json: { orderId: order._id }, token: who.token })
    expect(seen.body.data.status).toBe('delivered')
    expect(seen.body.data.statusHistory.map((h: { status: string }) => h.status)).toEqual([
      'placed',
      'packed',
      'out_for_delivery',
      'delivered',
    ])
    expect(seen.body.data.version).toBe(4)
  })

  it('two admins changing one order at once: one wins, the stale version is refused', async () => {
    const who = await shopperWithAddress()
    await add(who, milk.id)
    const order = (await place(who)).body.data
    const results = await Promise.all([
      update({ orderId: order._id, status: 'packed', version: order.version }),
      update({ orderId: order._id, status: 'cancelled', version: order.version }),
    ])
    expect(results.map((r) => r.status).sort()).toEqual([200, 409])
    expect(results.find((r) => r.status === 409)!.body.message).toBe(STALE_ORDER)
  })

  it('the admin lists orders newest first, by status, with paging', async () => {
    const res = await t.call('order/admin-list', { method: 'POST', json: { status: 'delivered', page: 1, limit: 50 }, token: admin.token })
    expect(res.status).toBe(200)
    expect(res.body.data.every((o: { status: string }) => o.status === 'delivered')).toBe(true)
    const all = await t.call('order/admin-list', { method: 'POST', json: { page: 1, limit: 2 }, token: admin.token })
    expect(all.body.data).toHaveLength(2)
    expect(all.body.totalNoPage).toBe(Math.ceil(all.body.totalCount / 2))
    const times = all.body.data.map((o: { createdAt: string }) => o.createdAt)
    expect([...times].sort().reverse()).toEqual(times)
  })
})

describe('cancelling', () => {
  it('a shopper cancels a placed order and the stock comes back; not once it is packed', async () => {
    const who = await shopperWithAddress()
    const product = await insertProduct(t.db, { name: 'Cashews', price: 400, stock: 7 })
    await add(who, product.id, 3)
    const order = (await place(who)).body.data
    expect(await stockOf(product)).toBe(4)
    const cancelled = await t.call('order/cancel', { method: 'POST', json: { orderId: order._id }, token: who.token })
    expect(cancelled.status).toBe(200)
    expect(cancelled.body.data.status).toBe('cancelled')
    expect(await stockOf(product)).toBe(7)
    expect((await t.call('order/cancel', { method: 'POST', json: { orderId: order._id }, token: who.token })).status).toBe(409)

    await add(who, product.id)
    const packed = (await place(who)).body.data
    await t.call('order/update-status', { method: 'PUT', json: { orderId: packed._id, status: 'packed' }, token: admin.token })
    const late = await t.call('order/cancel', { method: 'POST', json: { orderId: packed._id }, token: who.token })
    expect(late.status).toBe(409)
    expect(late.body.message).toBe('Cannot change an order from packed to cancelled')
    // The admin may still cancel a packed order; stock returns.
    expect(
      (await t.call('order/update-status', { method: 'PUT', json: { orderId: packed._id, status: 'cancelled' }, token: admin.token }))
        .status,
    ).toBe(200)
    expect(await stockOf(product)).toBe(7)
  })
})

describe('a deleted product', () => {
  it('keeps placed orders intact (a snapshot), with productId null', async () => {
    const who = await shopperWithAddress()
    const product = await insertProduct(t.db, { name: 'Seasonal Jam', price: 150, sellingPrice: 120, stock: 5 })
    await add(who, product.id, 2)
    const order = (await place(who)).body.data
    expect((await t.call('product/delete-product', { method: 'DELETE', json: { _id: product.id }, token: admin.token })).status).toBe(200)
    const seen = await t.call('order/details', { method: 'POST', json: { orderId: order._id }, token: who.token })
    expect(seen.status).toBe(200)
    expect(seen.body.data.items[0]).toMatchObject({
      productId: null,
      name: 'Seasonal Jam',
      quantity: 2,
      price: 120,
      mrp: 150,
      lineTotal: 240,
    })
    // Cancelling still works (no stock to return for a deleted product).
    expect((await t.call('order/cancel', { method: 'POST', json: { orderId: order._id }, token: who.token })).status).toBe(200)
  })
})
