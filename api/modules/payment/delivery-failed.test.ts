/**
 * A failed delivery (docs/delivery.md, "Could not deliver"; docs/decisions/0072-delivery-failed.md), on
 * a fresh database (PGlite, or PostgreSQL with TEST_DATABASE_URL, where the race runs on separate
 * connections): out for delivery → delivery_failed with a reason from the fixed list, marked by the
 * order's rider or the order desk; in one transaction the stock goes back to the order's store, a paid
 * order is refunded in full (delivery fee and tip included) exactly once, a cash-on-delivery order is
 * closed without charge, the rider is free and an invoiced order gets its credit note; the shopper is
 * told once by mail (and SMS when opted in); the admin list filters it; the CSV shows the reason; the
 * original client's order list still answers it.
 */
import { eq, sql } from 'drizzle-orm'
import { parse } from 'csv-parse/sync'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { queryRows } from '../../db/query.ts'
import { orders, riderShifts, users } from '../../db/schema.ts'
import type { MailMessage } from '../../lib/mail.ts'
import type { SmsMessage } from '../../lib/sms.ts'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { createAdmin, createRider, createShopper, createStaff, type SignedIn } from '../../testing/auth.ts'
import { insertProduct, SEEDED_DEFAULT_STORE, stockIn } from '../../testing/fixtures.ts'
import { createShopperWithAddress, payOnline, placeWithKey } from '../../testing/orders.ts'
import { couponUses } from '../coupon/checkout.ts'
import { sendOrderMail } from '../order/mail.ts'
import { hmacHex } from './provider.ts'
import { testPaymentSettings } from './settings.ts'
import { createTestProvider } from './test-provider.ts'
import { DELIVERY_FAILURE_MESSAGES, DELIVERY_FAILURE_WORDS, type DeliveryFailureReason } from '../../../contract/delivery-failure.ts'
import { RIDER_MESSAGES } from '../../../contract/rider.ts'

const KORAMANGALA = 'storeBlrKoramangala'
const provider = createTestProvider({ keySecret: 'test-key-secret-0123456789', webhookSecret: 'test-webhook-secret-0123456789' })

let t: TestApp
let admin: SignedIn
let staff: SignedIn
const sent: MailMessage[] = []
const texts: SmsMessage[] = []

beforeAll(async () => {
  t = await createTestApp({
    publicUrl: 'https://shop.example',
    mailer: { send: async (m) => void sent.push(m) },
    sms: { send: async (m) => void texts.push(m) },
    payments: { ...testPaymentSettings(), provider, testProvider: provider },
  })
  // The provider's webhooks (refund settled) go to the app, as in production.
  provider.setSink(async (w) => {
    await t.call('payment/webhook/razorpay', {
      method: 'POST',
      body: w.rawBody,
      headers: {
        'Content-Type': 'application/json',
        'X-Razorpay-Signature': hmacHex('test-webhook-secret-0123456789', w.rawBody),
        'x-razorpay-event-id': w.eventId,
      },
    })
  })
  admin = await createAdmin(t)
  staff = await createStaff(t)
}, 180_000)
afterAll(() => t?.close())

/** Every rider off shift: each test's own rider is the only free one. */
beforeEach(async () => {
  await t.db.update(riderShifts).set({ onShift: false })
})

let keySeq = 0
const key = () => `failed-${process.pid}-${++keySeq}`
const details = async (who: SignedIn, orderId: string) =>
  (await t.call('order/details', { method: 'POST', json: { orderId }, token: who.token })).body.data
const waitFor = async (check: () => Promise<boolean>) => {
  for (let i = 0; i < 100; i++) {
    if (await check()) return
    await new Promise((r) => setTimeout(r, 20))
  }
  throw new Error('condition not met')
}

/**
 * An order out for delivery with its own rider: one unit of a fresh product (₹`price`, stock 10 in
 * the default store and 7 in Koramangala), cash on delivery or paid online with a ₹20 tip.
 */
