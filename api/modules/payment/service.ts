/**
 * Online payment (docs/payments.md; docs/decisions/0025-online-payment-and-stock-reservation.md).
 *
 * Starting: the cart becomes an order `payment_pending` through the same placement steps as cash on
 * delivery (api/modules/order/service.ts `placeFromCart`): prices checked, stock taken from the store
 * (held, with a reservation that ends at `reservation_expires_at`), order written. Then the
 * provider's order is made for the grand total in paise with our order number as its receipt.
 *
 * Only a verified payment counts: a callback must carry the provider's signature of
 * `order_id|payment_id`, a webhook the signature of its raw body; the captured amount and currency
 * are then checked against the order. `applyCapture` is the one place a capture is applied, in one
 * transaction with the order row locked, so a callback and a webhook of the same payment, in any
 * order or at once, apply it once; a second payment of a paid order, and a payment captured after
 * the reservation expired when the stock is gone, are refunded. Expiry, reconciliation and refund
 * retries are plain idempotent functions that any number of runners may call at once.
 */
import { recordAudit } from '../../lib/audit.ts'
import { createHash } from 'node:crypto'
import { sql } from 'drizzle-orm'
import type { AppDeps } from '../../deps.ts'
import { queryRows } from '../../db/query.ts'
import type { StockChange } from '../../lib/cache.ts'
import { BadRequest, Conflict, HttpError, NotFound } from '../../lib/errors.ts'
import { newId } from '../../lib/ids.ts'
import { returnOrderStock, takeStock } from '../inventory/service.ts'
import { COD_METHOD, findOrder, noteStockMove, ORDER_NOT_FOUND, placeFromCart, toOrderAnswer } from '../order/service.ts'
import type { z } from 'zod'
import type { CallbackOutcome, Checkout, OnlineMethodName, RetryPaymentSchema, StartPaymentSchema } from '../../../contract/payment.ts'
import type { CartChange, Order } from '../../../contract/order.ts'
import { ProviderError, type ProviderPayment } from './provider.ts'
import { recordRefund, sendPendingRefunds, settleRefund } from './refunds.ts'
import { PLAUSIBLE_ID } from '../../../contract/ids.ts'

type PaymentDeps = Pick<AppDeps, 'db' | 'commerce' | 'clock' | 'cache' | 'jobs' | 'logger' | 'payments'> &
  Partial<Pick<AppDeps, 'orderEvents' | 'publicUrl'>>

/** 503 message: the provider did not answer or refused to make its order. */
export const PROVIDER_UNAVAILABLE = 'Online payment is not available right now: try again in a minute, or pay on delivery'
/** 409 message: the order no longer waits for a payment. */
export const NOT_AWAITING_PAYMENT = 'This order is not waiting for a payment'
/** 409 message: the hold ran out before the payment. */
export const RESERVATION_EXPIRED = 'The time to pay ran out and the items went back to the shelf: place the order again'
/** 400 message: a callback or webhook whose signature is not the provider's. */
export const BAD_SIGNATURE = 'The payment signature does not match'

/** The urls the provider's checkout returns the shopper to (contract/payment.ts `StartPaymentSchema`). */
export type ReturnUrls = Pick<z.output<typeof StartPaymentSchema>, 'callbackUrl' | 'cancelUrl'>

/** What starting an online payment did: a checkout to open, the cart corrected, or an order already settled (a repeated key). */
export type StartOutcome =
  | { kind: 'checkout'; order: Order; checkout: Checkout; created: boolean }
  | { kind: 'settled'; order: Order }
  | { kind: 'changed'; changes: CartChange[] }

/**
 * Starts an online payment of the user's cart (see the module comment).
 * @throws what placeCashOnDelivery throws; 503 PROVIDER_UNAVAILABLE when the provider's order could
 *   not be made (the order then waits, its stock held, and "Try again" or "Pay on delivery" work)
 */
