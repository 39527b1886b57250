/**
 * Online payment (docs/payments.md; docs/decisions/0025-online-payment-and-stock-reservation.md).
 *
 * Starting: the cart becomes an order `payment_pending` through the same placement steps as cash on
 * delivery (api/modules/order/service.ts `placeFromCart`, the steps of api/modules/order/placement.ts):
 * prices checked, stock taken from the store (held, with a reservation that ends at
 * `reservation_expires_at`), order written; its last step writes the job that ends the hold. Then
 * the provider's order is made for the grand total in paise with our order number as its receipt.
 * A verified payment and "Pay on delivery instead" end with the placement's `confirmOrder`; a payment
 * after the hold ended takes the stock again with its `reserveStock`.
 *
 * Only a verified payment counts: a callback must carry the provider's signature of
 * `order_id|payment_id`, a webhook the signature of its raw body; the captured amount and currency
 * are then checked against the order. `applyCapture` is the one place a capture is applied, in one
 * transaction with the order row locked, so a callback and a webhook of the same payment, in any
 * order or at once, apply it once; a capture the order no longer needs (a second payment of a paid
 * order, a payment captured after a cancellation or after the reservation expired when the stock is
 * gone) is refunded in full. A webhook's event id is claimed in the transaction that applies it
 * (docs/payments.md, "Exactly once"). Expiry, reconciliation and refund retries are plain idempotent
 * functions that any number of runners may call at once.
 */
import { recordAudit } from '../../lib/audit.ts'
import { createHash } from 'node:crypto'
import { and, asc, desc, eq, exists, gt, lte, ne, or, sql } from 'drizzle-orm'
import type { AnyPgColumn } from 'drizzle-orm/pg-core'
import type { AppDeps } from '../../deps.ts'
import type { Tx } from '../../db/db.ts'
import { orderLines, orders, paymentEvents, payments, refunds, users } from '../../db/schema.ts'
import type { StockChange } from '../../lib/cache.ts'
import { BadRequest, Conflict, HttpError, NotFound } from '../../lib/errors.ts'
import { newId } from '../../lib/ids.ts'
import { orderUnitsByProduct } from '../inventory/service.ts'
import {
  COD_METHOD,
  findOrder,
  ORDER_NOT_FOUND,
  placeFromCart,
  toOrderAnswer,
  type CouponChange,
  type PlacementInput,
} from '../order/service.ts'
import { confirmOrder, recordStatus, releaseStock, reserveStock } from '../order/placement.ts'
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
  | CouponChange

/**
 * Starts an online payment of the user's cart (see the module comment).
 * @throws what placeCashOnDelivery throws; 503 PROVIDER_UNAVAILABLE when the provider's order could
 *   not be made (the order then waits, its stock held, and "Try again" or "Pay on delivery" work)
 */
