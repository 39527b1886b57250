/**
 * The dispatch board and an admin's reassignment (docs/delivery.md, "Dispatch board"): per store, the
 * packed orders waiting for a rider and the store's riders with what they hold; an admin gives a
 * packed order to another rider of its store, or puts it back in the queue.
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm'
import type { AppDeps } from '../../deps.ts'
import { orders, riderShifts, stores, users } from '../../db/schema.ts'
import { recordAudit } from '../../lib/audit.ts'
import { Conflict, NotFound } from '../../lib/errors.ts'
import { PLAUSIBLE_ID } from '../../../contract/ids.ts'
import { RIDER_MESSAGES, type DispatchBoard } from '../../../contract/rider.ts'
import { ORDER_NOT_FOUND } from '../order/service.ts'
import { batchSize, dispatchStore, heldCounts, type DispatchDeps } from './service.ts'

/**
 * The board (GET /api/dispatch/board): every store (or only `onlyStoreId`, a staff member's),
 * its waiting orders oldest first (those a rider could not deliver among them, with the reason), and
 * its active riders, on shift first, each with the orders it holds. A store has tens of riders and
 * waiting orders at most: no paging.
 */
export async function dispatchBoard(deps: Pick<AppDeps, 'db'>, onlyStoreId?: string): Promise<DispatchBoard> {
  const storeRows = await deps.db
    .select({ _id: stores.id, name: stores.name })
    .from(stores)
    .where(onlyStoreId ? eq(stores.id, onlyStoreId) : undefined)
    .orderBy(asc(stores.name))
  const storeIds = storeRows.map((s) => s._id)
  if (storeIds.length === 0) return []
  const orderRows = await deps.db
    .select({
      _id: orders.id,
      orderId: orders.orderNumber,
      status: orders.status,
      createdAt: orders.createdAt,
      deliveryIssue: orders.deliveryIssue,
      storeId: orders.storeId,
      riderId: orders.riderId,
    })
    .from(orders)
    .where(
      and(
        inArray(orders.storeId, storeIds),
        sql`(${orders.status} = 'packed' or (${orders.status} = 'out_for_delivery' and ${orders.riderId} is not null))`,
      ),
    )
    .orderBy(asc(orders.createdAt), asc(orders.id))
  const riderRows = await deps.db
    .select({ _id: users.id, name: users.name, storeId: users.storeId, onShift: riderShifts.onShift, freeSince: riderShifts.freeSince })
    .from(users)
    .leftJoin(riderShifts, eq(riderShifts.userId, users.id))
    .where(and(eq(users.role, 'RIDER'), eq(users.status, 'Active'), inArray(users.storeId, storeIds)))
    .orderBy(sql`coalesce(${riderShifts.onShift}, false) desc`, asc(riderShifts.freeSince), asc(users.name))
  const wire = (o: (typeof orderRows)[number]) => ({
    _id: o._id,
    orderId: o.orderId,
    status: o.status,
    createdAt: o.createdAt.toISOString(),
    deliveryIssue: o.deliveryIssue,
  })
  return storeRows.map((store) => ({
    store,
    waiting: orderRows.filter((o) => o.storeId === store._id && o.status === 'packed' && o.riderId === null).map(wire),
    riders: riderRows
      .filter((r) => r.storeId === store._id)
      .map((r) => {
        const held = orderRows.filter((o) => o.riderId === r._id)
        return {
          _id: r._id,
          name: r.name,
          onShift: r.onShift ?? false,
          freeSince: r.onShift && held.length === 0 && r.freeSince ? r.freeSince.toISOString() : null,
          orders: held.map(wire),
        }
      }),
  }))
}

/**
 * An admin's reassignment (POST /api/dispatch/assign): a packed order (waiting, given to a rider, or
 * handed back by one) goes to `riderId`, a rider of the order's store who is on shift and holds fewer
 * orders than the batch size, or with `riderId` null back to the store's queue, where the rule gives
 * it out. Either way a rider's "Could not deliver" reason is cleared (the admin has seen it). The
 * order and the riders' shift rows are locked; the previous rider is free from now. One transaction
 * with its audit entry (`assign`); then the store is dispatched.
 * @throws 404 unknown order or rider (not a RIDER of the order's store, or inactive); 409 notPacked,
 *   riderOffShift or riderFull
 */
export async function assignRider(
  deps: DispatchDeps,
  actor: string,
  input: { orderId: string; riderId: string | null },
): Promise<{ orderId: string; riderId: string | null; version: number }> {
  if (!PLAUSIBLE_ID.test(input.orderId)) throw NotFound(ORDER_NOT_FOUND)
  const now = deps.clock()
  const done = await deps.db.transaction(async (tx) => {
    const [order] = await tx
      .select({ id: orders.id, status: orders.status, storeId: orders.storeId, riderId: orders.riderId, version: orders.version })
      .from(orders)
      .where(sql`${orders.id} = ${input.orderId} or ${orders.orderNumber} = ${input.orderId.toUpperCase()}`)
      .for('update')
    if (!order) throw NotFound(ORDER_NOT_FOUND)
    if (order.status !== 'packed') throw Conflict(RIDER_MESSAGES.notPacked)
    // Both riders' shift rows, in id order: two reassignments swapping riders cannot deadlock.
    const touched = [order.riderId, input.riderId].filter((id): id is string => Boolean(id))
    if (touched.length > 0)
      await tx
        .select({ id: riderShifts.userId })
        .from(riderShifts)
        .where(inArray(riderShifts.userId, touched))
        .orderBy(asc(riderShifts.userId))
        .for('update')
    if (input.riderId) {
      const [rider] = await tx
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.id, input.riderId), eq(users.role, 'RIDER'), eq(users.status, 'Active'), eq(users.storeId, order.storeId)))
      if (!rider) throw NotFound(RIDER_MESSAGES.riderUnknown)
      const [shift] = await tx.select().from(riderShifts).where(eq(riderShifts.userId, rider.id)).for('update')
      if (!shift?.onShift) throw Conflict(RIDER_MESSAGES.riderOffShift)
      if (order.riderId !== rider.id && ((await heldCounts(tx, [rider.id])).get(rider.id) ?? 0) >= batchSize(deps))
        throw Conflict(RIDER_MESSAGES.riderFull)
    }
    await tx
      .update(orders)
      .set({
        riderId: input.riderId,
        dispatchedAt: input.riderId ? now : null,
        deliveryIssue: null,
        version: sql`${orders.version} + 1`,
        updatedAt: now,
      })
      .where(eq(orders.id, order.id))
    if (order.riderId && order.riderId !== input.riderId)
      await tx.update(riderShifts).set({ freeSince: now, updatedAt: now }).where(eq(riderShifts.userId, order.riderId))
    await recordAudit(tx, {
      actor,
      action: 'assign',
      entity: 'order',
      entityId: order.id,
      before: { riderId: order.riderId },
      after: { riderId: input.riderId },
    })
    return { orderId: order.id, riderId: input.riderId, version: order.version + 1, storeId: order.storeId }
  })
  deps.orderEvents?.publish({ orderId: done.orderId, status: 'packed', version: done.version })
  // The previous rider is free, or the order is back in the queue.
  await dispatchStore(deps, done.storeId)
  const [now2] = await deps.db.select({ riderId: orders.riderId, version: orders.version }).from(orders).where(eq(orders.id, done.orderId))
  return { orderId: done.orderId, riderId: now2?.riderId ?? null, version: now2?.version ?? done.version }
}
