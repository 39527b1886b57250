/**
 * Routes of /api/order (docs/commerce-api.md, "Orders").
 *
 * - POST /cash-on-delivery `{ addressId }` + optional `Idempotency-Key` header (or `idempotencyKey`
 *   in the body; without one, a key derived from the user, the address and the cart) → 201 the order
 *   (200 the same order for a repeated key, not counted against the order budget); 409 with `changes`
 *   beside the failure envelope when prices or stock moved (the cart was corrected); 400 empty cart;
 *   404 address
 * - GET /order-list → the user's orders, newest first
 * - POST /details `{ orderId }` → one order (own; an admin or staff may read any)
 * - POST /cancel `{ orderId, reason? }` → the shopper cancels a placed order (stock returns)
 * - POST /admin-list `{ q?, status?, store?, late?, from?, to?, sort, page, limit }` (admin or staff) → `data`, `totalCount`,
 *   `totalNoPage` (docs/commerce-api.md, "Admin orders at volume")
 * - GET /admin/export `?q&status&from&to&sort` (admin or staff) → text/csv of every order the filters select, streamed
 * - GET /admin/export/lines (the same query) → text/csv of those orders' lines, one row per line, streamed
 * - POST /admin/packing-slips `{ storeId }` or `{ orderIds }` (admin or staff) → packing slips, lines in pick order
 *   (./packing-slips.ts), with `totalCount` and `missing`
 * - POST /bulk-status `{ orderIds, status, reason? }` (admin or staff) → one outcome per order, each moved on its own
 * - PUT /update-status `{ orderId, status, version?, reason?, failureReason?, failureNote? }` (admin or
 *   staff; cancelling a paid order, which refunds it, admin only: 403 for staff, a refused outcome in
 *   the bulk move; a failed delivery needs its reason: docs/delivery.md, "Could not deliver")
 * - POST /reorder `{ orderId }` → the cart with `added` and `leftOut` beside it: the user's own
 *   order's lines added to the cart, capped (docs/commerce-api.md, "Order again"); spends a cart write
 */
import type { Context } from 'hono'
import { CheckoutPreferencesSchema } from '../../../contract/tip.ts'
import { z } from 'zod'
import type { AppDeps } from '../../deps.ts'
import { STORE_HEADER, requestStore } from '../store/service.ts'
import { StoreIdHeaderSchema } from '../../../contract/location.ts'
import { assertOwnStore, currentUser, requireStaff, requireUser, staffStoreOf } from '../../lib/auth.ts'
import type { User } from '../../db/schema.ts'
import { failure, ok } from '../../lib/envelope.ts'
import { BadRequest } from '../../lib/errors.ts'
import { toPaise } from '../../lib/money.ts'
import { consume } from '../../lib/rate-limit.ts'
import {
  AdminListSchema,
  AdminOrderFilterSchema,
  BulkStatusOutcomeSchema,
  BulkStatusSchema,
  CancelOrderSchema,
  PlacementConflictShape,
  OrderRefSchema,
  OrderSchema,
  PackingSlipSchema,
  PackingSlipsExtraShape,
  PackingSlipsSchema,
  PlaceOrderSchema,
  ReorderExtraShape,
  UpdateStatusSchema,
} from '../../../contract/order.ts'
import { CartExtraShape, CartItemSchema } from '../../../contract/cart.ts'
import { spendCartWrite } from '../cart/routes.ts'
import { IdempotencyKeySchema, idempotencyHeader } from '../../../contract/idempotency.ts'
import { apiRouter } from '../../lib/openapi.ts'
import { exportOrderLinesCsv, exportOrdersCsv } from './admin-export.ts'
import { packingSlips } from './packing-slips.ts'
import {
  adminListOrders,
  bulkChangeStatus,
  cartIdempotencyKey,
  changeStatus,
  listOrders,
  ORDER_PLACED,
  orderDetails,
  placeCashOnDelivery,
  checkoutPreferences,
  reorder,
} from './service.ts'
import { PagingExtraShape } from '../../../contract/paging.ts'