async function outForDelivery(opts: { paid?: boolean; price?: number } = {}) {
  const product = await insertProduct(t.db, {
    name: `Masoor Dal ${++keySeq}`,
    price: opts.price ?? 120,
    sellingPrice: opts.price ?? 120,
    stock: 10,
    storeStock: { [KORAMANGALA]: 7 },
  })
  const who = await createShopperWithAddress(t)
  expect((await t.call('cart/create', { method: 'POST', json: { productId: product.id }, token: who.token })).status).toBe(200)
  let order: { _id: string; orderId: string; bill: { grandTotal: number; deliveryCharge: number; tip?: number } }
  if (opts.paid) {
    order = await payOnline(t, who, provider, key(), { tip: 20, shownTip: 20 })
  } else {
    const res = await placeWithKey(t, who, key())
    expect(res.status).toBe(201)
    order = res.body.data
  }
  const rider = await createRider(t, SEEDED_DEFAULT_STORE)
  expect((await t.call('rider/shift', { method: 'POST', json: { onShift: true }, token: rider.token })).status).toBe(200)
  expect(
    (await t.call('order/update-status', { method: 'PUT', json: { orderId: order._id, status: 'packed' }, token: admin.token })).status,
  ).toBe(200)
  expect((await t.call('rider/picked-up', { method: 'POST', json: { orderId: order._id }, token: rider.token })).status).toBe(200)
  expect(await stockIn(t.db, product.id)).toBe(9)
  return { product, who, order, rider }
}

const couldNotDeliver = (rider: SignedIn, orderId: string, reason: string, note?: string) =>
  t.call('rider/could-not-deliver', {
    method: 'POST',
    json: { orderId, reason, ...(note !== undefined ? { note } : {}) },
    token: rider.token,
  })
const markFailed = (by: SignedIn, orderId: string, failureReason?: string, failureNote?: string) =>
  t.call('order/update-status', {
    method: 'PUT',
    json: { orderId, status: 'delivery_failed', ...(failureReason ? { failureReason } : {}), ...(failureNote ? { failureNote } : {}) },
    token: by.token,
  })
const refundRows = (orderId: string) =>
  queryRows<{ amount_paise: number; reason: string }>(t.db, sql`select amount_paise, reason from refunds where order_id = ${orderId}`)

describe('the rider\'s "Could not deliver"', () => {
  const cases: [DeliveryFailureReason, string | undefined, string][] = [
    ['not_reachable', undefined, DELIVERY_FAILURE_WORDS.not_reachable],
    ['address_not_found', undefined, DELIVERY_FAILURE_WORDS.address_not_found],
    ['refused', 'Said it was ordered by mistake', `${DELIVERY_FAILURE_WORDS.refused} — Said it was ordered by mistake`],
    ['other', 'Gate locked, society guard refused entry', 'Gate locked, society guard refused entry'],
  ]
  for (const [reason, note, words] of cases) {
    it(`${reason}: a COD order ends delivery_failed, stock back to its store, closed without charge, the rider free`, async () => {
      const { product, who, order, rider } = await outForDelivery()
      sent.length = 0
      const res = await couldNotDeliver(rider, order._id, reason, note)
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      expect(res.body.data.orders).toEqual([])
      // The stock is back in the order's store only.
      expect(await stockIn(t.db, product.id)).toBe(10)
      expect(await stockIn(t.db, product.id, KORAMANGALA)).toBe(7)
      const [row] = await t.db.select().from(orders).where(eq(orders.id, order._id))
      expect(row).toMatchObject({
        status: 'delivery_failed',
        deliveryFailureReason: reason,
        deliveryFailureNote: note ?? null,
        cashCollectedPaise: null,
        paymentState: 'cod',
      })
      expect(row!.deliveryFailedAt).toBeInstanceOf(Date)
      expect(await refundRows(order._id)).toEqual([])
      // The rider is free again: nothing held, waiting from now.
      const [shift] = await t.db.select().from(riderShifts).where(eq(riderShifts.userId, rider.user.id))
      expect(shift!.freeSince.getTime()).toBe(row!.deliveryFailedAt!.getTime())
      expect((await t.call('rider/me', { token: rider.token })).body.data.freeSince).not.toBeNull()
      // The shopper's answer says why.
      const mine = await details(who, order._id)
      expect(mine).toMatchObject({ status: 'delivery_failed', deliveryFailure: { reason, text: words, note: note ?? null } })
      expect(mine.statusHistory.at(-1).status).toBe('delivery_failed')
      // Told once by mail, with the reason and the money in words.
      await t.deps.jobs.drain()
      await t.deps.jobs.drain()
      const mails = sent.filter((m) => m.subject === `Your order ${order.orderId} could not be delivered`)
      expect(mails).toHaveLength(1)
      expect(mails[0]!.text).toContain(`Reason: ${words}`)
      expect(mails[0]!.text).toContain('Nothing is charged')
    })
  }

  it('refuses a reason off the list, `other` without a note, a long note (400); a packed order (409); another rider’s order (404)', async () => {
    const { order, rider } = await outForDelivery()
    for (const body of [
      { reason: 'lost' },
      { reason: 'Nobody home' },
      { reason: 'other' },
      { reason: 'other', note: '   ' },
      { reason: 'other', note: 'x'.repeat(121) },
      { reason: 'refused', note: 'bad\u0000text' },
      {},
    ]) {
      const res = await t.call('rider/could-not-deliver', { method: 'POST', json: { orderId: order._id, ...body }, token: rider.token })
      expect(res.status, JSON.stringify(body)).toBe(400)
    }
    const other = await createRider(t, SEEDED_DEFAULT_STORE)
    expect((await couldNotDeliver(other, order._id, 'not_reachable')).status).toBe(404)
    // A shopper is no rider; nor may the shopper mark it at the order desk.
    const shopper = await createShopper(t)
    expect((await couldNotDeliver(shopper, order._id, 'not_reachable')).status).toBe(403)
    expect((await markFailed(shopper, order._id, 'not_reachable')).status).toBe(403)
    // Nothing moved.
    expect((await t.db.select({ s: orders.status }).from(orders).where(eq(orders.id, order._id)))[0]!.s).toBe('out_for_delivery')
    // A packed order is not out for delivery: the rider's words.
    const packed = await outForDelivery()
    await t.db.update(orders).set({ status: 'packed' }).where(eq(orders.id, packed.order._id))
    const early = await couldNotDeliver(packed.rider, packed.order._id, 'not_reachable')
    expect(early.status).toBe(409)
    expect(early.body.message).toBe(RIDER_MESSAGES.notOutForDelivery)
  })
})

