/**
 * The test provider keeps its state in the database and signs with configured secrets
 * (docs/payments.md, "The test provider"; docs/decisions/0044-test-provider-state-in-the-database.md):
 * two providers over one database with one TEST_PAYMENT_SECRET, as two instances are, answer for each
 * other's orders, payments and refunds exactly as Razorpay would; another secret verifies nothing;
 * a refund past the captured amount is refused, also when two are asked at once (PGlite, or
 * PostgreSQL with TEST_DATABASE_URL).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../db/client.ts'
import { createTestDatabase } from '../../testing/db.ts'
import { ProviderError } from './provider.ts'
import { testPaymentSettings } from './settings.ts'
import type { TestProvider } from './test-provider.ts'

const SECRET = 'one-test-payment-secret-for-both-instances-0123'
let database: Database
/** Instance A's provider and instance B's, built from the same setting. */
let a: TestProvider
let b: TestProvider

beforeAll(async () => {
  database = await createTestDatabase()
  ;[a, b] = [testPaymentSettings({}, SECRET).testProvider!, testPaymentSettings({}, SECRET).testProvider!]
  for (const provider of [a, b]) provider.useDatabase(database.db)
})
afterAll(() => database?.close())

const newOrder = (amount = 50_000) => a.createOrder({ amount, currency: 'INR', receipt: 'OD2611280001', notes: {} })

describe('two instances of the test provider on one database', () => {
  it('B answers for A’s order: its page, the payment, the callback A verifies', async () => {
    const order = await newOrder()
    await a.open(order.id, 'http://shop.test/checkout/payment/callback?x=1', 'https://evil.example/checkout', 'card')
    expect(await b.order(order.id)).toMatchObject({
      id: order.id,
      amount: 50_000,
      receipt: 'OD2611280001',
      method: 'card',
      callbackUrl: '/checkout/payment/callback?x=1',
      cancelUrl: '/checkout',
    })
    const hooks: string[] = []
    b.setSink(async (w) => void hooks.push(JSON.parse(w.rawBody).event))
    const fields = await b.complete(order.id, 'captured')
    expect(hooks).toEqual(['payment.captured', 'order.paid'])
    expect(
      a.verifyPaymentSignature({ orderId: order.id, paymentId: fields.razorpay_payment_id!, signature: fields.razorpay_signature! }),
    ).toBe(true)
    expect(await a.fetchPayment(fields.razorpay_payment_id!)).toMatchObject({ order_id: order.id, amount: 50_000, status: 'captured' })
    expect(await a.fetchOrderPayments(order.id)).toHaveLength(1)
  })

  it('a webhook signed by one is verified by the other; another secret’s is not', async () => {
    const bodies: Array<{ rawBody: string; signature: string }> = []
    a.setSink(async (w) => void bodies.push(w))
    await a.sendWebhook('payment.failed', { payment: { id: 'pay_X' } })
    const [hook] = bodies
    expect(b.verifyWebhookSignature(hook!.rawBody, hook!.signature)).toBe(true)
    const other = testPaymentSettings({}, 'another-test-payment-secret-0123456789ab').testProvider!
    expect(other.verifyWebhookSignature(hook!.rawBody, hook!.signature)).toBe(false)
  })

  it('unknown ids are Razorpay’s 400, as before', async () => {
    await expect(b.fetchPayment('pay_Unknown')).rejects.toMatchObject({ status: 400, code: 'BAD_REQUEST_ERROR' })
    await expect(b.fetchOrderPayments('order_Unknown')).rejects.toBeInstanceOf(ProviderError)
    await expect(b.complete('order_Unknown', 'captured')).rejects.toMatchObject({ status: 400 })
    expect(await b.order('order_Unknown')).toBeUndefined()
  })

  it('refunds: listed by either, settled by webhook, never past the captured amount, even asked at once', async () => {
    const order = await newOrder(10_000)
    a.setSink(async () => undefined)
    const { razorpay_payment_id: paymentId } = await a.complete(order.id, 'captured')
    const settled: string[] = []
    for (const provider of [a, b]) provider.setSink(async (w) => void settled.push(JSON.parse(w.rawBody).payload.refund.entity.status))
    // Two refunds of 60 % at once, on two instances: one is made, the other refused.
    const outcomes = await Promise.allSettled([
      a.refund(paymentId!, { amount: 6_000, receipt: 'r1', notes: {} }),
      b.refund(paymentId!, { amount: 6_000, receipt: 'r2', notes: {} }),
    ])
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1)
    expect(outcomes.find((o) => o.status === 'rejected')).toMatchObject({ reason: { status: 400 } })
    await expect(b.refund(paymentId!, { amount: 4_001, receipt: 'r3', notes: {} })).rejects.toMatchObject({ status: 400 })
    const rest = await b.refund(paymentId!, { amount: 4_000, receipt: 'r4', notes: {} })
    expect(rest).toMatchObject({ amount: 4_000, status: 'pending', receipt: 'r4' })
    const listed = await a.fetchRefunds(paymentId!)
    expect(listed.map((r) => r.amount).sort()).toEqual([4_000, 6_000])
    for (let i = 0; i < 100 && (await b.fetchRefunds(paymentId!)).some((r) => r.status === 'pending'); i++)
      await new Promise((r) => setTimeout(r, 20))
    expect((await b.fetchRefunds(paymentId!)).map((r) => r.status)).toEqual(['processed', 'processed'])
    // Each told by a refund.processed webhook from the instance that made it.
    await new Promise((r) => setTimeout(r, 50))
    expect(settled).toEqual(['processed', 'processed'])
  })
})
