/**
 * Exactly-once payment events through the HTTP app (docs/payments.md, "Exactly once"; docs/decisions/0041-payment-events-exactly-once.md),
 * on a fresh database (PGlite, or PostgreSQL with TEST_DATABASE_URL, where the concurrent copies
 * really run at once): copies of one signed webhook sent together apply once (one replacement
 * refund, one provider call), a capture applied by many copies and the callback at once marks paid
 * once and refunds a surplus capture once, a failed line refund is sent again up to
 * REFUND_MAX_FAILURES times, a correct capture after a mismatched one is applied and a capture the
 * order no longer needs is refunded in full, and the callback's failure answer names no internal id.
 * The provider is a small in-memory fake of the PaymentProvider calls, so each refund call is counted
 * and no refund settles by itself.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryRows } from '../../db/query.ts'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { createAdmin, createShopper, type SignedIn } from '../../testing/auth.ts'
import { insertProduct, stockIn } from '../../testing/fixtures.ts'
import { captureLog } from '../../testing/log-capture.ts'
import {
  hmacHex,
  paymentSignature,
  ProviderError,
  sameSignature,
  type PaymentProvider,
  type ProviderOrder,
  type ProviderPayment,
  type ProviderRefund,
} from './provider.ts'
import { REFUND_MAX_FAILURES, sendPendingRefunds } from './refunds.ts'
import { expireReservations } from './service.ts'
import { testPaymentSettings } from './settings.ts'

const KEY_SECRET = 'fake-key-secret-0123456789'
const WEBHOOK_SECRET = 'fake-webhook-secret-0123456789'
/** How many copies of one webhook are sent at once. */
const COPIES = 6

/** A provider that answers from memory: payments are added by the test, refunds are counted and stay pending. */
function fakeProvider() {
  const orders = new Map<string, ProviderOrder>()
  const payments = new Map<string, ProviderPayment>()
  const refundCalls: ProviderRefund[] = []
  let seq = 0
  const provider: PaymentProvider = {
    name: 'razorpay',
    keyId: 'rzp_test_Fake000001',
    async createOrder(input) {
      const order = {
        id: `order_Fake${String(++seq).padStart(10, '0')}`,
        amount: input.amount,
        currency: 'INR',
        receipt: input.receipt,
        status: 'created',
      }
      orders.set(order.id, order)
      return { ...order }
    },
    async fetchPayment(id) {
      const payment = payments.get(id)
      if (!payment) throw new ProviderError('The id provided does not exist', 400, 'BAD_REQUEST_ERROR')
      return { ...payment }
    },
    async fetchOrderPayments(orderId) {
      return [...payments.values()].filter((p) => p.order_id === orderId)
    },
    async refund(paymentId, input) {
      const refund = {
        id: `rfnd_Fake${String(refundCalls.length + 1).padStart(10, '0')}`,
        payment_id: paymentId,
        amount: input.amount,
        status: 'pending',
        receipt: input.receipt,
      }
      refundCalls.push(refund)
      return { ...refund }
    },
    async fetchRefunds(paymentId) {
      return refundCalls.filter((r) => r.payment_id === paymentId).reverse()
    },
    verifyPaymentSignature: ({ orderId, paymentId, signature }) =>
      sameSignature(paymentSignature(KEY_SECRET, orderId, paymentId), signature),
    verifyWebhookSignature: (rawBody, signature) => sameSignature(hmacHex(WEBHOOK_SECRET, rawBody), signature),
    hostedCheckout: (input) => ({ url: 'https://pay.invalid/checkout', fields: { order_id: input.providerOrderId } }),
  }
  /** The provider captures `amount` paise (the order's by default) as payment `id` of provider order `orderId`. */
  const capture = (orderId: string, id: string, amount?: number, currency = 'INR'): ProviderPayment => {
    const payment = { id, order_id: orderId, amount: amount ?? orders.get(orderId)!.amount, currency, status: 'captured', method: 'upi' }
    payments.set(id, payment)
    return payment
  }
  return { provider, refundCalls, capture }
}

