/**
 * The cart buttons' form (docs/commerce-api.md, "Cart"): `intent=add` with `productId` (one more),
 * `intent=set` with `lineId` and `qty` (0 removes), `intent=remove` with `lineId`. `redirectTo` is the
 * page to go back to without JavaScript, `productId` (on every intent) names the card to scroll back to. Shared by the buttons and the /cart action.
 */
import { z } from 'zod'
import { PLAUSIBLE_ID } from '../../../contract/ids.ts'

const Id = z.string().trim().regex(PLAUSIBLE_ID, 'Not an id')

/** One cart button's submission. */
export const CartActionSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('add'), productId: Id, redirectTo: z.string().max(2048).optional() }),
  z.object({
    intent: z.literal('set'),
    lineId: Id,
    // Digits only: a general coercion reads '' as 0 (removing the line) and '0x0a' or '1e1' as 10.
    qty: z
      .string()
      .regex(/^[0-9]{1,3}$/)
      .transform(Number),
    productId: Id.optional(),
    redirectTo: z.string().max(2048).optional(),
  }),
  z.object({ intent: z.literal('remove'), lineId: Id, productId: Id.optional(), redirectTo: z.string().max(2048).optional() }),
])