export async function startOnlinePayment(
  deps: PaymentDeps,
  user: { id: string; email: string | null; name: string },
  input: {
    addressId: string
    idempotencyKey: string
    method: OnlineMethodName
    storeId?: string
    spendBudget?: () => Promise<void>
    /** The coupon discount the checkout showed, paise (api/modules/order/service.ts `PlacementInput`). */
    shownCouponDiscountPaise?: number
  } & Pick<PlacementInput, 'tipPaise' | 'shownTipPaise' | 'instructions' | 'shownFeesPaise'> &
    ReturnUrls,
): Promise<StartOutcome> {
  const reservationExpiresAt = new Date(deps.clock().getTime() + deps.payments.reservationMs)
  const outcome = await placeFromCart(
    deps,
    user,
    {
      addressId: input.addressId,
      idempotencyKey: input.idempotencyKey,
      storeId: input.storeId,
      spendBudget: input.spendBudget,
      shownCouponDiscountPaise: input.shownCouponDiscountPaise,
      tipPaise: input.tipPaise,
      shownTipPaise: input.shownTipPaise,
      instructions: input.instructions,
      shownFeesPaise: input.shownFeesPaise,
    },
    {
      status: 'payment_pending',
      method: input.method,
      state: 'pending',
      reservationExpiresAt,
      // The cart stays until the payment is verified (the shopper may still give up), and the
      // confirmation waits for it. The end of the hold is a job written with the order: the stock
      // goes back on time whichever instance is up then (docs/jobs.md; the minute sweep catches any
      // job lost with its queue).
      finish: (tx, { jobs }, order) =>
        jobs
          .send(
            'payments.hold-ended',
            { orderId: order.orderId },
            { tx, startAfterMs: Math.max(0, reservationExpiresAt.getTime() - order.now.getTime()) },
          )
          .then(() => undefined),
    },
  )
  if (outcome.kind === 'changed' || outcome.kind === 'coupon') return outcome
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
  user: { id: string; email: string | null; name: string },
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
  user: { id: string; email: string | null; name: string },
  order: Order,
  method: OnlineMethodName,
  urls: ReturnUrls,
): Promise<Checkout> {
  const { provider } = deps.payments
  const [row] = await deps.db
    .select({ providerOrderId: payments.providerOrderId, amountPaise: payments.amountPaise })
    .from(payments)
    .where(and(eq(payments.orderId, order._id), eq(payments.provider, provider.name), eq(payments.status, 'created')))
    .orderBy(desc(payments.createdAt))
    .limit(1)
  const [money] = await deps.db.select({ grandTotalPaise: orders.grandTotalPaise }).from(orders).where(eq(orders.id, order._id))
  const amount = money!.grandTotalPaise
  let providerOrderId = row?.amountPaise === amount ? row.providerOrderId : undefined
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
    await deps.db.insert(payments).values({
      id: newId(),
      orderId: order._id,
      provider: provider.name,
      providerOrderId,
      method,
      amountPaise: amount,
      currency: 'INR',
      status: 'created',
    })
  }
  await deps.db
    .update(orders)
    .set({ paymentMethod: method, updatedAt: asIs(orders.updatedAt) })
    .where(and(eq(orders.id, order._id), eq(orders.status, 'payment_pending')))
  const [contact] = await deps.db.select({ mobile: users.mobile }).from(users).where(eq(users.id, user.id))
  const prefill = { name: user.name, email: user.email ?? '', contact: order.delivery_address.mobile ?? contact?.mobile ?? '' }
  await deps.payments.testProvider?.open(providerOrderId, urls.callbackUrl, urls.cancelUrl, method)
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
export async function payOnDelivery(
  deps: PaymentDeps,
  user: { id: string; email: string | null; name: string },
  ref: string,
): Promise<Order> {
  if (!PLAUSIBLE_ID.test(ref)) throw NotFound(ORDER_NOT_FOUND)
  const id = await deps.db.transaction(async (tx) => {
    const [order] = await tx
      .select({ id: orders.id, userId: orders.userId, status: orders.status, paymentState: orders.paymentState })
      .from(orders)
      .where(or(eq(orders.id, ref), eq(orders.orderNumber, ref.toUpperCase())))
      .for('update')
    if (!order || order.userId !== user.id) throw NotFound(ORDER_NOT_FOUND)
    if (order.status !== 'payment_pending') throw Conflict(order.paymentState === 'expired' ? RESERVATION_EXPIRED : NOT_AWAITING_PAYMENT)
    const now = deps.clock()
    await tx
      .update(orders)
      .set({
        status: 'placed',
        paymentMethod: COD_METHOD,
        paymentState: 'cod',
        reservationExpiresAt: null,
        version: sql`${orders.version} + 1`,
        updatedAt: now,
      })
      .where(eq(orders.id, order.id))
    await recordStatus(tx, { orderId: order.id, status: 'placed', byUserId: user.id, at: now })
    // The cart emptied and the confirmation written as a job with the change (docs/jobs.md, "Order emails").
    await confirmOrder(tx, deps.jobs, { orderId: order.id, userId: user.id })
    return order.id
  })
  const answer = toOrderAnswer(deps, (await findOrder(deps.db, id))!, false)
  deps.orderEvents?.publish({ orderId: answer._id, status: answer.status, version: answer.version })
  return answer
}

/**
 * A builder update's value that leaves `column` as it is: for `updated_at`, which the schema stamps
 * on every builder update that does not set it (api/db/schema.ts `timestamps`), where the update
 * must not move it.
 */
const asIs = (column: AnyPgColumn) => sql`${column}`

/** What applying a capture did. */
export type CaptureResult = 'paid' | 'already' | 'mismatch' | 'refunded' | 'unknown'

