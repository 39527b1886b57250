/**
 * The named fees at the cart, at placement and after (docs/commerce-api.md, "Fees"): the cart's bill
 * and the order name each fee charged, the grand total includes them to the paisa; the fees are
 * stored on the order, so a later change of the configuration never alters it; fees that changed
 * between the checkout's bill and the press (the late-night hours began) are 409 with the bill; the
 * tax invoice has a line per fee taxed as the delivery charge, and shows the tip outside its totals;
 * a cancellation refunds and credits the fees with the rest, a line refund never; the admin's CSV
 * ends with the three fee columns. The app's clock is fixed per test (IST = UTC+05:30), and the
 * default store is open 06:00-24:00 IST, so 23:30 IST is inside both its hours and the late-night ones.
 */
import { parse } from 'csv-parse/sync'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_COMMERCE, DEFAULT_FEES, type CommerceSettings } from '../../config.ts'
import { orders } from '../../db/schema.ts'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { createAdmin, type SignedIn } from '../../testing/auth.ts'
import { insertProduct } from '../../testing/fixtures.ts'
import { createShopperWithAddress } from '../../testing/orders.ts'
import { testPaymentSettings } from './settings.ts'
import { createTestProvider } from './test-provider.ts'

const KEY_SECRET = 'fees-key-secret-0123456789'
const WEBHOOK_SECRET = 'fees-webhook-secret-0123456789'
const provider = createTestProvider({ keySecret: KEY_SECRET, webhookSecret: WEBHOOK_SECRET })

/** A time of day in IST on 10 Nov 2026, as the UTC instant. */
const ist = (hh: number, mm: number) => new Date(Date.UTC(2026, 10, 10, hh, mm) - 330 * 60_000)
const NOON = ist(12, 0)
let now = NOON

let t: TestApp
let admin: SignedIn
let seq = 0
/** The app's settings object: a test changes its fees as a restart with other variables would. */
const commerce: CommerceSettings = { ...DEFAULT_COMMERCE, fees: { ...DEFAULT_FEES } }

beforeAll(async () => {
  t = await createTestApp({
    commerce,
    clock: () => now,
    payments: { ...testPaymentSettings(), provider, testProvider: provider, reservationMs: 15 * 60_000 },
  })
  provider.setSink(async (w) => {
    await t.call('payment/webhook/razorpay', {
      method: 'POST',
      body: w.rawBody,
      headers: { 'Content-Type': 'application/json', 'X-Razorpay-Signature': w.signature, 'x-razorpay-event-id': w.eventId },
    })
  })
  admin = await createAdmin(t)
})
afterAll(() => t?.close())

type Buyer = SignedIn & { addressId: string }

/** A shopper with `units` of a new product at `price` rupees (MRP = price) in the cart. */
async function buyer(price: number, units = 1): Promise<Buyer & { productId: string }> {
  const p = await insertProduct(t.db, { name: `Fee test ${++seq}`, unit: '1 pc', price, sellingPrice: price, stock: 50 })
  const who = await createShopperWithAddress(t)
  for (let i = 0; i < units; i++)
    expect((await t.call('cart/create', { method: 'POST', json: { productId: p.id }, token: who.token })).status).toBe(200)
  return { ...who, productId: p.id }
}
const cartBill = async (who: SignedIn) => (await t.call('cart/get', { token: who.token })).body.bill
const place = (who: Buyer, json: Record<string, unknown> = {}) =>
  t.call('order/cash-on-delivery', {
    method: 'POST',
    json: { addressId: who.addressId, ...json },
    token: who.token,
    headers: { 'Idempotency-Key': `fees-${process.pid}-${++seq}` },
  })

