/**
 * The order life cycle (docs/commerce-api.md, "Orders"): placed → packed → out_for_delivery →
 * delivered, and cancelled from placed or packed (stock goes back). A shopper may only cancel, and
 * only while the order is placed. An online order waits in payment_pending until its payment is
 * verified (docs/payments.md); no person moves it from there.
 */
import type { OrderStatus } from '../../db/schema.ts'

export { ORDER_STATUSES, type OrderStatus } from '../../db/schema.ts'

/** The statuses each status may move to. */
export const NEXT_STATUSES: Record<OrderStatus, readonly OrderStatus[]> = {
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

/** A status in words ("out for delivery"). */
export const statusWords = (status: string) => status.replaceAll('_', ' ')

/** The 409 message of an arrow that is not allowed. */
export const cannotMoveMessage = (from: string, to: string) => `Cannot change an order from ${statusWords(from)} to ${statusWords(to)}`