/** A captured payment as the provider reports it (amount in paise). */
export interface CapturedPayment {
  provider: string
  providerOrderId: string
  paymentId: string
  amount: number
  currency: string
  method?: string
}

/** What a capture applied inside a transaction leaves to do after the commit. */
interface CaptureApplied {
  result: CaptureResult
  orderId?: string
  stock?: StockChange
  refund?: boolean
}

/**
 * Applies a captured payment (from a verified callback, a verified webhook, or reconciliation) in
 * one transaction (docs/payments.md, "Exactly once"), then does what waits for the commit (the
 * stock caches, sending a refund, the order's live status):
 * - a payment already applied: nothing (`already`);
 * - amount or currency not the order's: recorded as `mismatch`, never fulfilled;
 * - the order awaiting payment (also after a mismatched capture): paid, placed, its held stock now
 *   sold, the cart emptied, email sent;
 * - the order cancelled by an expired hold (also after a mismatched capture): the stock is taken
 *   again if all of it is there (paid), else the payment is refunded;
 * - the order switched to cash on delivery meanwhile: it is now paid online;
 * - any other capture the order no longer needs (already paid by another capture, of this provider
 *   order or another; cancelled): refunded in full.
 */
export async function applyCapture(deps: PaymentDeps, payment: CapturedPayment): Promise<CaptureResult> {
  const applied = await deps.db.transaction((tx) => applyCaptureIn(tx, deps, payment))
  await afterCapture(deps, applied)
  return applied.result
}

/** What waits for the commit of a capture: the stock caches told, the refund sent, the order's change published. */
async function afterCapture(deps: PaymentDeps, applied: CaptureApplied): Promise<void> {
  if (!applied.orderId) return
  if (applied.stock) deps.cache.stockChanged(applied.stock)
  if (applied.refund) await sendPendingRefunds(deps, { orderId: applied.orderId })
  if (applied.result === 'paid') {
    const answer = toOrderAnswer(deps, (await findOrder(deps.db, applied.orderId))!, false)
    deps.orderEvents?.publish({ orderId: answer._id, status: answer.status, version: answer.version })
  }
}

/**
 * Applies a capture inside `tx` (see applyCapture), step by step: lock, then compare the amount,
 * then the one case that fits the order (`captureCase`): mark it paid, convert a cash order,
 * re-reserve an expired hold, or refund a surplus capture.
 */
async function applyCaptureIn(tx: Tx, deps: PaymentDeps, payment: CapturedPayment): Promise<CaptureApplied> {
  const now = deps.clock()
  const locked = await lockCapture(tx, payment)
  if (!locked) return { result: 'unknown' }
  const { order, rows } = locked
  const applied = { orderId: order.id }
  if (alreadyApplied(rows, payment)) return { ...applied, result: 'already' }
  const row = await paymentRowOf(tx, deps, order, rows, payment, now)
  if (!amountMatches(order, row, payment)) {
    await recordMismatch(tx, deps, order, row, payment, now)
    return { ...applied, result: 'mismatch' }
  }
  await recordCapture(tx, row, payment, now)
  switch (captureCase(order)) {
    case 'awaiting payment':
      await markPaid(tx, deps, order, now)
      return { ...applied, result: 'paid' }
    case 'switched to cash':
      await convertCashOrder(tx, order, payment, now)
      return { ...applied, result: 'paid' }
    case 'hold expired': {
      const stock = await reReserveExpiredHold(tx, order)
      // Some stock is gone: the capture is refunded like any the order does not need.
      if (!stock) break
      await markPaid(tx, deps, order, now)
      return { ...applied, result: 'paid', stock }
    }
    case 'not needed':
      break
  }
  await refundSurplusCapture(tx, order, row, now)
  return { ...applied, result: 'refunded', refund: true }
}

/** The order a capture is for, as applyCaptureIn reads it (locked). */
interface CaptureOrder {
  id: string
  userId: string
  status: string
  paymentState: string
  storeId: string
  grandTotalPaise: number
}

/** A payment row of the captured provider order (locked); `amountPaise` is what it expects. */
interface CaptureRow {
  id: string
  status: string
  providerPaymentId: string | null
  amountPaise: number
  method: string
}

