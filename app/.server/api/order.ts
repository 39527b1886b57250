/**
 * Typed calls to the upstream order endpoints (docs/commerce-api.md, "Orders" and "Order again"):
 * place a cash-on-delivery order, the shopper's orders, one order, cancel, order again; and the
 * admin's list and status changes. Amounts are rupees as the API sends them.
 */
import { z } from 'zod'
import type { RequestSession } from '../session.ts'
import { parseAnswer, parseData, UNEXPECTED_ANSWER, upstream, upstreamResponse, type UpstreamResult } from '../upstream.ts'
import { BillSchema, CartExtraShape, CartItemSchema, type Bill } from '../../../contract/cart.ts'
import { CartCouponSchema, type CartCoupon } from '../../../contract/coupon.ts'
import { successOf } from '../../../contract/envelope.ts'
import { CheckoutPreferencesSchema, type CheckoutPreferences } from '../../../contract/tip.ts'
import { orderFilterQuery } from '../../lib/order-filters.ts'

import {
  BulkStatusSchema,
  type OrderRefSchema,
  type PlaceOrderSchema,
  UpdateStatusSchema,
  BulkStatusOutcomeSchema,
  CartChangeSchema,
  OrderSchema,
  type AdminOrderFilter,
  type BulkStatusOutcome,
  ReorderExtraShape,
  type CartChange,
  type Order,
  type ReorderLeftOut,
  PackingSlipSchema,
  PackingSlipsExtraShape,
  type PackingSlip,
  type PackingSlipsSchema,
} from '../../../contract/order.ts'
import type { OrderStatus } from '../../../contract/order-status.ts'

export {
  ADMIN_ORDER_SORTS,
  AdminOrderFilterSchema,
  BULK_ORDERS_MAX,
  CartChangeSchema,
  type AdminOrderFilter,
  type AdminOrderSort,
  type BulkStatusOutcome,
  OrderSchema,
  type CartChange,
  type Order,
  type ReorderLeftOut,
  type PackingSlip,
} from '../../../contract/order.ts'
import { STORE_HEADER } from '../../../contract/store-header.ts'
import { getDefaultStore } from './location.ts'
import { PagingExtraSchema, type PagingExtra } from '../../../contract/paging.ts'
import type { Api } from '../api-context.ts'
/** One line of an order: the product as sold (a snapshot; `productId` null once the product was deleted). */
export type OrderLine = Order['items'][number]

/** The outcome of placing an order: the order, or the cart corrections that stopped it. */
export type PlaceOrderResult =
  | { kind: 'placed'; order: Order; message: string }
  | { kind: 'cart-changed'; changes: CartChange[]; message: string }
  | CouponChanged
  | { kind: 'failed'; status: number; message: string; retryAfter?: number }

/**
 * The store header of a placement (cash on delivery or online): the shopper's store, else the
 * default store the pages showed; empty when neither is known (the API then picks the store serving the address).
 */
export async function placementStoreHeader(api: Api): Promise<Record<string, string>> {
  let storeId = api.storeId()
  if (!storeId) {
    const fallback = await getDefaultStore(api)
    if (fallback.ok) storeId = fallback.data._id
  }
  return storeId ? { [STORE_HEADER]: storeId } : {}
}

/**
 * Places a cash-on-delivery order for the whole server-side cart (POST /api/order/cash-on-delivery)
 * with `idempotencyKey` (8-128 of `[A-Za-z0-9_-]`): the same key again answers the same order.
 * The order always names a store: the shopper's, else the default store the pages showed (a
 * shopper without a location browsed it), so the API refuses an address outside its area rather
 * than picking another store (docs/stores.md, "Orders").
 */
export async function placeCashOnDeliveryOrder(
  api: Api,
  session: RequestSession,
  addressId: string,
  idempotencyKey: string,
  opts: { clientIp?: string; couponDiscount?: number } & TipChoice = {},
): Promise<PlaceOrderResult> {
  const result = await upstream(api, 'order/cash-on-delivery', {
    method: 'POST',
    json: {
      addressId,
      couponDiscount: opts.couponDiscount,
      tip: opts.tip,
      shownTip: opts.shownTip,
      shownFees: opts.shownFees,
      deliveryInstructions: opts.deliveryInstructions,
    } satisfies z.input<typeof PlaceOrderSchema>,
    headers: { 'Idempotency-Key': idempotencyKey, ...(await placementStoreHeader(api)) },
    session,
    clientIp: opts.clientIp,
  })
  if (!result.ok && result.status === 409) {
    // A refused placement names the corrected lines in `changes` beside the failure envelope.
    const changes = z.array(CartChangeSchema).safeParse(result.extra?.changes)
    if (changes.success) return { kind: 'cart-changed', changes: changes.data, message: result.message }
    const coupon = couponChanged(result)
    if (coupon) return coupon
  }
  const parsed = parseData(result, OrderSchema)
  if (!parsed.ok) return { kind: 'failed', status: parsed.status, message: parsed.message, retryAfter: parsed.retryAfter }
  return { kind: 'placed', order: parsed.data, message: parsed.message }
}

