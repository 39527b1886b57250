/**
 * Routes of /api/payment (docs/payments.md):
 * - POST /start `{ addressId, method, callbackUrl, cancelUrl, idempotencyKey? }` (user) → 201 the order
 *   awaiting payment and the checkout to open (200 for a repeated key); 409 with `changes` as for cash
 *   on delivery; 503 when the provider cannot make its order (the order then waits: retry or pay on delivery)
 * - POST /retry `{ orderId, method?, callbackUrl, cancelUrl }` (user) → the checkout again
 * - POST /pay-on-delivery `{ orderId }` (user) → the order as cash on delivery, stock kept
 * - POST /callback (public; the signature is the proof) → what the payment did
 * - POST /webhook/razorpay (public; raw body signed in `X-Razorpay-Signature`, at most 64 KB, rate limited)
 * - POST /refund-line `{ orderId, productId }` (admin) → the order with the line refunded
 * - POST /test-checkout, POST /test-checkout/answer: the test provider's hosted page (404 with Razorpay)
 */
import { randomBytes } from 'node:crypto'
import type { Context } from 'hono'
import { z } from 'zod'
import type { AppDeps } from '../../deps.ts'
import { STORE_HEADER } from '../store/service.ts'
import { currentUser, requireAdmin, requireUser } from '../../lib/auth.ts'
import { clientIp } from '../../lib/client-ip.ts'
import { failure, ok } from '../../lib/envelope.ts'
import { BadRequest, NotFound, PayloadTooLarge } from '../../lib/errors.ts'
import { consume } from '../../lib/rate-limit.ts'
import { toPaise } from '../../lib/money.ts'
import { readCappedStream } from '../../../server-shared/capped-body.ts'
import { apiRouter } from '../../lib/openapi.ts'
import { IdempotencyKeySchema, idempotencyHeader } from '../../../contract/idempotency.ts'
import { OrderSchema, PlacementConflictShape } from '../../../contract/order.ts'
import {
  CallbackOutcomeSchema,
  CheckoutSchema,
  PayOnDeliverySchema,
  PaymentCallbackSchema,
  RefundLineSchema,
  RetryPaymentSchema,
  StartPaymentSchema,
  WebhookEventIdSchema,
  WebhookSignatureSchema,
} from '../../../contract/payment.ts'
import {
  handleCallback,
  handleWebhook,
  payOnDelivery,
  refundLine,
  retryPayment,
  startOnlinePayment,
  WEBHOOK_BODY_MAX_BYTES,
} from './service.ts'
import { readForm, returnPage, testCheckoutPage, testCheckoutPolicy } from './test-checkout.ts'

