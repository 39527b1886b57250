/**
 * Coupons at the cart and at placement (docs/offers.md, "Applying a code", "At placement", "Uses"):
 * applying a code (and the reasons one does not apply), the offers list, the bill net of the
 * discount, the discount recomputed at placement (a stale one refused with 409 and the bill as it
 * now is), each use counted once under concurrent placements (PostgreSQL with TEST_DATABASE_URL:
 * separate pooled connections really queue on the coupon's row; PGlite: one at a time), and a
 * cancelled order giving its use back. Test products: "Toor Dal" style lines at ₹150 (MRP ₹180).
 */
import { parse } from 'csv-parse/sync'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { orderLines, orders } from '../../db/schema.ts'
import { createRateLimits } from '../../lib/rate-limit.ts'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { createAdmin, type SignedIn } from '../../testing/auth.ts'
import { insertProduct } from '../../testing/fixtures.ts'
import { createShopperWithAddress } from '../../testing/orders.ts'
import { COUPON_REASONS } from '../../../contract/coupon.ts'
import type { MailMessage } from '../../lib/mail.ts'

let t: TestApp
let admin: SignedIn
let seq = 0

const sent: MailMessage[] = []

beforeAll(async () => {
  t = await createTestApp({ mailer: { send: async (m) => void sent.push(m) } })
  // As the server builds them: on PostgreSQL the order budget is a row in `rate_limits`.
  t.deps.rateLimits = createRateLimits({}, 1, t.database.counterPool)
  admin = await createAdmin(t)
})
afterAll(() => t?.close())

type Buyer = SignedIn & { addressId: string }

/** A fresh shopper with an address and `units` of `productId` in the cart. */
async function buyer(productId: string, units: number): Promise<Buyer> {
  const who = await createShopperWithAddress(t)
  for (let i = 0; i < units; i++)
    expect((await t.call('cart/create', { method: 'POST', json: { productId }, token: who.token })).status).toBe(200)
  return who
}
const product = (stock = 500) => insertProduct(t.db, { name: `Toor Dal ${++seq}`, unit: '1 kg', price: 180, sellingPrice: 150, stock })
const apply = (who: SignedIn, code: string) => t.call('cart/coupon', { method: 'POST', json: { code }, token: who.token })
const place = (who: Buyer, json: Record<string, unknown> = {}) =>
  t.call('order/cash-on-delivery', {
    method: 'POST',
    json: { addressId: who.addressId, ...json },
    token: who.token,
    headers: { 'Idempotency-Key': `coupon-${process.pid}-${++seq}` },
  })
/** A new coupon through the admin API; answers its code. */
async function coupon(json: Record<string, unknown>): Promise<string> {
  const code = `T${process.pid % 10000}X${++seq}`
  const res = await t.call('coupon/create', { method: 'POST', json: { code, ...json }, token: admin.token })
  expect(res.status).toBe(201)
  return code
}

describe('applying a code to the cart', () => {
  it('WELCOME50: refused with the reason below ₹199, then ₹50 off the bill, listed among the offers', async () => {
    const dal = await product()
    const who = await buyer(dal.id, 1)
    const small = await apply(who, 'welcome50')
    expect(small.status).toBe(422)
    expect(small.body.message).toBe('Minimum basket ₹199')
    expect(small.body.issues).toEqual([{ path: 'code', message: 'Minimum basket ₹199' }])
    const offers = await t.call('cart/offers', { token: who.token })
    expect(offers.status).toBe(200)
    const welcome = offers.body.data.find((o: { code: string }) => o.code === 'WELCOME50')
    expect(welcome).toMatchObject({ applies: false, reason: 'Minimum basket ₹199', addMore: 49, nearest: true, off: '₹50 off' })

    expect((await t.call('cart/create', { method: 'POST', json: { productId: dal.id }, token: who.token })).status).toBe(200)
    const applied = await apply(who, ' welcome50 ')
    expect(applied.status).toBe(200)
    expect(applied.body.coupon).toEqual({ code: 'WELCOME50', description: expect.any(String), applied: true, discount: 50, reason: null })
    const bill = applied.body.bill
    expect(bill).toMatchObject({ itemsTotal: 300, couponCode: 'WELCOME50', couponDiscount: 50 })
    expect(bill.grandTotal).toBe(bill.itemsTotal + bill.deliveryCharge - 50 + bill.roundingOff)
    // The cart's own read says the same.
    expect((await t.call('cart/get', { token: who.token })).body.bill).toEqual(bill)
  })

  it('unknown codes are 404, bad ones 400, a guest cannot apply (401), and Remove takes the code off', async () => {
    const dal = await product()
    const who = await buyer(dal.id, 2)
    expect((await apply(who, 'NOSUCH1')).status).toBe(404)
    expect((await apply(who, 'no such')).status).toBe(400)
    expect((await t.call('cart/coupon', { method: 'POST', json: { code: 'x'.repeat(5000) }, token: who.token })).status).toBe(400)
    expect((await t.call('cart/coupon', { method: 'POST', json: { code: 'WELCOME50' } })).status).toBe(401)
    expect((await apply(who, 'WELCOME50')).status).toBe(200)
    const removed = await t.call('cart/coupon', { method: 'DELETE', token: who.token })
    expect(removed.status).toBe(200)
    expect(removed.body.coupon).toBeNull()
    expect(removed.body.bill.couponDiscount).toBeUndefined()
  })
})

