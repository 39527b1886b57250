/**
 * The recommendation rows' wire shapes (docs/recommendations.md): "Buy again", "Frequently bought
 * together" (product page) and "You might have missed" (cart). Every row answers published products
 * in stock in the shopper's store, as `ProductSchema` cards.
 */
import { z } from 'zod'
import { ProductSchema } from './product.ts'
import { ID_MAX_LENGTH } from './ids.ts'

/** Cards in a "Buy again" answer (the home row shows the first of them, the page all). */
export const BUY_AGAIN_MAX = 24
/** Cards of the home page's "Buy again" row (the page lists them all). */
export const BUY_AGAIN_HOME_CARDS = 12
/** Cards in a "Frequently bought together" or "You might have missed" row. */
export const TOGETHER_MAX = 8
/** Products of a cart the "You might have missed" row is asked for (a cart holds at most this many lines worth mining). */
export const BASKET_IDS_MAX = 50

/** POST /api/recommend/together: the rules of one product (its page). */
export const TogetherInputSchema = z.object({
  productId: z.string({ error: 'Expected a product id (text)' }).min(1, 'Expected a product id').max(ID_MAX_LENGTH, 'Not an id'),
})
export type TogetherInput = z.output<typeof TogetherInputSchema>

/** POST /api/recommend/missed: the products of a basket (the cart), none of which is answered. */
export const MissedInputSchema = z.object({
  productIds: z
    .array(z.string().min(1, 'Expected a product id').max(ID_MAX_LENGTH, 'Not an id'), { error: 'Expected a list of product ids' })
    .max(BASKET_IDS_MAX, `At most ${BASKET_IDS_MAX} products`),
})
export type MissedInput = z.output<typeof MissedInputSchema>

/** One recommendation row: its cards, and whether they came from the mined rules or the shelf's best sellers. */
export const RecommendationRowSchema = z
  .object({
    products: z.array(ProductSchema),
    /** `rules`: at least one card from the association rules; `best-sellers`: only the fallback. */
    source: z.enum(['rules', 'best-sellers']),
  })
  .meta({ id: 'RecommendationRow' })
export type RecommendationRow = z.output<typeof RecommendationRowSchema>

/** POST /api/recommend/buy-again: the shopper's earlier products, most often and most recently ordered first. */
export const BuyAgainSchema = z.object({ products: z.array(ProductSchema) }).meta({ id: 'BuyAgain' })
export type BuyAgain = z.output<typeof BuyAgainSchema>