/**
 * The tip and delivery instructions a placement sends (docs/commerce-api.md, "Tip and delivery
 * instructions"): the tip chosen (rupees; undefined: none), the tip the page's bill showed, the instructions.
 */
export type TipChoice = Pick<z.input<typeof PlaceOrderSchema>, 'tip' | 'shownTip' | 'deliveryInstructions' | 'shownFees'>

/**
 * A placement refused because the bill is not the one the checkout showed: the coupon no longer
 * gives what it showed (docs/offers.md, "At placement") or the tip chosen is not the bill's
 * (docs/commerce-api.md, "Tip and delivery instructions"). The message, the cart's coupon now (null:
 * not answered, a tip change without a coupon) and the bill as it now is.
 */
export interface CouponChanged {
  kind: 'coupon-changed'
  message: string
  coupon: CartCoupon | null
  bill: Bill
}

/** The bill change of a placement's 409 (`bill`, and `coupon` when there is one, beside the envelope), or null. */
export function couponChanged(result: { message: string; extra?: Record<string, unknown> }): CouponChanged | null {
  const coupon = CartCouponSchema.safeParse(result.extra?.coupon)
  const bill = BillSchema.safeParse(result.extra?.bill)
  return bill.success
    ? { kind: 'coupon-changed', message: result.message, coupon: coupon.success ? coupon.data : null, bill: bill.data }
    : null
}

/** The shopper's remembered checkout choices (GET /api/order/checkout-preferences): the last tip, rupees (0: none). */
export async function checkoutPreferences(api: Api, session: RequestSession): Promise<UpstreamResult<CheckoutPreferences>> {
  return parseData(await upstream(api, 'order/checkout-preferences', { method: 'GET', session }), CheckoutPreferencesSchema)
}

/** The shopper's orders, newest first (GET /api/order/order-list). */
export async function listOrders(api: Api, session: RequestSession): Promise<UpstreamResult<Order[]>> {
  return parseData(await upstream(api, 'order/order-list', { method: 'GET', session }), z.array(OrderSchema))
}

/** One order by `_id` or order number (POST /api/order/details); own orders, any for an admin. 404 otherwise. */
export async function orderDetails(api: Api, session: RequestSession, orderId: string): Promise<UpstreamResult<Order>> {
  return parseData(
    await upstream(api, 'order/details', { method: 'POST', json: { orderId } satisfies z.input<typeof OrderRefSchema>, session }),
    OrderSchema,
  )
}

/**
 * Cancels the shopper's own order while it is "placed" (POST /api/order/cancel), keeping the optional
 * `reason` (an empty one is none); 409 otherwise, 400 for a reason the API refuses.
 */
export async function cancelOrder(api: Api, session: RequestSession, orderId: string, reason = ''): Promise<UpstreamResult<Order>> {
  const json = reason ? { orderId, reason } : { orderId }
  return parseData(await upstream(api, 'order/cancel', { method: 'POST', json, session }), OrderSchema)
}

/** One page of all orders for the admin (POST /api/order/admin-list), newest first. */
export interface OrderPage extends PagingExtra {
  orders: Order[]
}

/**
 * One page of the admin's order list (POST /api/order/admin-list; docs/commerce-api.md, "Admin orders
 * at volume"): the orders the filters select (`q`, `status`, IST days `from`/`to`) in `sort`.
 * 403 for a non-admin; 400 for a filter the API refuses.
 */
export async function adminListOrders(
  api: Api,
  session: RequestSession,
  query: Partial<AdminOrderFilter> & { page: number; limit: number },
): Promise<UpstreamResult<OrderPage>> {
  const result = parseData(await upstream(api, 'order/admin-list', { method: 'POST', json: query, session }), z.array(OrderSchema))
  if (!result.ok) return result
  const paging = PagingExtraSchema.safeParse(result.extra)
  if (!paging.success) return { ...UNEXPECTED_ANSWER, issues: [] }
  return {
    ...result,
    data: { orders: result.data, ...paging.data },
  }
}

/**
 * The CSV of every order the filters select (GET /api/order/admin/export, admin or staff), or with
 * `rows: 'lines'` of their lines, one row per order line (GET /api/order/admin/export/lines), as the
 * API's Response with its body unread (streamed on to the browser). Null when the API cannot be
 * reached; a shopper's answer is the API's 403 (its JSON envelope).
 */
export async function exportOrdersCsv(
  api: Api,
  session: RequestSession,
  filter: Partial<AdminOrderFilter>,
  rows: 'orders' | 'lines' = 'orders',
): Promise<Response | null> {
  const query = orderFilterQuery(filter)
  const path = rows === 'lines' ? 'order/admin/export/lines' : 'order/admin/export'
  return upstreamResponse(api, `${path}${query ? `?${query}` : ''}`, { method: 'GET', session })
}

