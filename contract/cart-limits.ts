/**
 * The cart's default limits (docs/commerce-api.md, "Cart"), in rupees as the wire carries them and in
 * a module without zod, so a page that needs only the numbers does not bundle the schemas. The API
 * starts from these and lets the environment change them (`CART_MAX_QTY_PER_LINE`, `DELIVERY_CHARGE`,
 * `FREE_DELIVERY_ABOVE`); every cart answer carries the limits in force (`limits`), which replace these.
 */
import type { CartLimits } from './cart.ts'

/** 12 units per line, ₹25 delivery, free delivery from an items total of ₹199. */
export const DEFAULT_CART_LIMITS: Readonly<CartLimits> = { maxQtyPerLine: 12, deliveryCharge: 25, freeDeliveryAbove: 199 }