export async function startOnlinePayment(
  deps: PaymentDeps,
  user: { id: string; email: string; name: string },
  input: {
    addressId: string
    idempotencyKey: string
    method: OnlineMethodName
    storeId?: string
    spendBudget?: () => Promise<void>
  } & ReturnUrls,
): Promise<StartOutcome> {
  const now = deps.clock()
  const outcome = await placeFromCart(deps, user, {
    addressId: input.addressId,
    idempotencyKey: input.idempotencyKey,
    storeId: input.storeId,
    spendBudget: input.spendBudget,
    online: { method: input.method, reservationExpiresAt: new Date(now.getTime() + deps.payments.reservationMs) },
  })
  if (outcome.kind === 'changed') return outcome
  if (outcome.order.status !== 'payment_pending') return { kind: 'settled', order: outcome.order }
  const checkout = await openCheckout(deps, user, outcome.order, input.method, input)
  return { kind: 'checkout', order: outcome.order, checkout, created: outcome.created }
}

/**
 * Another try at paying an order still awaiting payment ("Try again"): the provider's order made
 * before is opened again (Razorpay accepts several attempts on one order), or made now.
 * @throws 404 ORDER_NOT_FOUND (also another user's); 409 NOT_AWAITING_PAYMENT / RESERVATION_EXPIRED; 503
 */
export async function retryPayment(
  deps: PaymentDeps,
  user: { id: string; email: string; name: string },
  input: z.output<typeof RetryPaymentSchema>,
): Promise<{ order: Order; checkout: Checkout }> {
  const row = await findOrder(deps.db, input.orderId)
  if (!row || row.userId !== user.id) throw NotFound(ORDER_NOT_FOUND)
  const order = toOrderAnswer(deps, row, false)
  if (order.status !== 'payment_pending') throw Conflict(order.payment.state === 'expired' ? RESERVATION_EXPIRED : NOT_AWAITING_PAYMENT)
  const method = input.method ?? (order.payment.method as OnlineMethodName)
  return { order, checkout: await openCheckout(deps, user, order, method, input) }
}

/** The provider's order of `order` (the open one, else a new one) as the checkout to open. @throws 503 */
async function openCheckout(
  deps: PaymentDeps,
  user: { id: string; email: string; name: string },
  order: Order,
  method: OnlineMethodName,
  urls: ReturnUrls,
): Promise<Checkout> {
  const { provider } = deps.payments
  const [row] = await queryRows<{ provider_order_id: string; amount_paise: number }>(
    deps.db,
    sql`select provider_order_id, amount_paise from payments where order_id = ${order._id} and provider = ${provider.name}
      and status = 'created' order by created_at desc limit 1`,
  )
  const [money] = await queryRows<{ grand_total_paise: number }>(deps.db, sql`select grand_total_paise from orders where id = ${order._id}`)
  const amount = money!.grand_total_paise
  let providerOrderId = row?.amount_paise === amount ? row.provider_order_id : undefined
  if (!providerOrderId) {
    try {
      const made = await provider.createOrder({ amount, currency: 'INR', receipt: order.orderId, notes: { order_id: order._id } })
      if (made.amount !== amount || made.currency !== 'INR') throw new ProviderError('The provider answered another amount', undefined)
      providerOrderId = made.id
    } catch (err) {
      const e = err instanceof ProviderError ? { status: err.status, code: err.code } : { errClass: (err as Error)?.name }
      deps.logger.warn({ ...e, orderId: order._id }, 'payment provider order not made')
      throw new HttpError(503, PROVIDER_UNAVAILABLE)
    }
    await deps.db.execute(sql`insert into payments (id, order_id, provider, provider_order_id, method, amount_paise, currency, status)
      values (${newId()}, ${order._id}, ${provider.name}, ${providerOrderId}, ${method}, ${amount}, 'INR', 'created')`)
  }
  await deps.db.execute(sql`update orders set payment_method = ${method} where id = ${order._id} and status = 'payment_pending'`)
  const [contact] = await queryRows<{ mobile: string | null }>(deps.db, sql`select mobile from users where id = ${user.id}`)
  const prefill = { name: user.name, email: user.email, contact: order.delivery_address.mobile ?? contact?.mobile ?? '' }
  deps.payments.testProvider?.open(providerOrderId, urls.callbackUrl, urls.cancelUrl, method)
  return {
    orderId: order._id,
    orderNumber: order.orderId,
    provider: provider.name,
    keyId: provider.keyId,
    providerOrderId,
    amount,
    currency: 'INR',
    method,
    expiresAt: order.payment.reservationExpiresAt ?? deps.clock().toISOString(),
    prefill,
    hosted: provider.hostedCheckout({ providerOrderId, amount, method, name: deps.payments.shopName, ...urls, prefill }),
  }
}