describe('placing an order with a coupon', () => {
  it('the order keeps the discount and each line its share; the code is then "Already used"; a cancellation gives it back', async () => {
    const dal = await product()
    const rice = await insertProduct(t.db, { name: `Sona Masoori ${++seq}`, unit: '5 kg', price: 120, sellingPrice: 99, stock: 50 })
    const who = await buyer(dal.id, 1)
    expect((await t.call('cart/create', { method: 'POST', json: { productId: rice.id }, token: who.token })).status).toBe(200)
    expect((await apply(who, 'WELCOME50')).status).toBe(200)
    const placed = await place(who, { couponDiscount: 50 })
    expect(placed.status).toBe(201)
    const order = placed.body.data
    expect(order.bill).toMatchObject({ itemsTotal: 249, couponCode: 'WELCOME50', couponDiscount: 50 })
    expect(order.bill.grandTotal).toBe(249 + order.bill.deliveryCharge - 50 + order.bill.roundingOff)
    // Largest remainder: 5000 × 15000 / 24900 = 3012.05 and 5000 × 9900 / 24900 = 1987.95 → 3012 + 1988.
    expect(order.items.map((l: { couponShare: number }) => l.couponShare)).toEqual([30.12, 19.88])
    const [row] = await t.db.select().from(orders).where(eq(orders.id, order._id))
    expect({ code: row!.couponCode, paise: row!.couponDiscountPaise }).toEqual({ code: 'WELCOME50', paise: 5000 })
    const shares = await t.db.select({ share: orderLines.couponSharePaise }).from(orderLines).where(eq(orderLines.orderId, order._id))
    expect(shares.reduce((n, s) => n + s.share, 0)).toBe(5000)
    // The confirmation email names the discount.
    await t.deps.jobs.drain()
    const mail = sent.find((m) => m.text.includes(order.orderId))
    expect(mail?.text).toContain('Coupon (WELCOME50): −₹50')
    // The admin's exports name the code and the discount, and each line's share (docs/offers.md, "Refunds").
    const csv = async (path: string) => {
      const res = await t.app.request(`/api/order/admin/export${path}?q=${order.orderId}`, {
        headers: { Authorization: `Bearer ${admin.token}` },
      })
      expect(res.status).toBe(200)
      const [header, ...rows] = parse((await res.text()).replace(/^\uFEFF/, '')) as string[][]
      return rows.map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i]])))
    }
    expect(await csv('')).toEqual([
      expect.objectContaining({ 'Order number': order.orderId, Coupon: 'WELCOME50', 'Coupon discount (₹)': '50.00' }),
    ])
    expect((await csv('/lines')).map((l) => l['Coupon share (₹)'])).toEqual(['30.12', '19.88'])
    // The cart is empty and names no code; a new basket cannot use the code again.
    expect((await t.call('cart/get', { token: who.token })).body.coupon).toBeNull()
    for (let i = 0; i < 2; i++) await t.call('cart/create', { method: 'POST', json: { productId: dal.id }, token: who.token })
    expect((await apply(who, 'WELCOME50')).body.message).toBe(COUPON_REASONS.alreadyUsed)
    // Cancelled: the use comes back.
    expect((await t.call('order/cancel', { method: 'POST', json: { orderId: order._id }, token: who.token })).status).toBe(200)
    expect((await apply(who, 'WELCOME50')).status).toBe(200)
  })

  it('the tax invoice takes the discount off before tax: each line taxed on what was paid, the totals the bill to the paisa', async () => {
    const dal = await product()
    const who = await buyer(dal.id, 3)
    expect((await apply(who, 'WELCOME50')).status).toBe(200)
    const placed = await place(who, { couponDiscount: 50 })
    expect(placed.status).toBe(201)
    const order = placed.body.data
    const invoice = await t.call('invoice/details', { method: 'POST', json: { orderId: order._id }, token: who.token })
    expect(invoice.status).toBe(200)
    const [goods] = invoice.body.data.lines
    expect(goods).toMatchObject({ kind: 'goods', quantity: 3, price: 150, couponDiscount: 50, amount: 400 })
    // GST inside what was paid: taxable + tax = the amount after the discount.
    expect(Math.round((goods.taxable + goods.cgst + goods.sgst + goods.igst) * 100)).toBe(40000)
    const totals = invoice.body.data.totals
    expect(totals).toMatchObject({ itemsTotal: 450, couponDiscount: 50, grandTotal: order.bill.grandTotal })
    expect(Math.round((totals.amount + totals.rounding) * 100)).toBe(Math.round(order.bill.grandTotal * 100))
  })

  it('a discount that changed since the checkout showed it is refused with 409, the coupon and the bill as they now are', async () => {
    const dal = await product()
    const who = await buyer(dal.id, 4)
    expect((await apply(who, 'SAVE10')).body.bill.couponDiscount).toBe(60)
    // The basket shrinks below ₹499: the code stays named, not applied, with its reason.
    const cart = await t.call('cart/get', { token: who.token })
    await t.call('cart/update-qty', { method: 'PUT', json: { _id: cart.body.data[0]._id, qty: 2 }, token: who.token })
    const after = await t.call('cart/get', { token: who.token })
    expect(after.body.coupon).toMatchObject({ code: 'SAVE10', applied: false, reason: 'Minimum basket ₹499', discount: 0 })
    expect(after.body.bill.couponDiscount).toBeUndefined()

    const stale = await place(who, { couponDiscount: 60 })
    expect(stale.status).toBe(409)
    expect(stale.body.message).toBe('Coupon SAVE10 no longer applies: Minimum basket ₹499. Check the bill and place the order again.')
    expect(stale.body.coupon).toMatchObject({ code: 'SAVE10', applied: false, reason: 'Minimum basket ₹499' })
    expect(stale.body.bill).toMatchObject({ itemsTotal: 300 })
    expect(stale.body.bill.couponDiscount).toBeUndefined()
    // What the checkout shows now (no discount) is placed, without the coupon.
    const placed = await place(who, { couponDiscount: 0 })
    expect(placed.status).toBe(201)
    expect(placed.body.data.bill.couponDiscount).toBeUndefined()
    expect(placed.body.data.items[0].couponShare).toBeUndefined()
  })

  it('a larger basket than shown: 409 with the new discount; the original client (no couponDiscount) gets what applies', async () => {
    const dal = await product()
    const who = await buyer(dal.id, 4)
    expect((await apply(who, 'SAVE10')).status).toBe(200)
    const stale = await place(who, { couponDiscount: 45 })
    expect(stale.status).toBe(409)
    expect(stale.body.message).toBe('Coupon SAVE10 now takes off ₹60, not ₹45. Check the bill and place the order again.')
    expect(stale.body.bill).toMatchObject({ couponCode: 'SAVE10', couponDiscount: 60 })
    const placed = await place(who, { list_items: [], totalAmt: 600 })
    expect(placed.status).toBe(201)
    expect(placed.body.data.bill.couponDiscount).toBe(60)
  })
})

