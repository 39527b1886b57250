/**
 * Order statuses in words for the pages (docs/commerce-api.md, "Orders") and the happy path the
 * timeline draws. The statuses and the arrows an admin may choose are contract/order-status.ts's
 * (the API decides; the pages only pick the buttons to show).
 */
import { NEXT_STATUSES, type OrderStatus } from '../../contract/order-status.ts'

/** The label of each status. */
export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = {
  payment_pending: 'Payment pending',
  placed: 'Placed',
  packed: 'Packed',
  out_for_delivery: 'Out for delivery',
  delivered: 'Delivered',
  cancelled: 'Cancelled',
  delivery_failed: 'Delivery failed',
}

/**
 * Payment states of an order that holds captured money not all refunded: cancelling it refunds the
 * rest (docs/payments.md, "Refunds"), and a line of it can be refunded.
 */
export const REFUNDABLE_PAYMENT_STATES: ReadonlySet<string> = new Set(['paid', 'partially_refunded', 'refund_pending', 'refund_failed'])

/**
 * True when the order desk offers "Cancel order": the order may move to cancelled and, when that
 * would refund a payment, the viewer is an admin (docs/product.md, "Roles and permissions": staff
 * cancel cash-on-delivery and unpaid orders only). The API decides; this only picks the button.
 */
export function offersCancel(order: { status: OrderStatus; payment: { state: string } }, isAdmin: boolean): boolean {
  return NEXT_STATUSES[order.status].includes('cancelled') && (isAdmin || !REFUNDABLE_PAYMENT_STATES.has(order.payment.state))
}

/** The happy path, in order. */
export const ORDER_PROGRESS: readonly OrderStatus[] = ['placed', 'packed', 'out_for_delivery', 'delivered']

/** A status's label; an unknown status reads as itself. */
export function statusLabel(status: string): string {
  return ORDER_STATUS_LABELS[status as OrderStatus] ?? status
}

const DATE_TIME = new Intl.DateTimeFormat('en-IN', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Asia/Kolkata' })

/** An ISO 8601 time as Indian shoppers read it: "22 Nov 2026, 8:15 pm" (India Standard Time). */
export function formatOrderTime(iso: string): string {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : DATE_TIME.format(date)
}
