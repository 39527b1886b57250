/**
 * Help after delivery (docs/help-after-delivery.md; docs/decisions/0073-help-after-delivery.md): a
 * shopper reports a problem with units of one line of a delivered order within HELP_WINDOW_HOURS;
 * under the automatic caps it is refunded at once, above them it waits for an admin, who approves
 * (refunded) or rejects it with a reason. Every decision is audited (api/lib/audit.ts) and mailed
 * once (the `order-issue.mail` job, ./mail.ts).
 *
 * Money is integer paise. A report's value is what the shopper paid for its units: the line's total
 * less its coupon share (docs/offers.md, "Refunds"), pro rata, rounded down, with the last units of a
 * line taking what is left, so the reports of a line never add up to more than was paid for it.
 *
 * Concurrency (docs/help-after-delivery.md, "Races"): a report locks the shopper's row, then the
 * order's row (api/db/locks.ts), before it reads what was reported, so duplicates of one line and
 * reports of one shopper's orders apply one at a time (the units left and both caps hold); a decision
 * locks the order's row, then the report's, and changes only a report still pending, so two admins
 * approving at once refund once.
 */
import { and, asc, eq, gte, ne, sql } from 'drizzle-orm'
import type { AppDeps } from '../../deps.ts'
import type { Tx } from '../../db/db.ts'
import { lockOrderRow, lockUserRow } from '../../db/locks.ts'
import { orderIssues, orderLines, orders, type User } from '../../db/schema.ts'
import { recordAudit } from '../../lib/audit.ts'
import { staffStoreOf } from '../../lib/auth.ts'
import { BadRequest, Conflict, Forbidden, NotFound } from '../../lib/errors.ts'
import { newId } from '../../lib/ids.ts'
import { fromPaise } from '../../lib/money.ts'
import { DEFAULT_HELP, type HelpSettings } from '../../config.ts'
import { PLAUSIBLE_ID } from '../../../contract/ids.ts'
import { NOT_OUR_IMAGE } from '../../../contract/fields.ts'
import {
  ISSUE_KIND_LABELS,
  ISSUE_MESSAGES,
  type DecideIssueInput,
  type IssueOptions,
  type OrderIssue,
  type ReportIssueInput,
} from '../../../contract/order-issue.ts'
import { isStoredImage } from '../file/service.ts'
import { ORDER_NOT_FOUND } from '../order/service.ts'
import { recordRefund, sendPendingRefunds } from '../payment/refunds.ts'

export type IssueDeps = Pick<AppDeps, 'db' | 'clock' | 'commerce' | 'storage' | 'jobs' | 'logger' | 'payments'>

/** IST is UTC+5:30 all year (no daylight saving), ms. */
const IST_OFFSET_MS = 330 * 60_000

/** Most reports the admin queue answers at once (oldest first; the rest after those are decided). */
export const ISSUE_QUEUE_MAX = 200

/** The help settings in force: the configured ones, or DEFAULT_HELP. */
export function helpSettings(deps: Pick<AppDeps, 'commerce'>): HelpSettings {
  return deps.commerce.help ?? DEFAULT_HELP
}

/** The first moment of `now`'s calendar month in India (IST), as a Date: the per-month cap's start. */
export function istMonthStart(now: Date): Date {
  const ist = new Date(now.getTime() + IST_OFFSET_MS)
  return new Date(Date.UTC(ist.getUTCFullYear(), ist.getUTCMonth(), 1) - IST_OFFSET_MS)
}

/**
 * The value in paise of `units` more units of a line (docs/help-after-delivery.md, "Value"): what
 * was paid for the line (`paidPaise`, its total less its coupon share) pro rata, rounded down; the
 * report that takes the line's last units gets what is left of `paidPaise` after `reportedPaise`,
 * so the reports of a line add up to exactly what was paid for it, never more.
 * @param quantity the line's units; `reportedUnits`/`reportedPaise` those of its live reports
 */
