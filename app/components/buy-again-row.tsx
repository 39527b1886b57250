/**
 * The home page's "Buy again" row (docs/recommendations.md, "Buy again"): the signed-in shopper's
 * earlier products, See All to /buy-again. Nothing for a guest or a shopper without such products.
 *
 * The home page is shared (app/.server/page-cache.ts), so the row is a personal slot (`buy-again`,
 * app/lib/personal-slots.ts), empty in the shared page: a signed-in shopper's products come from
 * `usePersonal().buyAgain` (read beside their cart summary and spliced in, and embedded for the
 * first client render), or from the home loader on a page rendered for them alone (`fromLoader`).
 * The first list seen is kept for the page's life: the root loader's later answers (after a cart
 * change) carry no `buyAgain`, and the row must not vanish when the shopper presses ADD in it.
 */
import { useState } from 'react'
import { usePersonal } from '../lib/personal.ts'
import type { ProductCardData } from '../lib/catalog-cards.ts'
import { ProductRow } from './product-row.tsx'
import { BUY_AGAIN_HOME_CARDS } from '../../contract/recommend.ts'

export function BuyAgainRow({ fromLoader }: { fromLoader?: ProductCardData[] }) {
  const personal = usePersonal()
  const seen = personal.buyAgain ?? fromLoader
  const [first] = useState(seen)
  const products = (seen && seen.length > 0 ? seen : first) ?? []
  if (personal.user === null || products.length === 0) return null
  return <ProductRow title="Buy again" seeAllHref="/buy-again" products={products.slice(0, BUY_AGAIN_HOME_CARDS)} headingId="buy-again" />
}