/**
 * "Pay on delivery instead": an order awaiting payment becomes a cash-on-delivery order, keeping
 * the stock it holds; the cart is emptied and the confirmation sent. A payment captured later for
 * it still counts (applyCapture marks it paid).
 * @throws 404 ORDER_NOT_FOUND; 409 RESERVATION_EXPIRED or NOT_AWAITING_PAYMENT
 */
export async function payOnDelivery(deps: PaymentDeps, user: { id: string; email: string; name: string }, ref: string): Promise<Order> {
  if (!PLAUSIBLE_ID.test(ref)) throw NotFound(ORDER_NOT_FOUND)
  const id = await deps.db.transaction(async (tx) => {
    const [order] = await queryRows<{ id: string; user_id: string; status: string; payment_state: string }>(
      tx,
      sql`select id, user_id, status, payment_state from orders where id = ${ref} or order_number = ${ref.toUpperCase()} for update`,
    )
    if (!order || order.user_id !== user.id) throw NotFound(ORDER_NOT_FOUND)
    if (order.status !== 'payment_pending') throw Conflict(order.payment_state === 'expired' ? RESERVATION_EXPIRED : NOT_AWAITING_PAYMENT)
    const now = deps.clock().toISOString()
    await tx.execute(sql`update orders set status = 'placed', payment_method = ${COD_METHOD}, payment_state = 'cod',
        reservation_expires_at = null, version = version + 1, updated_at = ${now} where id = ${order.id}`)
    await tx.execute(
      sql`insert into order_status_history (id, order_id, status, by_user_id, at) values (${newId()}, ${order.id}, 'placed', ${user.id}, ${now})`,
    )
    await emptyCart(tx, user.id)
    // The confirmation, as a job written with the change (docs/jobs.md, "Order emails").
    await deps.jobs.send('order.mail', { kind: 'placed', orderId: order.id }, { tx })
    return order.id
  })
  const answer = toOrderAnswer(deps, (await findOrder(deps.db, id))!, false)
  deps.orderEvents?.publish({ orderId: answer._id, status: answer.status, version: answer.version })
  return answer
}

type Tx = Parameters<Parameters<AppDeps['db']['transaction']>[0]>[0]

async function emptyCart(tx: Pick<Tx, 'execute'>, userId: string): Promise<void> {
  await tx.execute(sql`delete from cart_lines where cart_id in (select id from carts where user_id = ${userId})`)
}

/** What applying a capture did. */
export type CaptureResult = 'paid' | 'already' | 'mismatch' | 'refunded' | 'unknown'

/**
 * Applies a captured payment (from a verified callback, a verified webhook, or reconciliation), in
 * one transaction with the order row, then the payment row, locked:
 * - a payment already applied: nothing (`already`);
 * - amount or currency not the order's: recorded as `mismatch`, never fulfilled;
 * - the order awaiting payment: paid, placed, its held stock now sold, the cart emptied, email sent;
 * - the order cancelled by an expired hold: the stock is taken again if all of it is there (paid),
 *   else the payment is refunded;
 * - the order already paid by another payment (two tabs), or cancelled otherwise: refunded;
 * - the order switched to cash on delivery meanwhile: it is now paid online.
 */
