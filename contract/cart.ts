/**
 * The cart endpoints' bodies and answers (docs/commerce-api.md, "Cart" and "Guest carts"). Money on
 * the wire is in rupees.
 */
import { z } from 'zod'
import { IdSchema, TargetIdSchema } from './fields.ts'
import { ProductSchema } from './product.ts'
import { CartCouponSchema } from './coupon.ts'

/** Most units a quantity field accepts at all; the per-line maximum (12 by default) is checked later. */
export const QTY_FIELD_MAX = 999

/** POST /api/cart/create: `{ productId }`. */
export const AddToCartSchema = z.object({ productId: IdSchema })

/**
 * A cart quantity: a whole number as JSON sends it, or a string of ASCII digits as the original
 * client may send it (docs/api-contract.md, "Conventions"). Nothing else is turned into
 * a number: `null`, `false`, `[]` and `""` (which a general coercion reads as 0, removing the line)
 * and `true`, `[3]`, `"0x0a"`, `"1e1"`, `" 3"` are refused with a 400.
 */
export const QtySchema = z
  .union(
    [
      z.number().int(),
      z
        .string()
        .regex(/^[0-9]{1,6}$/)
        .transform(Number),
    ],
    { error: 'qty must be a whole number' },
  )
  .pipe(z.number().min(0, 'qty cannot be negative').max(QTY_FIELD_MAX, `qty can be at most ${QTY_FIELD_MAX}`))
  // The document states the whole rule (the pipe's bounds apply to both forms): 0-999 as a JSON
  // integer, or as ASCII digits.
  .meta({
    anyOf: [
      { type: 'integer', minimum: 0, maximum: QTY_FIELD_MAX },
      { type: 'string', pattern: '^0{0,3}[0-9]{1,3}$' },
    ],
  })

/** PUT /api/cart/update-qty: `{ _id, qty }`, qty a whole number 0-999 (0 removes the line). */
export const UpdateQtySchema = z.object({ _id: TargetIdSchema, qty: QtySchema })

/** DELETE /api/cart/delete-cart-item: `{ _id }`. */
export const CartLineIdSchema = z.object({ _id: TargetIdSchema })

/** A guest cart id as the API hands it out: 43 base64url characters (256 bits). */
export const GuestCartIdSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{20,128}$/, 'Not a guest cart id')

/** POST /api/cart/merge: `{ guestCartId }`. */
export const MergeCartSchema = z.object({ guestCartId: GuestCartIdSchema })

/**
 * The bill of a cart or an order, in rupees (docs/commerce-api.md, "Cart"). `grandTotal` is the cash
 * to collect, rounded to the rupee; `roundingOff` is what that rounding added (negative: took off).
 */
export const BillSchema = z
  .object({
    itemCount: z.number(),
    itemsTotalMrp: z.number(),
    productDiscount: z.number(),
    itemsTotal: z.number(),
    deliveryCharge: z.number(),
    freeDeliveryAbove: z.number(),
    roundingOff: z.number(),
    grandTotal: z.number(),
    totalSavings: z.number(),
    /**
     * The coupon taken off, when one applies (docs/offers.md, "Applying a code"): its code and the
     * discount in rupees, before delivery and rounding; `grandTotal` is net of it and `totalSavings`
     * includes it. Absent without a coupon (the original client's bill is unchanged).
     */
    couponCode: z.string().optional(),
    couponDiscount: z.number().optional(),
    /**
     * The tip for the delivery partner, whole rupees, outside GST (docs/commerce-api.md, "Tip and
     * delivery instructions"); `grandTotal` includes it. Absent without a tip.
     */
    tip: z.number().optional(),
    /**
     * The named fees (docs/commerce-api.md, "Fees"), rupees, each present only when charged;
     * `grandTotal` includes them: a flat handling charge per order, a small cart fee when the items
     * total is below `smallCartBelow`, a late-night fee for an order placed in `lateNightHours`
     * ("23:00-05:00", IST). The two rules come with a cart's or checkout's bill only, not a placed
     * order's (its fees were the rules of its day).
     */
    handlingCharge: z.number().optional(),
    smallCartFee: z.number().optional(),
    smallCartBelow: z.number().optional(),
    lateNightFee: z.number().optional(),
    lateNightHours: z.string().optional(),
  })
  .meta({ id: 'Bill' })
export type Bill = z.output<typeof BillSchema>

/**
 * `shownFees` of a placement (POST /api/order/cash-on-delivery, /api/payment/start): the sum of the
 * named fees the checkout's bill showed, rupees (handling charge + small cart fee + late-night fee;
 * docs/commerce-api.md, "Fees"). Fees now different: 409 with the bill as it is now, nothing ordered.
 */
export const ShownFeesSchema = z
  .number({ error: 'shownFees must be an amount in rupees' })
  .min(0, 'shownFees cannot be negative')
  .max(300_000, 'shownFees must be at most ₹300000')

/** The cart's limits, answered beside its lines: units per line, delivery charge and free delivery threshold (rupees). */
export const CartLimitsSchema = z
  .object({ maxQtyPerLine: z.number(), deliveryCharge: z.number(), freeDeliveryAbove: z.number() })
  .meta({ id: 'CartLimits' })
export type CartLimits = z.output<typeof CartLimitsSchema>

/** One cart line: its id, today's product, the quantity, and the owner (null for a guest cart). */
export const CartItemSchema = z
  .object({ _id: z.string(), productId: ProductSchema, quantity: z.number(), userId: z.string().nullable() })
  .meta({ id: 'CartItem' })
export type CartItem = z.output<typeof CartItemSchema>

/**
 * The keys answered beside a whole cart's `data` (its lines): the bill, the limits and, for a
 * signed-in shopper, the coupon applied (null: none; docs/offers.md, "Applying a code").
 */
export const CartExtraShape = { bill: BillSchema, limits: CartLimitsSchema, coupon: CartCouponSchema.nullable().optional() }

/** The answer of POST /api/cart/guest. */
export const GuestCartAnswerSchema = z.object({ guestCartId: z.string() })
