/**
 * The Razorpay provider through the official SDK against Razorpay's REST API mocked with msw
 * (https://razorpay.com/docs/api/orders/, /payments/, /refunds/): the calls and their bodies, Basic
 * auth with the key, failures (4xx, 5xx, no answer in time) as ProviderErrors without secrets; then
 * the API with PAYMENT_PROVIDER=razorpay on a fresh database (PGlite, or PostgreSQL with
 * TEST_DATABASE_URL): start, a provider 5xx (503, the order still waits, retry works), the callback
 * verified by signature and by the fetched payment, a webhook signed with the webhook secret.
 */
import { delay, http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import { queryRows } from '../../db/query.ts'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { createAdmin, createShopper, type SignedIn } from '../../testing/auth.ts'
import { insertProduct, stockIn } from '../../testing/fixtures.ts'
import { captureLog } from '../../testing/log-capture.ts'
import { hmacHex, paymentSignature, ProviderError } from './provider.ts'
import { createRazorpayProvider, RAZORPAY_HOSTED_CHECKOUT_URL } from './razorpay.ts'
import { sendPendingRefunds } from './refunds.ts'
import { reconcilePendingPayments } from './service.ts'
import { testPaymentSettings } from './settings.ts'

const KEYS = { keyId: 'rzp_test_Key0000001', keySecret: 'key-secret-for-tests', webhookSecret: 'webhook-secret-for-tests' }
const API = 'https://api.razorpay.com/v1'
const server = setupServer()
const seen: { method: string; path: string; auth: string | null; body: unknown }[] = []

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(() => {
  server.resetHandlers()
  seen.length = 0
})
afterAll(() => server.close())

/** Razorpay's payment entity. */
const paymentEntity = (id: string, orderId: string, amount: number, status = 'captured') => ({
  id,
  entity: 'payment',
  amount,
  currency: 'INR',
  status,
  order_id: orderId,
  method: 'upi',
  captured: status === 'captured',
})

/** Handlers of a Razorpay that makes orders and answers payments as `payments` says. */
let n = 0
function razorpay(payments: Record<string, ReturnType<typeof paymentEntity>> = {}) {
  return [
    http.post(`${API}/orders`, async ({ request }) => {
      const body = (await request.json()) as { amount: number; currency: string; receipt: string }
      seen.push({ method: 'POST', path: '/orders', auth: request.headers.get('authorization'), body })
      return HttpResponse.json({ id: `order_Mock${String(++n).padStart(10, '0')}`, entity: 'order', status: 'created', ...body })
    }),
    http.get(`${API}/payments/:id`, ({ params, request }) => {
      seen.push({ method: 'GET', path: `/payments/${String(params.id)}`, auth: request.headers.get('authorization'), body: null })
      const p = payments[String(params.id)]
      return p
        ? HttpResponse.json(p)
        : HttpResponse.json({ error: { code: 'BAD_REQUEST_ERROR', description: 'The id provided does not exist' } }, { status: 400 })
    }),
    http.get(`${API}/orders/:id/payments`, ({ params, request }) => {
      seen.push({ method: 'GET', path: `/orders/${String(params.id)}/payments`, auth: request.headers.get('authorization'), body: null })
      const items = Object.values(payments).filter((p) => p.order_id === params.id)
      return HttpResponse.json({ entity: 'collection', count: items.length, items })
    }),
    http.get(`${API}/payments/:id/refunds`, ({ params, request }) => {
      seen.push({ method: 'GET', path: `/payments/${String(params.id)}/refunds`, auth: request.headers.get('authorization'), body: null })
      return HttpResponse.json({ entity: 'collection', count: 0, items: [] })
    }),
    http.post(`${API}/payments/:id/refund`, async ({ params, request }) => {
      const body = (await request.json()) as { amount: number }
      seen.push({ method: 'POST', path: `/payments/${String(params.id)}/refund`, auth: request.headers.get('authorization'), body })
      return HttpResponse.json({
        id: 'rfnd_Mock000000001',
        entity: 'refund',
        payment_id: params.id,
        amount: body.amount,
        currency: 'INR',
        status: 'pending',
      })
    }),
  ]
}

describe('the Razorpay provider (SDK, REST mocked)', () => {
  const provider = createRazorpayProvider(KEYS, 300)
  const basic = `Basic ${Buffer.from(`${KEYS.keyId}:${KEYS.keySecret}`).toString('base64')}`

  it('creates an order for the amount in paise with our receipt, with the key as Basic auth', async () => {
    server.use(...razorpay())
    const order = await provider.createOrder({ amount: 25600, currency: 'INR', receipt: 'OD2611270001', notes: { order_id: 'x' } })
    expect(order).toMatchObject({ amount: 25600, currency: 'INR', receipt: 'OD2611270001', status: 'created' })
    expect(seen[0]).toMatchObject({ path: '/orders', auth: basic, body: { amount: 25600, currency: 'INR', receipt: 'OD2611270001' } })
  })

  it('fetches a payment and refunds part of it', async () => {
    server.use(...razorpay({ pay_Mock0000000001: paymentEntity('pay_Mock0000000001', 'order_X', 25600) }))
    expect(await provider.fetchPayment('pay_Mock0000000001')).toMatchObject({ amount: 25600, status: 'captured', order_id: 'order_X' })
    const refund = await provider.refund('pay_Mock0000000001', { amount: 1000, receipt: 'r1', notes: {} })
    expect(refund).toMatchObject({ id: 'rfnd_Mock000000001', amount: 1000, status: 'pending' })
    expect(seen.at(-1)).toMatchObject({ path: '/payments/pay_Mock0000000001/refund', body: { amount: 1000 } })
  })

  it('turns 4xx, 5xx and no answer in time into ProviderErrors that carry no secret', async () => {
    server.use(...razorpay())
    const fail = async (p: Promise<unknown>) =>
      p.then(
        () => undefined,
        (err: unknown) => err as ProviderError,
      )
    const notFound = await fail(provider.fetchPayment('pay_Nobody00000001'))
    expect(notFound).toBeInstanceOf(ProviderError)
    expect(notFound).toMatchObject({ status: 400, code: 'BAD_REQUEST_ERROR' })
    server.use(http.post(`${API}/orders`, () => HttpResponse.json({ error: { code: 'SERVER_ERROR' } }, { status: 502 })))
    const broken = await fail(provider.createOrder({ amount: 100, currency: 'INR', receipt: 'r', notes: {} }))
    expect(broken).toMatchObject({ status: 502 })
    server.use(
      http.get(`${API}/payments/:id`, async () => {
        await delay(2000)
        return HttpResponse.json({})
      }),
    )
    const slow = await fail(provider.fetchPayment('pay_Slow0000000001'))
    expect(slow).toBeInstanceOf(ProviderError)
    for (const err of [notFound, broken, slow]) expect(JSON.stringify({ ...err, message: err!.message })).not.toContain(KEYS.keySecret)
  })

  it('verifies signatures with the key secret (callback) and the webhook secret (raw body)', () => {
    const signature = paymentSignature(KEYS.keySecret, 'order_A', 'pay_B')
    expect(provider.verifyPaymentSignature({ orderId: 'order_A', paymentId: 'pay_B', signature })).toBe(true)
    expect(provider.verifyPaymentSignature({ orderId: 'order_A', paymentId: 'pay_C', signature })).toBe(false)
    expect(provider.verifyPaymentSignature({ orderId: 'order_A', paymentId: 'pay_B', signature: signature.slice(1) })).toBe(false)
    const body = '{"event":"payment.captured"}'
    expect(provider.verifyWebhookSignature(body, hmacHex(KEYS.webhookSecret, body))).toBe(true)
    expect(provider.verifyWebhookSignature(body, hmacHex(KEYS.keySecret, body))).toBe(false)
  })

  it('sends the shopper to the hosted checkout without JavaScript', () => {
    const hosted = provider.hostedCheckout({
      providerOrderId: 'order_A',
      amount: 25600,
      method: 'upi',
      name: 'Grocery',
      callbackUrl: 'https://shop.example/checkout/payment/callback',
      cancelUrl: 'https://shop.example/checkout',
      prefill: { name: 'A', email: 'a@example.com', contact: '9845012345' },
    })
    expect(hosted.url).toBe(RAZORPAY_HOSTED_CHECKOUT_URL)
    expect(hosted.fields).toMatchObject({
      key_id: KEYS.keyId,
      order_id: 'order_A',
      amount: '25600',
      callback_url: 'https://shop.example/checkout/payment/callback',
    })
    expect(JSON.stringify(hosted)).not.toContain(KEYS.keySecret)
  })
})

describe('the API with Razorpay', () => {
  let t: TestApp
  let admin: SignedIn
  const provider = createRazorpayProvider(KEYS, 300)
  const log = captureLog()
  /** Added to the real time by the app's clock: a test moves it past a retry's or a reconciliation's wait. */
  let offset = 0
  beforeAll(async () => {
    t = await createTestApp({
      logger: log.logger,
      clock: () => new Date(Date.now() + offset),
      payments: { ...testPaymentSettings(), provider, testProvider: undefined, reconcileAfterMs: 60_000 },
    })
    admin = await createAdmin(t)
  })
  afterAll(() => t?.close())
  afterEach(() => {
    // Nothing the API wrote to its log names a secret or the Basic credentials made of them.
    const written = log.lines.join('')
    for (const secret of [KEYS.keySecret, KEYS.webhookSecret, Buffer.from(`${KEYS.keyId}:${KEYS.keySecret}`).toString('base64')])
      expect(written).not.toContain(secret)
  })

  const address = { address_line: '12, Old Airport Road', city: 'Bengaluru', state: 'Karnataka', pincode: '560008', mobile: '9845012345' }
  const urls = { callbackUrl: 'https://shop.example/checkout/payment/callback', cancelUrl: 'https://shop.example/checkout' }
  async function shopperWithCart(stock = 3): Promise<SignedIn & { addressId: string; productId: string }> {
    const who = await createShopper(t)
    const addressId = (await t.call('address/create', { method: 'POST', json: address, token: who.token })).body.data._id
    const p = await insertProduct(t.db, { name: `Rice ${Math.random()}`, price: 300, sellingPrice: 256, stock })
    await t.call('cart/create', { method: 'POST', json: { productId: p.id }, token: who.token })
    return { ...who, addressId, productId: p.id }
  }

  it('a provider 5xx on start is a 503; the order waits with its stock held and "Try again" opens the checkout', async () => {
    const who = await shopperWithCart()
    server.use(http.post(`${API}/orders`, () => HttpResponse.json({ error: { code: 'SERVER_ERROR' } }, { status: 500 })))
    const res = await t.call('payment/start', {
      method: 'POST',
      json: { addressId: who.addressId, method: 'card', ...urls },
      token: who.token,
      headers: { 'Idempotency-Key': 'rzp-start-1' },
    })
    expect(res.status).toBe(503)
    expect(await stockIn(t.db, who.productId)).toBe(2)
    const orders = (await t.call('order/order-list', { token: who.token })).body.data
    expect(orders[0]).toMatchObject({ status: 'payment_pending' })
    server.resetHandlers()
    server.use(...razorpay())
    const retry = await t.call('payment/retry', { method: 'POST', json: { orderId: orders[0]._id, ...urls }, token: who.token })
    expect(retry.status).toBe(200)
    expect(retry.body.data.checkout).toMatchObject({ provider: 'razorpay', keyId: KEYS.keyId, amount: 25600 })
    expect(JSON.stringify(retry.body)).not.toContain(KEYS.keySecret)
  })

  it('pays: the callback is verified by signature and by the payment fetched; a timeout leaves it pending; the webhook settles it', async () => {
    const who = await shopperWithCart()
    server.use(...razorpay())
    const start = await t.call('payment/start', {
      method: 'POST',
      json: { addressId: who.addressId, method: 'upi', ...urls },
      token: who.token,
      headers: { 'Idempotency-Key': 'rzp-start-2' },
    })
    expect(start.status).toBe(201)
    const { order, checkout } = start.body.data
    expect(seen.find((s) => s.path === '/orders')!.body).toMatchObject({ amount: 25600, currency: 'INR', receipt: order.orderId })
    const fields = {
      razorpay_order_id: checkout.providerOrderId,
      razorpay_payment_id: 'pay_Mock0000000009',
      razorpay_signature: paymentSignature(KEYS.keySecret, checkout.providerOrderId, 'pay_Mock0000000009'),
    }
    // The provider does not answer the fetch in time: not paid yet, nothing lost.
    server.use(
      http.get(`${API}/payments/:id`, async () => {
        await delay(2000)
        return HttpResponse.json({})
      }),
    )
    expect((await t.call('payment/callback', { method: 'POST', json: fields })).body.data.outcome).toBe('pending')
    server.resetHandlers()
    server.use(...razorpay({ pay_Mock0000000009: paymentEntity('pay_Mock0000000009', checkout.providerOrderId, 25600) }))
    expect((await t.call('payment/callback', { method: 'POST', json: fields })).body.data.outcome).toBe('paid')
    const body = JSON.stringify({
      entity: 'event',
      event: 'payment.captured',
      contains: ['payment'],
      payload: { payment: { entity: paymentEntity('pay_Mock0000000009', checkout.providerOrderId, 25600) } },
    })
    const hook = await t.call('payment/webhook/razorpay', {
      method: 'POST',
      body,
      headers: {
        'Content-Type': 'application/json',
        'X-Razorpay-Signature': hmacHex(KEYS.webhookSecret, body),
        'x-razorpay-event-id': 'evt_Rzp1',
      },
    })
    expect(hook.body.data).toMatchObject({ duplicate: false, outcome: 'already' })
    const placed = (await t.call('order/details', { method: 'POST', json: { orderId: order._id }, token: who.token })).body.data
    expect(placed).toMatchObject({ status: 'placed', payment: { state: 'paid' } })
  })

  /** A shopper's cart started as an online payment with Razorpay (mocked): the order and its checkout. */
  async function started(who: SignedIn & { addressId: string }, key: string) {
    const res = await t.call('payment/start', {
      method: 'POST',
      json: { addressId: who.addressId, method: 'upi', ...urls },
      token: who.token,
      headers: { 'Idempotency-Key': key },
    })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    return res.body.data as { order: { _id: string; orderId: string }; checkout: { providerOrderId: string; amount: number } }
  }
  /** Pays `checkout` through the verified callback (Razorpay's payment fetched, mocked): the payment id. */
  async function paid(checkout: { providerOrderId: string; amount: number }, paymentId: string) {
    server.use(...razorpay({ [paymentId]: paymentEntity(paymentId, checkout.providerOrderId, checkout.amount) }))
    const fields = {
      razorpay_order_id: checkout.providerOrderId,
      razorpay_payment_id: paymentId,
      razorpay_signature: paymentSignature(KEYS.keySecret, checkout.providerOrderId, paymentId),
    }
    expect((await t.call('payment/callback', { method: 'POST', json: fields })).body.data.outcome).toBe('paid')
  }
  const orderOf = async (who: SignedIn, orderId: string) =>
    (await t.call('order/details', { method: 'POST', json: { orderId }, token: who.token })).body.data
  /** A refund webhook as Razorpay sends it, signed with the webhook secret. */
  const refundWebhook = (
    event: 'refund.processed' | 'refund.failed',
    refund: { id: string; payment_id: string; amount: number },
    eventId: string,
  ) => {
    const body = JSON.stringify({
      entity: 'event',
      event,
      contains: ['refund'],
      payload: {
        refund: { entity: { ...refund, entity: 'refund', currency: 'INR', status: event === 'refund.processed' ? 'processed' : 'failed' } },
      },
    })
    return t.call('payment/webhook/razorpay', {
      method: 'POST',
      body,
      headers: {
        'Content-Type': 'application/json',
        'X-Razorpay-Signature': hmacHex(KEYS.webhookSecret, body),
        'x-razorpay-event-id': eventId,
      },
    })
  }

  it('reconciles a payment whose callback and webhook were lost: a 5xx leaves it for the next run, a capture found places it', async () => {
    const who = await shopperWithCart()
    server.use(...razorpay())
    const { order, checkout } = await started(who, 'rzp-start-3')
    // Too fresh to ask about: Razorpay is not called.
    expect(await reconcilePendingPayments(t.deps)).toBe(0)
    expect(seen.some((s) => s.path.endsWith('/payments') && s.path.startsWith('/orders/'))).toBe(false)
    offset = 2 * 60_000
    try {
      server.use(http.get(`${API}/orders/:id/payments`, () => HttpResponse.json({ error: { code: 'SERVER_ERROR' } }, { status: 503 })))
      expect(await reconcilePendingPayments(t.deps)).toBe(0)
      expect(await orderOf(who, order._id)).toMatchObject({ status: 'payment_pending', payment: { state: 'pending' } })
      expect(log.lines.join('')).toContain('payment reconciliation: provider not answering')
      server.resetHandlers()
      server.use(...razorpay({ pay_Lost0000000001: paymentEntity('pay_Lost0000000001', checkout.providerOrderId, checkout.amount) }))
      expect(await reconcilePendingPayments(t.deps)).toBe(1)
      expect(seen.filter((s) => s.path === `/orders/${checkout.providerOrderId}/payments`)).toHaveLength(1)
      expect(await orderOf(who, order._id)).toMatchObject({ status: 'placed', payment: { state: 'paid' } })
      // Settled: not asked again.
      expect(await reconcilePendingPayments(t.deps)).toBe(0)
      expect(seen.filter((s) => s.path === `/orders/${checkout.providerOrderId}/payments`)).toHaveLength(1)
    } finally {
      offset = 0
    }
  })

  it('an admin cancels a packed paid order: a refund Razorpay answers with a 5xx is sent again later, one that timed out is found there and never made twice', async () => {
    const who = await shopperWithCart()
    server.use(...razorpay())
    const { order, checkout } = await started(who, 'rzp-start-4')
    await paid(checkout, 'pay_Cancel00000001')
    const packed = await t.call('order/update-status', {
      method: 'PUT',
      json: { orderId: order._id, status: 'packed' },
      token: admin.token,
    })
    expect(packed.status).toBe(200)
    const posts = () => seen.filter((s) => s.method === 'POST' && s.path === '/payments/pay_Cancel00000001/refund')
    /** The refunds Razorpay made (answered or not). */
    const made: { id: string; payment_id: string; amount: number; receipt: string; status: string }[] = []
    const refundAt = (answer: 'error' | 'hang' | 'ok') =>
      http.post(`${API}/payments/:id/refund`, async ({ params, request }) => {
        const body = (await request.json()) as { amount: number; receipt: string }
        seen.push({ method: 'POST', path: `/payments/${String(params.id)}/refund`, auth: request.headers.get('authorization'), body })
        if (answer === 'error') return HttpResponse.json({ error: { code: 'SERVER_ERROR' } }, { status: 500 })
        const refund = {
          id: `rfnd_Made${String(made.length + 1).padStart(9, '0')}`,
          payment_id: String(params.id),
          amount: body.amount,
          receipt: body.receipt,
          status: 'pending',
        }
        made.push(refund)
        // Made, but the answer comes after our time limit (300 ms here).
        if (answer === 'hang') await delay(1500)
        return HttpResponse.json({ ...refund, entity: 'refund', currency: 'INR' })
      })
    const listed = http.get(`${API}/payments/:id/refunds`, () =>
      HttpResponse.json({ entity: 'collection', count: made.length, items: made.map((r) => ({ ...r, entity: 'refund' })) }),
    )

    server.use(refundAt('error'))
    const cancelled = await t.call('order/update-status', {
      method: 'PUT',
      json: { orderId: order._id, status: 'cancelled' },
      token: admin.token,
    })
    expect(cancelled.status).toBe(200)
    expect(cancelled.body.data).toMatchObject({
      status: 'cancelled',
      payment: { state: 'refund_pending', refunds: [{ amount: 256, status: 'pending', reason: 'Order cancelled' }] },
    })
    expect(posts()).toHaveLength(1)
    // Not due again before a minute.
    expect(await sendPendingRefunds(t.deps)).toBe(0)
    expect(posts()).toHaveLength(1)
    try {
      offset = 61_000
      server.use(refundAt('hang'), listed)
      expect(await sendPendingRefunds(t.deps)).toBe(0)
      expect(posts()).toHaveLength(2)
      expect(made).toHaveLength(1)
      offset = 2 * 61_000
      server.use(refundAt('ok'), listed)
      expect(await sendPendingRefunds(t.deps)).toBe(1)
      // The refund that timed out was found at Razorpay by its receipt: no second one.
      expect(posts()).toHaveLength(2)
      expect(made).toHaveLength(1)
    } finally {
      offset = 0
    }
    const [row] = await queryRows<{ provider_refund_id: string; attempts: number }>(
      t.db,
      sql`select provider_refund_id, attempts from refunds where order_id = ${order._id}`,
    )
    expect(row).toMatchObject({ provider_refund_id: made[0]!.id, attempts: 3 })
    expect((await refundWebhook('refund.processed', made[0]!, 'evt_RzpRefund1')).status).toBe(200)
    expect(await orderOf(who, order._id)).toMatchObject({
      status: 'cancelled',
      payment: { state: 'refunded', refunds: [{ status: 'processed' }] },
    })
    expect(log.lines.join('')).toContain('refund not sent: will retry')
  })

  it('refunds one line in part through Razorpay; its webhook may come before Razorpay answers the refund', async () => {
    const who = await shopperWithCart()
    const second = await insertProduct(t.db, { name: `Dal ${Math.random()}`, price: 120, sellingPrice: 99.5, stock: 3 })
    await t.call('cart/create', { method: 'POST', json: { productId: second.id }, token: who.token })
    server.use(...razorpay())
    const { order, checkout } = await started(who, 'rzp-start-5')
    await paid(checkout, 'pay_Line000000001')
    server.use(
      http.post(`${API}/payments/:id/refund`, async ({ params, request }) => {
        const body = (await request.json()) as { amount: number }
        seen.push({ method: 'POST', path: `/payments/${String(params.id)}/refund`, auth: request.headers.get('authorization'), body })
        const refund = { id: 'rfnd_Early00000001', payment_id: String(params.id), amount: body.amount }
        // Razorpay's refund.processed arrives first; its answer to our call after.
        expect((await refundWebhook('refund.processed', refund, 'evt_RzpEarly1')).body.data.outcome).toBe('refund.processed')
        return HttpResponse.json({ ...refund, entity: 'refund', currency: 'INR', status: 'pending' })
      }),
    )
    const res = await t.call('payment/refund-line', {
      method: 'POST',
      json: { orderId: order._id, productId: second.id },
      token: admin.token,
    })
    expect(res.status).toBe(200)
    expect(seen.at(-1)).toMatchObject({ path: '/payments/pay_Line000000001/refund', body: { amount: 9950 } })
    expect(await orderOf(who, order._id)).toMatchObject({
      status: 'placed',
      payment: { state: 'partially_refunded', refunds: [{ amount: 99.5, status: 'processed' }] },
    })
  })

  it('a refund Razorpay fails is sent again as a new refund, three times at most; then the order is refund_failed and an error is logged', async () => {
    const who = await shopperWithCart()
    server.use(...razorpay())
    const { order, checkout } = await started(who, 'rzp-start-6')
    await paid(checkout, 'pay_Failing0000001')
    let n = 0
    server.use(
      http.post(`${API}/payments/:id/refund`, async ({ params, request }) => {
        const body = (await request.json()) as { amount: number; receipt: string }
        seen.push({ method: 'POST', path: `/payments/${String(params.id)}/refund`, auth: request.headers.get('authorization'), body })
        n++
        return HttpResponse.json({
          id: `rfnd_Fail${String(n).padStart(9, '0')}`,
          payment_id: String(params.id),
          amount: body.amount,
          entity: 'refund',
          currency: 'INR',
          status: 'pending',
        })
      }),
    )
    const cancelled = await t.call('order/cancel', { method: 'POST', json: { orderId: order._id }, token: who.token })
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200)
    const sent = () => seen.filter((s) => s.method === 'POST' && s.path === '/payments/pay_Failing0000001/refund')
    expect(sent()).toHaveLength(1)
    for (let attempt = 1; attempt <= 3; attempt++) {
      const refund = { id: `rfnd_Fail${String(attempt).padStart(9, '0')}`, payment_id: 'pay_Failing0000001', amount: 256 * 100 }
      expect((await refundWebhook('refund.failed', refund, `evt_RzpFail${attempt}`)).status).toBe(200)
      // The same event again changes nothing (processed once).
      expect((await refundWebhook('refund.failed', refund, `evt_RzpFail${attempt}`)).status).toBe(200)
      await sendPendingRefunds(t.deps)
    }
    // Three failures: the first two were sent again, the third is left for a person.
    expect(sent()).toHaveLength(3)
    const rows = await queryRows<{ status: string; amount_paise: number }>(
      t.db,
      sql`select status, amount_paise from refunds where order_id = ${order._id} order by created_at, id`,
    )
    expect(rows).toEqual([
      { status: 'failed', amount_paise: 25600 },
      { status: 'failed', amount_paise: 25600 },
      { status: 'failed', amount_paise: 25600 },
    ])
    expect(await orderOf(who, order._id)).toMatchObject({ status: 'cancelled', payment: { state: 'refund_failed' } })
    expect(log.lines.join('')).toContain('refund failed at the provider too often')
    const listed = await t.call('order/admin-list', { method: 'POST', json: { payment: 'refund_failed', limit: 50 }, token: admin.token })
    expect(listed.status, JSON.stringify(listed.body)).toBe(200)
    expect(listed.body.data.map((o: { _id: string }) => o._id)).toContain(order._id)
  })

  it('the test provider page is not there with Razorpay', async () => {
    const res = await t.app.request('/api/payment/test-checkout', {
      method: 'POST',
      body: 'order_id=x',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    })
    expect(res.status).toBe(404)
  })
})
