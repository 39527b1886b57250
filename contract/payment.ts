/**
 * The payment endpoints' bodies and answers (docs/payments.md). Amounts of a payment are integer
 * paise (the provider's unit); an order's bill stays in rupees as everywhere else on the wire.
 */
import { z } from 'zod'
import { ShownCouponDiscountSchema } from './coupon.ts'
import { ShownFeesSchema } from './cart.ts'
import { DeliveryInstructionsSchema, ShownTipSchema, TipSchema } from './tip.ts'
import { IdSchema } from './fields.ts'
import { IDEMPOTENCY_KEY_PATTERN } from './idempotency.ts'

/** The online ways to pay (each opens the provider's checkout on that method). */
export const ONLINE_METHODS = ['upi', 'card', 'netbanking', 'wallet'] as const
export type OnlineMethodName = (typeof ONLINE_METHODS)[number]

/** Every way to pay at checkout: an online method or cash on delivery. */
export const PAYMENT_CHOICES = [...ONLINE_METHODS, 'cod'] as const
export type PaymentChoice = (typeof PAYMENT_CHOICES)[number]

/**
 * An order's payment state (docs/payments.md, "Payment states"): cod (cash on delivery), pending
 * (an online payment awaited, stock held), paid, expired (unpaid in time: cancelled, stock back),
 * mismatch (a captured amount or currency not the order's: recorded, never fulfilled),
 * refund_pending, refunded, partially_refunded, refund_failed (the provider failed a refund as often
 * as it is retried: settled by hand).
 */
export const PAYMENT_STATES = [
  'cod',
  'pending',
  'paid',
  'expired',
  'mismatch',
  'refund_pending',
  'refunded',
  'partially_refunded',
  'refund_failed',
] as const
export type PaymentState = (typeof PAYMENT_STATES)[number]

/** Each payment state in words, for the pages and the orders export (docs/payments.md, "Payment states"). */
export const PAYMENT_STATE_LABELS: Record<PaymentState, string> = {
  cod: 'Cash on delivery',
  pending: 'Awaiting payment',
  paid: 'Paid online',
  expired: 'Not paid in time',
  mismatch: 'Amount mismatch',
  refund_pending: 'Refund in progress',
  refunded: 'Refunded',
  partially_refunded: 'Partly refunded',
  refund_failed: 'Refund failed',
}

/** A payment state's label; an unknown state reads as itself. */
export function paymentStateLabel(state: string): string {
  return PAYMENT_STATE_LABELS[state as PaymentState] ?? state
}

/** A url the provider returns the shopper to: http(s) on a host, at most 2,000 characters. */
const ReturnUrlSchema = z
  .string()
  .max(2000)
  .regex(/^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?(\/\S*)?$/, 'Must be an http(s) URL')

/** `X-Razorpay-Signature`: the hex HMAC-SHA256 of a webhook's raw body (a longer value is no signature). */
export const WebhookSignatureSchema = z.string().max(128)
/** `x-razorpay-event-id`: the provider's event id (a longer value is ignored: the body's digest stands in). */
export const WebhookEventIdSchema = z.string().max(100)

/**
 * POST /api/payment/start: `{ addressId, method, callbackUrl, cancelUrl, idempotencyKey? }`: the cart
 * as an order awaiting payment, its stock held, and the provider's checkout to open.
 */
export const StartPaymentSchema = z.object({
  addressId: IdSchema,
  method: z.enum(ONLINE_METHODS, { error: `method must be one of ${ONLINE_METHODS.join(', ')}` }),
  callbackUrl: ReturnUrlSchema,
  cancelUrl: ReturnUrlSchema,
  idempotencyKey: z.string().optional().meta({ pattern: IDEMPOTENCY_KEY_PATTERN.source }),
  /** The coupon discount the checkout showed, rupees (docs/offers.md, "At placement"). */
  couponDiscount: ShownCouponDiscountSchema.optional(),
  /** The tip, the tip the bill showed and the delivery instructions, as on PlaceOrderSchema (contract/order.ts). */
  tip: TipSchema.optional(),
  shownTip: ShownTipSchema.optional(),
  deliveryInstructions: DeliveryInstructionsSchema.optional(),
  /** The named fees the bill showed, rupees, as on PlaceOrderSchema (contract/order.ts). */
  shownFees: ShownFeesSchema.optional(),
})