export async function applyCapture(
  deps: PaymentDeps,
  payment: { provider: string; providerOrderId: string; paymentId: string; amount: number; currency: string; method?: string },
): Promise<CaptureResult> {
  const [link] = await queryRows<{ order_id: string }>(
    deps.db,
    sql`select order_id from payments where provider = ${payment.provider} and provider_order_id = ${payment.providerOrderId}`,
  )
  if (!link) return 'unknown'
  const now = deps.clock()
  const at = now.toISOString()
  const result = await deps.db.transaction(async (tx): Promise<{ result: CaptureResult; stock?: StockChange; refund?: boolean }> => {
    const [order] = await queryRows<{
      id: string
      user_id: string
      status: string
      payment_state: string
      store_id: string
      grand_total_paise: number
      promised_minutes: number | null
    }>(
      tx,
      sql`select id, user_id, status, payment_state, store_id, grand_total_paise, promised_minutes from orders where id = ${link.order_id} for update`,
    )
    const [row] = await queryRows<{ id: string; status: string; provider_payment_id: string | null; amount_paise: number }>(
      tx,
      sql`select id, status, provider_payment_id, amount_paise from payments
        where provider = ${payment.provider} and provider_order_id = ${payment.providerOrderId} for update`,
    )
    if (!order || !row) return { result: 'unknown' }
    if (row.provider_payment_id === payment.paymentId && row.status !== 'created') return { result: 'already' }
    if (row.provider_payment_id && row.provider_payment_id !== payment.paymentId && row.status !== 'created') {
      // A second capture on one provider order: the first stands, this one goes back.
      deps.logger.warn({ orderId: order.id }, 'second capture on one provider order')
      return { result: 'already' }
    }
    if (payment.amount !== row.amount_paise || payment.amount !== order.grand_total_paise || payment.currency !== 'INR') {
      await tx.execute(sql`update payments set status = 'mismatch', provider_payment_id = ${payment.paymentId},
          failure_reason = ${`captured ${payment.amount} ${payment.currency}, expected ${order.grand_total_paise} INR`}, updated_at = ${at}
        where id = ${row.id}`)
      if (order.status === 'payment_pending') await tx.execute(sql`update orders set payment_state = 'mismatch' where id = ${order.id}`)
      deps.logger.warn({ orderId: order.id }, 'captured amount or currency does not match the order: not fulfilled')
      return { result: 'mismatch' }
    }
    await tx.execute(sql`update payments set status = 'captured', provider_payment_id = ${payment.paymentId},
        method = coalesce(${payment.method ?? null}, method), updated_at = ${at} where id = ${row.id}`)
    const markPaid = async () => {
      await tx.execute(sql`update orders set status = 'placed', payment_state = 'paid', paid_at = ${at}, reservation_expires_at = null,
          cancel_reason = null, promised_at = ${at}::timestamptz + make_interval(mins => coalesce(promised_minutes, 0)),
          version = version + 1, updated_at = ${at} where id = ${order.id}`)
      await tx.execute(
        sql`insert into order_status_history (id, order_id, status, by_user_id, at) values (${newId()}, ${order.id}, 'placed', ${order.user_id}, ${at})`,
      )
      await emptyCart(tx, order.user_id)
      // The "paid" confirmation, as a job written with the payment (docs/jobs.md, "Order emails").
      await deps.jobs.send('order.mail', { kind: 'placed', orderId: order.id }, { tx })
    }
    if (order.status === 'payment_pending') {
      await markPaid()
      return { result: 'paid' }
    }
    if (order.status === 'placed' && order.payment_state === 'cod') {
      await tx.execute(sql`update orders set payment_state = 'paid', payment_method = ${payment.method ?? 'online'}, paid_at = ${at},
          version = version + 1, updated_at = ${at} where id = ${order.id}`)
      return { result: 'paid' }
    }
    if (order.status === 'cancelled' && order.payment_state === 'expired') {
      // Paid after the hold ran out: sold if every line's stock is still there, else refunded.
      const stock: StockChange = { moved: [], crossed: [], restocked: [] }
      const retaken = await tx
        .transaction(async (inner) => {
          const lines = await queryRows<{ product_id: string; quantity: number }>(
            inner,
            sql`select product_id, sum(quantity)::int as quantity from order_lines where order_id = ${order.id} and product_id is not null
              group by product_id order by product_id`,
          )
          for (const line of lines) {
            const after = await takeStock(inner, order.store_id, line.product_id, line.quantity)
            if (after === undefined) throw new StockGone()
            noteStockMove(stock, order.store_id, line.product_id, after + line.quantity, after)
          }
          return true
        })
        .catch((err) => {
          if (err instanceof StockGone) return false
          throw err
        })
      if (retaken) {
        await markPaid()
        return { result: 'paid', stock }
      }
    }
    // Nothing to sell it for: already paid by another payment, or cancelled with its stock gone.
    await tx.execute(sql`update orders set payment_state = case when payment_state in ('expired', 'pending', 'mismatch') then 'paid' else payment_state end
      where id = ${order.id} and status = 'cancelled'`)
    const reason =
      order.status === 'cancelled' ? 'Paid after the order was cancelled or the time to pay ran out' : 'A second payment of a paid order'
    await recordRefund(tx, { orderId: order.id, reason, now, paymentId: row.id })
    if (order.status !== 'cancelled') await tx.execute(sql`update payments set status = 'refunded' where id = ${row.id}`)
    return { result: 'refunded', refund: true }
  })
  if (result.stock) deps.cache.stockChanged(result.stock)
  if (result.refund) await sendPendingRefunds(deps, { orderId: link.order_id })
  if (result.result === 'paid') {
    const answer = toOrderAnswer(deps, (await findOrder(deps.db, link.order_id))!, false)
    deps.orderEvents?.publish({ orderId: answer._id, status: answer.status, version: answer.version })
  }
  return result.result
}

