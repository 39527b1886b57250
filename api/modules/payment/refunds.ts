/**
 * Refunds (docs/payments.md, "Refunds"): decided inside the transaction that decides them (a
 * cancellation, a line that cannot be delivered, a payment that came too late or twice) as a
 * `pending` row, sent to the provider after the commit, retried until the provider has it, and
 * settled by the provider's refund webhooks. The order's payment state follows its refunds
 * (`refreshPaymentState`). Amounts are integer paise. This module reads and writes payment rows
 * only, so the order service may use it without a cycle.
 */
import { and, asc, eq, isNull, lt, ne, or, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { AppDeps } from '../../deps.ts'
import type { Db, Tx } from '../../db/db.ts'
import { lockOrderRow } from '../../db/locks.ts'
import { queryRows } from '../../db/query.ts'
import { payments, refunds } from '../../db/schema.ts'
import { newId } from '../../lib/ids.ts'
import { ProviderError } from './provider.ts'

type Executor = Pick<Db, 'execute'>
type RefundDeps = Pick<AppDeps, 'db' | 'logger' | 'payments' | 'clock'>

/** A refund waits this long after a failed send before it is sent again (ms). */
export const REFUND_RETRY_AFTER_MS = 60_000

/**
 * How many refunds of one amount of one line (or of the whole order) the provider may report as
 * failed before nothing sends it again: each failure before that is recorded again as a new pending
 * refund (docs/payments.md, "Refunds"); after it the order's payment state is refund_failed.
 */
export const REFUND_MAX_FAILURES = 3

/**
 * Sets an order's payment state from its refunds, when it was paid: refund_pending while one is
 * pending, refunded when the processed ones cover the grand total, refund_failed when a failed
 * refund was not followed by another of the same payment, line and amount (REFUND_MAX_FAILURES
 * reached), partially_refunded when some were processed, else paid. The refund of a surplus capture
 * of an order that stands (its payment row `refunded`: docs/payments.md, "Exactly once") gives back
 * money the order never kept, so it counts as pending or failed but never makes the order refunded.
 * Other states (cod, pending, expired, mismatch) are left alone.
 */
export async function refreshPaymentState(tx: Executor, orderId: string): Promise<void> {
  // raw SQL: one update whose `case` reads the order's refunds and payments (correlated subqueries).
  await tx.execute(sql`update orders o set payment_state = case
      when exists (select 1 from refunds r where r.order_id = o.id and r.status = 'pending') then 'refund_pending'
      when (select coalesce(sum(r.amount_paise), 0) from refunds r join payments p on p.id = r.payment_id
          where r.order_id = o.id and r.status = 'processed' and p.status <> 'refunded') >= o.grand_total_paise then 'refunded'
      when exists (select 1 from refunds f where f.order_id = o.id and f.status = 'failed'
          and not exists (select 1 from refunds g where g.payment_id = f.payment_id and g.status <> 'failed'
            and g.order_line_id is not distinct from f.order_line_id and g.amount_paise = f.amount_paise
            and g.created_at >= f.created_at)) then 'refund_failed'
      when exists (select 1 from refunds r join payments p on p.id = r.payment_id
          where r.order_id = o.id and r.status = 'processed' and p.status <> 'refunded') then 'partially_refunded'
      else 'paid' end
    where o.id = ${orderId} and o.payment_state in ('paid', 'refund_pending', 'refunded', 'partially_refunded', 'refund_failed')`)
}

/**
 * After the provider reported refund `refundId` as failed (inside the caller's transaction, the
 * order row locked): records it again as a new pending refund of the same payment, line, amount and
 * reason, for the sweep to send, unless REFUND_MAX_FAILURES of them have failed already; then the
 * order's payment state becomes refund_failed (`refreshPaymentState`) and an error is logged for
 * the operators.
 * @returns true when a new refund was recorded
 */
async function retryFailedRefund(tx: Tx, logger: AppDeps['logger'], refundId: string, now: Date): Promise<boolean> {
  // The failures of the same payment, line and amount: a correlated count over alias f.
  const f = alias(refunds, 'f')
  const failures = tx
    .select({ n: sql<number>`count(*)::int` })
    .from(f)
    .where(
      and(
        eq(f.paymentId, refunds.paymentId),
        eq(f.status, 'failed'),
        sql`${f.orderLineId} is not distinct from ${refunds.orderLineId}`,
        eq(f.amountPaise, refunds.amountPaise),
      ),
    )
  const [row] = await tx
    .select({
      order_id: refunds.orderId,
      payment_id: refunds.paymentId,
      order_line_id: refunds.orderLineId,
      amount_paise: refunds.amountPaise,
      reason: refunds.reason,
      failures: sql<number>`(${failures})`,
    })
    .from(refunds)
    .where(eq(refunds.id, refundId))
  if (!row) return false
  if (row.failures >= REFUND_MAX_FAILURES) {
    logger.error({ refundId, orderId: row.order_id, failures: row.failures }, 'refund failed at the provider too often: settle it by hand')
    return false
  }
  await tx.insert(refunds).values({
    id: newId(),
    orderId: row.order_id,
    paymentId: row.payment_id,
    orderLineId: row.order_line_id,
    amountPaise: row.amount_paise,
    status: 'pending',
    reason: row.reason,
    createdAt: now,
    updatedAt: now,
  })
  return true
}

/**
 * Records a refund of an order's captured payment (inside the caller's transaction, the order row
 * locked by it): `amountPaise`, or by default what is not refunded yet. Nothing when the order has
 * no captured payment (cash on delivery) or nothing is left to refund.
 * @param input.paymentId refund this payment (a second or late payment) instead of the order's sale
 * @param input.id the new row's id (a caller that links to it, as a problem report: docs/help-after-delivery.md); a new id by default
 * @returns the paise recorded (0 for none)
 */
export async function recordRefund(
  tx: Tx,
  input: { orderId: string; reason: string; now: Date; amountPaise?: number; orderLineId?: string; paymentId?: string; id?: string },
): Promise<number> {
  // What the payment has had back: a correlated sum (paise).
  const refunded = tx
    .select({ paise: sql<number>`coalesce(sum(${refunds.amountPaise}), 0)::int` })
    .from(refunds)
    .where(and(eq(refunds.paymentId, payments.id), ne(refunds.status, 'failed')))
  const [payment] = await tx
    .select({ id: payments.id, amount_paise: payments.amountPaise, refunded: sql<number>`(${refunded})` })
    .from(payments)
    .where(
      and(
        eq(payments.orderId, input.orderId),
        eq(payments.status, 'captured'),
        input.paymentId ? eq(payments.id, input.paymentId) : undefined,
      ),
    )
    .orderBy(asc(payments.updatedAt), asc(payments.id))
    .limit(1)
  if (!payment) return 0
  const left = payment.amount_paise - payment.refunded
  const amount = Math.min(input.amountPaise ?? left, left)
  if (amount <= 0) return 0
  await tx.insert(refunds).values({
    id: input.id ?? newId(),
    orderId: input.orderId,
    paymentId: payment.id,
    orderLineId: input.orderLineId ?? null,
    amountPaise: amount,
    status: 'pending',
    reason: input.reason,
    createdAt: input.now,
    updatedAt: input.now,
  })
  await refreshPaymentState(tx, input.orderId)
  return amount
}

/**
 * Sends the pending refunds the provider has not got yet (of one order, or all): each is claimed by
 * one update (attempts + 1, so two senders never send one refund twice), sent, and given the
 * provider's refund id and status. A provider failure leaves it pending for the next try after
 * REFUND_RETRY_AFTER_MS (logged with its code, never a secret). A send that got no answer (a
 * timeout, a 5xx) may still have made the refund, so every later try first looks for it among the
 * payment's refunds at the provider by its receipt (our refund id) and adopts it instead of sending
 * a second one. Idempotent; safe to run anywhere.
 * @returns how many were sent
 */
export async function sendPendingRefunds(deps: RefundDeps, scope: { orderId?: string } = {}): Promise<number> {
  const provider = deps.payments?.provider
  if (!provider) return 0
  const now = deps.clock()
  // A refund whose last try was before this is due again.
  const triedBefore = new Date(now.getTime() - REFUND_RETRY_AFTER_MS)
  const due = await deps.db
    .select({ id: refunds.id })
    .from(refunds)
    .innerJoin(payments, eq(payments.id, refunds.paymentId))
    .where(
      and(
        eq(refunds.status, 'pending'),
        isNull(refunds.providerRefundId),
        eq(payments.provider, provider.name),
        or(eq(refunds.attempts, 0), lt(refunds.updatedAt, triedBefore)),
        scope.orderId ? eq(refunds.orderId, scope.orderId) : undefined,
      ),
    )
    .orderBy(asc(refunds.createdAt))
    .limit(100)
  let sent = 0
  for (const { id } of due) {
    // raw SQL: `update … from payments` claims the refund and answers its payment's provider id in one statement.
    const [claimed] = await queryRows<{
      id: string
      amount_paise: number
      payment_id: string
      provider_payment_id: string
      order_id: string
      attempts: number
    }>(
      deps.db,
      sql`update refunds r set attempts = r.attempts + 1, updated_at = ${now.toISOString()}
        from payments p where r.id = ${id} and p.id = r.payment_id and r.status = 'pending' and r.provider_refund_id is null
          and (r.attempts = 0 or r.updated_at < ${triedBefore.toISOString()})
        returning r.id, r.amount_paise, r.payment_id, p.provider_payment_id, r.order_id, r.attempts`,
    )
    if (!claimed) continue
    try {
      const made =
        claimed.attempts > 1 ? (await provider.fetchRefunds(claimed.provider_payment_id)).find((r) => r.receipt === claimed.id) : undefined
      const answer =
        made ??
        (await provider.refund(claimed.provider_payment_id, {
          amount: claimed.amount_paise,
          receipt: claimed.id,
          notes: { refund_id: claimed.id, order_id: claimed.order_id },
        }))
      await deps.db.transaction(async (tx) => {
        await lockOrderRow(tx, claimed.order_id)
        // A refund webhook may have settled it first: its status then stands.
        const [settled] = await tx
          .update(refunds)
          .set({
            providerRefundId: answer.id,
            status: sql`case when ${refunds.status} = 'pending' and ${answer.status} in ('processed', 'failed') then ${answer.status} else ${refunds.status} end`,
            updatedAt: deps.clock(),
          })
          .where(and(eq(refunds.id, claimed.id), eq(refunds.status, 'pending')))
          .returning({ status: refunds.status })
        if (settled?.status === 'failed') await retryFailedRefund(tx, deps.logger, claimed.id, deps.clock())
        await refreshPaymentState(tx, claimed.order_id)
      })
      sent++
    } catch (err) {
      const e = err instanceof ProviderError ? { status: err.status, code: err.code } : { errClass: (err as Error)?.name }
      deps.logger.warn({ ...e, refundId: claimed.id }, 'refund not sent: will retry')
    }
  }
  return sent
}

/**
 * Settles a refund from the provider's refund webhook (inside the caller's transaction, which also
 * holds the webhook's claim: docs/payments.md, "Exactly once"): found by the provider's refund id, or
 * (when the webhook came before the send's answer was saved) the pending refund of that payment and
 * amount. The order row, then the refund row, are locked before the refund's state is read, so two
 * deliveries of one outcome (copies with other event ids, or the send's own answer) settle it once:
 * only the one that turns it failed records it again (`retryFailedRefund`).
 * @returns the order id, or undefined when no refund of ours matches
 */
export async function settleRefund(
  tx: Tx,
  input: {
    provider: string
    providerRefundId: string
    providerPaymentId: string
    amountPaise: number
    status: 'processed' | 'failed'
    now: Date
    logger: AppDeps['logger']
  },
): Promise<string | undefined> {
  // A key join of refunds and payments, locked `for update of` the refund row only.
  const find = (lock: boolean) => {
    const query = tx
      .select({ id: refunds.id, order_id: refunds.orderId, status: refunds.status })
      .from(refunds)
      .innerJoin(payments, eq(payments.id, refunds.paymentId))
      .where(
        and(
          eq(payments.provider, input.provider),
          or(
            eq(refunds.providerRefundId, input.providerRefundId),
            and(
              isNull(refunds.providerRefundId),
              eq(payments.providerPaymentId, input.providerPaymentId),
              eq(refunds.amountPaise, input.amountPaise),
              eq(refunds.status, 'pending'),
            ),
          ),
        ),
      )
      .orderBy(sql`(${refunds.providerRefundId} = ${input.providerRefundId}) desc nulls last`, asc(refunds.createdAt))
      .limit(1)
    return lock ? query.for('update', { of: refunds }) : query
  }
  const [seen] = await find(false)
  if (!seen) return undefined
  await lockOrderRow(tx, seen.order_id)
  // Read again under the locks: another delivery may have settled it meanwhile.
  const [row] = await find(true)
  if (!row) return undefined
  await tx
    .update(refunds)
    .set({ providerRefundId: input.providerRefundId, status: input.status, updatedAt: input.now })
    .where(eq(refunds.id, row.id))
  if (input.status === 'failed' && row.status !== 'failed') await retryFailedRefund(tx, input.logger, row.id, input.now)
  await refreshPaymentState(tx, row.order_id)
  return row.order_id
}