export function issueValuePaise(input: {
  paidPaise: number
  quantity: number
  reportedUnits: number
  reportedPaise: number
  units: number
}): number {
  if (input.reportedUnits + input.units >= input.quantity) return Math.max(0, input.paidPaise - input.reportedPaise)
  return Math.floor((input.units * input.paidPaise) / input.quantity)
}

/** Whether a report may still be made at `now` of an order delivered at `deliveredAt` (inclusive at the window's end). */
export function windowEnd(deliveredAt: Date, windowHours: number): Date {
  return new Date(deliveredAt.getTime() + windowHours * 3_600_000)
}

/** The columns of a report's answer (joined with its order and line). */
const issueColumns = {
  id: orderIssues.id,
  orderId: orderIssues.orderId,
  orderNumber: orders.orderNumber,
  lineId: orderIssues.orderLineId,
  name: orderLines.name,
  unit: orderLines.unit,
  kind: orderIssues.kind,
  units: orderIssues.units,
  note: orderIssues.note,
  photo: orderIssues.photo,
  valuePaise: orderIssues.valuePaise,
  status: orderIssues.status,
  auto: orderIssues.auto,
  refundMethod: orderIssues.refundMethod,
  paymentState: orders.paymentState,
  paymentMethod: orders.paymentMethod,
  rejectReason: orderIssues.rejectReason,
  decidedAt: orderIssues.decidedAt,
  createdAt: orderIssues.createdAt,
  storeId: orders.storeId,
  userId: orderIssues.userId,
}

type IssueRow = Awaited<ReturnType<typeof selectIssues>>[number]

/** A report row as answered (rupees). */
function toIssueAnswer(row: IssueRow): OrderIssue {
  return {
    _id: row.id,
    orderId: row.orderId,
    orderNumber: row.orderNumber,
    lineId: row.lineId,
    name: row.name,
    unit: row.unit,
    kind: row.kind,
    units: row.units,
    note: row.note,
    photo: row.photo,
    value: fromPaise(row.valuePaise),
    status: row.status,
    auto: row.auto,
    refundMethod: row.refundMethod,
    paymentMethod: row.paymentState === 'cod' ? 'cod' : row.paymentMethod,
    rejectReason: row.rejectReason,
    decidedAt: row.decidedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  }
}

/** Reads reports with their order and line. */
function selectIssues(db: Pick<AppDeps['db'], 'select'>) {
  return db
    .select(issueColumns)
    .from(orderIssues)
    .innerJoin(orders, eq(orders.id, orderIssues.orderId))
    .innerJoin(orderLines, eq(orderLines.id, orderIssues.orderLineId))
}

/** One report as answered. */
async function issueAnswer(db: Pick<AppDeps['db'], 'select'>, issueId: string): Promise<OrderIssue> {
  const [row] = await selectIssues(db).where(eq(orderIssues.id, issueId))
  return toIssueAnswer(row!)
}

/** The shopper's own order by id or number (404 for anyone else's: no order of others is confirmed). */
async function ownOrder(db: Pick<AppDeps['db'], 'select'>, userId: string, ref: string) {
  if (!PLAUSIBLE_ID.test(ref)) throw NotFound(ORDER_NOT_FOUND)
  const [order] = await db
    .select({
      id: orders.id,
      orderNumber: orders.orderNumber,
      status: orders.status,
      deliveredAt: orders.deliveredAt,
      paymentState: orders.paymentState,
    })
    .from(orders)
    .where(and(sql`(${orders.id} = ${ref} or ${orders.orderNumber} = ${ref.toUpperCase()})`, eq(orders.userId, userId)))
  if (!order) throw NotFound(ORDER_NOT_FOUND)
  return order
}

/**
 * What the help page of one of the shopper's orders shows (POST /api/order-issue/list): whether the
 * window is open and until when, each line with the units not reported yet, and the reports made.
 * @throws 404 not the shopper's order
 */
