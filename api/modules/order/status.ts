/**
 * Order statuses in words for the API's messages. The statuses and their arrows live in
 * contract/order-status.ts (docs/commerce-api.md, "Orders"), which the API enforces and the pages read.
 */

/** A status in words ("out for delivery"). */
export const statusWords = (status: string) => status.replaceAll('_', ' ')

/** The 409 message of an arrow that is not allowed. */
export const cannotMoveMessage = (from: string, to: string) => `Cannot change an order from ${statusWords(from)} to ${statusWords(to)}`