/** Which case of applyCapture an order is in, read under the lock (see `captureCase`). */
type CaptureCase = 'awaiting payment' | 'switched to cash' | 'hold expired' | 'not needed'

/**
 * The case a correct capture meets: the order still `awaiting payment`; `switched to cash` ("Pay on
 * delivery instead" while the payment went through); its `hold expired` (cancelled by
 * expireReservations, `expired`, or `mismatch` when a mismatched capture came first: it keeps that
 * state, and no person cancels an order awaiting payment); else the capture is `not needed` (the
 * order paid by another capture, or cancelled).
 */
function captureCase(order: CaptureOrder): CaptureCase {
  if (order.status === 'payment_pending') return 'awaiting payment'
  if (order.status === 'placed' && order.paymentState === 'cod') return 'switched to cash'
  if (order.status === 'cancelled' && (order.paymentState === 'expired' || order.paymentState === 'mismatch')) return 'hold expired'
  return 'not needed'
}

/** Whether this payment id was applied already (its row no longer waits): a repeated callback, webhook or reconciliation. */
function alreadyApplied(rows: CaptureRow[], payment: CapturedPayment): boolean {
  return rows.some((r) => r.providerPaymentId === payment.paymentId && r.status !== 'created')
}

/** Compare amount: the capture is for exactly what its payment row and the order expect, in INR (paise). */
function amountMatches(order: CaptureOrder, row: CaptureRow, payment: CapturedPayment): boolean {
  return payment.amount === row.amountPaise && payment.amount === order.grandTotalPaise && payment.currency === 'INR'
}

/** Records a correct capture on its payment row (`captured`, the provider's payment id and method). */
async function recordCapture(tx: Tx, row: CaptureRow, payment: CapturedPayment, now: Date) {
  await tx
    .update(payments)
    .set({ status: 'captured', providerPaymentId: payment.paymentId, method: payment.method ?? asIs(payments.method), updatedAt: now })
    .where(eq(payments.id, row.id))
}

/**
 * Lock: the order row, then its provider order's payment rows (`for update`, in that order, as every
 * writer of an order takes them: api/db/locks.ts), before any of their state is read, so captures of
 * one order apply one at a time and each sees what the one before did.
 * @returns undefined for a provider order that is not ours
 */
async function lockCapture(tx: Tx, payment: CapturedPayment): Promise<{ order: CaptureOrder; rows: CaptureRow[] } | undefined> {
  const ofProviderOrder = and(eq(payments.provider, payment.provider), eq(payments.providerOrderId, payment.providerOrderId))
  const [link] = await tx.select({ orderId: payments.orderId }).from(payments).where(ofProviderOrder).limit(1)
  if (!link) return undefined
  const [order] = await tx
    .select({
      id: orders.id,
      userId: orders.userId,
      status: orders.status,
      paymentState: orders.paymentState,
      storeId: orders.storeId,
      grandTotalPaise: orders.grandTotalPaise,
    })
    .from(orders)
    .where(eq(orders.id, link.orderId))
    .for('update')
  const rows = await tx
    .select({
      id: payments.id,
      status: payments.status,
      providerPaymentId: payments.providerPaymentId,
      amountPaise: payments.amountPaise,
      method: payments.method,
    })
    .from(payments)
    .where(ofProviderOrder)
    .orderBy(asc(payments.createdAt), asc(payments.id))
    .for('update')
  return order && rows.length > 0 ? { order, rows } : undefined
}

/**
 * The payment row a capture is recorded on: the provider order's row still waiting for its capture,
 * else (a further capture of one provider order: after a mismatched one, or a surplus) a new row of
 * its own expecting the same amount, so its refund names it (migration 0025; docs/payments.md,
 * "Exactly once").
 */