describe('the named fees', () => {
  it('a small cart at noon: handling and small cart fees on the cart and the order, stored, in the grand total', async () => {
    now = NOON
    const who = await buyer(50)
    const bill = await cartBill(who)
    expect(bill).toMatchObject({
      itemsTotal: 50,
      deliveryCharge: 25,
      handlingCharge: 2,
      smallCartFee: 20,
      smallCartBelow: 99,
      grandTotal: 97,
    })
    expect(bill.lateNightFee).toBeUndefined()
    const placed = await place(who, { shownFees: 22 })
    expect(placed.status, JSON.stringify(placed.body)).toBe(201)
    const order = placed.body.data
    expect(order.bill).toMatchObject({ handlingCharge: 2, smallCartFee: 20, grandTotal: 97 })
    // A placed order's bill names the fees, not today's rules.
    expect(order.bill.smallCartBelow).toBeUndefined()
    expect(order.totalAmt).toBe(97)
    const [row] = await t.db.select().from(orders).where(eq(orders.id, order._id))
    expect(row).toMatchObject({ handlingChargePaise: 200, smallCartFeePaise: 2000, lateNightFeePaise: 0, grandTotalPaise: 9700 })
  })

  it('from the threshold up no small cart fee; late at night the surcharge, named with its hours', async () => {
    now = ist(23, 30)
    const who = await buyer(99)
    const bill = await cartBill(who)
    expect(bill).toMatchObject({ itemsTotal: 99, handlingCharge: 2, lateNightFee: 15, lateNightHours: '23:00-05:00' })
    expect(bill.smallCartFee).toBeUndefined()
    expect(bill.grandTotal).toBe(99 + 25 + 2 + 15)
    const placed = await place(who, { shownFees: 17 })
    expect(placed.status, JSON.stringify(placed.body)).toBe(201)
    expect(placed.body.data.bill).toMatchObject({ lateNightFee: 15, grandTotal: 141 })
    now = NOON
  })

  it('fees that changed between the bill and the press are 409 with the bill as it is now; that bill then places', async () => {
    now = ist(22, 59)
    const who = await buyer(120)
    const shown = await cartBill(who)
    expect(shown.lateNightFee).toBeUndefined()
    expect(shown.grandTotal).toBe(120 + 25 + 2)
    // The press comes at 23:00: the late-night hours began.
    now = ist(23, 0)
    const stale = await place(who, { shownFees: 2 })
    expect(stale.status).toBe(409)
    expect(stale.body.bill).toMatchObject({ handlingCharge: 2, lateNightFee: 15, grandTotal: 162 })
    expect(stale.body.message).toBe(
      'The fees have changed (handling charge ₹2, late night fee ₹15): the total is ₹162. Check the bill and place the order again.',
    )
    expect((await t.call('cart/get', { token: who.token })).body.data).toHaveLength(1)
    const placed = await place(who, { shownFees: 17 })
    expect(placed.status).toBe(201)
    expect(placed.body.data.totalAmt).toBe(162)
    now = NOON
  })

  it('six placements of one key at once make one order with its fees once', async () => {
    now = NOON
    const who = await buyer(30)
    const key = `fees-race-${process.pid}-${++seq}`
    const all = await Promise.all(
      Array.from({ length: 6 }, () =>
        t.call('order/cash-on-delivery', {
          method: 'POST',
          json: { addressId: who.addressId, shownFees: 22 },
          token: who.token,
          headers: { 'Idempotency-Key': key },
        }),
      ),
    )
    expect(all.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 201])
    expect(new Set(all.map((r) => r.body.data._id)).size).toBe(1)
    const rows = await t.db.select().from(orders).where(eq(orders.userId, who.user.id))
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ handlingChargePaise: 200, smallCartFeePaise: 2000, grandTotalPaise: 3000 + 2500 + 2200 })
  })

  it('the original client (no shownFees) places with the fees of the moment, unchecked', async () => {
    now = NOON
    const who = await buyer(40)
    const placed = await place(who, { list_items: [], subTotalAmt: 40, totalAmt: 40 })
    expect(placed.status).toBe(201)
    expect(placed.body.data.bill).toMatchObject({ handlingCharge: 2, smallCartFee: 20, grandTotal: 87 })
  })

  it('stored fees survive a change of the configuration: the order, its invoice and the CSV keep them', async () => {
    now = NOON
    const who = await buyer(60)
    const placed = await place(who, { shownFees: 22, tip: 20, shownTip: 20 })
    expect(placed.status).toBe(201)
    const order = placed.body.data
    expect(order.bill).toMatchObject({ handlingCharge: 2, smallCartFee: 20, tip: 20, grandTotal: 60 + 25 + 2 + 20 + 20 })
    commerce.fees = { ...DEFAULT_FEES, handlingChargePaise: 0, smallCartFeePaise: 5000 }
    try {
      const seen = (await t.call('order/details', { method: 'POST', json: { orderId: order._id }, token: who.token })).body.data
      expect(seen.bill).toMatchObject({ handlingCharge: 2, smallCartFee: 20, grandTotal: 127 })
      // The invoice: a line per fee at the delivery charge's rate and SAC; the tip outside its totals.
      const invoice = (await t.call('invoice/details', { method: 'POST', json: { orderId: order._id }, token: who.token })).body.data
      const fees = invoice.lines.filter((l: { kind: string }) => l.kind === 'fee')
      expect(fees.map((l: { name: string; amount: number; gstRate: number; hsn: string }) => [l.name, l.amount, l.gstRate, l.hsn])).toEqual(
        [
          ['Handling charge', 2, 18, '9968'],
          ['Small cart fee', 20, 18, '9968'],
        ],
      )
      const delivery = invoice.lines.find((l: { kind: string }) => l.kind === 'delivery')
      expect(delivery).toMatchObject({ amount: 25, gstRate: 18, hsn: '9968' })
      // ₹20 at 18 % GST inclusive: 20 × 18 / 118 = 3.05 (rounded half up), CGST 1.52 + SGST 1.53.
      expect(fees[1]).toMatchObject({ taxable: 16.95, cgst: 1.52, sgst: 1.53 })
      expect(invoice.totals).toMatchObject({ fees: 22, deliveryCharge: 25, itemsTotal: 60, grandTotal: 107 })
      expect(Math.round((invoice.totals.amount + invoice.totals.rounding) * 100)).toBe(10700)
      expect(invoice.tip).toBe(20)
      // The admin's CSV: the tip, the three fee columns, then the delivery failure (none here) closing the row.
      const res = await t.app.request(`/api/order/admin/export?q=${order.orderId}`, { headers: { Authorization: `Bearer ${admin.token}` } })
      const [header, ...rows] = parse((await res.text()).replace(/^\uFEFF/, '')) as string[][]
      expect(header!.slice(-5)).toEqual(['Tip (₹)', 'Handling charge (₹)', 'Small cart fee (₹)', 'Late night fee (₹)', 'Delivery failure'])
      expect(rows.map((r) => r.slice(-5))).toEqual([['20.00', '2.00', '20.00', '0.00', '']])
      // A new cart reads the new configuration: no handling charge, a ₹50 small cart fee.
      const next = await buyer(60)
      expect(await cartBill(next)).toMatchObject({ smallCartFee: 50, grandTotal: 60 + 25 + 50 })
      expect((await cartBill(next)).handlingCharge).toBeUndefined()
    } finally {
      commerce.fees = { ...DEFAULT_FEES }
    }
  })

  it('a cancelled cash order: its credit note reverses the fee lines with the rest, to the invoice', async () => {
    now = NOON
    const who = await buyer(45)
    const placed = await place(who, { shownFees: 22 })
    const order = placed.body.data
    expect((await t.call('order/cancel', { method: 'POST', json: { orderId: order._id }, token: who.token })).status).toBe(200)
    const invoice = (await t.call('invoice/details', { method: 'POST', json: { orderId: order._id }, token: who.token })).body.data
    const [note] = (await t.call('invoice/credit-notes', { method: 'POST', json: { orderId: order._id }, token: who.token })).body.data
    expect(note.reason).toBe('cancelled')
    expect(note.lines.filter((l: { kind: string }) => l.kind === 'fee').map((l: { name: string }) => l.name)).toEqual([
      'Handling charge',
      'Small cart fee',
    ])
    expect(note.totals).toEqual(invoice.totals)
  })

  it('paid online: the payment is the grand total with the fees; line refunds never give the fees back, a cancellation does', async () => {
    now = NOON
    const a = await insertProduct(t.db, { name: `Fee paid A ${++seq}`, price: 30, sellingPrice: 30, stock: 9 })
    const b = await insertProduct(t.db, { name: `Fee paid B ${++seq}`, price: 40, sellingPrice: 40, stock: 9 })
    const start = async () => {
      const who = await createShopperWithAddress(t)
      for (const id of [a.id, b.id]) await t.call('cart/create', { method: 'POST', json: { productId: id }, token: who.token })
      const res = await t.call('payment/start', {
        method: 'POST',
        json: {
          addressId: who.addressId,
          method: 'upi',
          callbackUrl: 'http://shop.test/cb',
          cancelUrl: 'http://shop.test/checkout',
          shownFees: 22,
        },
        token: who.token,
        headers: { 'Idempotency-Key': `fees-pay-${process.pid}-${++seq}` },
      })
      expect(res.status, JSON.stringify(res.body)).toBe(201)
      const { order, checkout } = res.body.data
      // ₹70 + ₹25 delivery + ₹2 handling + ₹20 small cart.
      expect(checkout.amount).toBe(11700)
      const done = await provider.complete(checkout.providerOrderId, 'captured')
      await t.call('payment/callback', { method: 'POST', json: done })
      return { who, order }
    }
    const details = async (who: SignedIn, id: string) =>
      (await t.call('order/details', { method: 'POST', json: { orderId: id }, token: who.token })).body.data
    const waitFor = async (check: () => Promise<boolean>) => {
      for (let i = 0; i < 100; i++) {
        if (await check()) return
        await new Promise((r) => setTimeout(r, 20))
      }
      throw new Error('condition not met')
    }

    const first = await start()
    for (const productId of [a.id, b.id]) {
      const res = await t.call('payment/refund-line', { method: 'POST', json: { orderId: first.order._id, productId }, token: admin.token })
      expect(res.status).toBe(200)
    }
    // Both refunds settled (the provider answers each in its own time): ₹70 back, the fees kept.
    await waitFor(async () => (await details(first.who, first.order._id)).payment.state === 'partially_refunded')
    expect((await details(first.who, first.order._id)).payment).toMatchObject({ state: 'partially_refunded', refunded: 70 })

    const second = await start()
    const cancel = await t.call('order/cancel', { method: 'POST', json: { orderId: second.order._id }, token: second.who.token })
    expect(cancel.body.data.payment.refunds).toMatchObject([{ amount: 117, reason: 'Order cancelled' }])
    await waitFor(async () => (await details(second.who, second.order._id)).payment.state === 'refunded')
  })
})