describe('a paid order whose delivery failed', () => {
  it('is refunded in full, delivery fee and tip included, through the refunds; the page and mail say so', async () => {
    const { product, who, order, rider } = await outForDelivery({ paid: true, price: 120 })
    // Below free delivery: the fee is on the bill, and the tip.
    expect(order.bill).toMatchObject({ deliveryCharge: 25, tip: 20, grandTotal: 165 })
    sent.length = 0
    const res = await couldNotDeliver(rider, order._id, 'refused')
    expect(res.status).toBe(200)
    expect(await refundRows(order._id)).toEqual([{ amount_paise: 16_500, reason: 'Delivery failed' }])
    expect(await stockIn(t.db, product.id)).toBe(10)
    await waitFor(async () => (await details(who, order._id)).payment.state === 'refunded')
    expect((await details(who, order._id)).payment).toMatchObject({ refunded: 165, refunds: [{ amount: 165, status: 'processed' }] })
    await t.deps.jobs.drain()
    const mail = sent.find((m) => m.subject === `Your order ${order.orderId} could not be delivered`)
    expect(mail!.text).toMatch(/Your payment of ₹165 (is being|has been) refunded in full/)
  })

  it('staff mark it from the order desk too (the refund follows the failure, not a choice); admin needs the reason', async () => {
    const { order } = await outForDelivery({ paid: true })
    const bare = await markFailed(admin, order._id)
    expect(bare.status).toBe(400)
    expect(JSON.stringify(bare.body)).toContain(DELIVERY_FAILURE_MESSAGES.reasonRequired)
    expect((await markFailed(admin, order._id, 'other')).status).toBe(400)
    expect((await markFailed(admin, order._id, 'nobody')).status).toBe(400)
    const res = await markFailed(staff, order._id, 'address_not_found', 'No such flat number')
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.data).toMatchObject({
      status: 'delivery_failed',
      deliveryFailure: { reason: 'address_not_found', text: 'Address not found — No such flat number' },
    })
    expect((await refundRows(order._id)).map((r) => r.amount_paise)).toEqual([Math.round(res.body.data.totalAmt * 100)])
    // Ended: no second mark, no other arrow out of it.
    expect((await markFailed(admin, order._id, 'refused')).status).toBe(409)
    for (const status of ['delivered', 'cancelled', 'packed'])
      expect(
        (await t.call('order/update-status', { method: 'PUT', json: { orderId: order._id, status }, token: admin.token })).status,
      ).toBe(409)
  })

  it('only from out for delivery: a placed or delivered order is a 409; a bulk move to it is a 400', async () => {
    const { order, rider } = await outForDelivery()
    expect(
      (await t.call('rider/delivered', { method: 'POST', json: { orderId: order._id, cashCollectedPaise: 14_500 }, token: rider.token }))
        .status,
    ).toBe(200)
    expect((await markFailed(admin, order._id, 'not_reachable')).status).toBe(409)
    const bulk = await t.call('order/bulk-status', {
      method: 'POST',
      json: { orderIds: [order._id], status: 'delivery_failed' },
      token: admin.token,
    })
    expect(bulk.status).toBe(400)
    expect(JSON.stringify(bulk.body)).toContain(DELIVERY_FAILURE_MESSAGES.bulkRefused)
  })
})

