/**
 * Typed calls to the upstream order endpoints (docs/commerce-api.md, "Orders"): place a
 * cash-on-delivery order, the shopper's orders, one order, cancel; and the admin's list and status
 * changes. Amounts are rupees as the API sends them.
 */
import { z } from 'zod'
import type { RequestSession } from '../session.ts'
import { parseData, upstream, type UpstreamResult } from '../upstream.ts'
import { BillSchema } from './cart.ts'

/** Order statuses in their order along the happy path, then `cancelled`. */
export const ORDER_STATUSES = ['placed', 'packed', 'out_for_delivery', 'delivered', 'cancelled'] as const
export type OrderStatus = (typeof ORDER_STATUSES)[number]

/** One line of an order: the product as sold (a snapshot; `productId` null once the product was deleted). */
export const OrderLineSchema = z.object({
  productId: z.string().nullable(),
  name: z.string(),
  image: z.string(),
  unit: z.string(),
  brand: z.string(),
  quantity: z.number().int(),
  /** Selling price paid per unit, rupees. */
  price: z.number(),
  /** MRP per unit, rupees. */
  mrp: z.number(),
  discount: z.number(),
  lineTotal: z.number(),
})
export type OrderLine = z.output<typeof OrderLineSchema>

/** The delivery address as it was when the order was placed. */
export const OrderAddressSchema = z.object({
  address_line: z.string(),
  city: z.string(),
  state: z.string(),
  pincode: z.string(),
  country: z.string(),
  mobile: z.string(),
})

/** An order as the API answers it. */
export const OrderSchema = z.object({
  _id: z.string(),
  /** The human order number, e.g. "OD2611220001". */
  orderId: z.string(),
  userId: z.string(),
  status: z.enum(ORDER_STATUSES),
  payment_status: z.string(),
  delivery_address: OrderAddressSchema,
  items: z.array(OrderLineSchema),
  subTotalAmt: z.number(),
  totalAmt: z.number(),
  bill: BillSchema,
  statusHistory: z.array(z.object({ status: z.string(), at: z.string() })),
  version: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Who placed it (admin answers only). */
  customer: z.object({ name: z.string(), email: z.string() }).optional(),
})
export type Order = z.output<typeof OrderSchema>

/** What changed in the cart when an order was refused because prices or stock moved. */
export const CartChangeSchema = z.object({
  productId: z.string(),
  name: z.string(),
  kind: z.enum(['price', 'stock', 'removed']),
  before: z.number(),
  after: z.number(),
})
export type CartChange = z.output<typeof CartChangeSchema>

/** The outcome of placing an order: the order, or the cart corrections that stopped it. */
export type PlaceOrderResult =
  | { kind: 'placed'; order: Order; message: string }
  | { kind: 'cart-changed'; changes: CartChange[]; message: string }
  | { kind: 'failed'; status: number; message: string }

/**
 * Places a cash-on-delivery order for the whole server-side cart (POST /api/order/cash-on-delivery)
 * with `idempotencyKey` (8-128 of `[A-Za-z0-9_-]`): the same key again answers the same order.
 */
export async function placeCashOnDeliveryOrder(
  session: RequestSession,
  addressId: string,
  idempotencyKey: string,
  opts: { clientIp?: string } = {},
): Promise<PlaceOrderResult> {
  const result = await upstream('order/cash-on-delivery', {
    method: 'POST',
    json: { addressId },
    headers: { 'Idempotency-Key': idempotencyKey },
    session,
    clientIp: opts.clientIp,
  })
  if (!result.ok && result.status === 409) {
    // A refused placement names the corrected lines in `changes` beside the failure envelope.
    const changes = z.array(CartChangeSchema).safeParse(result.extra?.changes)
    if (changes.success) return { kind: 'cart-changed', changes: changes.data, message: result.message }
  }
  const parsed = parseData(result, OrderSchema)
  if (!parsed.ok) return { kind: 'failed', status: parsed.status, message: parsed.message }
  return { kind: 'placed', order: parsed.data, message: parsed.message }
}

/** The shopper's orders, newest first (GET /api/order/order-list). */
export async function listOrders(session: RequestSession): Promise<UpstreamResult<Order[]>> {
  return parseData(await upstream('order/order-list', { method: 'GET', session }), z.array(OrderSchema))
}

/** One order by `_id` or order number (POST /api/order/details); own orders, any for an admin. 404 otherwise. */
export async function orderDetails(session: RequestSession, orderId: string): Promise<UpstreamResult<Order>> {
  return parseData(await upstream('order/details', { method: 'POST', json: { orderId }, session }), OrderSchema)
}

/** Cancels the shopper's own order while it is "placed" (POST /api/order/cancel); 409 otherwise. */
export async function cancelOrder(session: RequestSession, orderId: string): Promise<UpstreamResult<Order>> {
  return parseData(await upstream('order/cancel', { method: 'POST', json: { orderId }, session }), OrderSchema)
}

/** One page of all orders for the admin (POST /api/order/admin-list), newest first. */
export interface OrderPage {
  orders: Order[]
  totalCount: number
  totalNoPage: number
}

/** The admin's order list, optionally of one status. 403 for a non-admin. */
export async function adminListOrders(
  session: RequestSession,
  query: { status?: OrderStatus; page: number; limit: number },
): Promise<UpstreamResult<OrderPage>> {
  const result = parseData(await upstream('order/admin-list', { method: 'POST', json: query, session }), z.array(OrderSchema))
  if (!result.ok) return result
  return {
    ...result,
    data: { orders: result.data, totalCount: Number(result.extra.totalCount) || 0, totalNoPage: Number(result.extra.totalNoPage) || 0 },
  }
}

/**
 * Moves an order to `status` (PUT /api/order/update-status, admin). `version` is the order's version
 * the admin saw; a stale one is a 409 "This order was changed by someone else: reload", an arrow
 * that is not allowed a 409 "Cannot change an order from X to Y".
 */
export async function updateOrderStatus(
  session: RequestSession,
  input: { orderId: string; status: OrderStatus; version?: number },
): Promise<UpstreamResult<Order>> {
  return parseData(await upstream('order/update-status', { method: 'PUT', json: input, session }), OrderSchema)
}