const fake = fakeProvider()
const log = captureLog()
let t: TestApp
let admin: SignedIn
/** Added to the real time by the app's clock: a test moves it past a hold's end. */
let offset = 0

beforeAll(async () => {
  t = await createTestApp({
    logger: log.logger,
    clock: () => new Date(Date.now() + offset),
    payments: { ...testPaymentSettings(), provider: fake.provider, testProvider: undefined },
  })
  admin = await createAdmin(t)
})
afterAll(() => t?.close())

const address = { address_line: '12, Old Airport Road', city: 'Bengaluru', state: 'Karnataka', pincode: '560008', mobile: '9845012345' }
const urls = { callbackUrl: 'https://shop.example/checkout/payment/callback', cancelUrl: 'https://shop.example/checkout' }
let seq = 0

interface Started {
  who: SignedIn
  order: { _id: string; orderId: string }
  checkout: { providerOrderId: string; amount: number }
  products: string[]
}

/** A shopper's cart of one unit of each price (rupees) started as an online payment. */
async function started(prices: number[]): Promise<Started> {
  const who = await createShopper(t)
  const addressId = (await t.call('address/create', { method: 'POST', json: address, token: who.token })).body.data._id
  const products: string[] = []
  for (const price of prices) {
    const p = await insertProduct(t.db, { name: `Item ${++seq}`, price, sellingPrice: price, stock: 5 })
    expect((await t.call('cart/create', { method: 'POST', json: { productId: p.id }, token: who.token })).status).toBe(200)
    products.push(p.id)
  }
  const res = await t.call('payment/start', {
    method: 'POST',
    json: { addressId, method: 'upi', ...urls },
    token: who.token,
    headers: { 'Idempotency-Key': `once-${process.pid}-${++seq}` },
  })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return { who, products, ...res.body.data }
}

const callback = (fields: Record<string, unknown>) => t.call('payment/callback', { method: 'POST', json: fields })
const signedCallback = (payment: ProviderPayment) =>
  callback({
    razorpay_order_id: payment.order_id,
    razorpay_payment_id: payment.id,
    razorpay_signature: paymentSignature(KEY_SECRET, payment.order_id, payment.id),
  })
/** A signed Razorpay-shaped webhook of `event` with `entities`, as event `eventId`. */
const webhook = (event: string, entities: Record<string, unknown>, eventId: string) => {
  const body = JSON.stringify({
    entity: 'event',
    event,
    contains: Object.keys(entities),
    payload: Object.fromEntries(Object.entries(entities).map(([k, v]) => [k, { entity: v }])),
  })
  return t.call('payment/webhook/razorpay', {
    method: 'POST',
    body,
    headers: { 'Content-Type': 'application/json', 'X-Razorpay-Signature': hmacHex(WEBHOOK_SECRET, body), 'x-razorpay-event-id': eventId },
  })
}
const refundFailed = (refund: ProviderRefund, eventId: string) =>
  webhook('refund.failed', { refund: { ...refund, entity: 'refund', status: 'failed' } }, eventId)

const refundRows = (orderId: string) =>
  queryRows<{ status: string; amount_paise: number; provider_payment_id: string; order_line_id: string | null }>(
    t.db,
    sql`select r.status, r.amount_paise, p.provider_payment_id, r.order_line_id from refunds r join payments p on p.id = r.payment_id
      where r.order_id = ${orderId} order by r.created_at, r.id`,
  )
const details = async (s: Started) =>
  (await t.call('order/details', { method: 'POST', json: { orderId: s.order._id }, token: s.who.token })).body.data
const callsFor = (paymentId: string) => fake.refundCalls.filter((r) => r.payment_id === paymentId)
const placedCount = async (s: Started) => (await details(s)).statusHistory.filter((h: { status: string }) => h.status === 'placed').length

