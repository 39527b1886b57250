/**
 * Online payment through the test provider, on a fresh database (PGlite, or PostgreSQL with
 * TEST_DATABASE_URL): stock held while paying and released on expiry, only a verified payment counts
 * (callback signature, webhook signature of the raw body, amount and currency), each webhook event
 * once and in any order, a capture after expiry re-reserved or refunded, the races (callback and
 * webhook at once, two payments for one order, expiry during a capture), refunds on cancellation and
 * per line (docs/payments.md).
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryRows } from '../../db/query.ts'
import type { MailMessage } from '../../lib/mail.ts'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { createAdmin, createShopper, createStaff, type SignedIn } from '../../testing/auth.ts'
import { insertProduct, setStockIn, stockIn } from '../../testing/fixtures.ts'
import { placeTestOrder } from '../../testing/orders.ts'
import { hmacHex, paymentSignature } from './provider.ts'
import { applyCapture, expireReservations } from './service.ts'
import { testPaymentSettings } from './settings.ts'
import { createTestProvider, type SignedWebhook } from './test-provider.ts'

const KEY_SECRET = 'test-key-secret-0123456789'
const WEBHOOK_SECRET = 'test-webhook-secret-0123456789'
const provider = createTestProvider({ keySecret: KEY_SECRET, webhookSecret: WEBHOOK_SECRET })
const RESERVATION_MS = 15 * 60_000

let t: TestApp
let admin: SignedIn
/** Added to the real time by the app's clock: a test moves it past a reservation's end. */
let offset = 0
const sent: MailMessage[] = []

beforeAll(async () => {
  t = await createTestApp({
    mailer: { send: async (m) => void sent.push(m) },
    clock: () => new Date(Date.now() + offset),
    payments: { ...testPaymentSettings(), provider, testProvider: provider, reservationMs: RESERVATION_MS },
  })
  admin = await createAdmin(t)
})
afterAll(() => t?.close())

const address = { address_line: '12, Old Airport Road', city: 'Bengaluru', state: 'Karnataka', pincode: '560008', mobile: '9845012345' }
const urls = { callbackUrl: 'http://shop.test/checkout/payment/callback', cancelUrl: 'http://shop.test/checkout' }
let keySeq = 0

type Shopper = SignedIn & { addressId: string }
async function shopper(): Promise<Shopper> {
  const who = await createShopper(t)
  const res = await t.call('address/create', { method: 'POST', json: address, token: who.token })
  return { ...who, addressId: res.body.data._id }
}
async function add(who: SignedIn, productId: string, times = 1) {
  for (let i = 0; i < times; i++)
    expect((await t.call('cart/create', { method: 'POST', json: { productId }, token: who.token })).status).toBe(200)
}
const start = (who: Shopper, method = 'upi') =>
  t.call('payment/start', {
    method: 'POST',
    json: { addressId: who.addressId, method, ...urls },
    token: who.token,
    headers: { 'Idempotency-Key': `pay-key-${process.pid}-${++keySeq}` },
  })
const details = async (who: SignedIn, orderId: string) =>
  (await t.call('order/details', { method: 'POST', json: { orderId }, token: who.token })).body.data
const callback = (fields: Record<string, string>) => t.call('payment/callback', { method: 'POST', json: fields })
const webhook = (rawBody: string, signature: string | undefined, eventId?: string, clientIp?: string) =>
  t.call('payment/webhook/razorpay', {
    method: 'POST',
    body: rawBody,
    headers: {
      'Content-Type': 'application/json',
      ...(clientIp ? { 'X-Client-Ip': clientIp } : {}),
      ...(signature ? { 'X-Razorpay-Signature': signature } : {}),
      ...(eventId ? { 'x-razorpay-event-id': eventId } : {}),
    },
  })
/** A Razorpay-shaped event body for a payment of `orderId`. */
const capturedEvent = (orderId: string, paymentId: string, amount: number, currency = 'INR') =>
  JSON.stringify({
    entity: 'event',
    event: 'payment.captured',
    contains: ['payment'],
    payload: {
      payment: { entity: { id: paymentId, entity: 'payment', order_id: orderId, amount, currency, status: 'captured', method: 'upi' } },
    },
    created_at: 1,
  })
const signed = (body: string) => hmacHex(WEBHOOK_SECRET, body)