/** POST /api/payment/retry: another try at paying an order still awaiting payment. */
export const RetryPaymentSchema = z.object({
  orderId: IdSchema,
  method: z.enum(ONLINE_METHODS).optional(),
  callbackUrl: ReturnUrlSchema,
  cancelUrl: ReturnUrlSchema,
})

/** POST /api/payment/pay-on-delivery: `{ orderId }`. */
export const PayOnDeliverySchema = z.object({ orderId: IdSchema })

const ProviderIdSchema = z.string().regex(/^[A-Za-z0-9_]{1,64}$/, 'Not a provider id')

/**
 * POST /api/payment/callback: what the provider's checkout posts back (Razorpay's names): on success
 * `razorpay_order_id`, `razorpay_payment_id`, `razorpay_signature`; on failure the order id and the
 * error's code and description.
 */
export const PaymentCallbackSchema = z.object({
  razorpay_order_id: ProviderIdSchema,
  razorpay_payment_id: ProviderIdSchema.optional(),
  razorpay_signature: z
    .string()
    .regex(/^[a-f0-9]{64}$/, 'Not a signature')
    .optional(),
  error: z.object({ code: z.string().max(100).optional(), description: z.string().max(500).optional() }).optional(),
})

/** POST /api/payment/refund-line (admin): refund one line that cannot be delivered. */
export const RefundLineSchema = z.object({ orderId: IdSchema, productId: IdSchema })

/** The provider's checkout for one order: open in the page (`keyId`, `providerOrderId`) or post `hosted` without JavaScript. */
export const CheckoutSchema = z
  .object({
    orderId: z.string(),
    orderNumber: z.string(),
    provider: z.enum(['razorpay', 'test']),
    keyId: z.string(),
    providerOrderId: z.string(),
    /** Paise. */
    amount: z.number().int(),
    currency: z.literal('INR'),
    method: z.enum(ONLINE_METHODS),
    /** When the held stock goes back unless paid (ISO 8601). */
    expiresAt: z.string(),
    prefill: z.object({ name: z.string(), email: z.string(), contact: z.string() }),
    hosted: z.object({ url: z.string(), fields: z.record(z.string(), z.string()) }),
  })
  .meta({ id: 'Checkout' })
export type Checkout = z.output<typeof CheckoutSchema>

/** What a callback decided: paid, failed (try again or pay on delivery), pending (the provider is still confirming), or refunded (paid too late, stock gone). */
export const CALLBACK_OUTCOMES = ['paid', 'failed', 'pending', 'mismatch', 'refunded'] as const
/**
 * The callback's answer. `orderId` (our id) only after a verified payment; the failure answer, which
 * needs no signature, names the order by the number the shopper already has (docs/payments.md, "Callback").
 */
export const CallbackOutcomeSchema = z
  .object({ outcome: z.enum(CALLBACK_OUTCOMES), orderId: z.string().optional(), orderNumber: z.string(), message: z.string() })
  .meta({ id: 'PaymentCallbackOutcome' })
export type CallbackOutcome = z.output<typeof CallbackOutcomeSchema>

/** One refund of an order (`amount` in rupees), as the order pages show it; `status`: pending, processed, failed. */
export const RefundSchema = z
  .object({ amount: z.number(), status: z.enum(['pending', 'processed', 'failed']), reason: z.string(), at: z.string() })
  .meta({ id: 'Refund' })

/** An order's payment as its pages show it (rupees). */
export const OrderPaymentSchema = z
  .object({
    state: z.enum(PAYMENT_STATES),
    /** `cod` or the online method. */
    method: z.string(),
    paidAt: z.string().nullable(),
    /** While `pending`: when the held stock goes back. */
    reservationExpiresAt: z.string().nullable(),
    /** Rupees refunded or being refunded. */
    refunded: z.number(),
    refunds: z.array(RefundSchema),
  })
  .meta({ id: 'OrderPayment' })
export type OrderPayment = z.output<typeof OrderPaymentSchema>
