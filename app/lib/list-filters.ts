/**
 * The filters and sort of a product list as GET parameters (docs/search.md, "Facets and sorting"), so
 * a filtered list works without JavaScript and can be shared as a link: `?brand=Amul&brand=Nandini`
 * (any of them), `?price=100-200` (a selling-price band), `?discount=25` (25 % off or more),
 * `?sort=price_asc`. Values the API does not offer are dropped rather than refused: a hand-edited
 * link still shows the list. Without `?sort=` a search is sorted by relevance and a category listing
 * by popularity (docs/search.md, "Default order on the pages"). Shared by the loaders and the facet form (app/components/list-facets.tsx).
 */
import { DISCOUNT_STEPS, MAX_BRAND_LENGTH, MAX_BRANDS, PRICE_BANDS, SORTS, type PriceBandId, type Sort } from '../../contract/search.ts'

export { DISCOUNT_STEPS, PRICE_BANDS, SORT_LABELS, SORTS, type Facets, type FacetValue, type Sort } from '../../contract/search.ts'

/** Which list the filters belong to: a search (`/search`) or a category or sub category listing. */
export type ListKind = 'search' | 'listing'

/** The order of a list whose URL names none (docs/search.md, "Default order on the pages"). */
export const DEFAULT_SORT: Record<ListKind, Sort> = { search: 'relevance', listing: 'popular' }

/**
 * The orders a list offers, the default first. A listing's `relevance` is its newest-first order,
 * offered as "Newest", so a listing leaves it out.
 */
export function sortChoices(kind: ListKind): Sort[] {
  const rest = SORTS.filter((sort) => sort !== DEFAULT_SORT[kind] && !(kind === 'listing' && sort === 'relevance'))
  return [DEFAULT_SORT[kind], ...rest]
}

/** The filters and sort read from a URL. */
export interface ListFilters {
  kind: ListKind
  brand: string[]
  price: PriceBandId | null
  discount: number | null
  sort: Sort
}

/** The GET parameters that belong to the filters (kept apart from `q` and paging). */
export const FILTER_PARAMS = ['brand', 'price', 'discount', 'sort'] as const

// Control characters never belong in a brand name (the API refuses them).
const CONTROL = /\p{Cc}/u

/** Reads the filters of `url`, a list of `kind` (see the module comment). */
export function readListFilters(url: URL, kind: ListKind = 'search'): ListFilters {
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
  const sort = (sortChoices(kind) as string[]).includes(sortParam ?? '') ? (sortParam as Sort) : DEFAULT_SORT[kind]
  return { kind, brand, price, discount, sort }
}

/** Whether the list is in another order than its default. */
export function isSorted(filters: ListFilters): boolean {
  return filters.sort !== DEFAULT_SORT[filters.kind]
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
  return JSON.stringify([filters.kind, filters.brand, filters.price, filters.discount, filters.sort])
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