/** Runs `fn` with the provider's webhooks caught instead of delivered; answers them. */
async function catchWebhooks<T>(fn: () => Promise<T>): Promise<{ result: T; hooks: SignedWebhook[] }> {
  const hooks: SignedWebhook[] = []
  provider.setSink(async (w) => void hooks.push(w))
  try {
    return { result: await fn(), hooks }
  } finally {
    provider.setSink(async (w) => void (await webhook(w.rawBody, w.signature, w.eventId)))
  }
}
const waitFor = async (check: () => Promise<boolean>) => {
  for (let i = 0; i < 100; i++) {
    if (await check()) return
    await new Promise((r) => setTimeout(r, 20))
  }
  throw new Error('condition not met')
}
const eventCount = async () => (await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from payment_events`))[0]!.n

describe('starting an online payment', () => {
  it('holds the stock, keeps the cart, and opens a provider order for the grand total in paise with the order number as receipt', async () => {
    const p = await insertProduct(t.db, { name: 'Basmati Rice', price: 300, sellingPrice: 250.5, stock: 5 })
    const who = await shopper()
    await add(who, p.id, 2)
    const res = await start(who)
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    const { order, checkout } = res.body.data
    expect(order).toMatchObject({ status: 'payment_pending', payment: { state: 'pending', method: 'upi' } })
    expect(checkout).toMatchObject({ provider: 'test', amount: 50100, currency: 'INR', method: 'upi', orderNumber: order.orderId })
    const held = new Date(checkout.expiresAt).getTime() - Date.now()
    expect(held).toBeGreaterThan(RESERVATION_MS - 60_000)
    expect(held).toBeLessThanOrEqual(RESERVATION_MS)
    expect(await provider.order(checkout.providerOrderId)).toMatchObject({ amount: 50100, receipt: order.orderId })
    expect(checkout.hosted).toMatchObject({ url: '/api/payment/test-checkout', fields: { order_id: checkout.providerOrderId } })
    expect(await stockIn(t.db, p.id)).toBe(3)
    expect((await t.call('cart/get', { token: who.token })).body.data.length).toBe(1)
    // No email until it is paid (the queue run first, so a queued one would show).
    await t.deps.jobs.drain()
    expect(sent.find((m) => m.subject.includes(order.orderId))).toBeUndefined()
  })

  it('never oversells: the second shopper of the last unit is told while the first one pays', async () => {
    const p = await insertProduct(t.db, { name: 'Saffron', stock: 1 })
    const a = await shopper()
    const b = await shopper()
    await add(a, p.id)
    await add(b, p.id)
    expect((await start(a)).status).toBe(201)
    const second = await start(b)
    expect(second.status).toBe(409)
    expect(second.body.changes[0]).toMatchObject({ kind: 'stock', after: 0 })
    expect(await stockIn(t.db, p.id)).toBe(0)
  })
})

describe('a verified payment', () => {
  it('pays by UPI: the webhooks and the callback place the order once, empty the cart and send the paid email', async () => {
    const p = await insertProduct(t.db, { name: 'Toor Dal', price: 200, sellingPrice: 180, stock: 4 })
    const who = await shopper()
    await add(who, p.id)
    const { order, checkout } = (await start(who)).body.data
    const fields = await provider.complete(checkout.providerOrderId, 'captured')
    const res = await callback(fields)
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ outcome: 'paid', orderNumber: order.orderId })
    const paid = await details(who, order._id)
    expect(paid).toMatchObject({ status: 'placed', payment: { state: 'paid', method: 'upi', reservationExpiresAt: null } })
    expect(paid.statusHistory.map((h: { status: string }) => h.status)).toEqual(['payment_pending', 'placed'])
    expect(await stockIn(t.db, p.id)).toBe(3)
    expect((await t.call('cart/get', { token: who.token })).body.data).toEqual([])
    await t.deps.jobs.drain()
    const mails = sent.filter((m) => m.subject === `Order ${order.orderId} paid`)
    expect(mails).toHaveLength(1)
    expect(mails[0]!.text).toContain('Paid online (UPI): ₹205')
  })

  it('refuses a callback whose signature is not the key secret’s (400, nothing written)', async () => {
    const p = await insertProduct(t.db, { name: 'Jaggery', stock: 3 })
    const who = await shopper()
    await add(who, p.id)
    const { order, checkout } = (await start(who)).body.data
    const { result: fields } = await catchWebhooks(() => provider.complete(checkout.providerOrderId, 'captured'))
    const forged = {
      ...fields,
      razorpay_signature: paymentSignature('another-secret', checkout.providerOrderId, fields.razorpay_payment_id!),
    }
    const res = await callback(forged)
    expect(res.status).toBe(400)
    expect((await details(who, order._id)).status).toBe('payment_pending')
    // A payment id of another order with this order's signature scheme is refused too.
    expect((await callback({ ...fields, razorpay_order_id: 'order_Unknown0000000' })).status).toBe(404)
  })

  it('a callback first and its webhooks after (or twice) apply the payment once', async () => {
    const p = await insertProduct(t.db, { name: 'Ghee', price: 600, sellingPrice: 550, stock: 4 })
    const who = await shopper()
    await add(who, p.id)
    const { order, checkout } = (await start(who)).body.data
    const { result: fields, hooks } = await catchWebhooks(() => provider.complete(checkout.providerOrderId, 'captured'))
    expect(hooks.map((h) => JSON.parse(h.rawBody).event)).toEqual(['payment.captured', 'order.paid'])
    expect((await callback(fields)).body.data.outcome).toBe('paid')
    for (const h of hooks) expect((await webhook(h.rawBody, h.signature, h.eventId)).status).toBe(200)
    const again = await webhook(hooks[0]!.rawBody, hooks[0]!.signature, hooks[0]!.eventId)
    expect(again.body.data).toMatchObject({ duplicate: true })
    expect((await callback(fields)).body.data.outcome).toBe('paid')
    const paid = await details(who, order._id)
    expect(paid.statusHistory.filter((h: { status: string }) => h.status === 'placed')).toHaveLength(1)
    expect(await stockIn(t.db, p.id)).toBe(3)
    await t.deps.jobs.drain()
    expect(sent.filter((m) => m.subject === `Order ${order.orderId} paid`)).toHaveLength(1)
  })

  it('a webhook and a callback at once: paid once, stock taken once', async () => {
    const p = await insertProduct(t.db, { name: 'Honey', stock: 2 })
    const who = await shopper()
    await add(who, p.id)
    const { order, checkout } = (await start(who)).body.data
    const { result: fields, hooks } = await catchWebhooks(() => provider.complete(checkout.providerOrderId, 'captured'))
    const answers = await Promise.all([callback(fields), ...hooks.map((h) => webhook(h.rawBody, h.signature, h.eventId))])
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200])
    const paid = await details(who, order._id)
    expect(paid.payment.state).toBe('paid')
    expect(paid.statusHistory.filter((h: { status: string }) => h.status === 'placed')).toHaveLength(1)
    expect(await stockIn(t.db, p.id)).toBe(1)
  })
})

describe('webhooks', () => {
  it('a bad or missing signature is a 400 and writes nothing', async () => {
    const p = await insertProduct(t.db, { name: 'Cardamom', stock: 2 })
    const who = await shopper()
    await add(who, p.id)
    const { order, checkout } = (await start(who)).body.data
    const body = capturedEvent(checkout.providerOrderId, 'pay_Forged00000001', checkout.amount)
    const before = await eventCount()
    expect((await webhook(body, hmacHex('not-the-secret', body), 'evt_bad1')).status).toBe(400)
    expect((await webhook(body, undefined, 'evt_bad2')).status).toBe(400)
    // One byte changed after signing.
    expect((await webhook(body.replace(String(checkout.amount), String(checkout.amount - 1)), signed(body), 'evt_bad3')).status).toBe(400)
    expect(await eventCount()).toBe(before)
    expect((await details(who, order._id)).status).toBe('payment_pending')
  })

  it('a captured amount or currency that is not the order’s is recorded and never fulfilled', async () => {
    const p = await insertProduct(t.db, { name: 'Pepper', price: 120, sellingPrice: 120, stock: 2 })
    const who = await shopper()
    await add(who, p.id)
    const { order, checkout } = (await start(who)).body.data
    const short = capturedEvent(checkout.providerOrderId, 'pay_Short000000001', checkout.amount - 100)
    expect((await webhook(short, signed(short), 'evt_short')).body.data.outcome).toBe('mismatch')
    const state = await details(who, order._id)
    expect(state).toMatchObject({ status: 'payment_pending', payment: { state: 'mismatch' } })
    const [row] = await queryRows<{ status: string }>(
      t.db,
      sql`select status from payments where provider_order_id = ${checkout.providerOrderId}`,
    )
    expect(row!.status).toBe('mismatch')
    const usd = capturedEvent(checkout.providerOrderId, 'pay_Usd00000000001', checkout.amount, 'USD')
    expect((await webhook(usd, signed(usd), 'evt_usd')).body.data.outcome).not.toBe('paid')
    expect((await details(who, order._id)).status).toBe('payment_pending')
  })

  it('a body over 64 KB is a 413 and a sender past its budget a 429, before anything is read or written', async () => {
    const p = await insertProduct(t.db, { name: 'Fennel', stock: 2 })
    const who = await shopper()
    await add(who, p.id)
    const { order, checkout } = (await start(who)).body.data
    const before = await eventCount()
    // Signed correctly, but padded past the cap (a note field, as Razorpay's notes are free text).
    const big = JSON.stringify({
      ...JSON.parse(capturedEvent(checkout.providerOrderId, 'pay_Big0000000001', checkout.amount)),
      pad: 'x'.repeat(64 * 1024),
    })
    const tooBig = await webhook(big, signed(big), 'evt_big')
    expect(tooBig.status).toBe(413)
    expect(tooBig.body.message).toContain('64 KB')
    // The rate limit counts per address: one address that spent its budget is refused, another is not.
    const body = capturedEvent(checkout.providerOrderId, 'pay_Limit00000001', checkout.amount)
    await t.deps.rateLimits.paymentWebhookByIp.penalty('203.0.113.50', 600)
    const limited = await webhook(body, signed(body), 'evt_limited', '203.0.113.50')
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/)
    expect(await eventCount()).toBe(before)
    expect((await details(who, order._id)).status).toBe('payment_pending')
    expect((await webhook(body, signed(body), 'evt_limited', '203.0.113.51')).body.data.outcome).toBe('paid')
  })

  it('events in any order: order.paid before payment.captured, and a late payment.failed of an earlier attempt never undoes a payment', async () => {
    const p = await insertProduct(t.db, { name: 'Nutmeg', stock: 3 })
    const who = await shopper()
    await add(who, p.id)
    const { order, checkout } = (await start(who)).body.data
    // A first attempt that failed; its webhook is held back.
    const { hooks: failedHooks } = await catchWebhooks(() => provider.complete(checkout.providerOrderId, 'failed'))
    const { result: fields, hooks } = await catchWebhooks(() => provider.complete(checkout.providerOrderId, 'captured'))
    const [captured, orderPaid] = hooks
    expect(JSON.parse(orderPaid!.rawBody).event).toBe('order.paid')
    expect((await webhook(orderPaid!.rawBody, orderPaid!.signature, orderPaid!.eventId)).body.data.outcome).toBe('paid')
    expect((await webhook(captured!.rawBody, captured!.signature, captured!.eventId)).body.data.outcome).toBe('already')
    const late = failedHooks[0]!
    expect(JSON.parse(late.rawBody).event).toBe('payment.failed')
    expect((await webhook(late.rawBody, late.signature, late.eventId)).body.data.outcome).toBe('ignored')
    expect((await callback(fields)).body.data.outcome).toBe('paid')
    const paid = await details(who, order._id)
    expect(paid).toMatchObject({ status: 'placed', payment: { state: 'paid' } })
    expect(paid.statusHistory.filter((h: { status: string }) => h.status === 'placed')).toHaveLength(1)
    expect(await stockIn(t.db, p.id)).toBe(2)
  })

  it('payment.failed before anything keeps the order waiting: try again, or pay on delivery', async () => {
    const p = await insertProduct(t.db, { name: 'Cumin', stock: 2 })
    const who = await shopper()
    await add(who, p.id)
    const { order, checkout } = (await start(who)).body.data
    const fields = await provider.complete(checkout.providerOrderId, 'failed')
    const res = await callback({ razorpay_order_id: fields.razorpay_order_id ?? checkout.providerOrderId, ...fields })
    expect(res.status).toBe(200)
    expect(res.body.data.outcome).toBe('failed')
    expect((await details(who, order._id)).status).toBe('payment_pending')
    const retry = await t.call('payment/retry', { method: 'POST', json: { orderId: order._id, ...urls }, token: who.token })
    expect(retry.body.data.checkout.providerOrderId).toBe(checkout.providerOrderId)
    const cod = await t.call('payment/pay-on-delivery', { method: 'POST', json: { orderId: order._id }, token: who.token })
    expect(cod.status).toBe(200)
    expect(cod.body.data).toMatchObject({ status: 'placed', payment_status: 'CASH ON DELIVERY', payment: { state: 'cod' } })
    expect(await stockIn(t.db, p.id)).toBe(1)
    expect((await t.call('cart/get', { token: who.token })).body.data).toEqual([])
    await t.deps.jobs.drain()
    expect(sent.find((m) => m.subject === `Order ${order.orderId} placed`)!.text).toContain('To pay on delivery (cash)')
  })
})

describe('the reservation', () => {
  it('an order awaiting payment holds its coupon use; a hold that ends gives it back (docs/offers.md, "Uses")', async () => {
    const p = await insertProduct(t.db, { name: 'Saffron', price: 250, sellingPrice: 250, stock: 5 })
    const who = await shopper()
    await add(who, p.id)
    const apply = () => t.call('cart/coupon', { method: 'POST', json: { code: 'WELCOME50' }, token: who.token })
    expect((await apply()).status).toBe(200)
    const started = await start(who)
    expect(started.status).toBe(201)
    expect(started.body.data.order.bill.couponDiscount).toBe(50)
    // Waiting for its payment, the order counts: the cart (kept until paid) cannot use the code again.
    expect((await apply()).body.message).toBe('Already used')
    offset = RESERVATION_MS + 1000
    try {
      expect(await expireReservations(t.deps)).toBeGreaterThanOrEqual(1)
    } finally {
      offset = 0
    }
    expect((await apply()).status).toBe(200)
  })

  it('expires: the order is cancelled as expired and its stock is back; a second run does nothing', async () => {
    const p = await insertProduct(t.db, { name: 'Turmeric', stock: 3 })
    const who = await shopper()
    await add(who, p.id, 2)
    const { order } = (await start(who)).body.data
    expect(await stockIn(t.db, p.id)).toBe(1)
    expect(await expireReservations(t.deps)).toBe(0)
    offset = RESERVATION_MS + 1000
    try {
      expect(await expireReservations(t.deps)).toBeGreaterThanOrEqual(1)
      expect(await expireReservations(t.deps)).toBe(0)
    } finally {
      offset = 0
    }
    expect(await stockIn(t.db, p.id)).toBe(3)
    expect(await details(who, order._id)).toMatchObject({ status: 'cancelled', payment: { state: 'expired' } })
    // The shopper is told, with the reason and a link (one mail, though the sweep ran twice).
    await t.deps.jobs.drain()
    const told = sent.filter((m) => m.subject === `Your order ${order.orderId} is cancelled`)
    expect(told).toHaveLength(1)
    expect(told[0]!.text).toContain('Reason: Not paid in time')
    expect(told[0]!.text).toContain(`/dashboard/myorder/${order._id}`)
    expect((await t.call('payment/pay-on-delivery', { method: 'POST', json: { orderId: order._id }, token: who.token })).status).toBe(409)
  })

  it('a capture after expiry is re-reserved when the stock is there', async () => {
    const p = await insertProduct(t.db, { name: 'Mustard Oil', stock: 3 })
    const who = await shopper()
    await add(who, p.id)
    const { order, checkout } = (await start(who)).body.data
    offset = RESERVATION_MS + 1000
    try {
      await expireReservations(t.deps)
    } finally {
      offset = 0
    }
    expect(await stockIn(t.db, p.id)).toBe(3)
    const body = capturedEvent(checkout.providerOrderId, 'pay_Late0000000001', checkout.amount)
    expect((await webhook(body, signed(body), 'evt_late1')).body.data.outcome).toBe('paid')
    expect(await details(who, order._id)).toMatchObject({ status: 'placed', payment: { state: 'paid' } })
    expect(await stockIn(t.db, p.id)).toBe(2)
  })

  it('a capture after expiry is refunded automatically when the stock was sold meanwhile', async () => {
    const p = await insertProduct(t.db, { name: 'Coconut Oil', price: 200, sellingPrice: 200, stock: 1 })
    const who = await shopper()
    await add(who, p.id)
    const { order, checkout } = (await start(who)).body.data
    offset = RESERVATION_MS + 1000
    try {
      await expireReservations(t.deps)
    } finally {
      offset = 0
    }
    await setStockIn(t.db, p.id, 0)
    const fields = await provider.complete(checkout.providerOrderId, 'captured')
    expect((await callback(fields)).body.data.outcome).toBe('refunded')
    await waitFor(async () => (await details(who, order._id)).payment.state === 'refunded')
    const done = await details(who, order._id)
    expect(done).toMatchObject({ status: 'cancelled', payment: { refunded: 200, refunds: [{ amount: 200, status: 'processed' }] } })
    expect(await stockIn(t.db, p.id)).toBe(0)
  })

  it('expiring while the payment is captured: one wins, the stock is never returned and sold both', async () => {
    const p = await insertProduct(t.db, { name: 'Rock Salt', stock: 5 })
    const who = await shopper()
    await add(who, p.id, 2)
    const { order, checkout } = (await start(who)).body.data
    offset = RESERVATION_MS + 1000
    try {
      await Promise.all([
        expireReservations(t.deps),
        applyCapture(t.deps, {
          provider: 'test',
          providerOrderId: checkout.providerOrderId,
          paymentId: 'pay_Race0000000001',
          amount: checkout.amount,
          currency: 'INR',
        }),
      ])
    } finally {
      offset = 0
    }
    expect(await details(who, order._id)).toMatchObject({ status: 'placed', payment: { state: 'paid' } })
    expect(await stockIn(t.db, p.id)).toBe(3)
  })
})

describe('two payments for one order', () => {
  it('the first places it, the second is refunded', async () => {
    const p = await insertProduct(t.db, { name: 'Almonds', price: 400, sellingPrice: 400, stock: 3 })
    const who = await shopper()
    await add(who, p.id)
    const { order, checkout } = (await start(who)).body.data
    // A second tab made its own provider order for the same order.
    const other = await provider.createOrder({ amount: checkout.amount, currency: 'INR', receipt: order.orderId, notes: {} })
    await t.db.execute(
      sql`insert into payments (id, order_id, provider, provider_order_id, method, amount_paise) values ('pay2nd', ${order._id}, 'test', ${other.id}, 'card', ${checkout.amount})`,
    )
    const [a, b] = await Promise.all([provider.complete(checkout.providerOrderId, 'captured'), provider.complete(other.id, 'captured')])
    const outcomes = [(await callback(a!)).body.data.outcome, (await callback(b!)).body.data.outcome].sort()
    expect(outcomes).toEqual(['paid', 'paid'])
    await waitFor(async () => (await details(who, order._id)).payment.refunds.some((r: { status: string }) => r.status === 'processed'))
    const paid = await details(who, order._id)
    expect(paid).toMatchObject({
      status: 'placed',
      payment: { refunds: [{ amount: 400, status: 'processed', reason: 'A second payment of a paid order' }] },
    })
    expect(await stockIn(t.db, p.id)).toBe(2)
  })
})

describe('refunds', () => {
  it('the shopper cancels a paid order: stock back, refunded through the provider, state follows the webhook', async () => {
    const p = await insertProduct(t.db, { name: 'Cashews', price: 500, sellingPrice: 450, stock: 3 })
    const who = await shopper()
    await add(who, p.id)
    const { order, checkout } = (await start(who)).body.data
    await callback(await provider.complete(checkout.providerOrderId, 'captured'))
    const res = await t.call('order/cancel', { method: 'POST', json: { orderId: order._id }, token: who.token })
    expect(res.status).toBe(200)
    // Pending at the provider, or already settled by its webhook.
    expect(['refund_pending', 'refunded']).toContain(res.body.data.payment.state)
    expect(res.body.data.payment.refunds).toMatchObject([{ amount: 450, reason: 'Order cancelled' }])
    expect(await stockIn(t.db, p.id)).toBe(3)
    await waitFor(async () => (await details(who, order._id)).payment.state === 'refunded')
  })

  it('a tip is paid online with the order; a cancellation refunds it with the rest, a line refund never gives it back', async () => {
    const a = await insertProduct(t.db, { name: 'Almonds', price: 300, sellingPrice: 300, stock: 6 })
    const b = await insertProduct(t.db, { name: 'Figs', price: 300, sellingPrice: 300, stock: 6 })
    const startWithTip = (who: Shopper) =>
      t.call('payment/start', {
        method: 'POST',
        json: {
          addressId: who.addressId,
          method: 'upi',
          ...urls,
          tip: 30,
          shownTip: 30,
          deliveryInstructions: { chips: ['avoid_calling'] },
        },
        token: who.token,
        headers: { 'Idempotency-Key': `pay-key-${process.pid}-${++keySeq}` },
      })
    // Cancelled: the whole payment comes back, tip included.
    const who = await shopper()
    await add(who, a.id)
    await add(who, b.id)
    const { order, checkout } = (await startWithTip(who)).body.data
    expect(order.bill).toMatchObject({ itemsTotal: 600, tip: 30, grandTotal: 630 })
    expect(order.deliveryInstructions).toEqual({ chips: ['avoid_calling'], note: '' })
    expect(checkout.amount).toBe(63000)
    await callback(await provider.complete(checkout.providerOrderId, 'captured'))
    const res = await t.call('order/cancel', { method: 'POST', json: { orderId: order._id }, token: who.token })
    expect(res.body.data.payment.refunds).toMatchObject([{ amount: 630, reason: 'Order cancelled' }])
    await waitFor(async () => (await details(who, order._id)).payment.state === 'refunded')

    // Each line refunded on its own: what was paid for the lines, never the tip (still partly refunded).
    const other = await shopper()
    await add(other, a.id)
    await add(other, b.id)
    const second = (await startWithTip(other)).body.data
    await callback(await provider.complete(second.checkout.providerOrderId, 'captured'))
    for (const productId of [a.id, b.id]) {
      const line = await t.call('payment/refund-line', {
        method: 'POST',
        json: { orderId: second.order._id, productId },
        token: admin.token,
      })
      expect(line.status).toBe(200)
    }
    // Both refunds settled by the provider's webhooks: still partly refunded, the tip kept.
    await waitFor(async () => (await details(other, second.order._id)).payment.state === 'partially_refunded')
    expect((await details(other, second.order._id)).payment).toMatchObject({ state: 'partially_refunded', refunded: 600 })
  })

  it('staff may not cancel a paid order (it refunds it: 403, nothing written), alone or in a bulk move; COD they may, an admin both', async () => {
    const staff = await createStaff(t)
    const p = await insertProduct(t.db, { name: 'Pistachios', price: 600, sellingPrice: 550, stock: 5 })
    const who = await shopper()
    await add(who, p.id)
    const { order, checkout } = (await start(who)).body.data
    await callback(await provider.complete(checkout.providerOrderId, 'captured'))
    const paid = await details(who, order._id)
    expect(paid).toMatchObject({ status: 'placed', payment: { state: 'paid' } })
    const entries = async () =>
      (await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from audit_log where entity_id = ${order._id}`))[0]!.n
    const entriesBefore = await entries()

    const cancel = (token: string) =>
      t.call('order/update-status', { method: 'PUT', json: { orderId: order._id, status: 'cancelled' }, token })
    const refused = await cancel(staff.token)
    expect(refused.status).toBe(403)
    expect(refused.body.message).toBe('Only an admin can cancel a paid order: cancelling it refunds the payment')
    expect(await details(who, order._id)).toMatchObject({
      status: 'placed',
      version: paid.version,
      payment: { state: 'paid', refunds: [] },
    })
    expect(await stockIn(t.db, p.id)).toBe(4)
    expect(await entries()).toBe(entriesBefore)

    // A cash order beside it in one bulk move: that one is cancelled, the paid one reported refused.
    const { order: cod } = await placeTestOrder(t)
    const bulk = await t.call('order/bulk-status', {
      method: 'POST',
      json: { orderIds: [order._id, cod._id], status: 'cancelled' },
      token: staff.token,
    })
    expect(bulk.status).toBe(200)
    expect(bulk.body).toMatchObject({ moved: 1, refused: 1 })
    expect(bulk.body.data).toMatchObject([
      { orderId: order._id, ok: false, message: 'Only an admin can cancel a paid order: cancelling it refunds the payment' },
      { orderId: cod._id, ok: true, status: 'cancelled' },
    ])
    expect(await details(who, order._id)).toMatchObject({ status: 'placed', payment: { state: 'paid', refunds: [] } })

    const byAdmin = await cancel(admin.token)
    expect(byAdmin.status).toBe(200)
    expect(byAdmin.body.data.payment.refunds).toMatchObject([{ amount: 550, reason: 'Order cancelled' }])
    await waitFor(async () => (await details(who, order._id)).payment.state === 'refunded')
  })

  it('a line of an order with a coupon refunds what was paid for it: its total less its share of the discount (docs/offers.md, "Refunds")', async () => {
    const a = await insertProduct(t.db, { name: 'Cashews', price: 300, sellingPrice: 300, stock: 3 })
    const b = await insertProduct(t.db, { name: 'Dates', price: 100, sellingPrice: 100, stock: 3 })
    const who = await shopper()
    await add(who, a.id)
    await add(who, b.id)
    expect((await t.call('cart/coupon', { method: 'POST', json: { code: 'WELCOME50' }, token: who.token })).status).toBe(200)
    const { order, checkout } = (await start(who)).body.data
    expect(order.bill).toMatchObject({ itemsTotal: 400, couponDiscount: 50, grandTotal: 350 })
    // Shares by largest remainder: 5000 × 300/400 = 3750 and 5000 × 100/400 = 1250 paise.
    expect(order.items.map((l: { couponShare: number }) => l.couponShare)).toEqual([37.5, 12.5])
    await callback(await provider.complete(checkout.providerOrderId, 'captured'))
    const res = await t.call('payment/refund-line', { method: 'POST', json: { orderId: order._id, productId: b.id }, token: admin.token })
    expect(res.status).toBe(200)
    expect(res.body.data.payment.refunds).toMatchObject([{ amount: 87.5, reason: 'Not delivered: Dates' }])
    // The credit note of that refund reverses the same amount, taxed after the discount.
    const notes = await t.call('invoice/credit-notes', { method: 'POST', json: { orderId: order._id }, token: who.token })
    expect(notes.status).toBe(200)
    expect(notes.body.data[0].totals).toMatchObject({ itemsTotal: 100, couponDiscount: 12.5, amount: 87.5, grandTotal: 87.5 })
  })

  it('an admin refunds one line that cannot be delivered (once), and the list filters by payment state', async () => {
    const a = await insertProduct(t.db, { name: 'Walnuts', price: 300, sellingPrice: 300, stock: 3 })
    const b = await insertProduct(t.db, { name: 'Raisins', price: 100, sellingPrice: 100, stock: 3 })
    const who = await shopper()
    await add(who, a.id)
    await add(who, b.id)
    const { order, checkout } = (await start(who)).body.data
    await callback(await provider.complete(checkout.providerOrderId, 'captured'))
    const res = await t.call('payment/refund-line', { method: 'POST', json: { orderId: order._id, productId: b.id }, token: admin.token })
    expect(res.status).toBe(200)
    expect(res.body.data.payment.refunds).toMatchObject([{ amount: 100, reason: 'Not delivered: Raisins' }])
    // In the audit trail, by the admin who refunded it.
    const [entry] = await queryRows<{ actor_id: string; after: Record<string, unknown> }>(
      t.db,
      sql`select actor_id, after from audit_log where entity = 'order' and entity_id = ${order._id} and action = 'refund'`,
    )
    expect(entry).toMatchObject({ actor_id: admin.user.id, after: { refunded: 'Raisins', amountPaise: 10000 } })
    expect(
      (await t.call('payment/refund-line', { method: 'POST', json: { orderId: order._id, productId: b.id }, token: admin.token })).status,
    ).toBe(409)
    expect(
      (await t.call('payment/refund-line', { method: 'POST', json: { orderId: order._id, productId: b.id }, token: who.token })).status,
    ).toBe(403)
    await waitFor(async () => (await details(who, order._id)).payment.state === 'partially_refunded')
    const list = await t.call('order/admin-list', {
      method: 'POST',
      json: { payment: 'partially_refunded', limit: 50 },
      token: admin.token,
    })
    expect(list.body.data.map((o: { _id: string }) => o._id)).toContain(order._id)
    expect(list.body.data.every((o: { payment: { state: string } }) => o.payment.state === 'partially_refunded')).toBe(true)
  })
})

