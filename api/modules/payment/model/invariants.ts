/**
 * The invariants of the payment model test (docs/payments.md, "The payment model test"), checked
 * after every command by reading the database directly and comparing it with the World (what the
 * provider did and what the app answered). Each broken rule throws an Error naming the invariant,
 * so fast-check's counterexample says which one caught it. Amounts are integer paise.
 */
import { sql, type SQL } from 'drizzle-orm'
import { queryRows } from '../../../db/query.ts'
import type { Harness, World } from './world.ts'

/** Payment states of an order whose payment was captured and applied (contract/payment.ts `PAYMENT_STATES`). */
const PAID_FAMILY = ['paid', 'refund_pending', 'refunded', 'partially_refunded', 'refund_failed']

/** The invariants by key (docs/payments.md, "The payment model test"). */
export const INVARIANTS = {
  answers: 'every request is answered without a server error, every signed webhook 200, every sweep step runs',
  'event-once': 'each webhook event id is applied at most once',
  'refund-le-capture': 'refunded ≤ captured, per payment (our rows and the provider)',
  stock: 'stock is conserved per store and product: available + held + sold = start',
  'status-state': "the order's status agrees with its payment state",
  'refund-call': 'no refund row without a provider refund call or a recorded failure; no provider refund without a row',
  'capture-accounted': 'every correct capture the shop was told of is applied or refunded, never ignored',
} as const
export type InvariantKey = keyof typeof INVARIANTS

/** A broken invariant: its key, its rule and what was seen. */
export class InvariantBroken extends Error {
  constructor(
    readonly invariant: InvariantKey,
    detail: string,
  ) {
    super(`invariant ${invariant} (${INVARIANTS[invariant]}) broken: ${detail}`)
    this.name = 'InvariantBroken'
  }
}

const inList = (ids: string[]): SQL => sql.join(ids.length ? ids.map((id) => sql`${id}`) : [sql`null`], sql`, `)

interface PaymentRow {
  id: string
  order_id: string
  status: string
  provider_payment_id: string | null
  amount_paise: number
}
interface RefundRow {
  id: string
  order_id: string
  payment_id: string
  order_line_id: string | null
  provider_refund_id: string | null
  amount_paise: number
  status: string
  attempts: number
}
interface OrderRow {
  id: string
  status: string
  payment_state: string
  grand_total_paise: number
}

/**
 * Checks every invariant of `world` against the database; throws InvariantBroken on the first broken
 * one not in `h.ignoredInvariants` (the model test's PAYMENT_MODEL_IGNORE).
 */