async function paymentRowOf(
  tx: Tx,
  deps: PaymentDeps,
  order: CaptureOrder,
  rows: CaptureRow[],
  payment: CapturedPayment,
  now: Date,
): Promise<CaptureRow> {
  const waiting = rows.find((r) => r.providerPaymentId === null || r.providerPaymentId === payment.paymentId)
  if (waiting) return waiting
  deps.logger.warn({ orderId: order.id }, 'another capture on one provider order')
  const first = rows[0]!
  const row: CaptureRow = {
    id: newId(),
    status: 'created',
    providerPaymentId: payment.paymentId,
    amountPaise: first.amountPaise,
    method: first.method,
  }
  await tx.insert(payments).values({
    id: row.id,
    orderId: order.id,
    provider: payment.provider,
    providerOrderId: payment.providerOrderId,
    providerPaymentId: payment.paymentId,
    method: payment.method ?? first.method,
    amountPaise: payment.amount,
    currency: payment.currency.slice(0, 8),
    status: 'created',
    createdAt: now,
    updatedAt: now,
  })
  return row
}

/**
 * Compare amount, when it fails: a captured amount or currency that is not the order's is recorded
 * on its payment row as `mismatch` and, while the order waits, as its payment state; never fulfilled
 * (docs/payments.md, "Webhooks"). A correct capture after it is still applied.
 */
async function recordMismatch(tx: Tx, deps: PaymentDeps, order: CaptureOrder, row: CaptureRow, payment: CapturedPayment, now: Date) {
  await tx
    .update(payments)
    .set({
      status: 'mismatch',
      providerPaymentId: payment.paymentId,
      failureReason: `captured ${payment.amount} ${payment.currency}, expected ${order.grandTotalPaise} INR`,
      updatedAt: now,
    })
    .where(eq(payments.id, row.id))
  if (order.status === 'payment_pending')
    await tx
      .update(orders)
      .set({ paymentState: 'mismatch', updatedAt: asIs(orders.updatedAt) })
      .where(eq(orders.id, order.id))
  deps.logger.warn({ orderId: order.id }, 'captured amount or currency does not match the order: not fulfilled')
}

/**
 * Mark paid: an order awaiting payment (or whose expired hold was just taken again) is paid and
 * placed, its promise counted from now, the cart emptied and the "paid" confirmation written as a job
 * with the payment (docs/jobs.md, "Order emails").
 */
async function markPaid(tx: Tx, deps: PaymentDeps, order: CaptureOrder, now: Date) {
  await tx
    .update(orders)
    .set({
      status: 'placed',
      paymentState: 'paid',
      paidAt: now,
      reservationExpiresAt: null,
      cancelReason: null,
      // The promise runs from the payment: the order is placed now.
      promisedAt: sql`${now.toISOString()}::timestamptz + make_interval(mins => coalesce(${orders.promisedMinutes}, 0))`,
      version: sql`${orders.version} + 1`,
      updatedAt: now,
    })
    .where(eq(orders.id, order.id))
  await recordStatus(tx, { orderId: order.id, status: 'placed', byUserId: order.userId, at: now })
  await confirmOrder(tx, deps.jobs, { orderId: order.id, userId: order.userId })
}

/** Cash conversion: an order switched to cash on delivery while the payment went through is now paid online. */
async function convertCashOrder(tx: Tx, order: CaptureOrder, payment: CapturedPayment, now: Date) {
  await tx
    .update(orders)
    .set({
      paymentState: 'paid',
      paymentMethod: payment.method ?? 'online',
      paidAt: now,
      version: sql`${orders.version} + 1`,
      updatedAt: now,
    })
    .where(eq(orders.id, order.id))
}

/**
 * Re-reserve an expired hold: paid after the hold ran out, the order's stock is taken again if every
 * line's stock is still there. The savepoint gives back what was taken before a line found its stock gone.
 * @returns the stock taken, or undefined when some is gone (the capture is then refunded)
 */
async function reReserveExpiredHold(tx: Tx, order: CaptureOrder): Promise<StockChange | undefined> {
  return tx
    .transaction(async (inner) => {
      const reserved = await reserveStock(inner, order.storeId, await orderUnitsByProduct(inner, order.id))
      if (reserved.short) throw new StockGone()
      return reserved.stock
    })
    .catch((err) => {
      if (err instanceof StockGone) return undefined
      throw err
    })
}

/**
 * Refund a surplus capture: a capture the order no longer needs (already paid by another capture,
 * cancelled, an expired hold whose stock is gone) is refunded in full as a pending refund of that
 * payment, sent after the commit (docs/payments.md, "Exactly once"). A cancelled order's payment state
 * follows its refunds; an order that stands keeps `paid`, its surplus payment row marked `refunded`.
 */
