/**
 * Order statuses in words for the pages (docs/commerce-api.md, "Orders"), the happy path the
 * timeline draws, and the next statuses an admin may choose (the API's arrows, api/modules/order/status.ts,
 * which decides; this only picks the buttons to show).
 */
export type OrderStatusName = 'payment_pending' | 'placed' | 'packed' | 'out_for_delivery' | 'delivered' | 'cancelled'

/** Every status, in order along the happy path (an online order waits for its payment first), then cancelled. */
export const ORDER_STATUS_NAMES: readonly OrderStatusName[] = [
  'payment_pending',
  'placed',
  'packed',
  'out_for_delivery',
  'delivered',
  'cancelled',
]

/** The label of each status. */
export const ORDER_STATUS_LABELS: Record<OrderStatusName, string> = {
  payment_pending: 'Payment pending',
  placed: 'Placed',
  packed: 'Packed',
  out_for_delivery: 'Out for delivery',
  delivered: 'Delivered',
  cancelled: 'Cancelled',
}

/** The happy path, in order. */
export const ORDER_PROGRESS: readonly OrderStatusName[] = ['placed', 'packed', 'out_for_delivery', 'delivered']

/** The statuses an admin may move an order to from `status`. */
export function nextStatuses(status: OrderStatusName): OrderStatusName[] {
  switch (status) {
    case 'placed':
      return ['packed', 'cancelled']
    case 'packed':
      return ['out_for_delivery', 'cancelled']
    case 'out_for_delivery':
      return ['delivered']
    default:
      return []
  }
}

/** A status's label; an unknown status reads as itself. */
export function statusLabel(status: string): string {
  return ORDER_STATUS_LABELS[status as OrderStatusName] ?? status
}

const DATE_TIME = new Intl.DateTimeFormat('en-IN', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Asia/Kolkata' })

/** An ISO 8601 time as Indian shoppers read it: "22 Nov 2026, 8:15 pm" (India Standard Time). */
export function formatOrderTime(iso: string): string {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : DATE_TIME.format(date)
}
