/**
 * Order field limits shared by the API's schemas (contract/order.ts) and the pages' forms, in a
 * module without zod so a page that needs only the number does not bundle the schemas.
 */

/** Longest cancellation reason, in characters (docs/commerce-api.md, "Orders"). */
export const CANCEL_REASON_MAX = 300
