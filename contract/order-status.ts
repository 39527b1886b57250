/**
 * The order life cycle (docs/commerce-api.md, "Orders"), in a module without zod so the pages that
 * need only the names and arrows do not bundle the schemas: placed → packed → out_for_delivery →
 * delivered, and cancelled from placed or packed (stock goes back); an order out for delivery that
 * could not be handed over ends `delivery_failed`, returned to its store (stock back, a paid order
 * refunded in full: docs/delivery.md, "Could not deliver"). An online order waits in
 * `payment_pending`, its stock held, until its payment is verified (docs/payments.md); no person
 * moves it from there. The API enforces the arrows (api/modules/order/service.ts); the pages use
 * them only to choose which buttons to show.
 */

/** Every status, in order along the happy path (an online order waits for its payment first), then cancelled, then delivery failed. */
export const ORDER_STATUSES = [
  'payment_pending',
  'placed',
  'packed',
  'out_for_delivery',
  'delivered',
  'cancelled',
  'delivery_failed',
] as const
export type OrderStatus = (typeof ORDER_STATUSES)[number]

/** The statuses each status may move to. */
export const NEXT_STATUSES: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  // Only the payment decides (api/modules/payment/service.ts): paid → placed, expired → cancelled.
  payment_pending: [],
  placed: ['packed', 'cancelled'],
  packed: ['out_for_delivery', 'cancelled'],
  // A failed delivery needs its reason (contract/delivery-failure.ts); the API refuses it without one.
  out_for_delivery: ['delivered', 'delivery_failed'],
  delivered: [],
  cancelled: [],
  delivery_failed: [],
}

/** The statuses an order ends in: nothing moves it from there (its stock is back unless delivered). */
export const ENDED_STATUSES: readonly OrderStatus[] = ['delivered', 'cancelled', 'delivery_failed']

/** The statuses of an order that took no stock in the end (cancelled, or returned after a failed delivery). */
export const RETURNED_STATUSES = ['cancelled', 'delivery_failed'] as const

/** True when an order may move from `from` to `to`. */
export function canMove(from: OrderStatus, to: OrderStatus): boolean {
  return NEXT_STATUSES[from].includes(to)
}
