/**
 * Routes of /api/order (docs/commerce-api.md, "Orders").
 *
 * - POST /cash-on-delivery `{ addressId }` + `Idempotency-Key` header (or `idempotencyKey` in the
 *   body) → 201 the order (200 the same order for a repeated key); 409 with `changes` beside the
 *   failure envelope when prices or stock moved (the cart was corrected); 400 empty cart; 404 address
 * - GET /order-list → the user's orders, newest first
 * - POST /details `{ orderId }` → one order (own; an admin may read any)
 * - POST /cancel `{ orderId }` → the shopper cancels a placed order (stock returns)
 * - POST /admin-list `{ status?, page, limit }` (admin) → `data`, `totalCount`, `totalNoPage`
 * - PUT /update-status `{ orderId, status, version? }` (admin)
 */
import { Hono } from 'hono'
import type { AppDeps } from '../../deps.ts'
import { currentUser, requireAdmin, requireUser } from '../../lib/auth.ts'
import { failure, ok } from '../../lib/envelope.ts'
import { BadRequest } from '../../lib/errors.ts'
import { consume } from '../../lib/rate-limit.ts'
import { readBody } from '../../lib/validate.ts'
import { AdminListSchema, OrderRefSchema, PlaceOrderSchema, UpdateStatusSchema } from '../../../contract/order.ts'
import { IdempotencyKeySchema } from '../../../contract/idempotency.ts'
import { adminListOrders, changeStatus, listOrders, ORDER_PLACED, orderDetails, placeCashOnDelivery } from './service.ts'

/** Builds the /api/order router. */
export function orderRoutes(deps: AppDeps) {
  const r = new Hono()

  r.post('/cash-on-delivery', requireUser(deps), async (c) => {
    const body = await readBody(c, PlaceOrderSchema)
    const key = IdempotencyKeySchema.safeParse(c.req.header('idempotency-key') ?? body.idempotencyKey)
    if (!key.success) {
      const message = key.error.issues[0]!.message
      throw BadRequest(message, [{ path: 'idempotencyKey', message }])
    }
    const user = currentUser(c)
    await consume(deps.rateLimits.orderByUser, user.id)
    const outcome = await placeCashOnDelivery(deps, user, { addressId: body.addressId, idempotencyKey: key.data })
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
  })

  r.get('/order-list', requireUser(deps), async (c) => ok(c, 'Order list', await listOrders(deps, currentUser(c).id)))

  r.post('/details', requireUser(deps), async (c) => {
    const { orderId } = await readBody(c, OrderRefSchema)
    return ok(c, 'Order details', await orderDetails(deps, currentUser(c), orderId))
  })

  r.post('/cancel', requireUser(deps), async (c) => {
    const { orderId } = await readBody(c, OrderRefSchema)
    const user = currentUser(c)
    return ok(c, 'Order cancelled', await changeStatus(deps, { ref: orderId, to: 'cancelled', byUserId: user.id, onlyUserId: user.id }))
  })

  r.post('/admin-list', requireAdmin(deps), async (c) => {
    const query = await readBody(c, AdminListSchema)
    const page = await adminListOrders(deps, query)
    return ok(c, 'Orders', page.data, { totalCount: page.totalCount, totalNoPage: page.totalNoPage })
  })

  r.put('/update-status', requireAdmin(deps), async (c) => {
    const input = await readBody(c, UpdateStatusSchema)
    const order = await changeStatus(deps, { ref: input.orderId, to: input.status, byUserId: currentUser(c).id, version: input.version })
    return ok(c, 'Order status updated', order)
  })

  return r
}