export async function issueOptions(deps: IssueDeps, user: Pick<User, 'id'>, ref: string): Promise<IssueOptions> {
  const order = await ownOrder(deps.db, user.id, ref)
  const { windowHours } = helpSettings(deps)
  const until = order.status === 'delivered' && order.deliveredAt ? windowEnd(order.deliveredAt, windowHours) : null
  // Units of live reports per line: a correlated sum.
  const reported = deps.db
    .select({ n: sql<number>`coalesce(sum(${orderIssues.units}), 0)::int` })
    .from(orderIssues)
    .where(and(eq(orderIssues.orderLineId, orderLines.id), ne(orderIssues.status, 'rejected')))
  const lines = await deps.db
    .select({
      lineId: orderLines.id,
      name: orderLines.name,
      unit: orderLines.unit,
      image: orderLines.image,
      quantity: orderLines.quantity,
      reported: sql<number>`(${reported})`,
    })
    .from(orderLines)
    .where(eq(orderLines.orderId, order.id))
    .orderBy(asc(orderLines.position))
  const issues = await selectIssues(deps.db)
    .where(eq(orderIssues.orderId, order.id))
    .orderBy(asc(orderIssues.createdAt), asc(orderIssues.id))
  return {
    orderId: order.id,
    orderNumber: order.orderNumber,
    openUntil: until?.toISOString() ?? null,
    open: until !== null && deps.clock().getTime() <= until.getTime(),
    lines: lines.map(({ reported: n, ...l }) => ({ ...l, unitsLeft: Math.max(0, l.quantity - n) })),
    issues: issues.map((r) => toIssueAnswer(r)),
  }
}

/**
 * Refunds a report inside the caller's transaction (the order row locked): an order paid online gets
 * a refund of the report's value to its payment (api/modules/payment/refunds.ts `recordRefund`, the
 * refunds row's id kept on the report); a cash-on-delivery order a refund note, the value the store
 * pays back in cash (docs/help-after-delivery.md, "Refunds"). Either way an invoiced order gets the
 * report's credit note in the same transaction (CGST Rules 2017, rule 53; `issue_report_credit_note`,
 * docs/help-after-delivery.md, "Credit notes"): issued once per report, so a decision rolled back
 * leaves neither refund nor note.
 * @throws 409 when the payment has nothing left to refund
 */
async function refundIssue(
  tx: Tx,
  input: { issueId: string; orderId: string; paymentState: string; valuePaise: number; reason: string; now: Date },
): Promise<'online' | 'cod_note'> {
  await tx.execute(sql`select issue_report_credit_note(${input.issueId}, ${input.now.toISOString()}::timestamptz)`)
  if (input.paymentState === 'cod') return 'cod_note'
  const refundId = newId()
  const amount =
    input.valuePaise === 0
      ? 0
      : await recordRefund(tx, {
          id: refundId,
          orderId: input.orderId,
          reason: input.reason,
          now: input.now,
          amountPaise: input.valuePaise,
        })
  if (amount < input.valuePaise) throw Conflict('Nothing is left to refund on this order’s payment: settle it by hand')
  await tx
    .update(orderIssues)
    .set({ refundId: amount > 0 ? refundId : null })
    .where(eq(orderIssues.id, input.issueId))
  return 'online'
}

/** The refund's reason as the order pages list it: "Help: missing 2 × Toor Dal". */
const refundReason = (kind: keyof typeof ISSUE_KIND_LABELS, units: number, name: string) =>
  `Help: ${ISSUE_KIND_LABELS[kind].toLowerCase()} ${units} × ${name}`

/**
 * Reports a problem with units of one line of the shopper's delivered order (POST
 * /api/order-issue/report). Refunded at once (`auto`) when its value keeps the order's automatic
 * refunds within HELP_AUTO_REFUND_PER_ORDER and the shopper's of this IST calendar month within
 * HELP_AUTO_REFUND_PER_MONTH; else `pending` for an admin. An automatic refund is audited (no actor:
 * the rule decided) and mailed.
 * @throws 404 not the shopper's order, or no such line; 409 not delivered, the window closed, or
 *   more units than are left to report; 400 a photo that is not an uploaded image
 */