describe('at once', () => {
  it('duplicate marks from the rider and the admin: one wins, one refund, one stock return', async () => {
    const { product, order, rider } = await outForDelivery({ paid: true })
    const results = await Promise.all([
      couldNotDeliver(rider, order._id, 'not_reachable'),
      markFailed(admin, order._id, 'not_reachable'),
      couldNotDeliver(rider, order._id, 'refused'),
      markFailed(admin, order._id, 'address_not_found'),
    ])
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409])
    expect(await refundRows(order._id)).toHaveLength(1)
    expect(await stockIn(t.db, product.id)).toBe(10)
    const history = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from order_status_history where order_id = ${order._id} and status = 'delivery_failed'`,
    )
    expect(history[0]!.n).toBe(1)
  })
})

describe('what else follows', () => {
  it('an invoiced order gets its credit note; the SMS goes to a shopper who opted in; the mail is sent once', async () => {
    const { who, order, rider } = await outForDelivery()
    // The earlier steps' messages first: only the failure's is asked about.
    await t.deps.jobs.drain()
    const mobile = '9123456781'
    await t.db.update(users).set({ mobile, mobileVerified: true, smsOrderUpdates: true }).where(eq(users.id, who.user.id))
    texts.length = 0
    sent.length = 0
    expect((await couldNotDeliver(rider, order._id, 'not_reachable')).status).toBe(200)
    const notes = await queryRows<{ reason: string }>(t.db, sql`select reason from credit_notes where order_id = ${order._id}`)
    expect(notes).toEqual([{ reason: 'cancelled' }])
    await t.deps.jobs.drain()
    await t.deps.jobs.drain()
    expect(texts.filter((m) => m.to === mobile)).toEqual([
      {
        to: mobile,
        template: 'order-status',
        text: `Your order ${order.orderId} could not be delivered. See your order: https://shop.example/dashboard/myorder/${order._id}`,
      },
    ])
    // The job run again (its acknowledgement lost): neither the mail nor the SMS goes twice.
    await sendOrderMail(t.deps, { kind: 'status', orderId: order._id, status: 'delivery_failed' })
    expect(sent.filter((m) => m.subject.includes(order.orderId))).toHaveLength(1)
    expect(texts.filter((m) => m.to === mobile)).toHaveLength(1)
  })

  it("the admin list filters it, the CSV shows status and reason, the original client's list still answers it", async () => {
    const { who, order, rider } = await outForDelivery()
    expect((await couldNotDeliver(rider, order._id, 'other', 'Dog at the gate')).status).toBe(200)
    const list = await t.call('order/admin-list', { method: 'POST', json: { status: 'delivery_failed', limit: 50 }, token: admin.token })
    expect(list.status).toBe(200)
    const ids = (list.body.data as { _id: string; status: string }[]).map((o) => o._id)
    expect(ids).toContain(order._id)
    expect((list.body.data as { status: string }[]).every((o) => o.status === 'delivery_failed')).toBe(true)
    const placed = await t.call('order/admin-list', { method: 'POST', json: { status: 'placed', limit: 50 }, token: admin.token })
    expect((placed.body.data as { _id: string }[]).map((o) => o._id)).not.toContain(order._id)
    const csv = await t.app.request(`/api/order/admin/export?q=${order.orderId}`, { headers: { Authorization: `Bearer ${admin.token}` } })
    const [header, ...rows] = parse((await csv.text()).replace(/^\uFEFF/, '')) as string[][]
    expect(rows).toHaveLength(1)
    expect(rows[0]![header!.indexOf('Status')]).toBe('delivery_failed')
    expect(rows[0]![header!.indexOf('Delivery failure')]).toBe('Dog at the gate')
    // The original client's My Orders: its fields as before, the new status value as the status.
    const mine = (await t.call('order/order-list', { token: who.token })).body.data as Record<string, unknown>[]
    expect(mine.find((o) => o._id === order._id)).toMatchObject({
      status: 'delivery_failed',
      payment_status: 'CASH ON DELIVERY',
      product_details: { name: expect.stringContaining('Masoor Dal') },
      totalAmt: expect.any(Number),
    })
  })

  it('gives the coupon use back: a failed order is no use (the first-order rule counts it no more)', async () => {
    const { who, order } = await outForDelivery()
    // The shopper's orders as the coupon rule counts them (api/modules/coupon/checkout.ts).
    const uses = async () => (await couponUses(t.db, 'no-such-coupon', who.user.id)).shopperOrders
    expect(await uses()).toBe(1)
    expect((await markFailed(admin, order._id, 'refused')).status).toBe(200)
    expect(await uses()).toBe(0)
  })
})