class StockGone extends Error {}

/** Records a failed attempt (the order keeps waiting: the shopper may try again until the hold ends). */
async function recordFailure(deps: PaymentDeps, input: { provider: string; providerOrderId: string; reason: string }): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(
    deps.db,
    sql`update payments set failure_reason = ${input.reason.slice(0, 500)}, updated_at = ${deps.clock().toISOString()}
      where provider = ${input.provider} and provider_order_id = ${input.providerOrderId} and status = 'created' returning id`,
  )
  return rows.length > 0
}

/** The order a provider order belongs to, for the callback's answer. */
async function orderOfProviderOrder(deps: PaymentDeps, provider: string, providerOrderId: string) {
  const [row] = await queryRows<{ id: string; order_number: string; status: string; payment_state: string }>(
    deps.db,
    sql`select o.id, o.order_number, o.status, o.payment_state from payments p join orders o on o.id = p.order_id
      where p.provider = ${provider} and p.provider_order_id = ${providerOrderId}`,
  )
  return row
}

const CALLBACK_MESSAGES: Record<CallbackOutcome['outcome'], string> = {
  paid: 'Payment received: your order is placed',
  failed: 'The payment did not go through: no money was taken',
  pending: 'We are confirming your payment with the bank',
  mismatch: 'The amount paid does not match the order: our team will refund it',
  refunded: 'The payment came after the time to pay ran out and the items were sold: it is being refunded',
}

/**
 * The checkout's callback (docs/payments.md, "Callback"): a success is verified (signature of
 * `order_id|payment_id` with the key secret, then the payment fetched from the provider for its
 * amount, currency and status) before it counts; a failure is recorded.
 * @throws 404 unknown provider order; 400 BAD_SIGNATURE (nothing written)
 */
