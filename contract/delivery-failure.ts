/**
 * Why a delivery failed (docs/delivery.md, "Could not deliver"; docs/decisions/0072-delivery-failed.md):
 * the fixed list a rider (or an admin) chooses from when an order out for delivery cannot be handed
 * over, and the words the pages, mails and CSV export use. `other` needs a short note. A module
 * without zod, so the database schema and the pages that need only the names do not bundle zod.
 */

/** The reasons, as stored (`orders.delivery_failure_reason`) and sent on the wire. */
export const DELIVERY_FAILURE_REASONS = ['not_reachable', 'address_not_found', 'refused', 'other'] as const
export type DeliveryFailureReason = (typeof DELIVERY_FAILURE_REASONS)[number]

/** Each reason in words, as the shopper, the rider and the admin read it. */
export const DELIVERY_FAILURE_WORDS: Readonly<Record<DeliveryFailureReason, string>> = {
  not_reachable: 'Customer not reachable',
  address_not_found: 'Address not found',
  refused: 'Customer refused the order',
  other: 'Other',
}

/** Most characters of the note of a failed delivery (required for `other`, optional otherwise). */
export const DELIVERY_FAILURE_NOTE_MAX = 120

/** The messages of a bad reason or note, shared by the API's 400s and the pages. */
export const DELIVERY_FAILURE_MESSAGES = {
  reasonRequired: 'Choose why the order could not be delivered',
  noteRequired: 'Say in a few words why the order could not be delivered',
  noteTooLong: `The note must be at most ${DELIVERY_FAILURE_NOTE_MAX} characters`,
  notePlain: 'The note must be plain text',
  bulkRefused: 'Mark a failed delivery one order at a time, with its reason',
} as const

/** False for `other` without a note (after trimming): "Other" says nothing without it. */
export function deliveryFailureNoteGiven(failure: { reason: DeliveryFailureReason; note?: string | null }): boolean {
  return failure.reason !== 'other' || Boolean(failure.note?.trim())
}

/** True when `value` is one of the reasons. */
export function isDeliveryFailureReason(value: unknown): value is DeliveryFailureReason {
  return typeof value === 'string' && (DELIVERY_FAILURE_REASONS as readonly string[]).includes(value)
}

/**
 * A failed delivery in words: the reason's words, or for `other` the note ("Other" when none was
 * given); another reason with a note adds it after a dash ("Address not found — gate locked").
 */
export function deliveryFailureText(reason: DeliveryFailureReason, note: string | null | undefined): string {
  if (reason === 'other') return note || DELIVERY_FAILURE_WORDS.other
  return note ? `${DELIVERY_FAILURE_WORDS[reason]} — ${note}` : DELIVERY_FAILURE_WORDS[reason]
}

/** `n` rupees as the pages and mails write them: ₹256 for whole rupees, ₹255.81 otherwise. */
const rupees = (n: number) => `₹${Number.isInteger(n) ? String(n) : n.toFixed(2)}`

/**
 * What happens to the money of an order whose delivery failed, in words (docs/delivery.md, "Could
 * not deliver"), for the shopper's page and the mail: a paid order's full refund (on its way, done,
 * or failed and left to support), or nothing charged for one that was to be paid in cash. Amounts
 * in rupees, as on the wire.
 */
export function failedDeliveryMoneyWords(order: { payment: { state: string; refunded: number }; totalAmt: number }): string {
  if (order.payment.state === 'cod') return 'Nothing is charged: it was to be paid in cash on delivery.'
  const amount = rupees(order.payment.refunded || order.totalAmt)
  if (order.payment.state === 'refunded') return `Your payment of ${amount} has been refunded in full.`
  if (order.payment.state === 'refund_failed') return `The refund of ${amount} failed: our support team will settle it.`
  return `Your payment of ${amount} is being refunded in full, to the way you paid.`
}
