/**
 * The test payment provider (docs/payments.md, "The test provider"): the default on the embedded
 * start without Razorpay keys. No money moves. It keeps its orders, payments and refunds in the
 * database (tables `test_payment_*`, migration 0027), as Razorpay keeps them on its side, so that any
 * instance serves its hosted page, verifies its callback and answers the payment sweeps
 * (docs/decisions/0044-test-provider-state-in-the-database.md). It answers the same calls as
 * Razorpay and signs exactly as Razorpay does: the callback's `razorpay_signature` is
 * HMAC-SHA256(key secret, `order_id|payment_id`) and each webhook body is signed with the webhook
 * secret in `X-Razorpay-Signature`, with Razorpay's payload shapes (`payment.captured`,
 * `payment.failed`, `order.paid`, `refund.processed`; https://razorpay.com/docs/webhooks/payloads/payments/).
 * Both secrets come from configuration (`TEST_PAYMENT_SECRET`, api/modules/payment/settings.ts), so
 * every instance signs and verifies alike. Its hosted page (api/modules/payment/test-checkout.ts)
 * lets a tester pay, fail or abandon.
 */
import { randomBytes } from 'node:crypto'
import { and, desc, eq, sql } from 'drizzle-orm'
import type { Db } from '../../db/db.ts'
import { testPaymentOrders, testPaymentPayments, testPaymentRefunds } from '../../db/schema.ts'
import {
  hmacHex,
  paymentSignature,
  ProviderError,
  sameSignature,
  type OnlineMethod,
  type PaymentProvider,
  type ProviderOrder,
  type ProviderPayment,
  type ProviderRefund,
} from './provider.ts'

/** A webhook as the provider sends it: the raw body and its headers. */
export interface SignedWebhook {
  rawBody: string
  signature: string
  eventId: string
}

/** Where the test provider delivers its webhooks (the shop's own handler, in process). */
export type WebhookSink = (webhook: SignedWebhook) => Promise<void>

/** A test provider order with where its hosted page returns. */
export type TestOrder = ProviderOrder & { method: OnlineMethod; callbackUrl: string; cancelUrl: string }

/** The test provider: the PaymentProvider calls plus what its hosted page does. */
export interface TestProvider extends PaymentProvider {
  readonly name: 'test'
  /** Keeps the provider's state in `db` (the app's database; api/modules/payment/routes.ts calls it once). */
  useDatabase(db: Db): void
  /** The provider's order, or undefined. */
  order(providerOrderId: string): Promise<TestOrder | undefined>
  /** Remembers where the hosted page returns (the hosted form's callback and cancel urls, paths only). */
  open(providerOrderId: string, callbackUrl: string, cancelUrl: string, method: OnlineMethod): Promise<void>
  /**
   * The shopper pays (`captured`) or the bank declines (`failed`): the payment is made, its webhooks
   * sent (payment.captured and order.paid, or payment.failed), and the fields the hosted page posts
   * back to the callback url answered. @throws ProviderError 400 for an unknown order
   */
  complete(providerOrderId: string, outcome: 'captured' | 'failed'): Promise<Record<string, string>>
  /** Sends a webhook of `event` with `entities`, signed (tests and the page). */
  sendWebhook(event: string, entities: Record<string, unknown>): Promise<void>
  /** Sets where webhooks go (the app, once built). */
  setSink(sink: WebhookSink): void
}

/** A Razorpay-like id: prefix + 14 random base62-ish characters. */
const razorpayId = (prefix: string) =>
  `${prefix}_${randomBytes(10).toString('base64url').replace(/[-_]/g, '').slice(0, 14).padEnd(14, '0')}`

/** Only a path of our own site (never another origin): the page posts signed fields there. */
function ownPath(url: string): string {
  const parsed = new URL(url, 'http://shop.invalid')
  return `${parsed.pathname}${parsed.search}`
}

/** Razorpay's answer to an id it does not know. */
const unknownId = () => new ProviderError('The id provided does not exist', 400, 'BAD_REQUEST_ERROR')

/** Unix seconds of `at` (Razorpay's `created_at`). */
const unixSeconds = (at: Date) => Math.floor(at.getTime() / 1000)

type PaymentRow = typeof testPaymentPayments.$inferSelect
type RefundRow = typeof testPaymentRefunds.$inferSelect

/** A stored payment as Razorpay's payment entity. */
function paymentEntity(row: PaymentRow): ProviderPayment & Record<string, unknown> {
  const failed = row.status === 'failed'
  return {
    id: row.id,
    entity: 'payment',
    order_id: row.orderId,
    amount: row.amountPaise,
    currency: row.currency,
    status: row.status,
    method: row.method,
    captured: row.status === 'captured',
    error_code: failed ? 'BAD_REQUEST_ERROR' : null,
    error_description: row.errorDescription,
    created_at: unixSeconds(row.createdAt),
  }
}