/** A bulk status change's answer: one outcome per order, and how many moved and were refused. */
const BulkAnswerSchema = successOf(z.array(BulkStatusOutcomeSchema), { moved: z.number(), refused: z.number() })

/**
 * Moves several orders to `status` (POST /api/order/bulk-status, admin), each on its own by the
 * allowed-moves rule; answers one outcome per order. `reason` is kept for a cancellation.
 */
export async function bulkUpdateOrderStatus(
  api: Api,
  session: RequestSession,
  input: z.input<typeof BulkStatusSchema>,
): Promise<UpstreamResult<{ outcomes: BulkStatusOutcome[]; moved: number; refused: number }>> {
  const result = parseAnswer(await upstream(api, 'order/bulk-status', { method: 'POST', json: input, session }), BulkAnswerSchema)
  if (!result.ok) return result
  return { ...result, data: { outcomes: result.data.data, moved: result.data.moved, refused: result.data.refused } }
}

/**
 * Moves an order to `status` (PUT /api/order/update-status, admin). `version` is the order's version
 * the admin saw; a stale one is a 409 "This order was changed by someone else: reload", an arrow
 * that is not allowed a 409 "Cannot change an order from X to Y". `reason` is kept for a cancellation.
 */
export async function updateOrderStatus(
  api: Api,
  session: RequestSession,
  input: z.input<typeof UpdateStatusSchema>,
): Promise<UpstreamResult<Order>> {
  return parseData(await upstream(api, 'order/update-status', { method: 'PUT', json: input, session }), OrderSchema)
}

/**
 * The order's status and version now, asked with `accessToken` as it is, never refreshed (the live
 * stream's poll, app/.server/order-stream.ts); null when the API refuses or answers off contract.
 */
export async function orderStatusNow(
  api: Api,
  accessToken: string,
  orderId: string,
): Promise<{ orderId: string; status: OrderStatus; version: number } | null> {
  const parsed = parseData(await upstream(api, 'order/details', { method: 'POST', json: { orderId }, bearer: accessToken }), OrderSchema)
  return parsed.ok ? { orderId: parsed.data._id, status: parsed.data.status, version: parsed.data.version } : null
}

/** The answer of POST /api/order/reorder: the cart's lines in `data`; bill, limits, `added` and `leftOut` beside. */
const ReorderAnswerSchema = successOf(z.array(CartItemSchema), { ...CartExtraShape, ...ReorderExtraShape })

/** What "Order again" did: units added to the cart, and the lines left out or added in part (each with its reason in words). */
export interface ReorderResult {
  added: number
  leftOut: ReorderLeftOut[]
}

/**
 * "Order again" (POST /api/order/reorder, docs/commerce-api.md, "Order again"): adds the lines of
 * one of the shopper's own orders to the cart, capped by today's stock and the per-line maximum.
 * Failures: 404 unknown or another's order; 429 (the cart write budget) with `retryAfter`.
 */
export async function reorder(
  api: Api,
  session: RequestSession,
  orderId: string,
  opts: { clientIp?: string } = {},
): Promise<UpstreamResult<ReorderResult>> {
  const result = parseAnswer(
    await upstream(api, 'order/reorder', {
      method: 'POST',
      json: { orderId } satisfies z.input<typeof OrderRefSchema>,
      session,
      clientIp: opts.clientIp,
    }),
    ReorderAnswerSchema,
  )
  if (!result.ok) return result
  return { ...result, data: { added: result.data.added, leftOut: result.data.leftOut } }
}

/** The answer of POST /api/order/admin/packing-slips: the slips and, beside them, `totalCount` and `missing`. */
const PackingSlipsAnswerSchema = successOf(z.array(PackingSlipSchema), PackingSlipsExtraShape)

/** Packing slips with their lines in pick order, and how many matched and which refs are no order. */
export interface PackingSlips {
  slips: PackingSlip[]
  totalCount: number
  missing: string[]
}

/**
 * Packing slips (admin or staff; POST /api/order/admin/packing-slips, docs/commerce-api.md, "Packing
 * slips"): one store's packed orders (`{ storeId }`) or the orders named (`{ orderIds }`), each with
 * its lines in pick order. 400 bad input, 403 not staff, 404 unknown store.
 */
export async function packingSlips(
  api: Api,
  session: RequestSession,
  input: z.input<typeof PackingSlipsSchema>,
): Promise<UpstreamResult<PackingSlips>> {
  const result = parseAnswer(
    await upstream(api, 'order/admin/packing-slips', { method: 'POST', json: input, session }),
    PackingSlipsAnswerSchema,
  )
  if (!result.ok) return result
  return { ...result, data: { slips: result.data.data, totalCount: result.data.totalCount, missing: result.data.missing } }
}