describe('copies of one webhook at once', () => {
  it(`${COPIES} copies of one refund.failed: one replacement refund, one more provider call`, async () => {
    const s = await started([145])
    const payment = fake.capture(s.checkout.providerOrderId, `pay_Once${++seq}`)
    expect((await signedCallback(payment)).body.data.outcome).toBe('paid')
    expect((await t.call('order/cancel', { method: 'POST', json: { orderId: s.order._id }, token: s.who.token })).status).toBe(200)
    expect(callsFor(payment.id)).toHaveLength(1)
    const answers = await Promise.all(Array.from({ length: COPIES }, () => refundFailed(callsFor(payment.id)[0]!, `evt_Once${seq}`)))
    expect(answers.map((a) => a.status)).toEqual(Array(COPIES).fill(200))
    expect(answers.filter((a) => !a.body.data.duplicate)).toHaveLength(1)
    expect((await refundRows(s.order._id)).map((r) => r.status)).toEqual(['failed', 'pending'])
    await sendPendingRefunds(t.deps)
    await sendPendingRefunds(t.deps)
    expect(callsFor(payment.id)).toHaveLength(2)
    expect((await details(s)).payment).toMatchObject({ state: 'refund_pending', refunded: s.checkout.amount / 100 })
  })

  it(`${COPIES} deliveries of one refund's failure under different event ids: still one replacement (the refund row is locked before it is read)`, async () => {
    const s = await started([145])
    const payment = fake.capture(s.checkout.providerOrderId, `pay_Ids${++seq}`)
    expect((await signedCallback(payment)).body.data.outcome).toBe('paid')
    expect((await t.call('order/cancel', { method: 'POST', json: { orderId: s.order._id }, token: s.who.token })).status).toBe(200)
    const answers = await Promise.all(
      Array.from({ length: COPIES }, (_, i) => refundFailed(callsFor(payment.id)[0]!, `evt_Ids${seq}_${i}`)),
    )
    expect(answers.map((a) => a.status)).toEqual(Array(COPIES).fill(200))
    expect((await refundRows(s.order._id)).map((r) => r.status)).toEqual(['failed', 'pending'])
    await sendPendingRefunds(t.deps)
    expect(callsFor(payment.id)).toHaveLength(2)
  })

  it(`${COPIES} copies of a capture and the callback at once: paid once`, async () => {
    const s = await started([120])
    const payment = fake.capture(s.checkout.providerOrderId, `pay_Once${++seq}`)
    const answers = await Promise.all([
      ...Array.from({ length: COPIES / 2 }, () => webhook('payment.captured', { payment }, `evt_Cap${seq}`)),
      ...Array.from({ length: COPIES / 2 }, () => webhook('order.paid', { payment }, `evt_Paid${seq}`)),
      signedCallback(payment),
    ])
    expect(answers.map((a) => a.status)).toEqual(Array(COPIES + 1).fill(200))
    expect(await placedCount(s)).toBe(1)
    expect((await details(s)).payment.state).toBe('paid')
    expect(await refundRows(s.order._id)).toEqual([])
  })

  it('an event whose apply fails is not claimed: the provider’s retry of it applies it', async () => {
    const s = await started([175])
    const payment = fake.capture(s.checkout.providerOrderId, `pay_Retry${++seq}`)
    const jobs = t.deps.jobs
    const send = jobs.send
    // The "paid" email is written in the capture's transaction: its failure fails the whole apply.
    jobs.send = async () => {
      throw new Error('queue down')
    }
    try {
      expect((await webhook('payment.captured', { payment }, `evt_Retry${seq}`)).status).toBe(500)
    } finally {
      jobs.send = send
    }
    expect((await details(s)).status).toBe('payment_pending')
    const again = await webhook('payment.captured', { payment }, `evt_Retry${seq}`)
    expect(again.body.data).toEqual({ duplicate: false, outcome: 'paid' })
    expect(await placedCount(s)).toBe(1)
  })

  it(`a surplus capture (a second provider order of a paid order): ${COPIES} copies and the callback at once refund it once`, async () => {
    const s = await started([230])
    expect((await signedCallback(fake.capture(s.checkout.providerOrderId, `pay_First${++seq}`))).body.data.outcome).toBe('paid')
    // A second tab made its own provider order for the same order.
    const other = await fake.provider.createOrder({ amount: s.checkout.amount, currency: 'INR', receipt: s.order.orderId, notes: {} })
    await t.db.execute(
      sql`insert into payments (id, order_id, provider, provider_order_id, method, amount_paise) values (${`second${seq}`}, ${s.order._id}, 'razorpay', ${other.id}, 'card', ${s.checkout.amount})`,
    )
    const surplus = fake.capture(other.id, `pay_Surplus${seq}`)
    const answers = await Promise.all([
      ...Array.from({ length: COPIES / 2 }, () => webhook('payment.captured', { payment: surplus }, `evt_SCap${seq}`)),
      ...Array.from({ length: COPIES / 2 }, () => webhook('order.paid', { payment: surplus }, `evt_SPaid${seq}`)),
      signedCallback(surplus),
    ])
    expect(answers.map((a) => a.status)).toEqual(Array(COPIES + 1).fill(200))
    await sendPendingRefunds(t.deps)
    expect(callsFor(surplus.id)).toEqual([expect.objectContaining({ amount: s.checkout.amount })])
    expect((await refundRows(s.order._id)).map((r) => [r.provider_payment_id, r.amount_paise])).toEqual([[surplus.id, s.checkout.amount]])
    expect(await placedCount(s)).toBe(1)
  })
})