async function refundSurplusCapture(tx: Tx, order: CaptureOrder, row: CaptureRow, now: Date) {
  await tx
    .update(orders)
    .set({
      paymentState: sql`case when ${orders.paymentState} in ('expired', 'pending', 'mismatch', 'cod') then 'paid' else ${orders.paymentState} end`,
      updatedAt: asIs(orders.updatedAt),
    })
    .where(and(eq(orders.id, order.id), eq(orders.status, 'cancelled')))
  const reason =
    order.status === 'cancelled' ? 'Paid after the order was cancelled or the time to pay ran out' : 'A second payment of a paid order'
  await recordRefund(tx, { orderId: order.id, reason, now, paymentId: row.id })
  if (order.status !== 'cancelled')
    await tx
      .update(payments)
      .set({ status: 'refunded', updatedAt: asIs(payments.updatedAt) })
      .where(eq(payments.id, row.id))
}

class StockGone extends Error {}

/**
 * Records a failed attempt on the provider order's row still waiting for a capture (the order keeps
 * waiting: the shopper may try again until the hold ends); `db` is the caller's transaction or the pool.
 * @returns true when a row waited for it
 */
async function recordFailure(
  db: Tx | PaymentDeps['db'],
  deps: Pick<PaymentDeps, 'clock'>,
  input: { provider: string; providerOrderId: string; reason: string },
): Promise<boolean> {
  const rows = await db
    .update(payments)
    .set({ failureReason: input.reason.slice(0, 500), updatedAt: deps.clock() })
    .where(and(eq(payments.provider, input.provider), eq(payments.providerOrderId, input.providerOrderId), eq(payments.status, 'created')))
    .returning({ id: payments.id })
  return rows.length > 0
}