export async function checkInvariants(h: Harness, world: World): Promise<void> {
  const fail = (invariant: InvariantKey, detail: string) => {
    if (!h.ignoredInvariants?.has(invariant)) throw new InvariantBroken(invariant, detail)
  }
  if (world.violations.length > 0) fail('answers', world.violations.join('; '))

  // Each webhook event id is applied at most once, however many copies arrive and whenever.
  for (const [eventId, n] of world.applied) if (n > 1) fail('event-once', `${eventId} was answered as applied ${n} times`)

  const orderIds = world.orders.map((o) => o.id)
  const orderRows = await queryRows<OrderRow>(
    h.t.db,
    sql`select id, status, payment_state, grand_total_paise from orders where id in (${inList(orderIds)})`,
  )
  const paymentRows = await queryRows<PaymentRow>(
    h.t.db,
    sql`select id, order_id, status, provider_payment_id, amount_paise from payments where order_id in (${inList(orderIds)})`,
  )
  const refundRows = await queryRows<RefundRow>(
    h.t.db,
    sql`select id, order_id, payment_id, order_line_id, provider_refund_id, amount_paise, status, attempts
      from refunds where order_id in (${inList(orderIds)})`,
  )

  // Refunded ≤ captured, per payment: in our rows (refunds not failed) and at the provider.
  for (const p of paymentRows) {
    const captured = p.status === 'captured' || p.status === 'refunded' ? p.amount_paise : 0
    const refunded = refundRows.filter((r) => r.payment_id === p.id && r.status !== 'failed').reduce((s, r) => s + r.amount_paise, 0)
    if (refunded > captured)
      fail('refund-le-capture', `payment ${p.id} (${p.status}) captured ${captured} paise, refunds not failed ${refunded} paise`)
  }
  for (const c of world.captures.filter((c) => c.correct)) {
    const atProvider = h.providerRefunds
      .filter((r) => r.payment_id === c.paymentId && r.status !== 'failed')
      .reduce((s, r) => s + r.amount, 0)
    if (atProvider > c.amount)
      fail('refund-le-capture', `the provider was asked to refund ${atProvider} paise of ${c.paymentId}, captured ${c.amount}`)
  }

  // Stock is conserved per store and product: available + held + sold = start.
  for (const p of world.products) {
    const [row] = await queryRows<{ available: number; taken: number }>(
      h.t.db,
      sql`select (select coalesce(sum(stock), 0)::int from inventory where product_id = ${p.id}) as available,
        (select coalesce(sum(l.quantity), 0)::int from order_lines l join orders o on o.id = l.order_id
          where l.product_id = ${p.id} and o.status not in ('cancelled', 'delivery_failed')) as taken`,
    )
    if (row!.available + row!.taken !== p.start)
      fail('stock', `product ${p.id}: available ${row!.available} + held or sold ${row!.taken} ≠ start ${p.start}`)
  }

  // The order's status agrees with its payment state (docs/payments.md, "The payment model test").
  for (const o of orderRows) {
    const pays = paymentRows.filter((p) => p.order_id === o.id)
    const refs = refundRows.filter((r) => r.order_id === o.id)
    const applied = pays.filter((p) => p.status === 'captured' || p.status === 'refunded')
    const pending = refs.filter((r) => r.status === 'pending')
    // What was refunded of the sale (the payment kept, `captured`), not of a surplus payment (`refunded`).
    const sale = pays.filter((p) => p.status === 'captured').map((p) => p.id)
    const saleRefunded = refs.filter((r) => r.status === 'processed' && sale.includes(r.payment_id)).reduce((s, r) => s + r.amount_paise, 0)
    const bad = (why: string) =>
      fail(
        'status-state',
        `order ${o.id} is ${o.status}/${o.payment_state}: ${why} (payments ${JSON.stringify(pays.map((p) => p.status))}, refunds ${JSON.stringify(refs.map((r) => `${r.status}:${r.amount_paise}`))})`,
      )
    if (o.status === 'payment_pending') {
      if (!['pending', 'mismatch'].includes(o.payment_state)) bad('an order awaiting payment must be pending or mismatch')
      if (applied.length > 0) bad('an order awaiting payment has no applied capture')
      if (refs.length > 0) bad('an order awaiting payment has no refund')
    }
    if (o.payment_state === 'pending' && o.status !== 'payment_pending') bad('pending only while awaiting payment')
    if (o.payment_state === 'expired' && (o.status !== 'cancelled' || applied.length > 0))
      bad('expired ⇒ cancelled with no applied capture')
    if (o.payment_state === 'mismatch' && (applied.length > 0 || !pays.some((p) => p.status === 'mismatch')))
      bad('mismatch ⇒ a mismatched capture and none applied')
    if (PAID_FAMILY.includes(o.payment_state) && applied.length === 0) bad('paid or refunding ⇒ a capture exists')
    if (o.payment_state === 'paid' && (pending.length > 0 || saleRefunded > 0)) bad('paid ⇒ no refund pending, none of the sale processed')
    if (o.payment_state === 'refund_pending' && pending.length === 0) bad('refund_pending ⇒ a refund is pending')
    if (o.payment_state === 'refunded' && (pending.length > 0 || saleRefunded < o.grand_total_paise))
      bad('refunded ⇒ none pending, processed refunds of the sale = the grand total')
    if (o.payment_state === 'partially_refunded' && (pending.length > 0 || saleRefunded === 0 || saleRefunded >= o.grand_total_paise))
      bad('partially_refunded ⇒ some but not all refunded, none pending')
    if (o.payment_state === 'refund_failed' && (pending.length > 0 || !refs.some((r) => r.status === 'failed')))
      bad('refund_failed ⇒ a failed refund and none pending')
    if ((o.status === 'cancelled' || o.status === 'delivery_failed') && ['paid', 'partially_refunded'].includes(o.payment_state))
      bad('a cancelled (or failed) paid order refunds the rest')
  }

  // No refund row without a provider refund call or a recorded failure; the provider's status stands.
  const runRefunds = h.providerRefunds.filter((r) => world.captures.some((c) => c.paymentId === r.payment_id))
  for (const r of refundRows) {
    const made = runRefunds.filter((p) => p.receipt === r.id)
    if (made.length > 1) fail('refund-call', `refund ${r.id} was made ${made.length} times at the provider`)
    if (r.provider_refund_id) {
      const at = made.find((p) => p.id === r.provider_refund_id)
      if (!at) fail('refund-call', `refund ${r.id} names ${r.provider_refund_id}, which the provider never made for it`)
      else if (r.status !== 'pending' && r.status !== at.status)
        fail('refund-call', `refund ${r.id} is ${r.status}, the provider says ${at.status}`)
    } else {
      if (r.status !== 'pending') fail('refund-call', `refund ${r.id} is ${r.status} but was never sent`)
      if (made.length > 0) fail('refund-call', `the provider made refund ${made[0]!.id} for ${r.id}, which does not record it`)
      if (r.attempts > 0 && !world.failedSends.has(r.id))
        fail('refund-call', `refund ${r.id} was tried ${r.attempts} times with no call or failure recorded`)
    }
  }
  for (const p of runRefunds)
    if (!refundRows.some((r) => r.id === p.receipt))
      fail('refund-call', `the provider refunded ${p.amount} paise (${p.id}) for no refund row`)

  // Every correct capture the shop was told of is recorded: applied, or refunded (never ignored).
  for (const c of world.captures.filter((c) => c.correct && c.delivered))
    if (!paymentRows.some((p) => p.provider_payment_id === c.paymentId))
      fail('capture-accounted', `capture ${c.paymentId} of ${c.providerOrderId} (${c.amount} paise) is in no payment row`)
}
