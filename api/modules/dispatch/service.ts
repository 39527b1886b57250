/**
 * Dispatch (docs/delivery.md, "Dispatch"; docs/decisions/0068-riders-and-dispatch.md): a packed
 * order without a rider goes to its store's free rider on shift who has waited longest.
 *
 * - A rider is free while it holds fewer orders (packed or out for delivery) than the batch size
 *   (`DISPATCH_BATCH_SIZE`, 1 by default, 2 at most). Among free riders, the one holding fewest goes
 *   first, then the one free longest (`rider_shifts.free_since`: going on shift, the last delivery,
 *   hand-back or release), then the smaller id.
 * - The oldest waiting order of the store (placed first) goes first. An order a rider could not
 *   deliver (`delivery_issue` set) is not given out again by itself: it waits for an admin.
 * - Each assignment is one transaction that locks the store's candidate riders' shift rows
 *   (`FOR UPDATE OF rider_shifts SKIP LOCKED`) before counting what they hold, and the order's row
 *   (`SKIP LOCKED`): two dispatches at once never both give orders to one rider beyond its batch,
 *   and never give one order twice. A dispatch that finds the riders locked by another stops: the
 *   other one goes on until no free rider or no waiting order is left.
 * - It runs after every commit that can queue an order or free a rider (packed, delivered,
 *   cancelled, a rider on shift, a hand-back, a reassignment), for that store.
 */
import { and, asc, count, eq, inArray, isNull, sql } from 'drizzle-orm'
import type { AppDeps } from '../../deps.ts'
import type { Db } from '../../db/db.ts'
import { orders, riderShifts, users } from '../../db/schema.ts'
import { recordAudit } from '../../lib/audit.ts'
import { Conflict } from '../../lib/errors.ts'

/** What dispatching needs. */
export type DispatchDeps = Pick<AppDeps, 'db' | 'clock' | 'logger' | 'commerce'> & Partial<Pick<AppDeps, 'orderEvents'>>

/** The statuses of an order a rider holds (given, or in hand). */
export const HELD_STATUSES = ['packed', 'out_for_delivery'] as const

/**
 * Hands a rider's orders given but not picked up back to the store's queue, in the caller's
 * transaction: the orders are locked (before any shift row: the order every writer locks them in),
 * then left without a rider, each one version newer. Going off shift and leaving the rounds (another
 * role, deactivated, another store) both do it (docs/delivery.md, "Riders").
 * @returns the orders handed back, with their new versions (for the live status)
 * @throws 409 `inHandMessage` while the rider has an order out for delivery: it is delivered or handed back first
 */
export async function handBackRiderOrders(
  tx: Pick<Db, 'select' | 'update'>,
  riderId: string,
  now: Date,
  inHandMessage: string,
): Promise<{ id: string; version: number }[]> {
  const held = await tx
    .select({ id: orders.id, status: orders.status, version: orders.version })
    .from(orders)
    .where(and(eq(orders.riderId, riderId), inArray(orders.status, [...HELD_STATUSES])))
    .for('update')
  if (held.some((o) => o.status === 'out_for_delivery')) throw Conflict(inHandMessage)
  if (held.length > 0)
    await tx
      .update(orders)
      .set({ riderId: null, dispatchedAt: null, version: sql`${orders.version} + 1`, updatedAt: now })
      .where(
        inArray(
          orders.id,
          held.map((o) => o.id),
        ),
      )
  return held.map((o) => ({ id: o.id, version: o.version + 1 }))
}

/** Most assignments one run makes: far above a store's riders × batch size; a guard, not a rule. */
const MAX_ASSIGNMENTS_PER_RUN = 200

/** The batch size in force: `commerce.dispatchBatchSize`, 1 when absent. */
export function batchSize(deps: Pick<AppDeps, 'commerce'>): number {
  return deps.commerce.dispatchBatchSize ?? 1
}

/** How many orders each of `riderIds` holds (packed or out for delivery); absent ids hold none. */
export async function heldCounts(db: Pick<Db, 'select'>, riderIds: string[]): Promise<Map<string, number>> {
  if (riderIds.length === 0) return new Map()
  const rows = await db
    .select({ riderId: orders.riderId, n: count() })
    .from(orders)
    .where(and(inArray(orders.riderId, riderIds), inArray(orders.status, [...HELD_STATUSES])))
    .groupBy(orders.riderId)
  return new Map(rows.map((r) => [r.riderId!, r.n]))
}