/** The order a provider order belongs to, for the callback's answer. */
async function orderOfProviderOrder(deps: PaymentDeps, provider: string, providerOrderId: string) {
  const [row] = await deps.db
    .select({ id: orders.id, orderNumber: orders.orderNumber, status: orders.status, paymentState: orders.paymentState })
    .from(payments)
    .innerJoin(orders, eq(orders.id, payments.orderId))
    .where(and(eq(payments.provider, provider), eq(payments.providerOrderId, providerOrderId)))
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
    orderNumber: order.orderNumber,
    message: CALLBACK_MESSAGES[outcome],
  })
  if (!input.razorpay_payment_id || !input.razorpay_signature) {
    // Anyone may post a failure (it needs no signature): its answer names the order only by the
    // number the shopper already has, never our ids (OWASP API Security Top 10 2023, API3: excessive data exposure).
    const unsigned = (outcome: CallbackOutcome['outcome']): CallbackOutcome => {
      const { orderId: _ours, ...byNumber } = answer(outcome)
      return byNumber
    }
    await recordFailure(deps.db, deps, {
      provider: provider.name,
      providerOrderId: input.razorpay_order_id,
      reason: input.error?.description ?? 'Payment failed',
    })
    // A webhook may have settled it already (the shopper pressed back after paying).
    const now = await orderOfProviderOrder(deps, provider.name, input.razorpay_order_id)
    return unsigned(now?.paymentState === 'paid' ? 'paid' : 'failed')
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
  if (settled?.paymentState === 'mismatch') return answer('mismatch')
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
 * A provider webhook (docs/payments.md, "Webhooks" and "Exactly once"): the signature of the raw
 * body is checked before anything is parsed (400, nothing written, when it does not match). Then, in
 * one transaction, the event is claimed by its id (`x-razorpay-event-id`, else the body's digest):
 * `insert ... on conflict do nothing returning` into payment_events, which waits for a concurrent
 * copy's transaction and finds its row once it commits. A copy that claims nothing does nothing else
 * (answered as a duplicate with the first one's outcome); the one that claims it applies it in the
 * same transaction, so an apply that fails rolls its claim back and the provider's retry applies it.
 * What waits for the commit (sending a refund, the caches) runs after it.
 * @returns whether it was a copy, and what was done (for the log and tests)
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
  const thisEvent = and(eq(paymentEvents.provider, provider.name), eq(paymentEvents.eventId, eventId))
  const applied = await deps.db.transaction(async (tx): Promise<EventApplied | undefined> => {
    const [claimed] = await tx
      .insert(paymentEvents)
      .values({ provider: provider.name, eventId, type, outcome: 'applying', receivedAt: deps.clock() })
      .onConflictDoNothing()
      .returning({ eventId: paymentEvents.eventId })
    if (!claimed) return undefined
    const done = await applyEvent(tx, deps, type, event)
    await tx.update(paymentEvents).set({ outcome: done.outcome }).where(thisEvent)
    return done
  })
  if (!applied) {
    const [seen] = await deps.db.select({ outcome: paymentEvents.outcome }).from(paymentEvents).where(thisEvent)
    return { duplicate: true, outcome: seen?.outcome ?? 'applying' }
  }
  if (applied.capture) await afterCapture(deps, applied.capture)
  return { duplicate: false, outcome: applied.outcome }
}

/** What applying one event did: its outcome, and a capture's work left for after the commit. */
interface EventApplied {
  outcome: string
  capture?: CaptureApplied
}

/** Applies one claimed webhook event inside `tx` (see handleWebhook). */
async function applyEvent(tx: Tx, deps: PaymentDeps, type: string, event: WebhookEvent): Promise<EventApplied> {
  const { provider } = deps.payments
  const payment = event.payload?.payment?.entity
  switch (type) {
    case 'payment.captured':
    case 'order.paid': {
      if (!payment?.id || !payment.order_id || typeof payment.amount !== 'number') return { outcome: 'ignored: no payment' }
      if (payment.status !== 'captured') return { outcome: 'ignored: not captured' }
      const capture = await applyCaptureIn(tx, deps, {
        provider: provider.name,
        providerOrderId: payment.order_id,
        paymentId: payment.id,
        amount: payment.amount,
        currency: String(payment.currency),
        method: payment.method,
      })
      return { outcome: capture.result, capture }
    }
    case 'payment.failed': {
      if (!payment?.order_id) return { outcome: 'ignored: no payment' }
      const recorded = await recordFailure(tx, deps, {
        provider: provider.name,
        providerOrderId: payment.order_id,
        reason: payment.error_description ?? 'Payment failed',
      })
      return { outcome: recorded ? 'failed' : 'ignored' }
    }
    case 'refund.processed':
    case 'refund.failed': {
      const refund = event.payload?.refund?.entity
      if (!refund?.id || !refund.payment_id || typeof refund.amount !== 'number') return { outcome: 'ignored: no refund' }
      const orderId = await settleRefund(tx, {
        provider: provider.name,
        providerRefundId: refund.id,
        providerPaymentId: refund.payment_id,
        amountPaise: refund.amount,
        status: type === 'refund.processed' ? 'processed' : 'failed',
        now: deps.clock(),
        logger: deps.logger,
      })
      return { outcome: orderId ? type : 'unknown' }
    }
    default:
      return { outcome: 'ignored' }
  }
}

/**
 * Ends the holds that ran out (docs/payments.md, "Reservation"): each order still awaiting payment
 * at `now` past its `reservation_expires_at` is cancelled (payment state `expired`) and its stock
 * returned, one transaction per order. Rows another runner or a capture holds are skipped
 * (`skip locked`) and seen again next time, so any number of runners may call it at once.
 * @returns how many holds ended
 */
export async function expireReservations(deps: Pick<PaymentDeps, 'db' | 'cache' | 'clock' | 'orderEvents' | 'jobs'>): Promise<number> {
  const now = deps.clock()
  let ended = 0
  for (;;) {
    const done = await deps.db.transaction(async (tx) => {
      const [order] = await tx
        .select({ id: orders.id, storeId: orders.storeId, version: orders.version })
        .from(orders)
        .where(and(eq(orders.status, 'payment_pending'), lte(orders.reservationExpiresAt, now)))
        .orderBy(asc(orders.reservationExpiresAt))
        .limit(1)
        .for('update', { skipLocked: true })
      if (!order) return undefined
      const stock = await releaseStock(tx, order.storeId, order.id)
      await tx
        .update(orders)
        .set({
          status: 'cancelled',
          paymentState: sql`case when ${orders.paymentState} = 'mismatch' then 'mismatch' else 'expired' end`,
          cancelReason: 'Not paid in time',
          version: sql`${orders.version} + 1`,
          updatedAt: now,
        })
        .where(eq(orders.id, order.id))
      await recordStatus(tx, { orderId: order.id, status: 'cancelled', byUserId: null, at: now })
      // The shopper hears of it like any other status change (docs/jobs.md, "Order emails").
      await deps.jobs.send('order.mail', { kind: 'status', orderId: order.id, status: 'cancelled' }, { tx })
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
  const rows = await deps.db
    .select({ providerOrderId: payments.providerOrderId })
    .from(payments)
    .innerJoin(orders, eq(orders.id, payments.orderId))
    .where(
      and(
        eq(payments.provider, provider.name),
        eq(payments.status, 'created'),
        lte(payments.createdAt, new Date(now - reconcileAfterMs)),
        or(eq(orders.status, 'payment_pending'), and(eq(orders.paymentState, 'expired'), gt(orders.updatedAt, new Date(now - 86_400_000)))),
      ),
    )
    .orderBy(asc(payments.createdAt))
    .limit(50)
  let found = 0
  for (const row of rows) {
    try {
      const captured = (await provider.fetchOrderPayments(row.providerOrderId)).find((p) => p.status === 'captured')
      if (!captured) continue
      const result = await applyCapture(deps, {
        provider: provider.name,
        providerOrderId: row.providerOrderId,
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
 * Refunds a line that cannot be delivered (admin; docs/payments.md, "Refunds"): the line's total less its share of a coupon's discount (what was paid for it) of
 * a paid order that is placed or packed, once per line (one live refund: a failed one is replaced by
 * refunds.ts up to REFUND_MAX_FAILURES times, and after that the admin may start it again).
 * @throws 404 ORDER_NOT_FOUND or no such line; 409 not paid online, not placed or packed, or refunded already
 */
export async function refundLine(deps: PaymentDeps, input: { orderId: string; productId: string; actor: string | null }): Promise<Order> {
  if (!PLAUSIBLE_ID.test(input.orderId)) throw NotFound(ORDER_NOT_FOUND)
  const id = await deps.db.transaction(async (tx) => {
    const [order] = await tx
      .select({ id: orders.id, status: orders.status, paymentState: orders.paymentState })
      .from(orders)
      .where(or(eq(orders.id, input.orderId), eq(orders.orderNumber, input.orderId.toUpperCase())))
      .for('update')
    if (!order) throw NotFound(ORDER_NOT_FOUND)
    if (!['paid', 'partially_refunded', 'refund_pending', 'refund_failed'].includes(order.paymentState))
      throw Conflict('Only an order paid online can be refunded')
    if (order.status !== 'placed' && order.status !== 'packed')
      throw Conflict('A line can be refunded only while the order is placed or packed')
    // Whether the line has a live refund: a correlated `exists`.
    const liveRefund = tx
      .select({ one: sql`1` })
      .from(refunds)
      .where(and(eq(refunds.orderLineId, orderLines.id), ne(refunds.status, 'failed')))
    const [line] = await tx
      .select({
        id: orderLines.id,
        name: orderLines.name,
        line_total_paise: orderLines.lineTotalPaise,
        coupon_share_paise: orderLines.couponSharePaise,
        refunded: sql<boolean>`${exists(liveRefund)}`,
      })
      .from(orderLines)
      .where(and(eq(orderLines.orderId, order.id), eq(orderLines.productId, input.productId)))
      .orderBy(asc(orderLines.position))
      .limit(1)
    if (!line) throw NotFound('That product is not in this order')
    if (line.refunded) throw Conflict(`${line.name} was refunded already`)
    const amount = await recordRefund(tx, {
      orderId: order.id,
      reason: `Not delivered: ${line.name}`,
      now: deps.clock(),
      // What was paid for the line: its total less its share of the coupon's discount (docs/offers.md, "Refunds").
      amountPaise: line.line_total_paise - line.coupon_share_paise,
      orderLineId: line.id,
    })
    if (amount === 0) throw Conflict('Nothing is left to refund')
    // In the audit trail with every other admin change to an order (docs/product.md, "Audit trail").
    await recordAudit(tx, {
      actor: input.actor,
      action: 'refund',
      entity: 'order',
      entityId: order.id,
      before: { payment: order.paymentState },
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
