/**
 * The test payment provider (docs/payments.md, "The test provider"): the default on the embedded
 * start without Razorpay keys. No money moves. It keeps its orders, payments and refunds in this
 * process's memory, answers the same calls as Razorpay, and signs exactly as Razorpay does: the
 * callback's `razorpay_signature` is HMAC-SHA256(key secret, `order_id|payment_id`) and each webhook
 * body is signed with the webhook secret in `X-Razorpay-Signature`, with Razorpay's payload shapes
 * (`payment.captured`, `payment.failed`, `order.paid`, `refund.processed`;
 * https://razorpay.com/docs/webhooks/payloads/payments/). Its hosted page (api/modules/payment/test-checkout.ts)
 * lets a tester pay, fail or abandon.
 */
import { randomBytes } from 'node:crypto'
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

interface TestOrder extends ProviderOrder {
  method: OnlineMethod
  callbackUrl: string
  cancelUrl: string
  payments: ProviderPayment[]
}

/** The test provider: the PaymentProvider calls plus what its hosted page does. */
export interface TestProvider extends PaymentProvider {
  readonly name: 'test'
  /** The provider's order, or undefined. */
  order(providerOrderId: string): (ProviderOrder & { method: OnlineMethod; callbackUrl: string; cancelUrl: string }) | undefined
  /** Remembers where the hosted page returns (the hosted form's callback and cancel urls, paths only). */
  open(providerOrderId: string, callbackUrl: string, cancelUrl: string, method: OnlineMethod): void
  /**
   * The shopper pays (`captured`) or the bank declines (`failed`): the payment is made, its webhooks
   * sent (payment.captured and order.paid, or payment.failed), and the fields the hosted page posts
   * back to the callback url answered.
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

/**
 * The test provider. `keySecret` and `webhookSecret` sign as Razorpay's keys do (random per process
 * on the embedded start; tests pass their own). Refunds are answered `pending` and settled by a
 * `refund.processed` webhook right after, as Razorpay's normal-speed refunds are.
 */
export function createTestProvider(options: { keySecret: string; webhookSecret: string; keyId?: string }): TestProvider {
  const orders = new Map<string, TestOrder>()
  const payments = new Map<string, ProviderPayment>()
  const refunds = new Map<string, ProviderRefund[]>()
  let sink: WebhookSink | undefined

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

  const provider: TestProvider = {
    name: 'test',
    keyId: options.keyId ?? 'rzp_test_nomoneymoves',
    async createOrder(input) {
      if (!Number.isInteger(input.amount) || input.amount < 100)
        throw new ProviderError('amount must be at least 100 paise', 400, 'BAD_REQUEST_ERROR')
      const order: TestOrder = {
        id: razorpayId('order'),
        amount: input.amount,
        currency: input.currency,
        receipt: input.receipt,
        status: 'created',
        method: 'upi',
        callbackUrl: '/',
        cancelUrl: '/',
        payments: [],
      }
      orders.set(order.id, order)
      const { payments: _p, method: _m, callbackUrl: _c, cancelUrl: _x, ...answer } = order
      return answer
    },
    async fetchPayment(paymentId) {
      const payment = payments.get(paymentId)
      if (!payment) throw new ProviderError('The id provided does not exist', 400, 'BAD_REQUEST_ERROR')
      return { ...payment }
    },
    async fetchOrderPayments(providerOrderId) {
      const order = orders.get(providerOrderId)
      if (!order) throw new ProviderError('The id provided does not exist', 400, 'BAD_REQUEST_ERROR')
      return order.payments.map((p) => ({ ...p }))
    },
    async refund(paymentId, input) {
      const payment = payments.get(paymentId)
      if (!payment || (payment.status !== 'captured' && payment.status !== 'refunded'))
        throw new ProviderError('The payment cannot be refunded', 400, 'BAD_REQUEST_ERROR')
      const refund: ProviderRefund = {
        id: razorpayId('rfnd'),
        payment_id: paymentId,
        amount: input.amount,
        currency: 'INR',
        status: 'pending',
        receipt: input.receipt,
      }
      refunds.set(paymentId, [refund, ...(refunds.get(paymentId) ?? [])])
      // Settled a moment later, as a webhook (never inside the caller's own request).
      setTimeout(() => {
        refund.status = 'processed'
        void sendWebhook('refund.processed', {
          refund: { ...refund, entity: 'refund', status: 'processed', receipt: input.receipt, notes: input.notes },
          payment: { ...payment, entity: 'payment' },
        }).catch(() => undefined)
      }, 10)
      return { ...refund }
    },
    async fetchRefunds(paymentId) {
      if (!payments.has(paymentId)) throw new ProviderError('The id provided does not exist', 400, 'BAD_REQUEST_ERROR')
      return (refunds.get(paymentId) ?? []).map((r) => ({ ...r }))
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
    order(providerOrderId) {
      const order = orders.get(providerOrderId)
      if (!order) return undefined
      const { payments: _p, ...rest } = order
      return rest
    },
    open(providerOrderId, callbackUrl, cancelUrl, method) {
      const order = orders.get(providerOrderId)
      if (!order) return
      order.callbackUrl = ownPath(callbackUrl)
      order.cancelUrl = ownPath(cancelUrl)
      order.method = method
    },
    async complete(providerOrderId, outcome): Promise<Record<string, string>> {
      const order = orders.get(providerOrderId)
      if (!order) throw new ProviderError('The id provided does not exist', 400, 'BAD_REQUEST_ERROR')
      const payment: ProviderPayment & Record<string, unknown> = {
        id: razorpayId('pay'),
        entity: 'payment',
        order_id: order.id,
        amount: order.amount,
        currency: order.currency,
        status: outcome,
        method: order.method,
        captured: outcome === 'captured',
        error_code: outcome === 'failed' ? 'BAD_REQUEST_ERROR' : null,
        error_description: outcome === 'failed' ? 'Payment declined by the test bank' : null,
        created_at: Math.floor(Date.now() / 1000),
      }
      payments.set(payment.id, payment)
      order.payments.push(payment)
      if (outcome === 'captured') {
        order.status = 'paid'
        await sendWebhook('payment.captured', { payment })
        await sendWebhook('order.paid', {
          payment,
          order: {
            id: order.id,
            entity: 'order',
            amount: order.amount,
            amount_paid: order.amount,
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