/** Builds the /api/payment router. */
export function paymentRoutes(deps: AppDeps) {
  const { router, endpoint } = apiRouter('Payment')
  const checkoutAnswer = { data: z.object({ order: OrderSchema, checkout: CheckoutSchema }) }

  endpoint(
    {
      method: 'post',
      path: '/start',
      summary: 'Place the cart as an order awaiting online payment (stock held) and open the provider checkout',
      description:
        'The order waits as payment_pending with its stock held until `checkout.expiresAt`; only a verified payment places it. ' +
        'A repeated idempotency key answers the same order (200). 503: the provider did not make its order; the order still waits.',
      access: 'user',
      body: StartPaymentSchema,
      headers: z.object({ ...idempotencyHeader('Optional (or `idempotencyKey` in the body): a repeat answers the same order').shape }),
      answers: {
        201: { description: 'The order awaiting payment and its checkout', ...checkoutAnswer },
        200: { description: 'The order a repeated key placed, with its checkout', ...checkoutAnswer },
      },
      errors: [404, 409, 422, 429, 503],
      failureExtra: {
        409: {
          description:
            'The cart changed since the shopper saw it (`changes`), or its coupon no longer gives what the checkout showed (`coupon`, `bill`)',
          extra: PlacementConflictShape,
        },
      },
    },
    requireUser(deps),
    async (c, body) => {
      const user = currentUser(c)
      const sent = c.req.header('idempotency-key') ?? body.idempotencyKey
      const key = IdempotencyKeySchema.safeParse(sent ?? `pay-${randomBytes(16).toString('hex')}`)
      if (!key.success) throw BadRequest(key.error.issues[0]!.message, [{ path: 'idempotencyKey', message: key.error.issues[0]!.message }])
      const outcome = await startOnlinePayment(deps, user, {
        addressId: body.addressId,
        idempotencyKey: key.data,
        method: body.method,
        storeId: c.req.header(STORE_HEADER),
        callbackUrl: body.callbackUrl,
        cancelUrl: body.cancelUrl,
        spendBudget: () => consume(deps.rateLimits.orderByUser, user.id),
        shownCouponDiscountPaise: body.couponDiscount === undefined ? undefined : toPaise(body.couponDiscount),
        tipPaise: body.tip === undefined ? undefined : toPaise(body.tip),
        shownTipPaise: body.shownTip === undefined ? undefined : toPaise(body.shownTip),
        shownFeesPaise: body.shownFees === undefined ? undefined : toPaise(body.shownFees),
        instructions: body.deliveryInstructions,
      })
      if (outcome.kind === 'coupon') return c.json({ ...failure(outcome.message), coupon: outcome.coupon, bill: outcome.bill }, 409)
      if (outcome.kind === 'changed') {
        const names = [...new Set(outcome.changes.map((ch) => ch.name))].join(', ')
        return c.json(
          {
            ...failure(`Your cart was updated: ${names} changed since you added it. Check your cart and try again.`),
            changes: outcome.changes,
          },
          409,
        )
      }
      if (outcome.kind === 'settled') return c.json(failure(`Order ${outcome.order.orderId} is not waiting for a payment`), 409)
      return ok(c, 'Order awaiting payment', { order: outcome.order, checkout: outcome.checkout }, {}, outcome.created ? 201 : 200)
    },
  )

  endpoint(
    {
      method: 'post',
      path: '/retry',
      summary: 'Open the provider checkout again for an order still awaiting payment ("Try again")',
      access: 'user',
      body: RetryPaymentSchema,
      answers: { 200: { description: 'The order and its checkout', ...checkoutAnswer } },
      errors: [404, 409, 503],
    },
    requireUser(deps),
    async (c, body) => {
      return ok(c, 'Checkout', await retryPayment(deps, currentUser(c), body))
    },
  )

  endpoint(
    {
      method: 'post',
      path: '/pay-on-delivery',
      summary: 'Turn an order awaiting payment into a cash-on-delivery order (its held stock kept)',
      access: 'user',
      body: PayOnDeliverySchema,
      answers: { 200: { description: 'The order, placed for cash on delivery', data: OrderSchema } },
      errors: [404, 409],
    },
    requireUser(deps),
    async (c, { orderId }) => {
      return ok(c, 'Order placed: pay on delivery', await payOnDelivery(deps, currentUser(c), orderId))
    },
  )

  endpoint(
    {
      method: 'post',
      path: '/callback',
      summary: "The provider checkout's answer, verified (signature of order_id|payment_id, then amount and currency)",
      description: 'Needs no session: the signature is the proof. 400 when it does not match (nothing is recorded).',
      access: 'public',
      body: PaymentCallbackSchema,
      answers: { 200: { description: 'What the payment did', data: CallbackOutcomeSchema } },
      errors: [404, 429],
    },
    async (c, next) => {
      await consume(deps.rateLimits.paymentCallbackByIp, clientIp(c))
      await next()
    },
    async (c, body) => {
      const outcome = await handleCallback(deps, body)
      return ok(c, outcome.message, outcome)
    },
  )

  endpoint(
    {
      method: 'post',
      path: '/webhook/razorpay',
      summary: 'Provider webhooks (payment.captured, payment.failed, order.paid, refund.processed, refund.failed)',
      description:
        'The HMAC-SHA256 of the raw body with the webhook secret must be in `X-Razorpay-Signature` (400 otherwise, nothing written); ' +
        'each `x-razorpay-event-id` is applied once. Body at most 64 KB.',
      access: 'public',
      headers: z.object({
        'x-razorpay-signature': WebhookSignatureSchema.optional().meta({
          description: 'HMAC-SHA256 (hex) of the raw body with the webhook secret',
        }),
        'x-razorpay-event-id': WebhookEventIdSchema.optional().meta({ description: 'The event id: a repeat is answered and ignored' }),
      }),
      answers: {
        200: { description: 'Applied (or a repeat, ignored)', data: z.object({ duplicate: z.boolean(), outcome: z.string() }) },
      },
      errors: [400, 413, 429],
    },
    async (c) => {
      await consume(deps.rateLimits.paymentWebhookByIp, clientIp(c))
      const declared = Number(c.req.header('content-length'))
      const tooLarge = () => PayloadTooLarge(`Webhook body is larger than ${WEBHOOK_BODY_MAX_BYTES / 1024} KB`)
      if (Number.isFinite(declared) && declared > WEBHOOK_BODY_MAX_BYTES) throw tooLarge()
      const bytes = await readCappedStream(c.req.raw.body, WEBHOOK_BODY_MAX_BYTES, tooLarge)
      const result = await handleWebhook(deps, {
        rawBody: Buffer.from(bytes).toString('utf8'),
        signature: WebhookSignatureSchema.safeParse(c.req.header('x-razorpay-signature')).data,
        eventId: WebhookEventIdSchema.safeParse(c.req.header('x-razorpay-event-id')).data,
      })
      return ok(c, result.duplicate ? 'Event already processed' : 'Event processed', result)
    },
  )

  endpoint(
    {
      method: 'post',
      path: '/refund-line',
      summary: 'Refund one line of a paid order that cannot be delivered (ADMIN)',
      access: 'admin',
      body: RefundLineSchema,
      answers: { 200: { description: 'The order with the refund', data: OrderSchema } },
      errors: [404, 409],
    },
    requireAdmin(deps),
    async (c, body) => ok(c, 'Refund started', await refundLine(deps, { ...body, actor: currentUser(c).id })),
  )

  const testProvider = deps.payments.testProvider
  const html = { 200: { description: 'An HTML page', raw: { mediaType: 'text/html', schema: z.string() } } }
  const notTest = (c: Context) => c.json(failure('Not found: the test payment page exists only with the test provider'), 404)
  endpoint(
    {
      method: 'post',
      path: '/test-checkout',
      summary: "The test provider's hosted checkout (a form post like Razorpay's hosted checkout): Pay, Fail or Abandon",
      access: 'public',
      answers: html,
      errors: [404, 413],
    },
    async (c) => {
      if (!testProvider) return notTest(c)
      const form = await readForm(c.req.raw.body)
      const page = await testCheckoutPage(testProvider, form.get('order_id') ?? '')
      if (!page) return c.json(failure('No such test payment'), 404)
      c.header('Content-Security-Policy', testCheckoutPolicy(randomBytes(16).toString('base64')))
      c.header('Cache-Control', 'no-store')
      return c.html(page)
    },
  )
  endpoint(
    {
      method: 'post',
      path: '/test-checkout/answer',
      summary: 'The test payment page: `order_id` and `action` (pay, fail or abandon), then back to the shop, signed like Razorpay',
      access: 'public',
      answers: html,
      errors: [404, 413],
    },
    async (c) => {
      if (!testProvider) return notTest(c)
      const form = await readForm(c.req.raw.body)
      const id = form.get('order_id') ?? ''
      const action = form.get('action')
      const order = await testProvider.order(id)
      if (!order || (action !== 'pay' && action !== 'fail' && action !== 'abandon')) throw NotFound('No such test payment')
      if (action === 'abandon') return c.redirect(order.cancelUrl, 303)
      const fields = await testProvider.complete(id, action === 'pay' ? 'captured' : 'failed')
      // Razorpay's failure callback names the order inside error[metadata]; ours also sends it plainly.
      const nonce = randomBytes(16).toString('base64')
      c.header('Content-Security-Policy', testCheckoutPolicy(nonce))
      c.header('Cache-Control', 'no-store')
      return c.html(returnPage(order.callbackUrl, { ...fields, razorpay_order_id: order.id }, action === 'pay', nonce))
    },
  )

  // The test provider keeps its orders, payments and refunds in this app's database (any instance
  // serves its page), and delivers its webhooks to this same handler, signed, in process.
  testProvider?.useDatabase(deps.db)
  testProvider?.setSink(async (webhook) => {
    try {
      await handleWebhook(deps, { rawBody: webhook.rawBody, signature: webhook.signature, eventId: webhook.eventId })
    } catch (err) {
      deps.logger.warn({ errClass: (err as Error)?.name }, 'test provider webhook not applied')
    }
  })

  return router
}