describe('a failed line refund', () => {
  it(`is sent again, ${REFUND_MAX_FAILURES} times at most; then the order is refund_failed`, async () => {
    const s = await started([300, 80])
    const payment = fake.capture(s.checkout.providerOrderId, `pay_Line${++seq}`)
    expect((await signedCallback(payment)).body.data.outcome).toBe('paid')
    const line = await t.call('payment/refund-line', {
      method: 'POST',
      json: { orderId: s.order._id, productId: s.products[1] },
      token: admin.token,
    })
    expect(line.status, JSON.stringify(line.body)).toBe(200)
    for (let attempt = 1; attempt <= REFUND_MAX_FAILURES; attempt++) {
      expect(callsFor(payment.id)).toHaveLength(attempt)
      const failed = await refundFailed(callsFor(payment.id)[attempt - 1]!, `evt_Line${seq}_${attempt}`)
      expect(failed.status, JSON.stringify(failed.body)).toBe(200)
      await sendPendingRefunds(t.deps)
    }
    expect(callsFor(payment.id)).toHaveLength(REFUND_MAX_FAILURES)
    const rows = await refundRows(s.order._id)
    expect(rows.map((r) => [r.status, r.amount_paise])).toEqual(Array(REFUND_MAX_FAILURES).fill(['failed', 8000]))
    expect(new Set(rows.map((r) => r.order_line_id)).size).toBe(1)
    expect((await details(s)).payment.state).toBe('refund_failed')
    expect(log.lines.join('')).toContain('refund failed at the provider too often')
  })

  it('a line still refunds once: a second refund of a line whose refund is live is a 409', async () => {
    const s = await started([300, 80])
    expect((await signedCallback(fake.capture(s.checkout.providerOrderId, `pay_Twice${++seq}`))).body.data.outcome).toBe('paid')
    const refundLine = () =>
      t.call('payment/refund-line', { method: 'POST', json: { orderId: s.order._id, productId: s.products[1] }, token: admin.token })
    expect((await refundLine()).status).toBe(200)
    expect((await refundLine()).status).toBe(409)
  })
})

