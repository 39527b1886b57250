/**
 * The filters and sort of a product list as GET parameters (docs/search.md, "Facets and sorting"), so
 * a filtered list works without JavaScript and can be shared as a link: `?brand=Amul&brand=Nandini`
 * (any of them), `?price=100-200` (a selling-price band), `?discount=25` (25 % off or more),
 * `?sort=price_asc`. Values the API does not offer are dropped rather than refused: a hand-edited
 * link still shows the list. Shared by the loaders and the facet form (app/components/list-facets.tsx).
 */
import { DISCOUNT_STEPS, MAX_BRAND_LENGTH, MAX_BRANDS, PRICE_BANDS, SORTS, type PriceBandId, type Sort } from '../../contract/search.ts'

export { DISCOUNT_STEPS, PRICE_BANDS, SORT_LABELS, SORTS, type Facets, type FacetValue, type Sort } from '../../contract/search.ts'

/** The filters and sort read from a URL. */
export interface ListFilters {
  brand: string[]
  price: PriceBandId | null
  discount: number | null
  sort: Sort
}

/** The GET parameters that belong to the filters (kept apart from `q` and paging). */
export const FILTER_PARAMS = ['brand', 'price', 'discount', 'sort'] as const

// Control characters never belong in a brand name (the API refuses them).
const CONTROL = /\p{Cc}/u

/** Reads the filters of `url` (see the module comment). */
export function readListFilters(url: URL): ListFilters {
  const brand = [
    ...new Set(
      url.searchParams
        .getAll('brand')
        .map((b) => b.trim())
        .filter((b) => b !== '' && b.length <= MAX_BRAND_LENGTH && !CONTROL.test(b)),
    ),
  ].slice(0, MAX_BRANDS)
  const priceParam = url.searchParams.get('price')
  const price = PRICE_BANDS.find((b) => b.id === priceParam)?.id ?? null
  const discountParam = Number(url.searchParams.get('discount'))
  const discount = (DISCOUNT_STEPS as readonly number[]).includes(discountParam) ? discountParam : null
  const sortParam = url.searchParams.get('sort')
  const sort = (SORTS as readonly string[]).includes(sortParam ?? '') ? (sortParam as Sort) : 'relevance'
  return { brand, price, discount, sort }
}

/** Whether any filter is set (the sort does not count). */
export function hasFilters(filters: ListFilters): boolean {
  return filters.brand.length > 0 || filters.price !== null || filters.discount !== null
}

/** The fields of an API list request for `filters` (docs/search.md); `facets` asks for the counts. */
export function filtersBody(filters: ListFilters): Record<string, unknown> {
  return {
    ...(filters.brand.length ? { brand: filters.brand } : {}),
    ...(filters.price ? { price: filters.price } : {}),
    ...(filters.discount !== null ? { discount: filters.discount } : {}),
    ...(filters.sort !== 'relevance' ? { sort: filters.sort } : {}),
    facets: true,
    // Pack sizes of one product are one card with a size picker (docs/product.md, "Pack sizes").
    groupSizes: true,
  }
}

/** A stable text of the filters, to tell one filtered list from another (paging scopes). */
export function filtersKey(filters: ListFilters): string {
  return JSON.stringify([filters.brand, filters.price, filters.discount, filters.sort])
}

/**
 * `search` (a URL's query string) with the filter `name` removed, or only its `value` removed for a
 * brand; paging is dropped (a new filter starts at page 1). Answers `?…` or '' when nothing is left.
 */
export function withoutFilter(search: string, name: (typeof FILTER_PARAMS)[number], value?: string): string {
  const params = new URLSearchParams(search)
  params.delete('page')
  params.delete('single')
  if (name === 'brand' && value !== undefined) {
    const kept = params.getAll('brand').filter((b) => b !== value)
    params.delete('brand')
    for (const b of kept) params.append('brand', b)
  } else {
    params.delete(name)
  }
  const text = params.toString()
  return text ? `?${text}` : ''
}

/** `search` without any filter or sort (paging dropped too): the "clear all" link. */
export function withoutFilters(search: string): string {
  const params = new URLSearchParams(search)
  for (const name of [...FILTER_PARAMS, 'page', 'single']) params.delete(name)
  const text = params.toString()
  return text ? `?${text}` : ''
}
