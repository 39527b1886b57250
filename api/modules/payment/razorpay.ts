/**
 * The Razorpay provider through its official Node SDK (`razorpay` 2.9.8; https://razorpay.com/docs/payments/server-integration/nodejs/):
 * orders.create, payments.fetch, orders.fetchPayments, payments.refund, payments.fetchMultipleRefund. Every call has a time limit
 * and fails as a ProviderError carrying only the status and Razorpay's error code: the SDK's own
 * errors may carry the request, and with it the Basic credentials, so they are never logged or answered.
 * Hosted checkout without JavaScript: a form POSTed to https://api.razorpay.com/v1/checkout/embedded
 * (Razorpay docs, "Hosted Checkout").
 */
import Razorpay from 'razorpay'
import {
  hmacHex,
  paymentSignature,
  PROVIDER_TIMEOUT_MS,
  ProviderError,
  sameSignature,
  withTimeout,
  type PaymentProvider,
  type ProviderOrder,
  type ProviderPayment,
  type ProviderRefund,
} from './provider.ts'

/** Razorpay's keys (`RAZORPAY_KEY_ID`, `RAZORPAY_KEY_SECRET`, `RAZORPAY_WEBHOOK_SECRET`). */
export interface RazorpayKeys {
  keyId: string
  keySecret: string
  webhookSecret: string
}

/** Razorpay's hosted checkout (no JavaScript on our page). */
export const RAZORPAY_HOSTED_CHECKOUT_URL = 'https://api.razorpay.com/v1/checkout/embedded'
/** Razorpay's in-page checkout script (allowed by the CSP only with PAYMENT_PROVIDER=razorpay). */
export const RAZORPAY_CHECKOUT_SCRIPT = 'https://checkout.razorpay.com/v1/checkout.js'

/** An SDK failure as a ProviderError: status and Razorpay's error code only. */
function providerError(err: unknown): ProviderError {
  if (err instanceof ProviderError) return err
  const e = err as { statusCode?: number; error?: { code?: string; description?: string } } | undefined
  if (e && typeof e.statusCode === 'number') {
    return new ProviderError(`Razorpay refused the request (${e.statusCode})`, e.statusCode, e.error?.code)
  }
  // No answer at all (network, timeout): the SDK then throws a TypeError reading the missing response.
  return new ProviderError('Razorpay could not be reached', undefined, 'NETWORK')
}

/** The Razorpay provider for `keys`; `timeoutMs` bounds each call. */
export function createRazorpayProvider(keys: RazorpayKeys, timeoutMs = PROVIDER_TIMEOUT_MS): PaymentProvider {
  const sdk = new Razorpay({ key_id: keys.keyId, key_secret: keys.keySecret })
  // The SDK's axios instance has no time limit of its own; ours also stops a hung socket.
  const rq = (sdk as unknown as { api?: { rq?: { defaults: { timeout?: number } } } }).api?.rq
  if (rq) rq.defaults.timeout = timeoutMs
  const call = async <T>(run: () => Promise<unknown>): Promise<T> => {
    try {
      return (await withTimeout(run(), timeoutMs)) as T
    } catch (err) {
      throw providerError(err)
    }
  }
  return {
    name: 'razorpay',
    keyId: keys.keyId,
    createOrder: (input) => call<ProviderOrder>(() => sdk.orders.create(input)),
    fetchPayment: (paymentId) => call<ProviderPayment>(() => sdk.payments.fetch(paymentId)),
    fetchOrderPayments: async (orderId) => (await call<{ items: ProviderPayment[] }>(() => sdk.orders.fetchPayments(orderId))).items,
    refund: (paymentId, input) =>
      call<ProviderRefund>(() => sdk.payments.refund(paymentId, { amount: input.amount, receipt: input.receipt, notes: input.notes })),
    fetchRefunds: async (paymentId) =>
      (await call<{ items: ProviderRefund[] }>(() => sdk.payments.fetchMultipleRefund(paymentId, { count: 100 }))).items,
    verifyPaymentSignature: ({ orderId, paymentId, signature }) =>
      sameSignature(paymentSignature(keys.keySecret, orderId, paymentId), signature),
    verifyWebhookSignature: (rawBody, signature) => sameSignature(hmacHex(keys.webhookSecret, rawBody), signature),
    hostedCheckout: (input) => ({
      url: RAZORPAY_HOSTED_CHECKOUT_URL,
      fields: {
        key_id: keys.keyId,
        order_id: input.providerOrderId,
        amount: String(input.amount),
        currency: 'INR',
        name: input.name,
        'prefill[name]': input.prefill.name,
        'prefill[email]': input.prefill.email,
        'prefill[contact]': input.prefill.contact,
        'prefill[method]': input.method,
        callback_url: input.callbackUrl,
        cancel_url: input.cancelUrl,
      },
    }),
  }
}
