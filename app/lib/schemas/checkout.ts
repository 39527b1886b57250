/**
 * The checkout's "Place Order" form (docs/commerce-api.md, "Orders"): the chosen address and the
 * idempotency key the page was rendered with (8-128 of `[A-Za-z0-9_-]`), so a double submit, a
 * refresh or a retry places one order, and how to pay (UPI, card, netbanking, wallet or cash on
 * delivery). Amounts are never posted: the server prices the order.
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
})