export async function reportIssue(deps: IssueDeps, user: Pick<User, 'id'>, input: ReportIssueInput): Promise<OrderIssue> {
  const settings = helpSettings(deps)
  const now = deps.clock()
  if (input.photo && !(await isStoredImage(deps.storage, input.photo)))
    throw BadRequest(`photo: ${NOT_OUR_IMAGE}`, [{ path: 'photo', message: NOT_OUR_IMAGE }])
  const found = await ownOrder(deps.db, user.id, input.orderId)
  if (!PLAUSIBLE_ID.test(input.lineId)) throw NotFound(ISSUE_MESSAGES.lineUnknown)
  const outcome = await deps.db.transaction(async (tx) => {
    // The shopper's row first (the per-month cap across orders), then the order's (units and the per-order cap).
    await lockUserRow(tx, user.id)
    const [order] = await tx
      .select({ id: orders.id, status: orders.status, deliveredAt: orders.deliveredAt, paymentState: orders.paymentState })
      .from(orders)
      .where(eq(orders.id, found.id))
      .for('update')
    if (!order) throw NotFound(ORDER_NOT_FOUND)
    if (order.status !== 'delivered' || !order.deliveredAt) throw Conflict(ISSUE_MESSAGES.notDelivered)
    if (now.getTime() > windowEnd(order.deliveredAt, settings.windowHours).getTime())
      throw Conflict(ISSUE_MESSAGES.windowClosed(settings.windowHours))
    const [line] = await tx
      .select({
        id: orderLines.id,
        name: orderLines.name,
        quantity: orderLines.quantity,
        lineTotalPaise: orderLines.lineTotalPaise,
        couponSharePaise: orderLines.couponSharePaise,
      })
      .from(orderLines)
      .where(and(eq(orderLines.id, input.lineId), eq(orderLines.orderId, order.id)))
    if (!line) throw NotFound(ISSUE_MESSAGES.lineUnknown)
    const [live] = await tx
      .select({
        units: sql<number>`coalesce(sum(${orderIssues.units}), 0)::int`,
        paise: sql<number>`coalesce(sum(${orderIssues.valuePaise}), 0)::int`,
      })
      .from(orderIssues)
      .where(and(eq(orderIssues.orderLineId, line.id), ne(orderIssues.status, 'rejected')))
    const left = line.quantity - live!.units
    if (left <= 0) throw Conflict(ISSUE_MESSAGES.nothingLeft)
    if (input.units > left) throw Conflict(ISSUE_MESSAGES.tooManyUnits(left))
    const valuePaise = issueValuePaise({
      paidPaise: line.lineTotalPaise - line.couponSharePaise,
      quantity: line.quantity,
      reportedUnits: live!.units,
      reportedPaise: live!.paise,
      units: input.units,
    })
    // The automatic refunds so far: of this order, and of this shopper this IST month.
    const autoSum = (where: ReturnType<typeof and>) =>
      tx
        .select({ paise: sql<number>`coalesce(sum(${orderIssues.valuePaise}), 0)::int` })
        .from(orderIssues)
        .where(and(eq(orderIssues.auto, true), where))
    const [perOrder] = await autoSum(eq(orderIssues.orderId, order.id))
    const [perMonth] = await autoSum(and(eq(orderIssues.userId, user.id), gte(orderIssues.createdAt, istMonthStart(now))))
    const auto = perOrder!.paise + valuePaise <= settings.autoPerOrderPaise && perMonth!.paise + valuePaise <= settings.autoPerMonthPaise
    const id = newId()
    await tx.insert(orderIssues).values({
      id,
      orderId: order.id,
      orderLineId: line.id,
      userId: user.id,
      kind: input.kind,
      units: input.units,
      note: input.note ?? '',
      photo: input.photo ?? null,
      valuePaise,
      status: 'pending',
      auto: false,
      createdAt: now,
      updatedAt: now,
    })
    if (!auto) return { id, orderId: order.id, refunded: false }
    const method = await refundIssue(tx, {
      issueId: id,
      orderId: order.id,
      paymentState: order.paymentState,
      valuePaise,
      reason: refundReason(input.kind, input.units, line.name),
      now,
    })
    await tx
      .update(orderIssues)
      .set({ status: 'refunded', auto: true, refundMethod: method, decidedAt: now, updatedAt: now })
      .where(eq(orderIssues.id, id))
    await recordAudit(tx, {
      actor: null,
      action: 'refund',
      entity: 'order',
      entityId: order.id,
      before: null,
      after: { issue: id, decision: 'auto', kind: input.kind, units: input.units, line: line.name, amount: fromPaise(valuePaise), method },
    })
    await deps.jobs.send('order-issue.mail', { issueId: id }, { tx })
    return { id, orderId: order.id, refunded: method === 'online' }
  })
  if (outcome.refunded) await sendPendingRefunds(deps, { orderId: outcome.orderId })
  return issueAnswer(deps.db, outcome.id)
}