/** A stored refund as Razorpay's refund entity (the fields the shop reads). */
const refundEntity = (row: RefundRow): ProviderRefund => ({
  id: row.id,
  payment_id: row.paymentId,
  amount: row.amountPaise,
  currency: row.currency,
  status: row.status,
  receipt: row.receipt,
})

/**
 * The test provider. `keySecret` and `webhookSecret` sign as Razorpay's keys do (from
 * `TEST_PAYMENT_SECRET`; tests pass their own). Its state lives in the database given to
 * `useDatabase`; a call before that is a ProviderError 503. Refunds are answered `pending` and
 * settled by a `refund.processed` webhook right after, as Razorpay's normal-speed refunds are; a
 * refund beyond what is left of the payment is refused as Razorpay refuses it (400).
 */
export function createTestProvider(options: { keySecret: string; webhookSecret: string; keyId?: string }): TestProvider {
  let database: Db | undefined
  let sink: WebhookSink | undefined
  const db = () => {
    if (!database) throw new ProviderError('The test provider has no database yet', 503)
    return database
  }

  const sendWebhook = async (event: string, entities: Record<string, unknown>) => {
    const body = {
      entity: 'event',
      account_id: 'acc_TestNoMoneyMoves',
      event,
      contains: Object.keys(entities),
      payload: Object.fromEntries(Object.entries(entities).map(([k, v]) => [k, { entity: v }])),
      created_at: Math.floor(Date.now() / 1000),
    }
    const rawBody = JSON.stringify(body)
    await sink?.({ rawBody, signature: hmacHex(options.webhookSecret, rawBody), eventId: razorpayId('evt') })
  }

  const findOrder = async (id: string) => (await db().select().from(testPaymentOrders).where(eq(testPaymentOrders.id, id)))[0]
  const findPayment = async (id: string) => (await db().select().from(testPaymentPayments).where(eq(testPaymentPayments.id, id)))[0]

  /** Marks a pending refund processed, then tells the shop (as Razorpay settles one a moment later). */
  const settleRefund = async (refundId: string, notes: Record<string, string>) => {
    const [refund] = await db()
      .update(testPaymentRefunds)
      .set({ status: 'processed' })
      .where(and(eq(testPaymentRefunds.id, refundId), eq(testPaymentRefunds.status, 'pending')))
      .returning()
    if (!refund) return
    const payment = await findPayment(refund.paymentId)
    await sendWebhook('refund.processed', {
      refund: { ...refundEntity(refund), entity: 'refund', status: 'processed', notes },
      payment: payment ? paymentEntity(payment) : undefined,
    })
  }

  const provider: TestProvider = {
    name: 'test',
    keyId: options.keyId ?? 'rzp_test_nomoneymoves',
    useDatabase(next) {
      database = next
    },
    async createOrder(input) {
      if (!Number.isInteger(input.amount) || input.amount < 100)
        throw new ProviderError('amount must be at least 100 paise', 400, 'BAD_REQUEST_ERROR')
      const [row] = await db()
        .insert(testPaymentOrders)
        .values({ id: razorpayId('order'), amountPaise: input.amount, currency: input.currency, receipt: input.receipt })
        .returning()
      return { id: row!.id, amount: row!.amountPaise, currency: row!.currency, receipt: row!.receipt, status: row!.status }
    },
    async fetchPayment(paymentId) {
      const payment = await findPayment(paymentId)
      if (!payment) throw unknownId()
      return paymentEntity(payment)
    },
    async fetchOrderPayments(providerOrderId) {
      if (!(await findOrder(providerOrderId))) throw unknownId()
      const rows = await db()
        .select()
        .from(testPaymentPayments)
        .where(eq(testPaymentPayments.orderId, providerOrderId))
        .orderBy(testPaymentPayments.createdAt, testPaymentPayments.id)
      return rows.map(paymentEntity)
    },
    async refund(paymentId, input) {
      // The payment row locked: two refunds at once cannot both pass the "what is left" check.
      const refund = await db().transaction(async (tx) => {
        const [payment] = await tx.select().from(testPaymentPayments).where(eq(testPaymentPayments.id, paymentId)).for('update')
        if (!payment || payment.status !== 'captured') throw new ProviderError('The payment cannot be refunded', 400, 'BAD_REQUEST_ERROR')
        const [done] = await tx
          .select({ paise: sql<number>`coalesce(sum(${testPaymentRefunds.amountPaise}), 0)::int` })
          .from(testPaymentRefunds)
          .where(eq(testPaymentRefunds.paymentId, paymentId))
        if (!Number.isInteger(input.amount) || input.amount < 1 || input.amount > payment.amountPaise - done!.paise)
          throw new ProviderError('The total refund amount is greater than the refund payment amount', 400, 'BAD_REQUEST_ERROR')
        const [row] = await tx
          .insert(testPaymentRefunds)
          .values({ id: razorpayId('rfnd'), paymentId, amountPaise: input.amount, receipt: input.receipt, notes: input.notes })
          .returning()
        return row!
      })
      // Settled a moment later, as a webhook (never inside the caller's own request).
      setTimeout(() => void settleRefund(refund.id, input.notes).catch(() => undefined), 10)
      return refundEntity(refund)
    },
    async fetchRefunds(paymentId) {
      if (!(await findPayment(paymentId))) throw unknownId()
      const rows = await db()
        .select()
        .from(testPaymentRefunds)
        .where(eq(testPaymentRefunds.paymentId, paymentId))
        .orderBy(desc(testPaymentRefunds.createdAt), desc(testPaymentRefunds.id))
        .limit(100)
      return rows.map(refundEntity)
    },
    verifyPaymentSignature: ({ orderId, paymentId, signature }) =>
      sameSignature(paymentSignature(options.keySecret, orderId, paymentId), signature),
    verifyWebhookSignature: (rawBody, signature) => sameSignature(hmacHex(options.webhookSecret, rawBody), signature),
    hostedCheckout: (input) => ({
      url: '/api/payment/test-checkout',
      fields: {
        key_id: provider.keyId,
        order_id: input.providerOrderId,
        amount: String(input.amount),
        currency: 'INR',
        name: input.name,
        'prefill[method]': input.method,
        callback_url: ownPath(input.callbackUrl),
        cancel_url: ownPath(input.cancelUrl),
      },
    }),
    async order(providerOrderId) {
      const row = await findOrder(providerOrderId)
      if (!row) return undefined
      return {
        id: row.id,
        amount: row.amountPaise,
        currency: row.currency,
        receipt: row.receipt,
        status: row.status,
        method: row.method as OnlineMethod,
        callbackUrl: row.callbackUrl,
        cancelUrl: row.cancelUrl,
      }
    },
    async open(providerOrderId, callbackUrl, cancelUrl, method) {
      await db()
        .update(testPaymentOrders)
        .set({ callbackUrl: ownPath(callbackUrl), cancelUrl: ownPath(cancelUrl), method })
        .where(eq(testPaymentOrders.id, providerOrderId))
    },
    async complete(providerOrderId, outcome): Promise<Record<string, string>> {
      const order = await findOrder(providerOrderId)
      if (!order) throw unknownId()
      // The payment and its order's `paid` in one transaction: never a captured payment of an unpaid order.
      const row = await db().transaction(async (tx) => {
        const [inserted] = await tx
          .insert(testPaymentPayments)
          .values({
            id: razorpayId('pay'),
            orderId: order.id,
            amountPaise: order.amountPaise,
            currency: order.currency,
            status: outcome,
            method: order.method,
            errorDescription: outcome === 'failed' ? 'Payment declined by the test bank' : null,
          })
          .returning()
        if (outcome === 'captured') await tx.update(testPaymentOrders).set({ status: 'paid' }).where(eq(testPaymentOrders.id, order.id))
        return inserted!
      })
      const payment = paymentEntity(row)
      if (outcome === 'captured') {
        await sendWebhook('payment.captured', { payment })
        await sendWebhook('order.paid', {
          payment,
          order: {
            id: order.id,
            entity: 'order',
            amount: order.amountPaise,
            amount_paid: order.amountPaise,
            amount_due: 0,
            currency: order.currency,
            receipt: order.receipt,
            status: 'paid',
          },
        })
        return {
          razorpay_payment_id: payment.id,
          razorpay_order_id: order.id,
          razorpay_signature: paymentSignature(options.keySecret, order.id, payment.id),
        }
      }
      await sendWebhook('payment.failed', { payment })
      return {
        'error[code]': 'BAD_REQUEST_ERROR',
        'error[description]': 'Payment declined by the test bank',
        'error[source]': 'bank',
        'error[step]': 'payment_authorization',
        'error[reason]': 'payment_failed',
        'error[metadata]': JSON.stringify({ payment_id: payment.id, order_id: order.id }),
      }
    },
    sendWebhook,
    setSink(next) {
      sink = next
    },
  }
  return provider
}