export async function handleCallback(
  deps: PaymentDeps,
  input: {
    razorpay_order_id: string
    razorpay_payment_id?: string
    razorpay_signature?: string
    error?: { code?: string; description?: string }
  },
): Promise<CallbackOutcome> {
  const { provider } = deps.payments
  const order = await orderOfProviderOrder(deps, provider.name, input.razorpay_order_id)
  if (!order) throw NotFound('Payment not found')
  const answer = (outcome: CallbackOutcome['outcome']): CallbackOutcome => ({
    outcome,
    orderId: order.id,
    orderNumber: order.order_number,
    message: CALLBACK_MESSAGES[outcome],
  })
  if (!input.razorpay_payment_id || !input.razorpay_signature) {
    await recordFailure(deps, {
      provider: provider.name,
      providerOrderId: input.razorpay_order_id,
      reason: input.error?.description ?? 'Payment failed',
    })
    // A webhook may have settled it already (the shopper pressed back after paying).
    const now = await orderOfProviderOrder(deps, provider.name, input.razorpay_order_id)
    return answer(now?.payment_state === 'paid' ? 'paid' : 'failed')
  }
  if (
    !provider.verifyPaymentSignature({
      orderId: input.razorpay_order_id,
      paymentId: input.razorpay_payment_id,
      signature: input.razorpay_signature,
    })
  )
    throw BadRequest(BAD_SIGNATURE)
  let fetched: ProviderPayment
  try {
    fetched = await provider.fetchPayment(input.razorpay_payment_id)
  } catch (err) {
    // Signed, but its amount cannot be checked now: the webhook or reconciliation will settle it.
    deps.logger.warn({ status: (err as ProviderError)?.status, orderId: order.id }, 'payment not fetched on callback')
    return answer('pending')
  }
  if (fetched.order_id !== input.razorpay_order_id) throw BadRequest(BAD_SIGNATURE)
  if (fetched.status !== 'captured') return answer(fetched.status === 'failed' ? 'failed' : 'pending')
  const result = await applyCapture(deps, {
    provider: provider.name,
    providerOrderId: fetched.order_id,
    paymentId: fetched.id,
    amount: fetched.amount,
    currency: fetched.currency,
    method: fetched.method,
  })
  if (result === 'mismatch' || result === 'refunded') return answer(result)
  // Applied now or before (a webhook came first): the order says what it did.
  const settled = await orderOfProviderOrder(deps, provider.name, input.razorpay_order_id)
  if (settled?.payment_state === 'mismatch') return answer('mismatch')
  if (settled?.status === 'cancelled') return answer('refunded')
  return answer(settled?.status === 'payment_pending' ? 'pending' : 'paid')
}

/** Largest webhook body read (bytes): Razorpay's events are a few KB. */
export const WEBHOOK_BODY_MAX_BYTES = 64 * 1024

interface WebhookEvent {
  event?: unknown
  payload?: {
    payment?: { entity?: ProviderPayment & { error_description?: string } }
    refund?: { entity?: { id?: string; payment_id?: string; amount?: number; status?: string } }
  }
}

/**
 * A provider webhook (docs/payments.md, "Webhooks"): the signature of the raw body is checked
 * before anything is parsed (400, nothing written, when it does not match); each event is applied
 * once by its id (`x-razorpay-event-id`, else the body's digest); every step is idempotent, so
 * events may come in any order, before or after the callback.
 * @returns what was done (for the log and tests)
 * @throws 400 BAD_SIGNATURE or a body that is not JSON
 */
export async function handleWebhook(
  deps: PaymentDeps,
  input: { rawBody: string; signature: string | undefined; eventId: string | undefined },
): Promise<{ duplicate: boolean; outcome: string }> {
  const { provider } = deps.payments
  if (!input.signature || !provider.verifyWebhookSignature(input.rawBody, input.signature)) throw BadRequest(BAD_SIGNATURE)
  let event: WebhookEvent
  try {
    event = JSON.parse(input.rawBody) as WebhookEvent
  } catch {
    throw BadRequest('The webhook body is not JSON')
  }
  const type = typeof event.event === 'string' ? event.event.slice(0, 64) : 'unknown'
  const eventId = (input.eventId?.slice(0, 100) || `sha256:${createHash('sha256').update(input.rawBody).digest('hex')}`).trim()
  const [seen] = await queryRows<{ outcome: string }>(
    deps.db,
    sql`select outcome from payment_events where provider = ${provider.name} and event_id = ${eventId}`,
  )
  if (seen) return { duplicate: true, outcome: seen.outcome }
  const outcome = await applyEvent(deps, type, event)
  await deps.db.execute(sql`insert into payment_events (provider, event_id, type, outcome, received_at)
    values (${provider.name}, ${eventId}, ${type}, ${outcome}, ${deps.clock().toISOString()}) on conflict do nothing`)
  return { duplicate: false, outcome }
}