/**
 * The reports waiting for a decision, oldest first (GET /api/order-issue/queue): every store's for
 * an ADMIN, the own store's for STAFF (docs/product.md, "Roles and permissions").
 */
export async function issueQueue(deps: Pick<AppDeps, 'db'>, user: Pick<User, 'role' | 'storeId'>): Promise<OrderIssue[]> {
  const staffStore = user.role === 'STAFF' ? (user.storeId ?? '') : null
  const rows = await selectIssues(deps.db)
    .where(and(eq(orderIssues.status, 'pending'), staffStore !== null ? eq(orders.storeId, staffStore) : undefined))
    .orderBy(asc(orderIssues.createdAt), asc(orderIssues.id))
    .limit(ISSUE_QUEUE_MAX)
  return rows.map((r) => toIssueAnswer(r))
}

/** Most reports answered for one order: a bound on the answer (a report takes at least one unit of a line, so an order has far fewer). */
const ORDER_ISSUES_MAX = 500

/**
 * Every report of one order, whatever its status, oldest first (POST /api/order-issue/of-order): the
 * admin's order page (docs/help-after-delivery.md, "The admin's queue"). Staff read the orders they
 * may open (`staffStoreOf`: their own store's; every store's for a staff account with no store); any
 * other order is 404, so no other store's order is confirmed.
 * @throws 404 no such order (or another store's, for staff)
 */
export async function orderIssuesForStaff(
  deps: Pick<AppDeps, 'db'>,
  user: Pick<User, 'role' | 'storeId'>,
  orderId: string,
): Promise<OrderIssue[]> {
  if (!PLAUSIBLE_ID.test(orderId)) throw NotFound(ORDER_NOT_FOUND)
  const [order] = await deps.db.select({ id: orders.id, storeId: orders.storeId }).from(orders).where(eq(orders.id, orderId))
  // The order's own visibility (the order details answer it by the same rule), so the page never shows an order without its reports.
  const own = staffStoreOf(user)
  if (!order || (own !== null && order.storeId !== own)) throw NotFound(ORDER_NOT_FOUND)
  const rows = await selectIssues(deps.db)
    .where(eq(orderIssues.orderId, order.id))
    .orderBy(asc(orderIssues.createdAt), asc(orderIssues.id))
    .limit(ORDER_ISSUES_MAX)
  return rows.map((r) => toIssueAnswer(r))
}

/**
 * Decides a waiting report (POST /api/order-issue/decide): approve refunds it (ADMIN only: a refund
 * moves money, as a paid order's cancel: docs/product.md, "Roles and permissions"); reject keeps the reason (ADMIN, or STAFF of
 * the order's store). Audited with the actor and mailed to the shopper once. Only a report still
 * pending changes (its order's row, then its own, locked first), so two admins deciding at once
 * decide it once: the second gets 409.
 * @throws 404 no such report (or another store's, for staff); 403 staff approving; 409 decided already
 */
