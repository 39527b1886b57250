/**
 * The recommendation rows' upstream calls (docs/recommendations.md, "API"): "Buy again",
 * "Frequently bought together" and "You might have missed", each in the session's store. A row that
 * fails for want of the API is left out (an empty row) rather than failing the page it sits on:
 * these rows are extras beside the page's own content.
 */
import { notePageAvailabilityOrdered } from '../page-shows.ts'
import { parseData, upstream } from '../upstream.ts'
import { BuyAgainSchema, RecommendationRowSchema, TOGETHER_MAX } from '../../../contract/recommend.ts'
import type { Product } from '../../../contract/product.ts'
import { toCardData, type ProductCardData } from '../../lib/catalog-cards.ts'
import type { WholeCart } from '../../lib/personal.ts'
import type { Api } from '../api-context.ts'
import type { RequestSession } from '../session.ts'

/** Options every call accepts: the shopper's address for the API's per-IP limits. */
export interface RecommendCallOptions {
  clientIp?: string
}

/**
 * "Frequently bought together" for a product page (POST /api/recommend/together): at most 8
 * products in stock; empty for an unknown product or when the API fails.
 */
export async function frequentlyBoughtTogether(api: Api, productId: string, opts?: RecommendCallOptions): Promise<Product[]> {
  // In-stock products only: the page changes when one of them crosses 0.
  notePageAvailabilityOrdered()
  const result = parseData(
    await upstream(api, 'recommend/together', { json: { productId }, clientIp: opts?.clientIp }),
    RecommendationRowSchema,
  )
  return result.ok ? result.data.products : []
}

/** "You might have missed" for a cart's products (POST /api/recommend/missed); empty for an empty cart or when the API fails. */
export async function youMightHaveMissed(api: Api, productIds: string[], opts?: RecommendCallOptions): Promise<Product[]> {
  if (productIds.length === 0) return []
  const result = parseData(
    await upstream(api, 'recommend/missed', { json: { productIds: productIds.slice(0, 50) }, clientIp: opts?.clientIp }),
    RecommendationRowSchema,
  )
  return result.ok ? result.data.products : []
}

/**
 * The cart page's "You might have missed" cards (`youMightHaveMissed` for the cart's products), at
 * most TOGETHER_MAX, as cards without the pack-size picker (a row's cards: app/components/product-row.tsx).
 */
export async function missedCards(api: Api, cart: Pick<WholeCart, 'lines'>, opts?: RecommendCallOptions): Promise<ProductCardData[]> {
  const products = await youMightHaveMissed(
    api,
    cart.lines.map((line) => line.productId._id),
    opts,
  )
  return products.slice(0, TOGETHER_MAX).map(({ packSizes: _sizes, ...product }) => toCardData(product))
}

/**
 * The signed-in shopper's "Buy again" products (POST /api/recommend/buy-again), most often and most
 * recently ordered first; null when the API refuses (signed out) or fails.
 */
export async function buyAgainProducts(api: Api, session: RequestSession, opts?: RecommendCallOptions): Promise<Product[] | null> {
  if (!session.user) return null
  const result = parseData(await upstream(api, 'recommend/buy-again', { json: {}, session, clientIp: opts?.clientIp }), BuyAgainSchema)
  return result.ok ? result.data.products : null
}
