/**
 * The id rules both sides share, in a module without zod so a page that only checks an id does not
 * bundle the schemas. Ids are opaque text to the API (docs/api.md, "The folder contract/"); ours, and
 * order numbers, are short runs of ASCII letters and digits, so anything else cannot name a row and is
 * answered "not found" without a query.
 */

/** Longest id accepted, in characters. */
export const ID_MAX_LENGTH = 64

/** An id that could be ours or an order number: 1 to {@link ID_MAX_LENGTH} ASCII letters or digits. */
export const PLAUSIBLE_ID = /^[A-Za-z0-9]{1,64}$/