/**
 * One assignment in its own transaction: the longest-waiting free rider of `storeId` gets the oldest
 * waiting order. Writes the order's rider and an audit entry (actor null: the rule, not a person).
 * @returns the order and rider given, or null when no free rider (unlocked) or no waiting order is left
 */
async function assignOne(deps: DispatchDeps, storeId: string): Promise<{ orderId: string; riderId: string; version: number } | null> {
  const limit = batchSize(deps)
  return deps.db.transaction(async (tx) => {
    const candidates = await tx
      .select({ id: riderShifts.userId, freeSince: riderShifts.freeSince })
      .from(riderShifts)
      .innerJoin(users, eq(users.id, riderShifts.userId))
      .where(and(eq(riderShifts.onShift, true), eq(users.role, 'RIDER'), eq(users.status, 'Active'), eq(users.storeId, storeId)))
      .orderBy(asc(riderShifts.freeSince), asc(riderShifts.userId))
      .for('update', { of: riderShifts, skipLocked: true })
    if (candidates.length === 0) return null
    // Counted after the lock: a concurrent assignment to these riders has committed or waits for us.
    const held = await heldCounts(
      tx,
      candidates.map((r) => r.id),
    )
    const free = candidates
      .map((r, rank) => ({ ...r, rank, held: held.get(r.id) ?? 0 }))
      .filter((r) => r.held < limit)
      .sort((a, b) => a.held - b.held || a.rank - b.rank)
    const rider = free[0]
    if (!rider) return null
    const [order] = await tx
      .select({ id: orders.id, version: orders.version })
      .from(orders)
      .where(and(eq(orders.storeId, storeId), eq(orders.status, 'packed'), isNull(orders.riderId), isNull(orders.deliveryIssue)))
      .orderBy(asc(orders.createdAt), asc(orders.id))
      .limit(1)
      .for('update', { skipLocked: true })
    if (!order) return null
    const now = deps.clock()
    await tx
      .update(orders)
      .set({ riderId: rider.id, dispatchedAt: now, version: sql`${orders.version} + 1`, updatedAt: now })
      .where(eq(orders.id, order.id))
    await tx.update(riderShifts).set({ updatedAt: now }).where(eq(riderShifts.userId, rider.id))
    await recordAudit(tx, {
      actor: null,
      action: 'dispatch',
      entity: 'order',
      entityId: order.id,
      before: { riderId: null },
      after: { riderId: rider.id },
    })
    return { orderId: order.id, riderId: rider.id, version: order.version + 1 }
  })
}

/**
 * Gives `storeId`'s waiting orders to its free riders, one transaction per assignment, until no free
 * rider or no waiting order is left (or another dispatch holds the riders: it goes on instead).
 * Never throws: a failure is logged and the orders wait for the next run (the sweep job, or the next
 * event of the store).
 * @returns how many orders were given
 */
export async function dispatchStore(deps: DispatchDeps, storeId: string): Promise<number> {
  let given = 0
  try {
    while (given < MAX_ASSIGNMENTS_PER_RUN) {
      const assigned = await assignOne(deps, storeId)
      if (!assigned) break
      given++
      deps.orderEvents?.publish({ orderId: assigned.orderId, status: 'packed', version: assigned.version })
    }
  } catch (err) {
    deps.logger.warn({ err: err instanceof Error ? err.message : String(err), storeId }, 'dispatch failed: the orders wait')
  }
  return given
}

/** Runs `dispatchStore` for every store with a waiting order (the sweep job; docs/delivery.md, "Dispatch"). */
export async function dispatchAll(deps: DispatchDeps): Promise<number> {
  const rows = await deps.db
    .selectDistinct({ storeId: orders.storeId })
    .from(orders)
    .where(and(eq(orders.status, 'packed'), isNull(orders.riderId), isNull(orders.deliveryIssue)))
  let given = 0
  for (const { storeId } of rows) given += await dispatchStore(deps, storeId)
  return given
}
