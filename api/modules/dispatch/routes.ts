/**
 * Routes of delivery partners and dispatch (docs/delivery.md):
 *
 * /api/rider (RIDER only; a rider acts on the orders given to it, others are a 404):
 * - GET /me → the shift, the store and the orders in hand
 * - POST /shift `{ onShift }` → the state after it
 * - POST /picked-up `{ orderId }` → packed → out for delivery
 * - POST /delivered `{ orderId, cashCollectedPaise? }` → delivered, the cash kept
 * - POST /could-not-deliver `{ orderId, reason, note? }` → delivery_failed: returned to the store, stock
 *   back, a paid order refunded in full (docs/delivery.md, "Could not deliver")
 * - POST /position `{ orderId, lat, lng, accuracyM }` → kept (one per order every 5 s) while out for
 *   delivery (./tracking.ts; docs/delivery.md, "Live tracking")
 *
 * /api/tracking (a signed-in user; docs/delivery.md, "Live tracking"):
 * - POST /order `{ orderId }` → the live view of the user's own order out for delivery (an admin may
 *   read any; another's is a 404): the rider's first name, the points, the last position, the estimate
 *
 * /api/dispatch:
 * - GET /board (ADMIN or STAFF; staff see their store) → waiting orders and riders per store
 * - POST /assign `{ orderId, riderId | null }` (ADMIN) → the order's rider now
 */
import type { AppDeps } from '../../deps.ts'
import { currentUser, requireAdmin, requireRider, requireStaff, requireUser, staffStoreOf } from '../../lib/auth.ts'
import { ok } from '../../lib/envelope.ts'
import { apiRouter } from '../../lib/openapi.ts'
import {
  AssignAnswerSchema,
  AssignRiderSchema,
  DispatchBoardSchema,
  RiderCouldNotDeliverSchema,
  RiderDeliveredSchema,
  RiderOrderRefSchema,
  RiderShiftSchema,
  RiderStateSchema,
} from '../../../contract/rider.ts'
import { assignRider, dispatchBoard } from './board.ts'
import { couldNotDeliver, delivered, pickedUp, riderState, setShift } from './rider.ts'
import { PositionAnswerSchema, RiderPositionSchema, TrackingSchema } from '../../../contract/tracking.ts'
import { OrderRefSchema } from '../../../contract/order.ts'
import { orderTracking, recordPosition } from './tracking.ts'

const state = { 200: { description: "The rider's shift, store and orders in hand", data: RiderStateSchema } }

/** Builds the /api/rider router (RIDER only). */
export function riderRoutes(deps: AppDeps) {
  const { router, endpoint } = apiRouter('Rider')
  const rider = requireRider(deps)

  endpoint(
    { method: 'get', path: '/me', summary: "The rider's shift, store and orders in hand (RIDER)", access: 'rider', answers: state },
    rider,
    async (c) => ok(c, 'Rider', await riderState(deps, currentUser(c))),
  )

  endpoint(
    {
      method: 'post',
      path: '/shift',
      summary: 'Go on or off shift (RIDER); off shift hands back orders not picked up',
      access: 'rider',
      body: RiderShiftSchema,
      answers: state,
      errors: [409],
    },
    rider,
    async (c, input) => {
      const answer = await setShift(deps, currentUser(c), input.onShift)
      return ok(c, answer.onShift ? 'You are on shift' : 'You are off shift', answer)
    },
  )

  endpoint(
    {
      method: 'post',
      path: '/picked-up',
      summary: 'The packed order given to the rider is picked up: out for delivery (RIDER)',
      access: 'rider',
      body: RiderOrderRefSchema,
      answers: state,
      errors: [404, 409],
    },
    rider,
    async (c, input) => ok(c, 'Out for delivery', await pickedUp(deps, currentUser(c), input.orderId)),
  )

  endpoint(
    {
      method: 'post',
      path: '/delivered',
      summary: "The rider's order is delivered, with the cash collected for cash on delivery (RIDER)",
      access: 'rider',
      body: RiderDeliveredSchema,
      answers: state,
      errors: [404, 409],
    },
    rider,
    async (c, input) =>
      ok(c, 'Delivered', await delivered(deps, currentUser(c), input.orderId, input.cashCollectedPaise, input.deliveryCode)),
  )

  endpoint(
    {
      method: 'post',
      path: '/could-not-deliver',
      summary:
        "The rider's order could not be delivered (RIDER): it ends delivery_failed with the reason, returned to the store (stock back, a paid order refunded in full, a cash-on-delivery order closed without charge); `note` is required for `other` (400)",
      access: 'rider',
      body: RiderCouldNotDeliverSchema,
      answers: state,
      errors: [400, 404, 409],
    },
    rider,
    async (c, input) =>
      ok(
        c,
        'Order returned to the store: delivery failed',
        await couldNotDeliver(deps, currentUser(c), input.orderId, { reason: input.reason, note: input.note }),
      ),
  )

  endpoint(
    {
      method: 'post',
      path: '/position',
      summary: "The rider's position for its order out for delivery (RIDER); one kept per order every 5 s, others answered stored: false",
      access: 'rider',
      body: RiderPositionSchema,
      answers: { 200: { description: 'Whether the report was kept, and when', data: PositionAnswerSchema } },
      errors: [404, 409],
    },
    rider,
    async (c, input) => {
      const answer = await recordPosition(deps, currentUser(c), input)
      return ok(c, answer.stored ? 'Position kept' : 'Position already kept in the last 5 seconds', answer)
    },
  )

  return router
}

/** Builds the /api/tracking router (a signed-in user: the order's shopper, or an admin). */
export function trackingRoutes(deps: AppDeps) {
  const { router, endpoint } = apiRouter('Tracking')
  endpoint(
    {
      method: 'post',
      path: '/order',
      summary: "Live tracking of one order out for delivery (the user's own; an admin may read any); tracking null in other statuses",
      access: 'user',
      body: OrderRefSchema,
      answers: { 200: { description: 'The live view', data: TrackingSchema } },
      errors: [404],
    },
    requireUser(deps),
    async (c, { orderId }) => ok(c, 'Order tracking', await orderTracking(deps, currentUser(c), orderId)),
  )
  return router
}

/** Builds the /api/dispatch router. */
export function dispatchRoutes(deps: AppDeps) {
  const { router, endpoint } = apiRouter('Dispatch')

  endpoint(
    {
      method: 'get',
      path: '/board',
      summary: 'Per store, the packed orders waiting for a rider and its riders (ADMIN or STAFF; staff see their store)',
      access: 'staff',
      answers: { 200: { description: 'The board', data: DispatchBoardSchema } },
    },
    requireStaff(deps),
    async (c) => ok(c, 'Dispatch board', await dispatchBoard(deps, staffStoreOf(currentUser(c)) ?? undefined)),
  )

  endpoint(
    {
      method: 'post',
      path: '/assign',
      summary: "Give a packed order to a rider of its store, or back to the store's queue with null (ADMIN)",
      access: 'admin',
      body: AssignRiderSchema,
      answers: { 200: { description: "The order's rider now", data: AssignAnswerSchema } },
      errors: [404, 409],
    },
    requireAdmin(deps),
    async (c, input) => {
      const answer = await assignRider(deps, currentUser(c).id, input)
      return ok(c, answer.riderId ? 'Rider assigned' : 'Back in the queue', answer)
    },
  )

  return router
}
