/**
 * Live tracking (docs/delivery.md, "Live tracking"; docs/decisions/0074-live-tracking.md):
 *
 * - `recordPosition`: the rider's page reports where it is while its order is out for delivery; at
 *   most one report per order is kept every POSITION_MIN_INTERVAL_MS (5 s), the others answered
 *   `stored: false`; each kept one is announced on the order's live stream (a `position` event through
 *   the order event hub, which PostgreSQL notifications carry to every instance).
 * - `orderTracking`: the shopper's view of its order out for delivery: the rider's first name, the
 *   store, the address point, the last position and the arrival estimate (contract/tracking.ts
 *   `etaMinutes`). Only the order's shopper or an admin; never the rider's phone or other orders.
 * - `purgePositions`: the `tracking.purge` job: positions are personal data, deleted 24 h after the
 *   order was delivered, cancelled or otherwise ended.
 */
import { and, desc, eq, sql } from 'drizzle-orm'
import type { AppDeps } from '../../deps.ts'
import type { User } from '../../db/schema.ts'
import { orders, riderPositions, stores, users } from '../../db/schema.ts'
import { DEFAULT_DELIVERY_TIME } from '../../config.ts'
import { Conflict, NotFound } from '../../lib/errors.ts'
import { lookupPincode } from '../../lib/pincodes.ts'
import { PLAUSIBLE_ID } from '../../../contract/ids.ts'
import {
  etaMinutes,
  haversineMetres,
  POSITION_MIN_INTERVAL_MS,
  POSITION_RETENTION_MS,
  type RiderPositionInput,
  type Tracking,
} from '../../../contract/tracking.ts'
import { ORDER_NOT_FOUND } from '../order/service.ts'

/** The 409 of a report for an order that is not out for delivery (contract wording for the page). */
export const NOT_OUT_FOR_DELIVERY = 'The position is shared only while the order is out for delivery'

/** Statuses in which an order is still on its way: its positions are kept (any other ends its life). */
const LIVE_STATUSES = ['payment_pending', 'placed', 'packed', 'out_for_delivery']

type TrackingDeps = Pick<AppDeps, 'db' | 'clock' | 'commerce'> & Partial<Pick<AppDeps, 'orderEvents'>>

/** The order `ref` names (its id, or its number as typed), or undefined for an implausible ref. */
function orderWhere(ref: string) {
  return sql`${orders.id} = ${ref} or ${orders.orderNumber} = ${ref.toUpperCase()}`
}

/**
 * Keeps the rider's position for its order out for delivery (POST /api/rider/position). The order
 * row is locked (FOR NO KEY UPDATE) while the newest position is read, so reports arriving together
 * keep one per window on PostgreSQL too; `recordedAt` is the server's clock.
 * @returns `stored: true` and now, or `stored: false` and the kept report's time inside the window
 * @throws 404 for an order not given to this rider; 409 NOT_OUT_FOR_DELIVERY otherwise
 */
export async function recordPosition(
  deps: TrackingDeps,
  rider: Pick<User, 'id'>,
  input: RiderPositionInput,
): Promise<{ stored: boolean; recordedAt: string }> {
  if (!PLAUSIBLE_ID.test(input.orderId)) throw NotFound(ORDER_NOT_FOUND)
  const now = deps.clock()
  const done = await deps.db.transaction(async (tx) => {
    const [order] = await tx
      .select({ id: orders.id, riderId: orders.riderId, status: orders.status, version: orders.version })
      .from(orders)
      .where(orderWhere(input.orderId))
      .for('no key update')
    if (!order || order.riderId !== rider.id) throw NotFound(ORDER_NOT_FOUND)
    if (order.status !== 'out_for_delivery') throw Conflict(NOT_OUT_FOR_DELIVERY)
    const [last] = await tx
      .select({ recordedAt: riderPositions.recordedAt })
      .from(riderPositions)
      .where(eq(riderPositions.orderId, order.id))
      .orderBy(desc(riderPositions.recordedAt))
      .limit(1)
    if (last && now.getTime() - last.recordedAt.getTime() < POSITION_MIN_INTERVAL_MS) {
      return { stored: false, recordedAt: last.recordedAt, order }
    }
    await tx.insert(riderPositions).values({
      orderId: order.id,
      riderId: rider.id,
      lat: input.lat,
      lng: input.lng,
      accuracyM: Math.round(input.accuracyM),
      recordedAt: now,
    })
    return { stored: true, recordedAt: now, order }
  })
  const recordedAt = done.recordedAt.toISOString()
  if (done.stored) {
    deps.orderEvents?.publish({
      orderId: done.order.id,
      status: 'out_for_delivery',
      version: done.order.version,
      position: { lat: input.lat, lng: input.lng, accuracyM: Math.round(input.accuracyM), recordedAt },
    })
  }
  return { stored: done.stored, recordedAt }
}