/** Builds the /api/order router. */
/**
 * The order desk's filter as `user` may see it: a staff member's own store's orders only (docs/product.md,
 * "Staff"), whichever store the filter named; an admin's filter as given.
 * @throws 403 OTHER_STORE when a staff member names another store
 */
function scopedFilter<F extends { store?: string }>(user: User, filter: F): F {
  const own = staffStoreOf(user)
  if (own === null) return filter
  if (filter.store) assertOwnStore(user, filter.store)
  return { ...filter, store: own }
}

export function orderRoutes(deps: AppDeps) {
  const { router, endpoint } = apiRouter('Order')
  const order = { data: OrderSchema }

  endpoint(
    {
      method: 'post',
      path: '/cash-on-delivery',
      summary: 'Place the cart as a cash-on-delivery order (a repeated Idempotency-Key answers the same order)',
      description:
        'Without an idempotency key the API derives one from the user, the address and the cart, so a double submit still makes one order. ' +
        'A repeat is answered 200 and does not count against the order budget. ' +
        'A 409 carries `changes` beside the failure envelope when prices or stock moved since the shopper saw the cart (the cart was corrected).',
      access: 'user',
      body: PlaceOrderSchema,
      headers: z.object({
        ...idempotencyHeader(
          'Optional (or `idempotencyKey` in the body): a repeat with the same key answers the same order; without one, a double submit of the same cart does too',
        ).shape,
        [STORE_HEADER]: StoreIdHeaderSchema.meta({
          description:
            "The dark store the shopper's location chose (docs/stores.md): the address must be within its radius. Without it, the store serving the address.",
        }),
      }),
      answers: { 201: { description: 'The new order', ...order }, 200: { description: 'The order a repeated key placed', ...order } },
      errors: [404, 409, 422, 429],
      failureExtra: {
        409: {
          description:
            'The cart changed since the shopper saw it (`changes` says how), its coupon no longer gives what the checkout showed (`coupon` and `bill` as they now are), or it cannot be ordered',
          extra: PlacementConflictShape,
        },
      },
    },
    requireUser(deps),
    async (c, body) => {
      const user = currentUser(c)
      const sent = c.req.header('idempotency-key') ?? body.idempotencyKey
      let idempotencyKey: string
      if (sent === undefined) {
        // The original client sends no key (docs/api-contract.md, "Commerce"): one cart, one order.
        idempotencyKey = await cartIdempotencyKey(deps.db, user.id, body.addressId)
      } else {
        const key = IdempotencyKeySchema.safeParse(sent)
        if (!key.success) {
          const message = key.error.issues[0]!.message
          throw BadRequest(message, [{ path: 'idempotencyKey', message }])
        }
        idempotencyKey = key.data
      }
      // The order budget is spent inside the placement, once the key is known to be new: a retry,
      // even one sent while the first request still runs, answers the first order without spending it.
      const outcome = await placeCashOnDelivery(deps, user, {
        addressId: body.addressId,
        idempotencyKey,
        // The store the shopper's location chose (the BFF names it); none: the store serving the address.
        storeId: c.req.header(STORE_HEADER),
        spendBudget: () => consume(deps.rateLimits.orderByUser, user.id),
        shownCouponDiscountPaise: body.couponDiscount === undefined ? undefined : toPaise(body.couponDiscount),
        tipPaise: body.tip === undefined ? undefined : toPaise(body.tip),
        shownTipPaise: body.shownTip === undefined ? undefined : toPaise(body.shownTip),
        shownFeesPaise: body.shownFees === undefined ? undefined : toPaise(body.shownFees),
        instructions: body.deliveryInstructions,
      })
      if (outcome.kind === 'coupon') return c.json({ ...failure(outcome.message), coupon: outcome.coupon, bill: outcome.bill }, 409)
      if (outcome.kind === 'changed') {
        const names = [...new Set(outcome.changes.map((ch) => ch.name))].join(', ')
        return c.json(
          {
            ...failure(`Your cart was updated: ${names} changed since you added it. Check your cart and place the order again.`),
            changes: outcome.changes,
          },
          409,
        )
      }
      return ok(c, ORDER_PLACED, outcome.order, {}, outcome.created ? 201 : 200)
    },
  )
  endpoint(
    {
      method: 'get',
      path: '/checkout-preferences',
      summary: 'The shopper\'s remembered checkout choices: the last tip (docs/commerce-api.md, "Tip and delivery instructions")',
      access: 'user',
      answers: { 200: { description: 'The preferences', data: CheckoutPreferencesSchema } },
    },
    requireUser(deps),
    async (c) => ok(c, 'Checkout preferences', await checkoutPreferences(deps, currentUser(c).id)),
  )
  endpoint(
    {
      method: 'get',
      path: '/order-list',
      summary: "The user's orders, newest first",
      access: 'user',
      answers: { 200: { description: 'The orders', data: z.array(OrderSchema) } },
    },
    requireUser(deps),
    async (c) => ok(c, 'Order list', await listOrders(deps, currentUser(c).id)),
  )

  endpoint(
    {
      method: 'post',
      path: '/details',
      summary: "One order (the user's own; an admin may read any)",
      access: 'user',
      body: OrderRefSchema,
      answers: { 200: { description: 'The order', ...order } },
      errors: [404],
    },
    requireUser(deps),
    async (c, { orderId }) => {
      return ok(c, 'Order details', await orderDetails(deps, currentUser(c), orderId))
    },
  )

  endpoint(
    {
      method: 'post',
      path: '/cancel',
      summary: "Cancel one of the user's placed orders (stock returns), with an optional reason",
      access: 'user',
      body: CancelOrderSchema,
      answers: { 200: { description: 'The cancelled order', ...order } },
      errors: [404, 409],
    },
    requireUser(deps),
    async (c, { orderId, reason }) => {
      const user = currentUser(c)
      return ok(
        c,
        'Order cancelled',
        // The shopper's own money: their cancellation of a placed order refunds it.
        await changeStatus(deps, { ref: orderId, to: 'cancelled', byUserId: user.id, mayRefund: true, onlyUserId: user.id, reason }),
      )
    },
  )

  endpoint(
    {
      method: 'post',
      path: '/admin-list',
      summary: 'One page of the orders the filters select, in the sort asked (ADMIN or STAFF)',
      description:
        "`q` finds an order number (exact or prefix), the shopper by phone (+91 or a leading 0 dropped), email or name (case-insensitive), a six-digit delivery PIN code, or, from three characters, the delivery address's line, landmark or city (case-insensitive); `from` and `to` are IST days, both included; `sort` is newest (default), oldest, total_desc or total_asc.",
      access: 'staff',
      body: AdminListSchema,
      answers: {
        200: { description: 'One page of orders', data: z.array(OrderSchema), extra: PagingExtraShape },
      },
    },
    requireStaff(deps),
    async (c, query) => {
      const page = await adminListOrders(deps, scopedFilter(currentUser(c), query))
      return ok(c, 'Orders', page.data, { totalCount: page.totalCount, totalNoPage: page.totalNoPage })
    },
  )

  /**
   * The answer of an orders export: the query's filters checked (400 naming the field), then `stream`'s
   * CSV as an attachment named `<name>-<IST day>.csv`, never cached.
   */
  const csvExport =
    (name: string, stream: typeof exportOrdersCsv) =>
    async (c: Context): Promise<Response> => {
      const parsed = AdminOrderFilterSchema.safeParse(c.req.query())
      if (!parsed.success) {
        const issues = parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }))
        throw BadRequest(`${issues[0]!.path || 'query'}: ${issues[0]!.message}`, issues)
      }
      const filter = scopedFilter(currentUser(c), parsed.data)
      const day = new Date(deps.clock().getTime() + 5.5 * 3600 * 1000).toISOString().slice(0, 10)
      return new Response(stream(deps, filter), {
        headers: {
          'Content-Type': 'text/csv; charset=utf-8',
          'Content-Disposition': `attachment; filename="${name}-${day}.csv"`,
          'Cache-Control': 'no-store',
        },
      })
    }

  endpoint(
    {
      method: 'get',
      path: '/admin/export',
      summary: 'CSV of every order the filters select, in the sort asked (ADMIN or STAFF), streamed',
      description:
        'The same filters as POST /admin-list, in the query. One row per order, with its store, payment state and refunded amount; amounts in rupees with two decimals, times in IST. UTF-8 with a byte order mark. Text cells starting with =, +, -, @, a tab or a carriage return get a leading apostrophe (OWASP "CSV Injection").',
      access: 'staff',
      query: AdminOrderFilterSchema,
      answers: { 200: { description: 'The CSV (RFC 4180), header row first', raw: { mediaType: 'text/csv', schema: z.string() } } },
    },
    requireStaff(deps),
    csvExport('orders', exportOrdersCsv),
  )

  endpoint(
    {
      method: 'get',
      path: '/admin/export/lines',
      summary: 'CSV of the lines of every order the filters select (ADMIN or STAFF), streamed',
      description:
        'The same filters as GET /admin/export. One row per order line: order number, placed at, status, store, line, SKU, product, brand, unit, quantity, MRP, selling price, line total, refunded; amounts in rupees with two decimals. UTF-8 with a byte order mark; cells guarded as in GET /admin/export.',
      access: 'staff',
      query: AdminOrderFilterSchema,
      answers: { 200: { description: 'The CSV (RFC 4180), header row first', raw: { mediaType: 'text/csv', schema: z.string() } } },
    },
    requireStaff(deps),
    csvExport('order-lines', exportOrderLinesCsv),
  )

  endpoint(
    {
      method: 'post',
      path: '/admin/packing-slips',
      summary: "Packing slips (ADMIN or STAFF): one store's packed orders, or the orders named, each with its lines in pick order",
      description:
        "Send exactly one of `storeId` (that store's orders in status `packed`, oldest first, at most 100; `totalCount` counts them all) or `orderIds` (`_id`s or order numbers, at most 100, in the order given; `missing` lists those that are no order); neither or both is a 400. " +
        'Each line carries its product\'s aisle (`category`, `subCategory`: the first by the catalogue\'s link positions, null when none) and the lines come in pick order: category, then sub category, then product name (docs/commerce-api.md, "Packing slips").',
      access: 'staff',
      body: PackingSlipsSchema,
      answers: { 200: { description: 'The slips', data: z.array(PackingSlipSchema), extra: PackingSlipsExtraShape } },
      errors: [403, 404],
    },
    requireStaff(deps),
    async (c, input) => {
      // A staff member prints their own store's slips only (docs/product.md, "Staff"): another store is a 403, another store's order not found.
      const user = currentUser(c)
      if (input.storeId) assertOwnStore(user, input.storeId)
      const { slips, totalCount, missing } = await packingSlips(deps, input, staffStoreOf(user))
      return ok(c, `${slips.length} packing ${slips.length === 1 ? 'slip' : 'slips'}`, slips, { totalCount, missing })
    },
  )

  endpoint(
    {
      method: 'post',
      path: '/bulk-status',
      summary: 'Move several orders to one status (ADMIN or STAFF), each on its own with its outcome',
      description:
        'Each order is moved as PUT /update-status moves one (the same allowed moves, stock back on a cancellation, `reason` kept for a cancellation, a paid order cancelled by an admin only), in its own transaction: an order that may not move is reported and the others still move. `delivery_failed` is refused (400): each failed delivery needs its own reason (PUT /update-status).',
      access: 'staff',
      body: BulkStatusSchema,
      answers: {
        200: {
          description: 'One outcome per order, in the order given; `moved` and `refused` count them',
          data: z.array(BulkStatusOutcomeSchema),
          extra: { moved: z.number(), refused: z.number() },
        },
      },
    },
    requireStaff(deps),
    async (c, input) => {
      const outcomes = await bulkChangeStatus(deps, {
        orderIds: input.orderIds,
        to: input.status,
        byUserId: currentUser(c).id,
        // Cancelling a paid order refunds it: an admin's only (docs/product.md, "Roles and permissions").
        mayRefund: currentUser(c).role === 'ADMIN',
        onlyStoreId: staffStoreOf(currentUser(c)) ?? undefined,
        reason: input.reason,
      })
      const moved = outcomes.filter((o) => o.ok).length
      return ok(c, `${moved} of ${outcomes.length} orders updated`, outcomes, { moved, refused: outcomes.length - moved })
    },
  )

  endpoint(
    {
      method: 'put',
      path: '/update-status',
      summary:
        'Move an order along its life cycle (ADMIN or STAFF); `version` as read makes a stale change a 409; `reason` is kept for a cancellation; cancelling a paid order refunds it and is ADMIN only (403 for STAFF); `delivery_failed` (from out for delivery) needs `failureReason` (and `failureNote` for `other`), returns the stock and refunds a paid order in full',
      access: 'staff',
      body: UpdateStatusSchema,
      answers: { 200: { description: 'The updated order', ...order } },
      errors: [400, 404, 409],
    },
    requireStaff(deps),
    async (c, input) => {
      const order = await changeStatus(deps, {
        ref: input.orderId,
        to: input.status,
        byUserId: currentUser(c).id,
        // Cancelling a paid order refunds it: an admin's only (docs/product.md, "Roles and permissions").
        mayRefund: currentUser(c).role === 'ADMIN',
        onlyStoreId: staffStoreOf(currentUser(c)) ?? undefined,
        version: input.version,
        reason: input.reason,
        ...(input.status === 'delivery_failed' && input.failureReason
          ? { failure: { reason: input.failureReason, note: input.failureNote } }
          : {}),
      })
      return ok(c, 'Order status updated', order)
    },
  )

  endpoint(
    {
      method: 'post',
      path: '/reorder',
      summary: "Order again: add one of the user's orders to the cart, capped by today's stock and the per-line maximum",
      description:
        "Each line is added to what the cart holds at the quantity ordered, in one transaction; products no longer sold or out of stock are skipped. `leftOut` lists every line skipped or added in part with its reason; `added` counts the units added. Another user's order is a 404 (an admin's too). Spends one cart write.",
      access: 'user',
      body: OrderRefSchema,
      answers: {
        200: {
          description: 'The cart after it: the lines oldest first, the bill, the limits, the units added and what was left out',
          data: z.array(CartItemSchema),
          extra: { ...CartExtraShape, ...ReorderExtraShape },
        },
      },
      errors: [404, 429],
    },
    requireUser(deps),
    async (c, { orderId }) => {
      const user = currentUser(c)
      await spendCartWrite(deps, c, { kind: 'user', userId: user.id })
      const outcome = await reorder({ ...deps, storeId: (await requestStore(deps, c.req.header(STORE_HEADER))).id }, user.id, orderId)
      const message =
        outcome.added === 0
          ? 'Nothing could be added to your cart'
          : `Added ${outcome.added} ${outcome.added === 1 ? 'item' : 'items'} to your cart`
      return ok(c, message, outcome.cart.items, {
        bill: outcome.cart.bill,
        limits: outcome.cart.limits,
        added: outcome.added,
        leftOut: outcome.leftOut,
      })
    },
  )

  return router
}
