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
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { createShopper, type SignedIn } from '../../testing/auth.ts'
import { insertProduct, stockIn } from '../../testing/fixtures.ts'
import { hmacHex, paymentSignature, ProviderError } from './provider.ts'
import { createRazorpayProvider, RAZORPAY_HOSTED_CHECKOUT_URL } from './razorpay.ts'
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
  const provider = createRazorpayProvider(KEYS, 300)
  beforeAll(async () => {
    t = await createTestApp({ payments: { ...testPaymentSettings(), provider, testProvider: undefined } })
  })
  afterAll(() => t?.close())

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

  it('the test provider page is not there with Razorpay', async () => {
    const res = await t.app.request('/api/payment/test-checkout', {
      method: 'POST',
      body: 'order_id=x',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    })
    expect(res.status).toBe(404)
  })
})
