/**
 * The original single-page client's checkout and My Orders (docs/api-contract.md, "Commerce") on a
 * fresh database (PGlite, or PostgreSQL with TEST_DATABASE_URL, where the double submits run on
 * separate connections): a placement without an idempotency key is accepted and a double submit still
 * makes one order; each order carries the `product_details` its My Orders reads; and retries of one
 * idempotency key do not spend the order budget (docs/api-contract.md, "Rate limits").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRateLimits } from '../../lib/rate-limit.ts'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { createShopper, type SignedIn } from '../../testing/auth.ts'
import { insertProduct } from '../../testing/fixtures.ts'
import { cartIdempotencyKey, CART_EMPTY } from './service.ts'

/** The order budget of this file's app: small, so that spending it takes a few calls. */
const BUDGET = 3

let t: TestApp
beforeAll(async () => {
  t = await createTestApp({ rateLimits: createRateLimits({ orderByUser: { points: BUDGET, duration: 3600 } }) })
})
afterAll(() => t?.close())

const address = { address_line: '7, 100 Feet Road', city: 'Bengaluru', state: 'Karnataka', pincode: '560038', mobile: '9820012345' }

async function shopperWithAddress(): Promise<SignedIn & { addressId: string }> {
  const who = await createShopper(t)
  const res = await t.call('address/create', { method: 'POST', json: address, token: who.token })
  return { ...who, addressId: res.body.data._id }
}
async function add(who: SignedIn, productId: string, times = 1) {
  for (let i = 0; i < times; i++)
    expect((await t.call('cart/create', { method: 'POST', json: { productId }, token: who.token })).status).toBe(200)
}
/** The original client's checkout call: no idempotency key, its own totals in the body. */
const placeAsOriginal = (who: SignedIn & { addressId: string }) =>
  t.call('order/cash-on-delivery', {
    method: 'POST',
    json: { addressId: who.addressId, list_items: [], subTotalAmt: 1, totalAmt: 1 },
    token: who.token,
  })
const placeWithKey = (who: SignedIn & { addressId: string }, key: string) =>
  t.call('order/cash-on-delivery', {
    method: 'POST',
    json: { addressId: who.addressId },
    token: who.token,
    headers: { 'Idempotency-Key': key },
  })
const orderList = async (who: SignedIn) => (await t.call('order/order-list', { token: who.token })).body.data

describe('placing an order without an idempotency key', () => {
  it('is accepted (201), priced by the server', async () => {
    const oil = await insertProduct(t.db, { name: 'Groundnut Oil', price: 220, sellingPrice: 199, stock: 10 })
    const who = await shopperWithAddress()
    await add(who, oil.id)
    const res = await placeAsOriginal(who)
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ success: true, error: false })
    expect(res.body.data).toMatchObject({ subTotalAmt: 199, totalAmt: 199, payment_status: 'CASH ON DELIVERY' })
  })

  it('makes one order of a double (or triple) submit, at once', async () => {
    const oil = await insertProduct(t.db, { name: 'Mustard Oil', price: 200, sellingPrice: 180, stock: 50 })
    for (let round = 0; round < 3; round++) {
      const who = await shopperWithAddress()
      await add(who, oil.id, 2)
      const results = await Promise.all([placeAsOriginal(who), placeAsOriginal(who), placeAsOriginal(who)])
      const orders = await orderList(who)
      expect(orders).toHaveLength(1)
      const placed = results.filter((r) => r.status === 200 || r.status === 201)
      expect(placed.filter((r) => r.status === 201)).toHaveLength(1)
      for (const r of placed) expect(r.body.data._id).toBe(orders[0]._id)
      // A submit that read the cart only after the first order emptied it finds nothing to order.
      for (const r of results.filter((r) => !placed.includes(r))) expect([r.status, r.body.message]).toEqual([400, CART_EMPTY])
    }
  })

  it('answers a repeat of the same cart with the same order (200), and the next cart of the same products is a new order', async () => {
    const oil = await insertProduct(t.db, { name: 'Sesame Oil', price: 300, sellingPrice: 280, stock: 20 })
    const who = await shopperWithAddress()
    await add(who, oil.id)
    const key = await cartIdempotencyKey(t.db, who.user.id, who.addressId)
    expect(await cartIdempotencyKey(t.db, who.user.id, who.addressId)).toBe(key)
    expect(await cartIdempotencyKey(t.db, who.user.id, 'another-address')).not.toBe(key)
    const first = await placeAsOriginal(who)
    expect(first.status).toBe(201)
    // A second submit that read the same cart derives the same key: the same order, not a second one.
    const repeat = await placeWithKey(who, key)
    expect(repeat.status).toBe(200)
    expect(repeat.body.data._id).toBe(first.body.data._id)
    // The same product again tomorrow: new cart lines, a new key, a new order.
    await add(who, oil.id)
    expect(await cartIdempotencyKey(t.db, who.user.id, who.addressId)).not.toBe(key)
    const next = await placeAsOriginal(who)
    expect(next.status).toBe(201)
    expect(next.body.data._id).not.toBe(first.body.data._id)
    expect(await orderList(who)).toHaveLength(2)
  })
})