async function applyEvent(deps: PaymentDeps, type: string, event: WebhookEvent): Promise<string> {
  const { provider } = deps.payments
  const payment = event.payload?.payment?.entity
  switch (type) {
    case 'payment.captured':
    case 'order.paid': {
      if (!payment?.id || !payment.order_id || typeof payment.amount !== 'number') return 'ignored: no payment'
      if (payment.status !== 'captured') return 'ignored: not captured'
      return applyCapture(deps, {
        provider: provider.name,
        providerOrderId: payment.order_id,
        paymentId: payment.id,
        amount: payment.amount,
        currency: String(payment.currency),
        method: payment.method,
      })
    }
    case 'payment.failed': {
      if (!payment?.order_id) return 'ignored: no payment'
      const recorded = await recordFailure(deps, {
        provider: provider.name,
        providerOrderId: payment.order_id,
        reason: payment.error_description ?? 'Payment failed',
      })
      return recorded ? 'failed' : 'ignored'
    }
    case 'refund.processed':
    case 'refund.failed': {
      const refund = event.payload?.refund?.entity
      if (!refund?.id || !refund.payment_id || typeof refund.amount !== 'number') return 'ignored: no refund'
      const orderId = await deps.db.transaction((tx) =>
        settleRefund(tx, {
          provider: provider.name,
          providerRefundId: refund.id!,
          providerPaymentId: refund.payment_id!,
          amountPaise: refund.amount!,
          status: type === 'refund.processed' ? 'processed' : 'failed',
          now: deps.clock(),
        }),
      )
      return orderId ? type : 'unknown'
    }
    default:
      return 'ignored'
  }
}

/**
 * Ends the holds that ran out (docs/payments.md, "Reservation"): each order still awaiting payment
 * at `now` past its `reservation_expires_at` is cancelled (payment state `expired`) and its stock
 * returned, one transaction per order. Rows another runner or a capture holds are skipped
 * (`skip locked`) and seen again next time, so any number of runners may call it at once.
 * @returns how many holds ended
 */
export async function expireReservations(deps: Pick<PaymentDeps, 'db' | 'cache' | 'clock' | 'orderEvents'>): Promise<number> {
  const now = deps.clock().toISOString()
  let ended = 0
  for (;;) {
    const done = await deps.db.transaction(async (tx) => {
      const [order] = await queryRows<{ id: string; store_id: string; user_id: string; version: number }>(
        tx,
        sql`select id, store_id, user_id, version from orders where status = 'payment_pending' and reservation_expires_at <= ${now}
          order by reservation_expires_at limit 1 for update skip locked`,
      )
      if (!order) return undefined
      const stock: StockChange = { moved: [], crossed: [], restocked: [] }
      for (const row of await returnOrderStock(tx, order.store_id, order.id))
        noteStockMove(stock, order.store_id, row.id, row.stock - row.quantity, row.stock)
      await tx.execute(sql`update orders set status = 'cancelled', payment_state = case when payment_state = 'mismatch' then 'mismatch' else 'expired' end,
          cancel_reason = 'Not paid in time', version = version + 1, updated_at = ${now} where id = ${order.id}`)
      await tx.execute(
        sql`insert into order_status_history (id, order_id, status, by_user_id, at) values (${newId()}, ${order.id}, 'cancelled', null, ${now})`,
      )
      return { stock, id: order.id, version: order.version + 1 }
    })
    if (!done) return ended
    ended++
    deps.cache.stockChanged(done.stock)
    deps.orderEvents?.publish({ orderId: done.id, status: 'cancelled', version: done.version })
  }
}

/**
 * Asks the provider about payments still unconfirmed `reconcileAfterMs` after they were opened (a
 * lost callback and webhook): a captured one is applied as a webhook would. Orders whose hold ended
 * within the last day are asked too (a capture after expiry). Provider failures are logged and left
 * for the next run.
 * @returns how many captures were found
 */
