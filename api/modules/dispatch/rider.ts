/**
 * The rider's own actions (docs/delivery.md, "The rider's pages"): its state, on and off shift,
 * "Picked up", "Delivered" (with the cash collected) and "Could not deliver" (with a reason: the order
 * ends delivery_failed, returned to the store). A rider
 * sees and moves only the orders given to it: another's order is a 404, as if it did not exist. Every
 * change is an audit entry in its own transaction (docs/product.md, "Audit trail").
 */
import { timingSafeEqual } from 'node:crypto'
import { and, asc, eq, inArray, lt, sql } from 'drizzle-orm'
import type { AppDeps } from '../../deps.ts'
import type { User } from '../../db/schema.ts'
import { orderLines, orders, riderShifts, stores, users } from '../../db/schema.ts'
import { instructionsEmpty } from '../../../contract/tip.ts'
import { recordAudit } from '../../lib/audit.ts'
import { BadRequest, Conflict, HttpError, NotFound } from '../../lib/errors.ts'
import { PLAUSIBLE_ID } from '../../../contract/ids.ts'
import { DELIVERY_CODE_MAX_ATTEMPTS, RIDER_MESSAGES, wrongCodeMessage, type RiderOrder, type RiderState } from '../../../contract/rider.ts'
import { DELIVERY_FAILURE_MESSAGES, deliveryFailureNoteGiven, type DeliveryFailureReason } from '../../../contract/delivery-failure.ts'
import { changeStatus, ORDER_NOT_FOUND } from '../order/service.ts'
import { cannotMoveMessage } from '../order/status.ts'
import { batchSize, dispatchStore, handBackRiderOrders, HELD_STATUSES, type DispatchDeps } from './service.ts'

/** What the rider's actions need: those of an order's status change, and dispatching. */
export type RiderDeps = DispatchDeps & Parameters<typeof changeStatus>[0]

/** The rider's store. @throws 409 noStore for a rider not attached to a store */
function storeOf(rider: Pick<User, 'storeId'>): string {
  if (!rider.storeId) throw Conflict(RIDER_MESSAGES.noStore)
  return rider.storeId
}

/** The customer's first name: the first word of the account's name ('' for none). */
function firstName(name: string): string {
  return name.trim().split(/\s+/)[0] ?? ''
}

/**
 * The rider's shift, store and orders in hand (GET /api/rider/me). The address is the order's
 * snapshot: the line, floor and landmark when given, city and PIN code; the amount to collect is the
 * grand total of a cash-on-delivery order, 0 for one paid online.
 */
export async function riderState(deps: Pick<AppDeps, 'db' | 'commerce'>, rider: User): Promise<RiderState> {
  const [shift] = await deps.db.select().from(riderShifts).where(eq(riderShifts.userId, rider.id))
  const [store] = rider.storeId
    ? await deps.db.select({ _id: stores.id, name: stores.name, area: stores.area }).from(stores).where(eq(stores.id, rider.storeId))
    : []
  const rows = await deps.db
    .select({
      _id: orders.id,
      orderId: orders.orderNumber,
      status: orders.status,
      address: orders.deliveryAddress,
      customerName: users.name,
      paymentState: orders.paymentState,
      grandTotalPaise: orders.grandTotalPaise,
      needsCode: sql<boolean>`${orders.deliveryCode} is not null`,
      dispatchedAt: orders.dispatchedAt,
      version: orders.version,
      deliveryInstructions: orders.deliveryInstructions,
      storeId: stores.id,
      storeName: stores.name,
      storeArea: stores.area,
      itemCount: sql<number>`(select coalesce(sum(${orderLines.quantity}), 0)::int from ${orderLines} where ${orderLines.orderId} = ${orders.id})`,
    })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .innerJoin(stores, eq(stores.id, orders.storeId))
    .where(and(eq(orders.riderId, rider.id), inArray(orders.status, [...HELD_STATUSES])))
    .orderBy(asc(orders.dispatchedAt), asc(orders.id))
  const held = rows.map((r): RiderOrder => ({
    _id: r._id,
    orderId: r.orderId,
    status: r.status,
    store: { _id: r.storeId, name: r.storeName, area: r.storeArea },
    address: {
      line: r.address.address_line ?? '',
      floor: r.address.floor || null,
      landmark: r.address.landmark || null,
      city: r.address.city ?? '',
      pincode: r.address.pincode ?? '',
    },
    customerFirstName: firstName(r.customerName),
    collectPaise: r.paymentState === 'cod' ? r.grandTotalPaise : 0,
    itemCount: Number(r.itemCount),
    dispatchedAt: r.dispatchedAt?.toISOString() ?? null,
    version: r.version,
    needsCode: Boolean(r.needsCode),
    ...(instructionsEmpty(r.deliveryInstructions) ? {} : { deliveryInstructions: r.deliveryInstructions! }),
  }))
  const onShift = shift?.onShift ?? false
  return {
    onShift,
    freeSince: onShift && held.length === 0 ? shift!.freeSince.toISOString() : null,
    store: store ?? null,
    batchSize: batchSize(deps),
    orders: held,
  }
}

