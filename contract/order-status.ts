/**
 * The order life cycle (docs/commerce-api.md, "Orders"), in a module without zod so the pages that
 * need only the names and arrows do not bundle the schemas: placed → packed → out_for_delivery →
 * delivered, and cancelled from placed or packed (stock goes back). An online order waits in
 * `payment_pending`, its stock held, until its payment is verified (docs/payments.md); no person
 * moves it from there. The API enforces the arrows (api/modules/order/service.ts); the pages use
 * them only to choose which buttons to show.
 */

/** Every status, in order along the happy path (an online order waits for its payment first), then cancelled. */
export const ORDER_STATUSES = ['payment_pending', 'placed', 'packed', 'out_for_delivery', 'delivered', 'cancelled'] as const
export type OrderStatus = (typeof ORDER_STATUSES)[number]

/** The statuses each status may move to. */
export const NEXT_STATUSES: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  // Only the payment decides (api/modules/payment/service.ts): paid → placed, expired → cancelled.
  payment_pending: [],
  placed: ['packed', 'cancelled'],
  packed: ['out_for_delivery', 'cancelled'],
  out_for_delivery: ['delivered'],
  delivered: [],
  cancelled: [],
}

/** True when an order may move from `from` to `to`. */
export function canMove(from: OrderStatus, to: OrderStatus): boolean {
  return NEXT_STATUSES[from].includes(to)
}