export async function reconcilePendingPayments(deps: PaymentDeps): Promise<number> {
  const { provider, reconcileAfterMs } = deps.payments
  const now = deps.clock().getTime()
  const rows = await queryRows<{ provider_order_id: string }>(
    deps.db,
    sql`select p.provider_order_id from payments p join orders o on o.id = p.order_id
      where p.provider = ${provider.name} and p.status = 'created' and p.created_at <= ${new Date(now - reconcileAfterMs).toISOString()}
        and (o.status = 'payment_pending' or (o.payment_state = 'expired' and o.updated_at > ${new Date(now - 86_400_000).toISOString()}))
      order by p.created_at limit 50`,
  )
  let found = 0
  for (const row of rows) {
    try {
      const captured = (await provider.fetchOrderPayments(row.provider_order_id)).find((p) => p.status === 'captured')
      if (!captured) continue
      const result = await applyCapture(deps, {
        provider: provider.name,
        providerOrderId: row.provider_order_id,
        paymentId: captured.id,
        amount: captured.amount,
        currency: captured.currency,
        method: captured.method,
      })
      if (result !== 'already' && result !== 'unknown') found++
    } catch (err) {
      deps.logger.warn(
        { status: (err as ProviderError)?.status, code: (err as ProviderError)?.code },
        'payment reconciliation: provider not answering',
      )
    }
  }
  return found
}

/**
 * Refunds a line that cannot be delivered (admin; docs/payments.md, "Refunds"): the line's total of
 * a paid order that is placed or packed, once per line.
 * @throws 404 ORDER_NOT_FOUND or no such line; 409 not paid online, not placed or packed, or refunded already
 */
export async function refundLine(deps: PaymentDeps, input: { orderId: string; productId: string; actor: string | null }): Promise<Order> {
  if (!PLAUSIBLE_ID.test(input.orderId)) throw NotFound(ORDER_NOT_FOUND)
  const id = await deps.db.transaction(async (tx) => {
    const [order] = await queryRows<{ id: string; status: string; payment_state: string }>(
      tx,
      sql`select id, status, payment_state from orders where id = ${input.orderId} or order_number = ${input.orderId.toUpperCase()} for update`,
    )
    if (!order) throw NotFound(ORDER_NOT_FOUND)
    if (!['paid', 'partially_refunded', 'refund_pending'].includes(order.payment_state))
      throw Conflict('Only an order paid online can be refunded')
    if (order.status !== 'placed' && order.status !== 'packed')
      throw Conflict('A line can be refunded only while the order is placed or packed')
    const [line] = await queryRows<{ id: string; name: string; line_total_paise: number; refunded: boolean }>(
      tx,
      sql`select l.id, l.name, l.line_total_paise, exists (select 1 from refunds r where r.order_line_id = l.id and r.status <> 'failed') as refunded
        from order_lines l where l.order_id = ${order.id} and l.product_id = ${input.productId} order by l.position limit 1`,
    )
    if (!line) throw NotFound('That product is not in this order')
    if (line.refunded) throw Conflict(`${line.name} was refunded already`)
    const amount = await recordRefund(tx, {
      orderId: order.id,
      reason: `Not delivered: ${line.name}`,
      now: deps.clock(),
      amountPaise: line.line_total_paise,
      orderLineId: line.id,
    })
    if (amount === 0) throw Conflict('Nothing is left to refund')
    // In the audit trail with every other admin change to an order (docs/product.md, "Audit trail").
    await recordAudit(tx, {
      actor: input.actor,
      action: 'refund',
      entity: 'order',
      entityId: order.id,
      before: { payment: order.payment_state },
      after: { refunded: line.name, amountPaise: amount },
    })
    return order.id
  })
  await sendPendingRefunds(deps, { orderId: id })
  return toOrderAnswer(deps, (await findOrder(deps.db, id))!, true)
}

/**
 * One run of the payment sweeps (expiry, reconciliation, refund retries), each failure logged and
 * the others still run. The job `payments.sweep` runs it every minute (api/jobs.ts; docs/jobs.md).
 */
export async function runPaymentSweeps(deps: PaymentDeps): Promise<void> {
  const steps: [string, () => Promise<unknown>][] = [
    ['reservation expiry', () => expireReservations(deps)],
    ['payment reconciliation', () => reconcilePendingPayments(deps)],
    ['refund retry', () => sendPendingRefunds(deps)],
  ]
  for (const [name, step] of steps) {
    try {
      await step()
    } catch (err) {
      deps.logger.warn({ errClass: (err as Error)?.name }, `${name} failed`)
    }
  }
}