export async function decideIssue(
  deps: IssueDeps,
  actor: Pick<User, 'id' | 'role' | 'storeId'>,
  input: DecideIssueInput,
): Promise<OrderIssue> {
  if (!PLAUSIBLE_ID.test(input.issueId)) throw NotFound(ISSUE_MESSAGES.reportNotFound)
  const [seen] = await deps.db
    .select({ orderId: orderIssues.orderId, storeId: orders.storeId })
    .from(orderIssues)
    .innerJoin(orders, eq(orders.id, orderIssues.orderId))
    .where(eq(orderIssues.id, input.issueId))
  if (!seen || (actor.role === 'STAFF' && seen.storeId !== actor.storeId)) throw NotFound(ISSUE_MESSAGES.reportNotFound)
  if (input.decision === 'approve' && actor.role !== 'ADMIN') throw Forbidden(ISSUE_MESSAGES.approveAdminOnly)
  const now = deps.clock()
  const refunded = await deps.db.transaction(async (tx) => {
    await lockOrderRow(tx, seen.orderId)
    const [issue] = await tx
      .select({
        id: orderIssues.id,
        status: orderIssues.status,
        kind: orderIssues.kind,
        units: orderIssues.units,
        valuePaise: orderIssues.valuePaise,
        name: orderLines.name,
        paymentState: orders.paymentState,
      })
      .from(orderIssues)
      .innerJoin(orders, eq(orders.id, orderIssues.orderId))
      .innerJoin(orderLines, eq(orderLines.id, orderIssues.orderLineId))
      .where(eq(orderIssues.id, input.issueId))
      .for('update', { of: orderIssues })
    if (!issue) throw NotFound(ISSUE_MESSAGES.reportNotFound)
    if (issue.status !== 'pending') throw Conflict(ISSUE_MESSAGES.decided)
    let method: 'online' | 'cod_note' | null = null
    if (input.decision === 'approve') {
      method = await refundIssue(tx, {
        issueId: issue.id,
        orderId: seen.orderId,
        paymentState: issue.paymentState,
        valuePaise: issue.valuePaise,
        reason: refundReason(issue.kind, issue.units, issue.name),
        now,
      })
      await tx
        .update(orderIssues)
        .set({ status: 'refunded', refundMethod: method, decidedBy: actor.id, decidedAt: now, updatedAt: now })
        .where(and(eq(orderIssues.id, issue.id), eq(orderIssues.status, 'pending')))
    } else {
      await tx
        .update(orderIssues)
        .set({ status: 'rejected', rejectReason: input.reason, decidedBy: actor.id, decidedAt: now, updatedAt: now })
        .where(and(eq(orderIssues.id, issue.id), eq(orderIssues.status, 'pending')))
    }
    await recordAudit(tx, {
      actor: actor.id,
      action: input.decision === 'approve' ? 'refund' : 'reject',
      entity: 'order',
      entityId: seen.orderId,
      before: { issue: issue.id, status: 'pending' },
      after:
        input.decision === 'approve'
          ? { issue: issue.id, decision: 'approved', line: issue.name, units: issue.units, amount: fromPaise(issue.valuePaise), method }
          : { issue: issue.id, decision: 'rejected', line: issue.name, reason: input.reason },
    })
    await deps.jobs.send('order-issue.mail', { issueId: issue.id }, { tx })
    return method === 'online'
  })
  if (refunded) await sendPendingRefunds(deps, { orderId: seen.orderId })
  return issueAnswer(deps.db, input.issueId)
}

/** A report and its shopper for its mail (./mail.ts). */
export async function issueForMail(
  deps: Pick<AppDeps, 'db'>,
  issueId: string,
): Promise<(OrderIssue & { userId: string; orderRowId: string }) | undefined> {
  const [row] = await selectIssues(deps.db).where(eq(orderIssues.id, issueId))
  if (!row) return undefined
  return { ...toIssueAnswer(row), userId: row.userId, orderRowId: row.orderId }
}
