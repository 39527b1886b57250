/**
 * The checkout's "Place Order" form (docs/commerce-api.md, "Orders"): the chosen address and the
 * idempotency key the page was rendered with (8-128 of `[A-Za-z0-9_-]`), so a double submit, a
 * refresh or a retry places one order, and how to pay (UPI, card, netbanking, wallet or cash on
 * delivery). The only amount posted is the coupon discount the page showed, which the server checks
 * against its own (docs/offers.md, "At placement"): the server prices the order.
 */
import { z } from 'zod'
import { IDEMPOTENCY_KEY_PATTERN } from '../../../contract/idempotency.ts'
import { PLAUSIBLE_ID } from '../../../contract/ids.ts'
import { PAYMENT_CHOICES } from '../../../contract/payment.ts'

export const CHOOSE_ADDRESS_MESSAGE = 'Choose a delivery address'

/** Place Order. */
export const PlaceOrderFormSchema = z.object({
  addressId: z.string({ error: CHOOSE_ADDRESS_MESSAGE }).trim().regex(PLAUSIBLE_ID, CHOOSE_ADDRESS_MESSAGE),
  idempotencyKey: z.string({ error: 'Reload the page and try again' }).regex(IDEMPOTENCY_KEY_PATTERN, 'Reload the page and try again'),
  /** How to pay: an online method (the provider's checkout opens) or cash on delivery (docs/payments.md). */
  payment: z.enum(PAYMENT_CHOICES, { error: 'Choose how to pay' }).default('cod'),
  /** The coupon discount the page showed, rupees (docs/offers.md, "At placement"): the API refuses a different one. */
  couponDiscount: z.coerce.number({ error: 'Reload the page and try again' }).min(0).max(100_000).default(0),
})