/**
 * The live view of one order (POST /api/tracking/order): `tracking` only while it is out for
 * delivery, else null. The distance is from the rider's newest position (this rider's: one handed
 * back earlier is not shown) to the address's PIN code centre, or from the store before any report.
 * @throws 404 for an order that is not the viewer's (admins read any)
 */
export async function orderTracking(deps: TrackingDeps, viewer: Pick<User, 'id' | 'role'>, ref: string): Promise<Tracking> {
  const [row] = PLAUSIBLE_ID.test(ref)
    ? await deps.db
        .select({
          id: orders.id,
          userId: orders.userId,
          status: orders.status,
          riderId: orders.riderId,
          address: orders.deliveryAddress,
          storeName: stores.name,
          storePincode: stores.pincode,
          storeLat: stores.lat,
          storeLng: stores.lng,
          storeKmph: stores.riderKmph,
          riderName: users.name,
        })
        .from(orders)
        .innerJoin(stores, eq(stores.id, orders.storeId))
        .leftJoin(users, eq(users.id, orders.riderId))
        .where(orderWhere(ref))
    : []
  if (!row || (row.userId !== viewer.id && viewer.role !== 'ADMIN')) throw NotFound(ORDER_NOT_FOUND)
  if (row.status !== 'out_for_delivery') return { orderId: row.id, status: row.status, tracking: null }
  const centre = lookupPincode(row.storePincode)
  const store = {
    name: row.storeName,
    lat: row.storeLat ?? centre?.lat ?? 0,
    lng: row.storeLng ?? centre?.lng ?? 0,
  }
  const place = lookupPincode(row.address.pincode ?? '')
  const address = place ? { lat: place.lat, lng: place.lng } : { lat: store.lat, lng: store.lng }
  const riderKmph = row.storeKmph ?? deps.commerce.deliveryTime?.riderKmph ?? DEFAULT_DELIVERY_TIME.riderKmph
  const [last] = row.riderId
    ? await deps.db
        .select()
        .from(riderPositions)
        .where(and(eq(riderPositions.orderId, row.id), eq(riderPositions.riderId, row.riderId)))
        .orderBy(desc(riderPositions.recordedAt))
        .limit(1)
    : []
  const position = last ? { lat: last.lat, lng: last.lng, accuracyM: last.accuracyM, recordedAt: last.recordedAt.toISOString() } : null
  const distanceM = Math.round(haversineMetres(position ?? store, address))
  return {
    orderId: row.id,
    status: row.status,
    tracking: {
      riderFirstName: (row.riderName ?? '').trim().split(/\s+/)[0] ?? '',
      store,
      address,
      riderKmph,
      position,
      distanceM,
      etaMinutes: etaMinutes(distanceM, riderKmph),
    },
  }
}

/**
 * Deletes the positions of every order that ended (delivered, cancelled, failed: any status past
 * "out for delivery") more than POSITION_RETENTION_MS (24 h) ago, by its delivery time or, for
 * another end, its last change (the `tracking.purge` job, hourly; docs/delivery.md, "Live tracking").
 * @returns how many positions were deleted
 */
export async function purgePositions(deps: Pick<AppDeps, 'db' | 'clock'>): Promise<number> {
  const before = new Date(deps.clock().getTime() - POSITION_RETENTION_MS)
  const live = sql.join(
    LIVE_STATUSES.map((s) => sql`${s}`),
    sql`, `,
  )
  const deleted = await deps.db
    .delete(riderPositions)
    .where(
      sql`${riderPositions.orderId} in (select o.id from ${orders} o where o.status not in (${live})
        and coalesce(o.delivered_at, o.updated_at) < ${before.toISOString()}::timestamptz)`,
    )
    .returning({ id: riderPositions.id })
  return deleted.length
}