describe('product_details on each order', () => {
  it('carries the name and the images the original My Orders reads, beside our lines', async () => {
    const atta = await insertProduct(t.db, {
      name: 'Whole Wheat Atta',
      price: 400,
      stock: 10,
      image: ['/uploads/atta-1.webp', '/uploads/atta-2.webp'],
    })
    const sugar = await insertProduct(t.db, { name: 'Sugar', price: 50, stock: 10, image: ['/uploads/sugar.webp'] })
    const salt = await insertProduct(t.db, { name: 'Iodised Salt', price: 25, stock: 10, image: [] })
    const who = await shopperWithAddress()
    await add(who, atta.id)
    await add(who, sugar.id)
    await add(who, salt.id)
    const placed = (await placeAsOriginal(who)).body.data
    await add(who, sugar.id)
    await placeAsOriginal(who)
    const orders = await orderList(who)
    expect(orders).toHaveLength(2)
    expect(orders[1]._id).toBe(placed._id)
    expect(orders[1].product_details).toEqual({ name: 'Whole Wheat Atta + 2 more', image: ['/uploads/atta-1.webp', '/uploads/sugar.webp'] })
    expect(orders[1].items).toHaveLength(3)
    expect(orders[0].product_details).toEqual({ name: 'Sugar', image: ['/uploads/sugar.webp'] })
    // What the original client's My Orders renders for each order (it crashed on `undefined.image`).
    const rendered = orders.map((order: { orderId: string; product_details: { name: string; image: string[] } }) => [
      order.orderId,
      order.product_details.image[0],
      order.product_details.name,
    ])
    expect(rendered[0]).toEqual([orders[0].orderId, '/uploads/sugar.webp', 'Sugar'])
    // The details and the placement answer carry it too.
    const details = await t.call('order/details', { method: 'POST', json: { orderId: placed._id }, token: who.token })
    expect(details.body.data.product_details.name).toBe('Whole Wheat Atta + 2 more')
    expect(placed.product_details.image[0]).toBe('/uploads/atta-1.webp')
  })
})

describe('the order budget', () => {
  it('is not spent by retries of one idempotency key, sequential or concurrent', async () => {
    const bread = await insertProduct(t.db, { name: 'Brown Bread', price: 50, stock: 100 })
    const who = await shopperWithAddress()
    await add(who, bread.id)
    const first = await placeWithKey(who, 'budget-key-0001')
    expect(first.status).toBe(201)
    for (let i = 0; i < BUDGET + 2; i++) {
      const retry = await placeWithKey(who, 'budget-key-0001')
      expect(retry.status).toBe(200)
      expect(retry.body.data._id).toBe(first.body.data._id)
    }
    await add(who, bread.id)
    const concurrent = await Promise.all([1, 2, 3].map(() => placeWithKey(who, 'budget-key-0002')))
    expect(concurrent.map((r) => r.status).sort()).toEqual([200, 200, 201])
    // Two orders made: one more fits the budget of three, the fourth is refused.
    await add(who, bread.id)
    expect((await placeWithKey(who, 'budget-key-0003')).status).toBe(201)
    await add(who, bread.id)
    const over = await placeWithKey(who, 'budget-key-0004')
    expect(over.status).toBe(429)
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0)
    // A retry of an order already made is still answered once the budget is spent.
    expect((await placeWithKey(who, 'budget-key-0001')).status).toBe(200)
  })
})