describe('each use counted once', () => {
  it('40 shoppers at once on a code limited to 3 uses: exactly 3 orders use it, every other placement 409, no 5xx', async () => {
    const code = await coupon({ kind: 'flat', amount: 20, totalLimit: 3 })
    const buyers: Buyer[] = []
    for (let i = 0; i < 40; i++) {
      // A product each: the placements share no product lock, only the coupon's row.
      const who = await buyer((await product()).id, 1)
      expect((await apply(who, code)).status).toBe(200)
      buyers.push(who)
    }
    const answers = await Promise.all(buyers.map((who) => place(who, { couponDiscount: 20 })))
    const statuses = answers.map((a) => a.status)
    expect({ 201: statuses.filter((s) => s === 201).length, other: statuses.filter((s) => s !== 201 && s !== 409) }).toEqual({
      201: 3,
      other: [],
    })
    for (const loser of answers.filter((a) => a.status === 409)) expect(loser.body.coupon?.reason).toBe(COUPON_REASONS.runOut)
    const used = await t.db.select({ id: orders.id }).from(orders).where(eq(orders.couponCode, code))
    expect(used).toHaveLength(3)
  }, 180_000)

  it('one shopper placing 40 times at once with a once-per-shopper code: one order uses it', async () => {
    const code = await coupon({ kind: 'flat', amount: 20, perUserLimit: 1 })
    const dal = await product(1000)
    const who = await buyer(dal.id, 2)
    expect((await apply(who, code)).status).toBe(200)
    const answers = await Promise.all(Array.from({ length: 40 }, () => place(who, { couponDiscount: 20 })))
    const statuses = answers.map((a) => a.status)
    expect(statuses.filter((s) => s === 201)).toHaveLength(1)
    // The others found the cart emptied by the first (400), were told the code is used (409) or spent
    // the shopper's order budget (429, 30 an hour): never a 5xx.
    expect(statuses.filter((s) => s !== 201 && s !== 400 && s !== 409 && s !== 429)).toEqual([])
    const used = await t.db.select({ id: orders.id }).from(orders).where(eq(orders.couponCode, code))
    expect(used).toHaveLength(1)
  }, 180_000)
})
