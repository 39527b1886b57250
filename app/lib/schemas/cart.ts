/**
 * The cart buttons' form (docs/commerce-api.md, "Cart"): `intent=add` with `productId` (one more),
 * `intent=set` with `lineId` and `qty` (0 removes), `intent=remove` with `lineId`. `redirectTo` is the
 * page to go back to without JavaScript, `productId` (on every intent) names the card to scroll back to. Shared by the buttons and the /cart action.
 */
import { z } from 'zod'

const Id = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9]{1,64}$/, 'Not an id')

/** One cart button's submission. */
export const CartActionSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('add'), productId: Id, redirectTo: z.string().max(2048).optional() }),
  z.object({
    intent: z.literal('set'),
    lineId: Id,
    qty: z.coerce.number().int().min(0).max(999),
    productId: Id.optional(),
    redirectTo: z.string().max(2048).optional(),
  }),
  z.object({ intent: z.literal('remove'), lineId: Id, productId: Id.optional(), redirectTo: z.string().max(2048).optional() }),
])
