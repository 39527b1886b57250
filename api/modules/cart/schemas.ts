/**
 * Body schemas of the cart endpoints (docs/commerce-api.md, "Cart" and "Guest carts").
 */
import { z } from 'zod'
import { IdSchema, TargetIdSchema } from '../category/catalog-schemas.ts'

/** Most units a quantity field accepts at all; the per-line maximum (12 by default) is checked later. */
export const QTY_FIELD_MAX = 999

/** POST /api/cart/create: `{ productId }`. */
export const AddToCartSchema = z.object({ productId: IdSchema })

/** PUT /api/cart/update-qty: `{ _id, qty }`, qty a whole number 0-999 (0 removes the line). */
export const UpdateQtySchema = z.object({
  _id: TargetIdSchema,
  qty: z.coerce
    .number({ error: 'qty must be a whole number' })
    .int('qty must be a whole number')
    .min(0, 'qty cannot be negative')
    .max(QTY_FIELD_MAX, `qty can be at most ${QTY_FIELD_MAX}`),
})

/** DELETE /api/cart/delete-cart-item: `{ _id }`. */
export const CartLineIdSchema = z.object({ _id: TargetIdSchema })

/** A guest cart id as the API hands it out: 43 base64url characters (256 bits). */
export const GuestCartIdSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{20,128}$/, 'Not a guest cart id')

/** POST /api/cart/merge: `{ guestCartId }`. */
export const MergeCartSchema = z.object({ guestCartId: GuestCartIdSchema })
