/**
 * GET /api/cart/summary (docs/commerce-api.md, "Cart summary"): what every page shows of a cart
 * (the header's count and total, each product's quantity in its stepper) without the products
 * themselves; the same lines, count and items total as GET /api/cart/get answers.
 */
import { z } from 'zod'

/** One line in brief: its id, its product's id, the quantity. */
export const CartSummaryLineSchema = z.object({ _id: z.string(), productId: z.string(), quantity: z.number() })

/** The answer's `data`: lines oldest first, item count, items total in rupees (selling prices) and the per-line maximum. */
export const CartSummaryAnswerSchema = z
  .object({
    lines: z.array(CartSummaryLineSchema),
    itemCount: z.number(),
    itemsTotal: z.number(),
    maxQtyPerLine: z.number(),
  })
  .meta({ id: 'CartSummary' })
export type CartSummaryAnswer = z.output<typeof CartSummaryAnswerSchema>
