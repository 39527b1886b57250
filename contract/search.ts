/**
 * The search and list options shared by the API and the storefront (docs/search.md): the values the
 * list filters and sorts take, read by the API's request schemas (api/modules/search/schemas.ts) and
 * offered by the storefront as GET parameters (app/lib/list-filters.ts), and the optional answer
 * fields (`facets`, `understood`) both sides read. No dependency, so the browser's bundle of a list
 * page stays free of zod; the answer schemas are in contract/search-answers.ts.
 */

/** Selling-price bands in rupees, `max` excluded (null: no upper bound). */
export const PRICE_BANDS = [
  { id: '0-50', label: 'Under ₹50', min: 0, max: 50 },
  { id: '50-100', label: '₹50 to ₹100', min: 50, max: 100 },
  { id: '100-200', label: '₹100 to ₹200', min: 100, max: 200 },
  { id: '200-500', label: '₹200 to ₹500', min: 200, max: 500 },
  { id: '500-1000', label: '₹500 to ₹1,000', min: 500, max: 1000 },
  { id: '1000-', label: '₹1,000 and above', min: 1000, max: null },
] as const
export type PriceBandId = (typeof PRICE_BANDS)[number]['id']

/** Least discounts (percent) a list may be narrowed to. */
export const DISCOUNT_STEPS = [10, 25, 40] as const

/**
 * Orders of a list, with the label a shopper reads (docs/search.md, "Facets and sorting").
 * `relevance` is a search's best match and, for the original client, a listing's newest-first order
 * (the API's default, unchanged); `popular` puts the most ordered products first (order lines per
 * product), `newest` the latest added. The storefront's listings default to `popular`.
 */
export const SORTS = ['relevance', 'popular', 'newest', 'price_asc', 'price_desc', 'discount'] as const
export type Sort = (typeof SORTS)[number]
export const SORT_LABELS: Record<Sort, string> = {
  relevance: 'Relevance',
  popular: 'Popular',
  newest: 'Newest',
  price_asc: 'Price: low to high',
  price_desc: 'Price: high to low',
  discount: 'Discount',
}

/** Most brands one request may name. */
export const MAX_BRANDS = 20
/** Longest brand name accepted. */
export const MAX_BRAND_LENGTH = 100

/** One value of a facet and how many products of the list (under the other facets' filters) have it. */
export interface FacetValue {
  value: string
  label: string
  count: number
}

/** The facets of a list, answered when asked for with `facets: true`. */
export interface Facets {
  brand: FacetValue[]
  price: FacetValue[]
  discount: FacetValue[]
}

/** What a search was taken to mean, answered beside the products (docs/search.md, "Answer"). */
export interface Understood {
  /** The search as run: corrections applied ("bred" → "bread"), words left out removed. */
  query: string
  /** Typed words and the catalogue words searched for them too: doodh → [milk]. */
  synonyms: Array<{ word: string; means: string[] }>
  /** Typed words corrected by spelling: bred → bread ("Did you mean"). */
  corrections: Array<{ word: string; to: string }>
  /** Typed words that matched nothing in the catalogue and were left out. */
  ignored: string[]
  /** Typed words dropped because no product matched all of them ("brown bread" → bread). */
  relaxed: string[]
  /**
   * Brands typed that the store does not stock, and what was searched instead (what the brand
   * makes): `[{ word: 'parle', showing: ['biscuits'] }]` for "parle g" ("No Parle products; showing
   * biscuits"). Absent when every brand typed is stocked.
   */
  notStocked?: Array<{ word: string; showing: string[] }>
  /**
   * The nearest shelf offered when the search could not find everything typed (`notStocked` or
   * `relaxed` set): the sub category, and its category, of the first product shown. Absent otherwise.
   */
  shelf?: { category: { _id: string; name: string }; subCategory: { _id: string; name: string } }
}
