/**
 * The payment provider seam (docs/payments.md, "Providers"; docs/decisions/0025-online-payment-and-stock-reservation.md):
 * the few calls the shop makes of a provider, after Razorpay's Orders API (https://razorpay.com/docs/api/orders/),
 * and the signature rules every provider here follows, which are Razorpay's
 * (https://razorpay.com/docs/payments/server-integration/nodejs/payment-gateway/build-integration/#verify-payment-signature,
 * https://razorpay.com/docs/webhooks/validate-test/):
 * - the checkout's callback carries HMAC-SHA256(key secret, `order_id|payment_id`) in hex;
 * - a webhook carries HMAC-SHA256(webhook secret, raw body) in hex in `X-Razorpay-Signature`.
 * Amounts are integer paise; the currency is INR. No card or UPI detail ever reaches this server:
 * the shopper types them into the provider's page.
 */
import { createHmac, timingSafeEqual } from 'node:crypto'

/** The online ways to pay the checkout offers (each opens the provider's checkout on that method). */
export type OnlineMethod = 'upi' | 'card' | 'netbanking' | 'wallet'

/** A provider's order: what the shopper pays for (`receipt` is our order number). */
export interface ProviderOrder {
  id: string
  amount: number
  currency: string
  receipt: string
  status: string
}

/** A provider's payment (Razorpay's payment entity, the fields read here). `status`: created, authorized, captured, refunded, failed. */
export interface ProviderPayment {
  id: string
  order_id: string
  amount: number
  currency: string
  status: string
  method?: string
  error_description?: string | null
}

/** A provider's refund; `status`: pending, processed, failed. */
export interface ProviderRefund {
  id: string
  payment_id: string
  amount: number
  currency?: string
  status: string
  /** What we sent as `receipt` (our refund row's id). */
  receipt?: string | null
}

/** A provider call that failed: timed out, refused (4xx) or broken (5xx). Never carries a secret. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly status: number | undefined,
    readonly code?: string,
  ) {
    super(message)
    this.name = 'ProviderError'
  }
}

/** The calls the shop makes of a payment provider. */
export interface PaymentProvider {
  /** `razorpay` or `test` (stored on each payment row). */
  readonly name: 'razorpay' | 'test'
  /** The public key id the checkout is opened with (never the secret). */
  readonly keyId: string
  /** Creates the provider's order for `amount` paise. @throws ProviderError */
  createOrder(input: { amount: number; currency: 'INR'; receipt: string; notes: Record<string, string> }): Promise<ProviderOrder>
  /** One payment. @throws ProviderError (404 when unknown) */
  fetchPayment(paymentId: string): Promise<ProviderPayment>
  /** The payments made against one provider order (reconciliation). @throws ProviderError */
  fetchOrderPayments(providerOrderId: string): Promise<ProviderPayment[]>
  /** Refunds `amount` paise of a captured payment. @throws ProviderError */
  refund(paymentId: string, input: { amount: number; receipt: string; notes: Record<string, string> }): Promise<ProviderRefund>
  /**
   * The refunds made of one payment, newest first (at most 100): before sending a refund again after
   * a send with no answer, so a refund the provider did make is found, not made twice. @throws ProviderError
   */
  fetchRefunds(paymentId: string): Promise<ProviderRefund[]>
  /** True when `signature` is the callback signature of `orderId|paymentId`. */
  verifyPaymentSignature(input: { orderId: string; paymentId: string; signature: string }): boolean
  /** True when `signature` is the webhook signature of exactly `rawBody`. */
  verifyWebhookSignature(rawBody: string, signature: string): boolean
  /** Where the shopper pays without JavaScript: a form POSTed to `url` with `fields`. */
  hostedCheckout(input: {
    providerOrderId: string
    amount: number
    method: OnlineMethod
    name: string
    callbackUrl: string
    cancelUrl: string
    prefill: { name: string; email: string; contact: string }
  }): { url: string; fields: Record<string, string> }
}

/** HMAC-SHA256 of `payload` with `secret`, hex (the scheme of both signatures above). */
export function hmacHex(secret: string, payload: string): string {
  return createHmac('sha256', secret).update(payload).digest('hex')
}

/** Compares a received hex signature with the expected one in constant time (OWASP Cryptographic Storage, "timing"). */
export function sameSignature(expected: string, received: string): boolean {
  const a = Buffer.from(expected, 'utf8')
  const b = Buffer.from(received, 'utf8')
  return a.length === b.length && timingSafeEqual(a, b)
}

/** The callback signature Razorpay sends: HMAC-SHA256(key secret, `order_id|payment_id`). */
export const paymentSignature = (keySecret: string, orderId: string, paymentId: string) => hmacHex(keySecret, `${orderId}|${paymentId}`)

/** How long one provider call may take (ms) before it counts as failed. */
export const PROVIDER_TIMEOUT_MS = 10_000

/** `promise`, or a ProviderError once `ms` passed. */
export async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new ProviderError('The payment provider did not answer in time', undefined, 'TIMEOUT')), ms)
      }),
    ])
  } finally {
    clearTimeout(timer)
  }
}