describe('a capture the order no longer needs', () => {
  it('a correct capture after a mismatched one is applied; a further capture of the paid order is refunded in full', async () => {
    const s = await started([199])
    const short = fake.capture(s.checkout.providerOrderId, `pay_Short${++seq}`, s.checkout.amount - 100)
    expect((await webhook('payment.captured', { payment: short }, `evt_Short${seq}`)).body.data.outcome).toBe('mismatch')
    expect((await details(s)).payment.state).toBe('mismatch')
    const right = fake.capture(s.checkout.providerOrderId, `pay_Right${seq}`)
    expect((await webhook('payment.captured', { payment: right }, `evt_Right${seq}`)).body.data.outcome).toBe('paid')
    expect(await details(s)).toMatchObject({ status: 'placed', payment: { state: 'paid' } })
    expect((await signedCallback(right)).body.data.outcome).toBe('paid')
    // A third capture on the same provider order: the order is paid, so it goes back in full.
    const extra = fake.capture(s.checkout.providerOrderId, `pay_Extra${seq}`)
    expect((await webhook('payment.captured', { payment: extra }, `evt_Extra${seq}`)).body.data.outcome).toBe('refunded')
    expect((await webhook('order.paid', { payment: extra }, `evt_ExtraPaid${seq}`)).body.data.outcome).toBe('already')
    expect(callsFor(extra.id)).toEqual([expect.objectContaining({ amount: s.checkout.amount })])
    expect(callsFor(right.id)).toEqual([])
    expect((await refundRows(s.order._id)).map((r) => [r.provider_payment_id, r.amount_paise])).toEqual([[extra.id, s.checkout.amount]])
    expect(await details(s)).toMatchObject({ status: 'placed', payment: { state: 'refund_pending' } })
    expect(await placedCount(s)).toBe(1)
  })

  it('a correct capture after a mismatched one and the hold’s end: the stock is taken again, as after any expiry', async () => {
    const s = await started([64])
    const short = fake.capture(s.checkout.providerOrderId, `pay_ShortExp${++seq}`, s.checkout.amount - 100)
    expect((await webhook('payment.captured', { payment: short }, `evt_ShortExp${seq}`)).body.data.outcome).toBe('mismatch')
    offset = 60 * 60_000
    try {
      expect(await expireReservations(t.deps)).toBeGreaterThanOrEqual(1)
    } finally {
      offset = 0
    }
    expect(await details(s)).toMatchObject({ status: 'cancelled', payment: { state: 'mismatch' } })
    expect(await stockIn(t.db, s.products[0]!)).toBe(5)
    const right = fake.capture(s.checkout.providerOrderId, `pay_RightExp${seq}`)
    expect((await webhook('payment.captured', { payment: right }, `evt_RightExp${seq}`)).body.data.outcome).toBe('paid')
    expect(await details(s)).toMatchObject({ status: 'placed', payment: { state: 'paid' } })
    expect(await stockIn(t.db, s.products[0]!)).toBe(4)
    expect(callsFor(right.id)).toEqual([])
  })

  it('a capture of a cancelled order is refunded in full, once', async () => {
    const s = await started([99])
    expect((await t.call('payment/pay-on-delivery', { method: 'POST', json: { orderId: s.order._id }, token: s.who.token })).status).toBe(
      200,
    )
    expect((await t.call('order/cancel', { method: 'POST', json: { orderId: s.order._id }, token: s.who.token })).status).toBe(200)
    const late = fake.capture(s.checkout.providerOrderId, `pay_Late${++seq}`)
    const answers = await Promise.all(
      Array.from({ length: COPIES }, () => webhook('payment.captured', { payment: late }, `evt_Late${seq}`)),
    )
    expect(answers.map((a) => a.status)).toEqual(Array(COPIES).fill(200))
    expect(callsFor(late.id)).toEqual([expect.objectContaining({ amount: s.checkout.amount })])
    expect(await details(s)).toMatchObject({ status: 'cancelled', payment: { state: 'refund_pending' } })
  })
})

describe('the callback’s failure answer', () => {
  it('names the order by its number only: no order, payment or provider id of ours', async () => {
    const s = await started([150])
    const res = await callback({
      razorpay_order_id: s.checkout.providerOrderId,
      error: { code: 'BAD_REQUEST_ERROR', description: 'Declined' },
    })
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual({ outcome: 'failed', orderNumber: s.order.orderId, message: expect.any(String) })
    const [row] = await queryRows<{ id: string }>(t.db, sql`select id from payments where order_id = ${s.order._id}`)
    const text = JSON.stringify(res.body)
    for (const internal of [s.order._id, row!.id]) expect(text).not.toContain(internal)
  })
})