/**
 * On shift or off (POST /api/rider/shift), in one transaction with its audit entry (`shift` on the
 * user). Going on shift starts the rider's wait now (it joins the back of the queue of free riders);
 * going off shift hands the orders given but not picked up back to the store's queue. Either way the
 * store's waiting orders are then dispatched. Setting the shift it already has changes nothing.
 * @throws 409 noStore without a store; 409 inHand going off shift with an order out for delivery
 */
export async function setShift(deps: RiderDeps, rider: User, onShift: boolean): Promise<RiderState> {
  const storeId = storeOf(rider)
  const now = deps.clock()
  const released = await deps.db.transaction(async (tx) => {
    await tx.insert(riderShifts).values({ userId: rider.id, onShift: false, freeSince: now, updatedAt: now }).onConflictDoNothing()
    // Orders first, then the shift row: the order every other writer locks them in (a delivery, a
    // hand-back, a reassignment), so "Delivered" and "Go off shift" at once cannot deadlock.
    if (!onShift)
      await tx
        .select({ id: orders.id })
        .from(orders)
        .where(and(eq(orders.riderId, rider.id), inArray(orders.status, [...HELD_STATUSES])))
        .for('update')
    const [shift] = await tx.select().from(riderShifts).where(eq(riderShifts.userId, rider.id)).for('update')
    if (shift!.onShift === onShift) return []
    const releasedIds = onShift ? [] : await handBackRiderOrders(tx, rider.id, now, RIDER_MESSAGES.inHand)
    await tx.update(riderShifts).set({ onShift, freeSince: now, updatedAt: now }).where(eq(riderShifts.userId, rider.id))
    await recordAudit(tx, {
      actor: rider.id,
      action: 'shift',
      entity: 'user',
      entityId: rider.id,
      before: { onShift: shift!.onShift },
      after: releasedIds.length > 0 ? { onShift, released: releasedIds.map((o) => o.id) } : { onShift },
    })
    return releasedIds
  })
  for (const o of released) deps.orderEvents?.publish({ orderId: o.id, status: 'packed', version: o.version })
  await dispatchStore(deps, storeId)
  return riderState(deps, rider)
}

/**
 * "Picked up" (POST /api/rider/picked-up): the rider's packed order goes out for delivery, through
 * the order desk's own move (history, mail, audit, live status).
 * @throws 404 for an order not given to this rider; 409 for one that is not packed
 */
export async function pickedUp(deps: RiderDeps, rider: User, orderId: string): Promise<RiderState> {
  storeOf(rider)
  await changeStatus(deps, { ref: orderId, to: 'out_for_delivery', byUserId: rider.id, mayRefund: false, onlyRiderId: rider.id })
  return riderState(deps, rider)
}

/**
 * "Delivered" (POST /api/rider/delivered): the order out for delivery is delivered, with the cash the
 * rider collected for a cash-on-delivery order (required; any amount is kept as said, the page offers
 * the amount to collect) and none for one paid online, and the customer's delivery code for an order
 * that has one (docs/delivery.md, "Delivery code"). A wrong code counts one try, in one statement
 * that cannot pass DELIVERY_CODE_MAX_ATTEMPTS however many arrive at once; at the limit the order is
 * handed over only through the store (the order desk).
 * @throws 400 cashRequired / nothingToCollect / codeRequired / a wrong code with the tries left;
 *   404 for an order not given to this rider; 409 codeLocked, or an order not out for delivery
 */
