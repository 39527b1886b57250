/**
 * Orders (docs/commerce-api.md, "Orders"; docs/decisions/0011-commerce-orders-and-money.md): placing
 * one from the cart (the steps, locks and stock guard are ./placement.ts's), reading, cancelling and
 * moving statuses. Integer paise inside, rupees on the wire; the grand total is rounded to the rupee
 * (api/modules/cart/bill.ts) and stored with its rounding, so an order never changes. After a commit
 * the caches are told exactly the products whose stock moved, never cleared whole
 * (docs/decisions/0019-stock-changes-and-the-caches.md). An order's store and promised delivery
 * time: docs/stores.md, "Orders". Plain reads and writes use Drizzle's query builder; the order's
 * answer (`orderSelect`, correlated `json_agg`s) and the admin's filtered list stay raw SQL.
 */
import { createHash, randomInt } from 'node:crypto'
import { and, asc, count, desc, eq, inArray, or, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { AppDeps } from '../../deps.ts'
import { DEFAULT_DELIVERY_CODE_ABOVE_PAISE, type CommerceSettings } from '../../config.ts'
import type { Db, Tx } from '../../db/db.ts'
import { lockUserRow } from '../../db/locks.ts'
import { queryRows } from '../../db/query.ts'
import { cartLines, carts, orderLines, orders, riderShifts, users } from '../../db/schema.ts'
import { canMove, type OrderStatus } from '../../../contract/order-status.ts'
import {
  DELIVERY_FAILURE_MESSAGES,
  deliveryFailureNoteGiven,
  deliveryFailureText,
  type DeliveryFailureReason,
} from '../../../contract/delivery-failure.ts'
import type { StockChange } from '../../lib/cache.ts'
import { isoTimestamp } from '../../lib/catalog-sql.ts'
import { BadRequest, Conflict, Forbidden, HttpError, NotFound } from '../../lib/errors.ts'
import { hasSqlState } from '../../lib/faults.ts'
import { lookupPincode } from '../../lib/pincodes.ts'
import { activeStores, deliveryRefusal, nearestServing, type StoreInfo } from '../store/service.ts'
import { fromPaise, toPaise } from '../../lib/money.ts'
import { billToWire, computeBill, feesTotalPaise, type BillPaise } from '../cart/bill.ts'
import type { Bill } from '../../../contract/cart.ts'
import { COUPON_REASONS, type CartCoupon } from '../../../contract/coupon.ts'
import { addLinesToCart, getCart, type CartAnswer, type LimitReason } from '../cart/service.ts'
import type { AdminOrderFilter, BulkStatusOutcome, CartChange, Order, ReorderLeftOut, ReorderReason } from '../../../contract/order.ts'
import type { PaymentState } from '../../../contract/payment.ts'
import { instructionsEmpty, type CheckoutPreferences, type DeliveryInstructions } from '../../../contract/tip.ts'
import { adminOrderBy, adminOrderCondition, adminOrderWhere } from './admin-filter.ts'
import {
  boundLockWaits,
  checkPricesAndStock,
  confirmOrder,
  couponAtPlacement,
  deliveryAddress,
  type CouponAtPlacement,
  earlierOrderOfKey,
  lockCartLines,
  LOCK_NOT_AVAILABLE,
  noStockChange,
  readCartLines,
  releaseStock,
  recordStatus,
  reserveStock,
  writeOrder,
  type OrderPaymentColumns,
} from './placement.ts'
import { cannotMoveMessage, statusWords } from './status.ts'
import { recordAudit } from '../../lib/audit.ts'
import { isStaffRole } from '../../lib/auth.ts'
import { PLAUSIBLE_ID } from '../../../contract/ids.ts'
import type { PagingExtra } from '../../../contract/paging.ts'

type OrderDeps = Pick<AppDeps, 'db' | 'commerce' | 'clock' | 'cache' | 'jobs' | 'logger' | 'payments'> &
  Partial<Pick<AppDeps, 'orderEvents' | 'publicUrl' | 'dispatch'>>
type Executor = Pick<AppDeps['db'], 'execute'>

export const ORDER_NOT_FOUND = 'Order not found'
export const CART_EMPTY = 'Your cart is empty'
export const ORDER_PLACED = 'Order placed successfully'
export const STALE_ORDER = 'This order was changed by someone else: reload'
/** `payment_method` of a cash-on-delivery order (the original client reads it as `payment_status`). */
export const COD_METHOD = 'CASH ON DELIVERY'

/** 422 message: no store delivers to the address's PIN code. */
export const notDelivered = (area: string) => `We don't deliver to ${area} yet`

/**
 * The store an order to an address at `pincode` comes from, or the 422 that refuses it: the store
 * the request named (its radius must hold the address), else the nearest store serving the address;
 * either must be open at `now`.
 */
export function orderStore(stores: StoreInfo[], named: StoreInfo | undefined, pincode: string, now: Date): StoreInfo {
  const place = lookupPincode(pincode)
  const store = named ?? (place ? nearestServing(stores, place)?.store : undefined)
  if (!store) throw new HttpError(422, notDelivered(place ? `${place.area}, ${pincode}` : `pincode ${pincode}`))
  const refusal = deliveryRefusal(store, place, now)
  if (refusal) throw new HttpError(422, refusal)
  return store
}

/**
 * A bill that is not what the checkout showed: the coupon no longer gives what it showed
 * (docs/offers.md, "At placement"), or the tip chosen is not the tip the bill showed
 * (docs/commerce-api.md, "Tip and delivery instructions"). The cart's coupon now (applied with its
 * discount, or the reason; absent for a tip change without a coupon), the bill as it now is, and the
 * message. Answered as a 409 with `coupon` and `bill` beside it.
 */
export interface CouponChange {
  kind: 'coupon'
  message: string
  coupon?: CartCoupon
  bill: Bill
}

export type PlaceOrderOutcome =
  { kind: 'placed'; order: Order; created: boolean } | { kind: 'changed'; changes: CartChange[] } | CouponChange

export interface OrderRow {
  _id: string
  orderId: string
  userId: string
  status: OrderStatus
  payment_status: string
  /** The address as it was at placement (contract/order.ts `OrderAddressSchema`). */
  delivery_address: Order['delivery_address']
  items_total_mrp_paise: number
  items_total_paise: number
  delivery_charge_paise: number
  rounding_paise: number
  grand_total_paise: number
  /** The coupon used (null: none) and its discount, paise (migration 0039). */
  coupon_code: string | null
  coupon_discount_paise: number
  /** The 4-digit delivery code of an order out for delivery that needs one (migration 0042), else null. */
  delivery_code: string | null
  /** The tip, paise (0: none), and the delivery instructions (null: none); migration 0041. */
  tip_paise: number
  /** The named fees as charged at placement, paise (0: none); migration 0043. */
  handling_charge_paise: number
  small_cart_fee_paise: number
  late_night_fee_paise: number
  delivery_instructions: DeliveryInstructions | null
  cancel_reason: string | null
  /** A failed delivery's reason, note and moment (migration 0044), else null. */
  delivery_failure_reason: DeliveryFailureReason | null
  delivery_failure_note: string | null
  delivery_failed_at: string | null
  version: number
  createdAt: string
  updatedAt: string
  items: {
    productId: string | null
    name: string
    image: string
    unit: string
    brand: string
    quantity: number
    /** The selling price paid per unit, and the MRP, in paise (the wire's `price` and `mrp`). */
    sellingPaise: number
    mrpPaise: number
    discount: string | number
    lineTotalPaise: number
    couponSharePaise: number
  }[]
  statusHistory: { status: string; at: string }[]
  customer_name: string
  customer_email: string
  store_id: string
  store_name: string
  store_area: string
  promised_minutes: number | null
  promised_at: string | null
  delivered_at: string | null
  payment_state: PaymentState
  reservation_expires_at: string | null
  paid_at: string | null
  refunds: { amountPaise: number; status: 'pending' | 'processed' | 'failed'; reason: string; at: string }[]
}

const orderSelect = sql`select o.id as "_id", o.order_number as "orderId", o.user_id as "userId", o.status,
    o.payment_method as payment_status, o.delivery_address, o.items_total_mrp_paise, o.items_total_paise,
    o.delivery_charge_paise, o.rounding_paise, o.grand_total_paise, o.coupon_code, o.coupon_discount_paise, o.delivery_code,
    o.tip_paise, o.delivery_instructions, o.handling_charge_paise, o.small_cart_fee_paise, o.late_night_fee_paise, o.cancel_reason, o.version,
    o.delivery_failure_reason, o.delivery_failure_note, ${isoTimestamp(sql`o.delivery_failed_at`)} as delivery_failed_at,
    ${isoTimestamp(sql`o.created_at`)} as "createdAt", ${isoTimestamp(sql`o.updated_at`)} as "updatedAt",
    (select coalesce(json_agg(json_build_object('productId', l.product_id, 'name', l.name, 'image', l.image, 'unit', l.unit,
        'brand', l.brand, 'quantity', l.quantity, 'sellingPaise', l.unit_price_paise, 'mrpPaise', l.mrp_paise,
        'discount', l.discount, 'lineTotalPaise', l.line_total_paise, 'couponSharePaise', l.coupon_share_paise) order by l.position), '[]'::json)
      from order_lines l where l.order_id = o.id) as items,
    (select coalesce(json_agg(json_build_object('status', h.status, 'at', ${isoTimestamp(sql`h.at`)}) order by h.at, h.id), '[]'::json)
      from order_status_history h where h.order_id = o.id) as "statusHistory",
    u.name as customer_name, coalesce(u.email, '') as customer_email,
    o.store_id, s.name as store_name, s.area as store_area, o.promised_minutes,
    ${isoTimestamp(sql`o.promised_at`)} as promised_at, ${isoTimestamp(sql`o.delivered_at`)} as delivered_at,
    o.payment_state, ${isoTimestamp(sql`o.reservation_expires_at`)} as reservation_expires_at, ${isoTimestamp(sql`o.paid_at`)} as paid_at,
    (select coalesce(json_agg(json_build_object('amountPaise', r.amount_paise, 'status', r.status, 'reason', r.reason,
        'at', ${isoTimestamp(sql`r.created_at`)}) order by r.created_at, r.id), '[]'::json)
      from refunds r where r.order_id = o.id) as refunds
  from orders o join users u on u.id = o.user_id join stores s on s.id = o.store_id`

export function toOrderAnswer(deps: Pick<AppDeps, 'commerce'>, row: OrderRow, withCustomer: boolean): Order {
  const bill = billToWire(
    {
      itemCount: row.items.reduce((n, l) => n + l.quantity, 0),
      itemsTotalMrpPaise: row.items_total_mrp_paise,
      itemsTotalPaise: row.items_total_paise,
      deliveryChargePaise: row.delivery_charge_paise,
      roundingPaise: row.rounding_paise,
      grandTotalPaise: row.grand_total_paise,
      ...(row.coupon_code && row.coupon_discount_paise > 0
        ? { coupon: { code: row.coupon_code, discountPaise: row.coupon_discount_paise } }
        : {}),
      tipPaise: row.tip_paise,
      handlingChargePaise: row.handling_charge_paise,
      smallCartFeePaise: row.small_cart_fee_paise,
      lateNightFeePaise: row.late_night_fee_paise,
    },
    deps.commerce,
    // The fees as stored: the rules of today are not this order's.
    false,
  )
  const [first, ...others] = row.items
  return {
    _id: row._id,
    orderId: row.orderId,
    userId: row.userId,
    status: row.status,
    payment_status: row.payment_status,
    delivery_address: row.delivery_address,
    items: row.items.map((l) => ({
      productId: l.productId,
      name: l.name,
      image: l.image,
      unit: l.unit,
      brand: l.brand,
      quantity: l.quantity,
      price: fromPaise(l.sellingPaise),
      mrp: fromPaise(l.mrpPaise),
      discount: Number(l.discount),
      lineTotal: fromPaise(l.lineTotalPaise),
      ...(row.coupon_code ? { couponShare: fromPaise(l.couponSharePaise) } : {}),
    })),
    product_details: {
      name: `${first?.name ?? ''}${others.length > 0 ? ` + ${others.length} more` : ''}`,
      image: row.items.map((l) => l.image).filter(Boolean),
    },
    subTotalAmt: bill.itemsTotal,
    totalAmt: bill.grandTotal,
    bill,
    cancelReason: row.status === 'cancelled' ? row.cancel_reason : null,
    statusHistory: row.statusHistory,
    version: row.version,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    ...(withCustomer ? { customer: { name: row.customer_name, email: row.customer_email } } : {}),
    store: { _id: row.store_id, name: row.store_name, area: row.store_area },
    promisedMinutes: row.promised_minutes,
    promisedAt: row.promised_at,
    deliveredAt: row.delivered_at,
    late: row.promised_at !== null && row.delivered_at !== null && row.delivered_at > row.promised_at,
    payment: {
      state: row.payment_state,
      method: row.payment_state === 'cod' ? 'cod' : row.payment_status,
      paidAt: row.paid_at,
      reservationExpiresAt: row.payment_state === 'pending' ? row.reservation_expires_at : null,
      refunded: fromPaise(row.refunds.filter((r) => r.status !== 'failed').reduce((n, r) => n + r.amountPaise, 0)),
      refunds: row.refunds.map((r) => ({ amount: fromPaise(r.amountPaise), status: r.status, reason: r.reason, at: r.at })),
    },
    // The shopper's own answer only (an admin's or the order desk's never: docs/delivery.md, "Delivery code").
    ...(!withCustomer && row.status === 'out_for_delivery' && row.delivery_code ? { deliveryCode: row.delivery_code } : {}),
    ...(instructionsEmpty(row.delivery_instructions) ? {} : { deliveryInstructions: row.delivery_instructions! }),
    ...(row.status === 'delivery_failed' && row.delivery_failure_reason && row.delivery_failed_at
      ? {
          deliveryFailure: {
            reason: row.delivery_failure_reason,
            text: deliveryFailureText(row.delivery_failure_reason, row.delivery_failure_note),
            note: row.delivery_failure_note,
            at: row.delivery_failed_at,
          },
        }
      : {}),
  }
}

export async function findOrder(db: Executor, ref: string): Promise<OrderRow | undefined> {
  if (!PLAUSIBLE_ID.test(ref)) return undefined
  // raw SQL: the order's answer (`orderSelect`) gathers its lines, history and refunds with correlated `json_agg`s.
  const [row] = await queryRows<OrderRow>(db, sql`${orderSelect} where o.id = ${ref} or o.order_number = ${ref.toUpperCase()}`)
  return row
}

/**
 * One order with its customer's name and email, as the order emails read it when they are sent
 * (api/modules/order/mail.ts), or undefined when there is no such order.
 */
export async function orderWithCustomer(deps: Pick<AppDeps, 'db' | 'commerce'>, orderId: string): Promise<Order | undefined> {
  const row = await findOrder(deps.db, orderId)
  return row ? toOrderAnswer(deps, row, true) : undefined
}

/**
 * One order by `_id` or order number: the user's own, or any for an admin or staff (with the customer's name
 * and email). @throws 404 ORDER_NOT_FOUND (also for another user's order)
 */
export async function orderDetails(deps: OrderDeps, viewer: { id: string; role: string }, ref: string): Promise<Order> {
  const row = await findOrder(deps.db, ref)
  const isAdmin = isStaffRole(viewer.role)
  if (!row || (row.userId !== viewer.id && !isAdmin)) throw NotFound(ORDER_NOT_FOUND)
  return toOrderAnswer(deps, row, isAdmin)
}

/** Most orders the shopper's list answers (newest first). */
export const ORDER_LIST_MAX = 200

/** A user's orders, newest first (at most ORDER_LIST_MAX). */
export async function listOrders(deps: OrderDeps, userId: string): Promise<Order[]> {
  // raw SQL: `orderSelect` (see findOrder).
  const rows = await queryRows<OrderRow>(
    deps.db,
    sql`${orderSelect} where o.user_id = ${userId} order by o.created_at desc, o.id desc limit ${ORDER_LIST_MAX}`,
  )
  return rows.map((row) => toOrderAnswer(deps, row, false))
}

/**
 * One page of the admin's order list (docs/commerce-api.md, "Admin orders at volume"): the orders
 * `filter` selects (api/modules/order/admin-filter.ts), in its sort, with the counts.
 */
export async function adminListOrders(
  deps: OrderDeps,
  query: Partial<AdminOrderFilter> & { page: number; limit: number },
): Promise<{ data: Order[] } & PagingExtra> {
  // raw SQL: `orderSelect` (see findOrder) under the admin filter's own SQL (./admin-filter.ts), which the count shares.
  const rows = await queryRows<OrderRow>(
    deps.db,
    sql`${orderSelect} ${adminOrderWhere(query)} ${adminOrderBy(query.sort)} limit ${query.limit} offset ${(query.page - 1) * query.limit}`,
  )
  // The count: the same filter (on alias o) in a builder query.
  const [counted] = await deps.db.select({ n: count() }).from(alias(orders, 'o')).where(adminOrderCondition(query))
  const totalCount = counted?.n ?? 0
  return { data: rows.map((row) => toOrderAnswer(deps, row, true)), totalCount, totalNoPage: Math.ceil(totalCount / query.limit) }
}

/** The ids of a user's orders, newest first (GET /api/user/user-details `orderHistory`). */
export async function orderIds(db: Pick<Db, 'select'>, userId: string): Promise<string[]> {
  const rows = await db
    .select({ id: orders.id })
    .from(orders)
    .where(eq(orders.userId, userId))
    .orderBy(desc(orders.createdAt), desc(orders.id))
  return rows.map((r) => r.id)
}

/** The order whose id or order number (any case) is `ref`. */
const byIdOrNumber = (ref: string) => or(eq(orders.id, ref), eq(orders.orderNumber, ref.toUpperCase()))

/**
 * The idempotency key of a placement that came without one (the original client sends none): a
 * digest of the user, the address and the cart's lines as they are now (line ids, quantities, prices
 * seen, last change). A double submit of one cart gives one key, so the second finds the first's
 * order; the next order's cart has new lines (a placed cart is emptied), so it gets a new key.
 * @returns "cart-" + 43 base64url characters (SHA-256), within the key rule of contract/idempotency.ts
 */
export async function cartIdempotencyKey(db: Pick<AppDeps['db'], 'select'>, userId: string, addressId: string): Promise<string> {
  // The last change as the database's text, to the microsecond (a JS Date keeps milliseconds), and
  // these exact keys in this order, so a retry derives the key its first try did.
  const lines = await db
    .select({
      id: cartLines.id,
      product_id: cartLines.productId,
      quantity: cartLines.quantity,
      unit_price_paise: cartLines.unitPricePaise,
      updated: sql<string>`${cartLines.updatedAt}::text`,
    })
    .from(cartLines)
    .innerJoin(carts, eq(carts.id, cartLines.cartId))
    .where(eq(carts.userId, userId))
    .orderBy(asc(cartLines.id))
  const digest = createHash('sha256')
    .update(JSON.stringify([userId, addressId, lines]))
    .digest('base64url')
  return `cart-${digest}`
}

/**
 * Places a cash-on-delivery order for the user's whole cart to one of the user's live addresses
 * (`placeFromCart` with the payment `CASH_ON_DELIVERY`): the order is `placed`, the cart emptied and
 * the confirmation sent. Totals sent by a client are never read: every amount comes from the
 * catalogue now.
 * @param input.spendBudget called under the user's lock once `idempotencyKey` is known to be new
 *   (the order budget: a retry of a placed key never spends it); throwing stops the placement
 * @returns `placed` (with `created` false when `idempotencyKey` named an earlier order) or `changed`
 *   (prices or stock moved since the shopper saw them: the cart was corrected, nothing was ordered)
 * @throws 404 ADDRESS_NOT_FOUND (unknown, removed or another user's); 400 CART_EMPTY; 409 a line
 *   short of stock after all; 409 ORDER_BUSY (`Retry-After: 1`) when its products stayed locked by
 *   other placements for PLACEMENT_LOCK_TIMEOUT_MS and the cart is still orderable as it is; 422 no
 *   open store delivers to the address; whatever `spendBudget` throws (429)
 */
export async function placeCashOnDelivery(
  deps: OrderDeps,
  user: { id: string; email: string | null; name: string },
  input: PlacementInput,
): Promise<PlaceOrderOutcome> {
  return placeFromCart(deps, user, input, CASH_ON_DELIVERY)
}

/**
 * What a placement is asked for: the address, the idempotency key, the store named if any, the
 * order budget, and the coupon discount the checkout showed (paise; undefined: the client shows no
 * coupon, as the original client, and the cart's code is used if it applies, dropped otherwise).
 * `tipPaise` (whole rupees 1..₹200 in paise, contract/tip.ts `TipSchema`; undefined: none),
 * `shownTipPaise` (the tip the checkout's bill showed; undefined: the client shows no tip) and
 * `instructions` (docs/commerce-api.md, "Tip and delivery instructions").
 */
export interface PlacementInput {
  addressId: string
  idempotencyKey: string
  storeId?: string
  spendBudget?: () => Promise<void>
  shownCouponDiscountPaise?: number
  tipPaise?: number
  shownTipPaise?: number
  instructions?: DeliveryInstructions
  /**
   * The sum of the named fees the checkout's bill showed, paise (docs/commerce-api.md, "Fees"):
   * different from the fees now is a 409 with the bill; absent (the original client): not checked.
   */
  shownFeesPaise?: number
}

/**
 * The shopper's remembered checkout choices: the tip of their last order placed with a tip shown,
 * rupees (0: none, or never chosen), preselected by the next checkout.
 */
export async function checkoutPreferences(deps: Pick<OrderDeps, 'db'>, userId: string): Promise<CheckoutPreferences> {
  const [row] = await deps.db.select({ lastTipPaise: users.lastTipPaise }).from(users).where(eq(users.id, userId))
  return { tip: fromPaise(row?.lastTipPaise ?? 0) }
}

/**
 * The 409 message of fees that are not the ones the bill showed: the fees charged now, by name, and
 * the new total (docs/commerce-api.md, "Fees").
 */
export function feesChangedMessage(bill: BillPaise): string {
  const named = [
    bill.handlingChargePaise ? `handling charge ₹${fromPaise(bill.handlingChargePaise)}` : '',
    bill.smallCartFeePaise ? `small cart fee ₹${fromPaise(bill.smallCartFeePaise)}` : '',
    bill.lateNightFeePaise ? `late night fee ₹${fromPaise(bill.lateNightFeePaise)}` : '',
  ].filter(Boolean)
  return `The fees have changed (${named.length > 0 ? named.join(', ') : 'none now'}): the total is ₹${fromPaise(bill.grandTotalPaise)}. Check the bill and place the order again.`
}

/** The 409 message of a tip that is not the tip the bill showed. */
export function tipChangedMessage(tipPaise: number, grandTotalPaise: number): string {
  return `${tipPaise > 0 ? `With your tip of ₹${fromPaise(tipPaise)}` : 'Without a tip'} the total is ₹${fromPaise(grandTotalPaise)}. Check the bill and place the order again.`
}

/**
 * The coupon's outcome at placement against what the checkout showed (docs/offers.md, "At
 * placement"): the coupon to write, or the change to answer (409). Shown nothing (undefined): the
 * coupon applies if it does, else the order goes without. Shown an amount: the recomputed discount
 * must be exactly it (0 shown: the order goes without a coupon that no longer applies).
 */
export function couponOutcome(
  found: CouponAtPlacement | null,
  shownPaise: number | undefined,
): { write?: { id: string; code: string; discountPaise: number; shares: number[] }; change?: { message: string } } {
  const nowPaise = found?.verdict.applies ? found.verdict.discountPaise : 0
  if (shownPaise !== undefined && shownPaise !== nowPaise) {
    const code = found?.code ?? ''
    const message =
      found && !found.verdict.applies
        ? `Coupon ${code} no longer applies: ${found.verdict.reason}. Check the bill and place the order again.`
        : found
          ? `Coupon ${code} now takes off ₹${fromPaise(nowPaise)}, not ₹${fromPaise(shownPaise)}. Check the bill and place the order again.`
          : 'Your cart has no coupon now. Check the bill and place the order again.'
    return { change: { message } }
  }
  if (found?.verdict.applies && found.couponId && found.verdict.discountPaise > 0)
    return { write: { id: found.couponId, code: found.code, discountPaise: found.verdict.discountPaise, shares: found.verdict.shares } }
  return {}
}

/** How a placed order is paid: the columns it is written with, and its last step in the placement's transaction. */
export interface PlacementPayment extends OrderPaymentColumns {
  /** Runs once the order is written (`now`: the placement's clock), before the commit. */
  finish(tx: Tx, deps: Pick<OrderDeps, 'jobs'>, order: { orderId: string; userId: string; now: Date }): Promise<void>
}

/** Cash on delivery: placed at once, then `confirmOrder` (the cart emptied, the confirmation sent). */
export const CASH_ON_DELIVERY: PlacementPayment = {
  status: 'placed',
  method: COD_METHOD,
  state: 'cod',
  reservationExpiresAt: null,
  finish: (tx, deps, order) => confirmOrder(tx, deps.jobs, order),
}

/** 409 message of a placement that waited too long for a product other shoppers were ordering (`Retry-After: 1`). */
export const ORDER_BUSY = 'Many shoppers are ordering the same items right now: try again in a moment'

/**
 * Places an order for the user's whole cart: the steps of ./placement.ts in one transaction, shared
 * by cash on delivery (`placeCashOnDelivery`) and online payment (api/modules/payment/service.ts
 * `startOnlinePayment`, docs/payments.md, "Reservation"), which differ only in `payment`. After the
 * commit the caches are told the products whose stock moved (`cache.stockChanged`), never cleared
 * whole (docs/decisions/0019-stock-changes-and-the-caches.md).
 *
 * A flash sale (docs/decisions/0043-flash-sale-and-busy-pool.md): a placement waits at most
 * PLACEMENT_LOCK_TIMEOUT_MS for its products' locks. Past that its transaction is rolled back and a
 * second one checks the cart against the stock as it stands, without the product locks: a line
 * that ran out (or moved) is corrected and answered as `changed`, exactly as when the locks were
 * had; a cart still orderable as it is answers 409 ORDER_BUSY with `Retry-After: 1`. The order's
 * answer is read inside the placement's transaction: nothing after the COMMIT needs a connection,
 * so an order that committed is never answered with an error (a busy pool used to time out the
 * read after it: a 503 for a placed order).
 * Answers and errors as placeCashOnDelivery, and 409 ORDER_BUSY.
 */
export async function placeFromCart(
  deps: OrderDeps,
  user: { id: string; email: string | null; name: string },
  input: PlacementInput,
  payment: PlacementPayment,
): Promise<PlaceOrderOutcome> {
  // Read before the transaction (PGlite runs one statement at a time; the list is usually cached).
  const stores = await activeStores(deps)
  const named = input.storeId ? stores.find((s) => s.id === input.storeId) : undefined
  type Attempt =
    { kind: 'placed'; row: OrderRow; created: boolean; stock?: StockChange } | { kind: 'changed'; changes: CartChange[] } | CouponChange
  /** One try in one transaction; `contended`: the first one's lock wait ran out, check the cart without locks. */
  const attempt = (contended: boolean) =>
    deps.db.transaction(async (tx): Promise<Attempt> => {
      await lockUserRow(tx, user.id)
      const earlier = await earlierOrderOfKey(tx, user.id, input.idempotencyKey)
      if (earlier) return { kind: 'placed', row: (await findOrder(tx, earlier))!, created: false }
      // The first try spent it already (its rollback does not give back the limiter's point).
      if (!contended) await input.spendBudget?.()

      const address = await deliveryAddress(tx, user.id, input.addressId)
      const now = deps.clock()
      const store = orderStore(stores, named, address.snapshot.pincode, now)
      if (contended) {
        const lines = await readCartLines(tx, user.id, store.id)
        if (lines.length === 0) throw BadRequest(CART_EMPTY)
        const changes = await checkPricesAndStock(tx, lines)
        if (changes.length > 0) return { kind: 'changed', changes }
        throw new HttpError(409, ORDER_BUSY, { retryAfterSeconds: 1 })
      }
      await boundLockWaits(tx)
      const lines = await lockCartLines(tx, user.id, store.id)
      if (lines.length === 0) throw BadRequest(CART_EMPTY)
      const changes = await checkPricesAndStock(tx, lines)
      if (changes.length > 0) return { kind: 'changed', changes }

      const found = await couponAtPlacement(tx, { userId: user.id, storeId: store.id, now }, lines)
      const coupon = couponOutcome(found, input.shownCouponDiscountPaise)
      /** The bill of the locked lines now (nothing written): what a 409 answers, for the checkout to show. */
      const billNow = (off: { code: string; discountPaise: number } | undefined, tip: number) =>
        computeBill(
          lines.map((l) => {
            const sellingPaise = toPaise(l.sellingPrice)
            return { quantity: l.quantity, sellingPaise, mrpPaise: Math.max(toPaise(l.mrp), sellingPaise) }
          }),
          deps.commerce,
          off,
          tip,
          now,
        )
      /** The coupon of the cart as a 409 answers it beside the bill (none: no key). */
      const couponAnswer = (): { coupon?: CartCoupon } =>
        found
          ? {
              coupon: {
                code: found.code,
                description: found.description,
                applied: found.verdict.applies,
                discount: found.verdict.applies ? fromPaise(found.verdict.discountPaise) : 0,
                reason: found.verdict.applies ? null : found.verdict.reason,
              },
            }
          : {}
      if (coupon.change) {
        // Nothing written: the bill as it is now, with the coupon if it still applies (the checkout shows it).
        const off = found?.verdict.applies ? { code: found.code, discountPaise: found.verdict.discountPaise } : undefined
        const bill = billNow(off, 0)
        const answer: CartCoupon = found
          ? {
              code: found.code,
              description: found.description,
              applied: found.verdict.applies,
              discount: found.verdict.applies ? fromPaise(found.verdict.discountPaise) : 0,
              reason: found.verdict.applies ? null : found.verdict.reason,
            }
          : { code: '', description: '', applied: false, discount: 0, reason: COUPON_REASONS.unknown }
        return { kind: 'coupon', message: coupon.change.message, coupon: answer, bill: billToWire(bill, deps.commerce) }
      }
      const tipPaise = input.tipPaise ?? 0
      if (input.shownTipPaise !== undefined && input.shownTipPaise !== tipPaise) {
        // The tip chosen is not the one the bill showed (a page without JavaScript shows the bill of
        // the last tip): nothing written, the bill with the new tip, which the next press sends.
        const bill = billNow(coupon.write, tipPaise)
        return {
          kind: 'coupon',
          message: tipChangedMessage(tipPaise, bill.grandTotalPaise),
          ...couponAnswer(),
          bill: billToWire(bill, deps.commerce),
        }
      }
      if (input.shownFeesPaise !== undefined) {
        // The fees are not the ones the bill showed (the late-night hours began or ended, or the
        // configuration changed between the checkout and this press): nothing written, the bill
        // as it is now, which the checkout shows and the next press sends (docs/commerce-api.md, "Fees").
        const bill = billNow(coupon.write, tipPaise)
        if (feesTotalPaise(bill) !== input.shownFeesPaise)
          return {
            kind: 'coupon',
            message: feesChangedMessage(bill),
            ...couponAnswer(),
            bill: billToWire(bill, deps.commerce),
          }
      }

      const reserved = await reserveStock(tx, store.id, lines)
      if (reserved.short) throw Conflict(`Only ${reserved.short.stock} left in stock of ${reserved.short.name}`)
      const id = await writeOrder(tx, deps.commerce, {
        userId: user.id,
        idempotencyKey: input.idempotencyKey,
        address,
        store,
        lines,
        payment,
        now,
        coupon: coupon.write,
        tipPaise,
        instructions: instructionsEmpty(input.instructions) ? null : input.instructions!,
      })
      // Remembered for the next checkout (preselected there): a client that chose a tip, or showed
      // one (none chosen is remembered as none); the original client, which shows none, changes nothing.
      if (input.tipPaise !== undefined || input.shownTipPaise !== undefined)
        await tx.update(users).set({ lastTipPaise: tipPaise }).where(eq(users.id, user.id))
      await payment.finish(tx, deps, { orderId: id, userId: user.id, now })
      return { kind: 'placed', row: (await findOrder(tx, id))!, created: true, stock: reserved.stock }
    })
  let outcome: Attempt
  try {
    outcome = await attempt(false)
  } catch (err) {
    if (!hasSqlState(err, LOCK_NOT_AVAILABLE)) throw err
    outcome = await attempt(true)
  }
  if (outcome.kind === 'changed' || outcome.kind === 'coupon') return outcome
  if (outcome.stock) deps.cache.stockChanged(outcome.stock)
  return { kind: 'placed', order: toOrderAnswer(deps, outcome.row, false), created: outcome.created }
}

/**
 * The refusal of a staff member's cancellation of a paid order: cancelling refunds the payment, and
 * refunds are an admin's (docs/product.md, "Roles and permissions"). COD and unpaid orders staff may cancel.
 */
export const PAID_CANCEL_ADMIN_ONLY = 'Only an admin can cancel a paid order: cancelling it refunds the payment'

/**
 * Moves an order to `to` in one transaction (the order row locked): checks the arrow, an optional
 * expected `version` (optimistic concurrency: two admins cannot both win), restores stock on
 * cancellation (keeping the optional `reason`), bumps the version and records the history. The
 * products whose stock came back are told to the caches after the commit, as a placement's are. A
 * cancellation refunds what was paid through `deps.refunds` (the payment module's refunds, handed in
 * by api/app.ts: the payment module builds on this one, docs/decisions/0048-module-layering.md).
 * @param onlyUserId a shopper's own order only (others are 404)
 * @param onlyStoreId a staff member's store only: another store's order is a 404, as if it did not
 *   exist (docs/product.md, "Staff")
 * @param mayRefund false for STAFF: a cancellation that would refund a payment is refused, as a line
 *   refund is admin-only (docs/product.md, "Roles and permissions"); a shopper cancelling their own
 *   placed order and an admin pass true
 * @param onlyRiderId a rider's own order only (docs/delivery.md): another's is a 404
 * @param cashCollectedPaise kept with a delivery: the cash the rider collected
 *
 * @param failure a failed delivery's reason and note (required for `delivery_failed`, kept with the
 *   moment; docs/delivery.md, "Could not deliver")
 *
 * A failed delivery (out_for_delivery → delivery_failed; docs/decisions/0072-delivery-failed.md) is
 * returned to the store as a cancellation is, in the same transaction: the stock back to the order's
 * store, what was paid (delivery fee and tip included) refunded in full through `deps.refunds`
 * whoever marks it (the refund follows from the failure, not from a choice: no `mayRefund` check),
 * no cash recorded for a cash-on-delivery order, and the coupon's use given back (a use is an order
 * neither cancelled nor failed: api/modules/coupon/checkout.ts). The order row lock makes the second
 * of two concurrent marks a 409, so one refund and one stock return.
 *
 * An order's rider becomes free when it is delivered, cancelled or its delivery failed
 * (`rider_shifts.free_since`, in the same transaction); after the commit of a move to packed or an
 * ending status the store's waiting orders are dispatched (`deps.dispatch`, docs/delivery.md, "Dispatch").
 * @throws 400 a failed delivery without its reason; 404 ORDER_NOT_FOUND; 409 STALE_ORDER or "Cannot
 *   change an order from X to Y"; 403 PAID_CANCEL_ADMIN_ONLY (nothing written)
 */
export async function changeStatus(
  deps: OrderDeps & Pick<AppDeps, 'refunds'>,
  input: {
    ref: string
    to: OrderStatus
    byUserId: string
    mayRefund: boolean
    onlyUserId?: string
    onlyStoreId?: string
    onlyRiderId?: string
    version?: number
    reason?: string
    cashCollectedPaise?: number
    failure?: { reason: DeliveryFailureReason; note?: string }
  },
): Promise<Order> {
  if (!PLAUSIBLE_ID.test(input.ref)) throw NotFound(ORDER_NOT_FOUND)
  const failed = input.to === 'delivery_failed'
  if (failed && !input.failure)
    throw BadRequest(DELIVERY_FAILURE_MESSAGES.reasonRequired, [
      { path: 'failureReason', message: DELIVERY_FAILURE_MESSAGES.reasonRequired },
    ])
  if (failed && input.failure && !deliveryFailureNoteGiven(input.failure))
    throw BadRequest(DELIVERY_FAILURE_MESSAGES.noteRequired, [{ path: 'failureNote', message: DELIVERY_FAILURE_MESSAGES.noteRequired }])
  // Returned to the store either way: cancelled, or a delivery that failed.
  const returned = input.to === 'cancelled' || failed
  const { id, stock, storeId } = await deps.db.transaction(async (tx) => {
    const [order] = await tx
      .select({
        id: orders.id,
        status: orders.status,
        version: orders.version,
        userId: orders.userId,
        storeId: orders.storeId,
        riderId: orders.riderId,
        grandTotalPaise: orders.grandTotalPaise,
      })
      .from(orders)
      .where(byIdOrNumber(input.ref))
      .for('update')
    if (!order || (input.onlyUserId && order.userId !== input.onlyUserId)) throw NotFound(ORDER_NOT_FOUND)
    if (input.onlyStoreId && order.storeId !== input.onlyStoreId) throw NotFound(ORDER_NOT_FOUND)
    if (input.onlyRiderId && order.riderId !== input.onlyRiderId) throw NotFound(ORDER_NOT_FOUND)
    if (input.version !== undefined && input.version !== order.version) throw Conflict(STALE_ORDER)
    // A shopper may cancel only while nothing was done yet; an admin may also cancel a packed order.
    const allowed = input.onlyUserId ? order.status === 'placed' && input.to === 'cancelled' : canMove(order.status, input.to)
    if (!allowed) throw Conflict(cannotMoveMessage(order.status, input.to))
    let stock = noStockChange()
    if (returned) {
      stock = await releaseStock(tx, order.storeId, order.id)
      // A paid order's money goes back: the rest not refunded yet, sent to the provider after the commit.
      const refunded = await deps.refunds.record(tx, {
        orderId: order.id,
        reason: failed ? 'Delivery failed' : 'Order cancelled',
        now: deps.clock(),
      })
      // Refunding by choice is an admin's (docs/product.md, "Roles and permissions"); the throw rolls
      // the refund back. A failed delivery's refund is no choice: whoever marks it, it is refunded.
      if (refunded > 0 && !input.mayRefund && !failed) throw Forbidden(PAID_CANCEL_ADMIN_ONLY)
    }
    const now = deps.clock()
    // Only a cancellation keeps a reason; an empty one is none.
    const reason = input.to === 'cancelled' && input.reason ? input.reason : null
    const cash = input.to === 'delivered' && input.cashCollectedPaise !== undefined ? input.cashCollectedPaise : null
    await tx
      .update(orders)
      .set({
        status: input.to,
        cancelReason: reason,
        version: sql`${orders.version} + 1`,
        updatedAt: now,
        deliveredAt: input.to === 'delivered' ? now : null,
        ...(cash !== null ? { cashCollectedPaise: cash } : {}),
        ...(failed && input.failure
          ? { deliveryFailureReason: input.failure.reason, deliveryFailureNote: input.failure.note || null, deliveryFailedAt: now }
          : {}),
        // Out for delivery: a new code for an order that needs one (docs/delivery.md, "Delivery code").
        ...(input.to === 'out_for_delivery'
          ? { deliveryCode: newDeliveryCode(deps.commerce, order.grandTotalPaise), deliveryCodeAttempts: 0 }
          : {}),
      })
      .where(eq(orders.id, order.id))
    // Its rider has one order fewer in hand: free from now (docs/delivery.md, "Dispatch").
    if (order.riderId && (input.to === 'delivered' || returned))
      await tx.update(riderShifts).set({ freeSince: now, updatedAt: now }).where(eq(riderShifts.userId, order.riderId))
    await recordStatus(tx, { orderId: order.id, status: input.to, byUserId: input.byUserId, at: now })
    // The status email, written with the change (sent by the job runner, retried; docs/jobs.md).
    await deps.jobs.send('order.mail', { kind: 'status', orderId: order.id, status: input.to }, { tx })
    await recordAudit(tx, {
      actor: input.byUserId,
      action: input.to === 'cancelled' ? 'cancel' : 'status',
      entity: 'order',
      entityId: order.id,
      before: { status: order.status },
      after: reason
        ? { status: input.to, reason }
        : cash !== null
          ? { status: input.to, cashCollectedPaise: cash }
          : failed && input.failure
            ? { status: input.to, failureReason: input.failure.reason, ...(input.failure.note ? { failureNote: input.failure.note } : {}) }
            : { status: input.to },
    })
    return { id: order.id, stock, storeId: order.storeId }
  })
  deps.cache.stockChanged(stock)
  if (returned) await deps.refunds.send(deps, { orderId: id })
  const answer = await toOrderAnswer(deps, (await findOrder(deps.db, id))!, !input.onlyUserId)
  // After the commit only: a watcher that reloads must find the new status.
  deps.orderEvents?.publish({ orderId: answer._id, status: answer.status, version: answer.version })
  // A packed order waits for a rider; a delivery or cancellation may have freed one.
  if (input.to === 'packed' || input.to === 'delivered' || returned) await deps.dispatch?.run(deps, storeId)
  return answer
}

/**
 * The delivery code of an order going out for delivery (docs/delivery.md, "Delivery code"): 4 random
 * digits (`crypto.randomInt`, uniform) when its grand total is at least the threshold
 * (`deliveryCodeAbovePaise`, default ₹1,000), else null (none needed).
 */
export function newDeliveryCode(commerce: Pick<CommerceSettings, 'deliveryCodeAbovePaise'>, grandTotalPaise: number): string | null {
  const above = commerce.deliveryCodeAbovePaise ?? DEFAULT_DELIVERY_CODE_ABOVE_PAISE
  return grandTotalPaise >= above ? String(randomInt(0, 10_000)).padStart(4, '0') : null
}

/** The wire reason of a cart cap (contract/order.ts `REORDER_REASONS`). */
const REORDER_REASON: Record<LimitReason, ReorderReason> = {
  unavailable: 'no_longer_sold',
  out_of_stock: 'out_of_stock',
  stock: 'stock',
  max_per_line: 'max_per_line',
  cart_full: 'cart_full',
}

/**
 * A left-out line's reason in words, as the shopper reads it after the product's name
 * (docs/commerce-api.md, "Order again"): "out of stock", "no longer sold", "only 3 added: stock".
 */
export function reorderMessage(reason: ReorderReason, added: number, maxQtyPerLine: number): string {
  switch (reason) {
    case 'no_longer_sold':
      return 'no longer sold'
    case 'out_of_stock':
      return 'out of stock'
    case 'cart_full':
      return 'not added: your cart is full'
    case 'stock':
      return added > 0 ? `only ${added} added: stock` : 'none added: your cart already holds all in stock'
    case 'max_per_line':
      return added > 0
        ? `only ${added} added: at most ${maxQtyPerLine} per item`
        : `none added: your cart already holds the most allowed (${maxQtyPerLine})`
  }
}

/** What "Order again" did: the cart after it, units added, and the lines left out or added in part. */
export interface ReorderOutcome {
  cart: CartAnswer
  added: number
  leftOut: ReorderLeftOut[]
}

/**
 * "Order again" (docs/commerce-api.md, "Order again"): adds every line of one of the user's orders
 * to the user's cart at the quantity ordered, with the cart's merge rule (added to what the cart
 * holds, capped by today's stock and the per-line maximum; unpublished, deleted and out-of-stock
 * products skipped), in one transaction. Only the user's own orders: another's, an admin's
 * included, is a 404, since it would fill the viewer's cart with someone else's shopping. Stock is
 * that of `deps.storeId`, the shopper's store now.
 * @throws 404 ORDER_NOT_FOUND
 */
export async function reorder(deps: OrderDeps & { storeId: string }, userId: string, ref: string): Promise<ReorderOutcome> {
  if (!PLAUSIBLE_ID.test(ref)) throw NotFound(ORDER_NOT_FOUND)
  const owner = { kind: 'user' as const, userId }
  const { added, leftOut } = await deps.db.transaction(async (tx) => {
    const [order] = await tx
      .select({ id: orders.id })
      .from(orders)
      .where(and(byIdOrNumber(ref), eq(orders.userId, userId)))
    if (!order) throw NotFound(ORDER_NOT_FOUND)
    const lines = await tx
      .select({ productId: orderLines.productId, name: orderLines.name, unit: orderLines.unit, quantity: orderLines.quantity })
      .from(orderLines)
      .where(eq(orderLines.orderId, order.id))
      .orderBy(asc(orderLines.position))
    const outcomes = await addLinesToCart(
      deps,
      tx,
      owner,
      lines.map((l) => ({ productId: l.productId, quantity: l.quantity })),
    )
    const leftOut: ReorderLeftOut[] = []
    let added = 0
    outcomes.forEach((outcome, i) => {
      const line = lines[i]!
      added += outcome.added
      if (!outcome.limitedBy) return
      const reason = REORDER_REASON[outcome.limitedBy]
      leftOut.push({
        productId: line.productId,
        name: line.name,
        unit: line.unit,
        ordered: line.quantity,
        added: outcome.added,
        reason,
        message: reorderMessage(reason, outcome.added, deps.commerce.maxQtyPerLine),
      })
    })
    return { added, leftOut }
  })
  return { cart: await getCart(deps, owner), added, leftOut }
}

/**
 * A bulk status change (docs/commerce-api.md, "Admin orders at volume";
 * docs/decisions/0022-admin-orders-at-volume.md): each order is moved by `changeStatus`, with its own
 * transaction, the same allowed-moves rule (api/modules/order/status.ts), stock back on a
 * cancellation, its event and its mail, one after the other in the order given. One order that may
 * not move (already delivered, unknown) does not stop the others: each gets its outcome.
 * @throws 400 for `delivery_failed`: each failed delivery needs its own reason (PUT /update-status)
 */
export async function bulkChangeStatus(
  deps: OrderDeps & Pick<AppDeps, 'refunds'>,
  input: { orderIds: string[]; to: OrderStatus; byUserId: string; mayRefund: boolean; onlyStoreId?: string; reason?: string },
): Promise<BulkStatusOutcome[]> {
  // Each failed delivery needs its own reason (docs/delivery.md, "Could not deliver").
  if (input.to === 'delivery_failed')
    throw BadRequest(DELIVERY_FAILURE_MESSAGES.bulkRefused, [{ path: 'status', message: DELIVERY_FAILURE_MESSAGES.bulkRefused }])
  const outcomes: BulkStatusOutcome[] = []
  const refs = input.orderIds.filter((ref) => PLAUSIBLE_ID.test(ref))
  const known = refs.length
    ? await deps.db
        .select({ id: orders.id, orderNumber: orders.orderNumber })
        .from(orders)
        .where(
          or(
            inArray(orders.id, refs),
            inArray(
              orders.orderNumber,
              refs.map((r) => r.toUpperCase()),
            ),
          ),
        )
    : []
  const numberOf = (ref: string) => known.find((o) => o.id === ref || o.orderNumber === ref.toUpperCase())?.orderNumber ?? null
  for (const ref of input.orderIds) {
    try {
      const order = await changeStatus(deps, {
        ref,
        to: input.to,
        byUserId: input.byUserId,
        mayRefund: input.mayRefund,
        onlyStoreId: input.onlyStoreId,
        reason: input.reason,
      })
      outcomes.push({
        orderId: order._id,
        orderNumber: order.orderId,
        ok: true,
        status: order.status,
        message: `Marked ${statusWords(order.status)}`,
      })
    } catch (err) {
      // A paid order staff may not cancel (403) is reported like one that may not move; the others still move.
      if (!(err instanceof HttpError) || (err.status !== 403 && err.status !== 404 && err.status !== 409)) throw err
      outcomes.push({ orderId: ref, orderNumber: numberOf(ref), ok: false, status: null, message: err.message })
    }
  }
  return outcomes
}
