/**
 * `/home-row/{categoryId}`: the rest of a home row as JSON (docs/product.md, "Home": at least 12
 * products per category, the row scrolling sideways). The home document carries the first
 * HOME_ROW_CARDS cards of each row, which keeps it within its 150 kB budget; a row asks for the rest
 * when it is scrolled near its end or its right button is pressed (app/components/product-row.tsx).
 * Without JavaScript the row shows what the server rendered and its See All link.
 *
 * Answers `{ products: ProductCardData[] }`: the category's cards after the first HOME_ROW_CARDS,
 * from the same grouped by-category call as the home page (one card per pack group, at most 15 per
 * category: api/modules/product, "get-product-by-category"), in the shopper's store (the session's
 * `X-Store-Id`). An id that cannot be ours is a 404 without an upstream call; an unknown category
 * answers an empty list.
 */
import { data } from 'react-router'
import type { Route } from './+types/$categoryId'
import { productsByCategoryGrouped } from '../../.server/api/catalog.ts'
import { apiOf } from '../../.server/api-context.ts'
import { clientIp } from '../../.server/request.ts'
import { homeRowCards, HOME_ROW_CARDS } from '../../components/product-row.tsx'
import { PLAUSIBLE_ID } from '../../../contract/ids.ts'

export async function loader({ context, params, request }: Route.LoaderArgs) {
  if (!PLAUSIBLE_ID.test(params.categoryId)) throw data({ message: 'No such category' }, { status: 404 })
  const [row] = await productsByCategoryGrouped(apiOf(context), [params.categoryId], { clientIp: clientIp(request) })
  // Stock is per store and changes: the answer is the shopper's own, never shared.
  return data({ products: homeRowCards(row?.products ?? [], HOME_ROW_CARDS) }, { headers: { 'Cache-Control': 'private, max-age=0' } })
}