export async function delivered(
  deps: RiderDeps,
  rider: User,
  orderId: string,
  cashCollectedPaise: number | undefined,
  deliveryCode?: string,
): Promise<RiderState> {
  storeOf(rider)
  const [order] = PLAUSIBLE_ID.test(orderId)
    ? await deps.db
        .select({
          id: orders.id,
          riderId: orders.riderId,
          paymentState: orders.paymentState,
          code: orders.deliveryCode,
          attempts: orders.deliveryCodeAttempts,
        })
        .from(orders)
        .where(sql`${orders.id} = ${orderId} or ${orders.orderNumber} = ${orderId.toUpperCase()}`)
    : []
  if (!order || order.riderId !== rider.id) throw NotFound(ORDER_NOT_FOUND)
  if (order.code !== null) await checkDeliveryCode(deps, { id: order.id, code: order.code, attempts: order.attempts }, deliveryCode)
  if (order.paymentState === 'cod' && cashCollectedPaise === undefined)
    throw BadRequest(RIDER_MESSAGES.cashRequired, [{ path: 'cashCollectedPaise', message: RIDER_MESSAGES.cashRequired }])
  if (order.paymentState !== 'cod' && cashCollectedPaise)
    throw BadRequest(RIDER_MESSAGES.nothingToCollect, [{ path: 'cashCollectedPaise', message: RIDER_MESSAGES.nothingToCollect }])
  await changeStatus(deps, {
    ref: orderId,
    to: 'delivered',
    byUserId: rider.id,
    mayRefund: false,
    onlyRiderId: rider.id,
    cashCollectedPaise: order.paymentState === 'cod' ? cashCollectedPaise : undefined,
  })
  return riderState(deps, rider)
}

/**
 * Checks the code a rider typed against the order's (docs/delivery.md, "Delivery code"). A wrong one
 * adds a try with the guard `delivery_code_attempts < DELIVERY_CODE_MAX_ATTEMPTS` in the same
 * statement, so concurrent tries are counted exactly and never pass the limit.
 * @throws 409 codeLocked at the limit; 400 codeRequired without a code; 400 with the tries left for a wrong one
 */
async function checkDeliveryCode(
  deps: RiderDeps,
  order: { id: string; code: string; attempts: number },
  typed: string | undefined,
): Promise<void> {
  if (order.attempts >= DELIVERY_CODE_MAX_ATTEMPTS) throw Conflict(RIDER_MESSAGES.codeLocked)
  if (typed === undefined) throw BadRequest(RIDER_MESSAGES.codeRequired, [{ path: 'deliveryCode', message: RIDER_MESSAGES.codeRequired }])
  const given = Buffer.from(typed)
  const expected = Buffer.from(order.code)
  if (given.length === expected.length && timingSafeEqual(given, expected)) return
  const [counted] = await deps.db
    .update(orders)
    .set({ deliveryCodeAttempts: sql`${orders.deliveryCodeAttempts} + 1` })
    .where(and(eq(orders.id, order.id), lt(orders.deliveryCodeAttempts, DELIVERY_CODE_MAX_ATTEMPTS)))
    .returning({ attempts: orders.deliveryCodeAttempts })
  const left = counted ? DELIVERY_CODE_MAX_ATTEMPTS - counted.attempts : 0
  if (left <= 0) throw Conflict(RIDER_MESSAGES.codeLocked)
  const message = wrongCodeMessage(left)
  throw BadRequest(message, [{ path: 'deliveryCode', message }])
}

/**
 * "Could not deliver" (POST /api/rider/could-not-deliver): the order out for delivery ends
 * `delivery_failed`, returned to the store, with the reason the rider chose (and its note), through
 * the order desk's own move (docs/delivery.md, "Could not deliver"; docs/decisions/0072-delivery-failed.md):
 * in one transaction the stock goes back to the order's store, a paid order is refunded in full, a
 * cash-on-delivery order is closed without charge, the rider is free; then the mail (and SMS), the
 * live status and the store's dispatch.
 * @throws 400 `other` without a note; 404 for an order not given to this rider; 409
 *   notOutForDelivery for an order not picked up yet, or the order desk's 409 for one already ended
 */
export async function couldNotDeliver(
  deps: RiderDeps,
  rider: User,
  orderId: string,
  failure: { reason: DeliveryFailureReason; note?: string },
): Promise<RiderState> {
  storeOf(rider)
  if (!deliveryFailureNoteGiven(failure))
    throw BadRequest(DELIVERY_FAILURE_MESSAGES.noteRequired, [{ path: 'note', message: DELIVERY_FAILURE_MESSAGES.noteRequired }])
  try {
    await changeStatus(deps, { ref: orderId, to: 'delivery_failed', byUserId: rider.id, mayRefund: false, onlyRiderId: rider.id, failure })
  } catch (err) {
    // The rider's words for an order not picked up yet; one already ended keeps the order desk's.
    if (err instanceof HttpError && err.message === cannotMoveMessage('packed', 'delivery_failed'))
      throw Conflict(RIDER_MESSAGES.notOutForDelivery)
    throw err
  }
  return riderState(deps, rider)
}
