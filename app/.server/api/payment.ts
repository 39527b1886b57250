/**
 * Typed upstream calls of /api/payment (docs/payments.md): start an online payment, open the
 * checkout again, switch to pay on delivery, hand the provider's callback to the API, refund a line.
 */
import { z } from 'zod'
import type { RequestSession } from '../session.ts'
import { parseData, upstream, type UpstreamResult } from '../upstream.ts'
import { CartChangeSchema, OrderSchema, type Order } from '../../../contract/order.ts'
import {
  CallbackOutcomeSchema,
  CheckoutSchema,
  PaymentCallbackSchema,
  RetryPaymentSchema,
  StartPaymentSchema,
  type PayOnDeliverySchema,
  type RefundLineSchema,
  type CallbackOutcome,
  type Checkout,
} from '../../../contract/payment.ts'
import { couponChanged, placementStoreHeader, type CouponChanged } from './order.ts'
import type { Api } from '../api-context.ts'

export type { Checkout, CallbackOutcome }

const OrderCheckoutSchema = z.object({ order: OrderSchema, checkout: CheckoutSchema })

/** The urls the provider returns the shopper to (absolute, on this site). */
export type ReturnUrls = Pick<z.input<typeof StartPaymentSchema>, 'callbackUrl' | 'cancelUrl'>

/** What starting an online payment answered. */
export type StartPaymentResult =
  | { kind: 'checkout'; order: Order; checkout: Checkout }
  | { kind: 'cart-changed'; changes: z.output<typeof CartChangeSchema>[]; message: string }
  | CouponChanged
  | { kind: 'failed'; status: number; message: string; retryAfter?: number }

/**
 * POST /api/payment/start: the cart as an order awaiting payment (stock held) and the checkout to
 * open; the store named as for cash on delivery (app/.server/api/order.ts `placeCashOnDeliveryOrder`).
 */
export async function startPayment(
  api: Api,
  session: RequestSession,
  input: z.input<typeof StartPaymentSchema> & { idempotencyKey: string },
  opts: { clientIp?: string } = {},
): Promise<StartPaymentResult> {
  const result = await upstream(api, 'payment/start', {
    method: 'POST',
    json: {
      addressId: input.addressId,
      method: input.method,
      callbackUrl: input.callbackUrl,
      cancelUrl: input.cancelUrl,
      couponDiscount: input.couponDiscount,
      tip: input.tip,
      shownTip: input.shownTip,
      shownFees: input.shownFees,
      deliveryInstructions: input.deliveryInstructions,
    },
    headers: { 'Idempotency-Key': input.idempotencyKey, ...(await placementStoreHeader(api)) },
    session,
    clientIp: opts.clientIp,
  })
  if (!result.ok && result.status === 409) {
    const changes = z.array(CartChangeSchema).safeParse(result.extra?.changes)
    if (changes.success) return { kind: 'cart-changed', changes: changes.data, message: result.message }
    const coupon = couponChanged(result)
    if (coupon) return coupon
  }
  const parsed = parseData(result, OrderCheckoutSchema)
  if (!parsed.ok) return { kind: 'failed', status: parsed.status, message: parsed.message, retryAfter: parsed.retryAfter }
  return { kind: 'checkout', ...parsed.data }
}

/** POST /api/payment/retry: the checkout of an order still awaiting payment. */
export async function retryPayment(
  api: Api,
  session: RequestSession,
  input: z.input<typeof RetryPaymentSchema>,
): Promise<UpstreamResult<{ order: Order; checkout: Checkout }>> {
  return parseData(await upstream(api, 'payment/retry', { method: 'POST', json: input, session }), OrderCheckoutSchema)
}

/** POST /api/payment/pay-on-delivery: the order as cash on delivery (its held stock kept). */
export async function payOnDelivery(api: Api, session: RequestSession, orderId: string): Promise<UpstreamResult<Order>> {
  return parseData(
    await upstream(api, 'payment/pay-on-delivery', {
      method: 'POST',
      json: { orderId } satisfies z.input<typeof PayOnDeliverySchema>,
      session,
    }),
    OrderSchema,
  )
}

/** POST /api/payment/callback: the provider's answer, verified by the API (no session needed). */
export async function paymentCallback(
  api: Api,
  fields: z.input<typeof PaymentCallbackSchema>,
  opts: { clientIp?: string } = {},
): Promise<UpstreamResult<CallbackOutcome>> {
  return parseData(
    await upstream(api, 'payment/callback', { method: 'POST', json: fields, clientIp: opts.clientIp }),
    CallbackOutcomeSchema,
  )
}

/** POST /api/payment/refund-line (admin): refund one line that cannot be delivered. */
export async function refundLine(api: Api, session: RequestSession, orderId: string, productId: string): Promise<UpstreamResult<Order>> {
  return parseData(
    await upstream(api, 'payment/refund-line', {
      method: 'POST',
      json: { orderId, productId } satisfies z.input<typeof RefundLineSchema>,
      session,
    }),
    OrderSchema,
  )
}