describe('the test provider’s page', () => {
  it('says no money moves, and posts back signed exactly like Razorpay', async () => {
    const p = await insertProduct(t.db, { name: 'Poha', stock: 3 })
    const who = await shopper()
    await add(who, p.id)
    const { checkout } = (await start(who)).body.data
    const form = new URLSearchParams(checkout.hosted.fields)
    const page = await t.app.request('/api/payment/test-checkout', {
      method: 'POST',
      body: form,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    })
    const html = await page.text()
    expect(html).toContain('Test payment: no money moves')
    expect(html).toContain('Pay by UPI')
    expect(page.headers.get('content-security-policy')).toContain("form-action 'self'")
    const answer = (action: string) =>
      t.app.request('/api/payment/test-checkout/answer', {
        method: 'POST',
        body: new URLSearchParams({ order_id: checkout.providerOrderId, action }),
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      })
    const paid = await answer('pay')
    const back = await paid.text()
    expect(back).toContain('action="/checkout/payment/callback"')
    const payId = /name="razorpay_payment_id" value="([^"]+)"/.exec(back)![1]!
    expect(back).toContain(`value="${paymentSignature(KEY_SECRET, checkout.providerOrderId, payId)}"`)
    const abandon = await answer('abandon')
    expect(abandon.status).toBe(303)
    expect(abandon.headers.get('location')).toBe('/checkout')
  })
})
