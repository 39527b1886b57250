/**
 * Filters, sorting and facets of product lists (docs/search.md, "Facets and sorting"): optional body
 * fields of POST /api/product/search-product, /api/product/get and
 * /api/product/get-product-by-category-and-subcategory. All absent means the answer of old, so the
 * original client is served exactly as before.
 *
 * - `brand`: a brand or a list of brands (any of them; compared without regard to case);
 * - `price`: a selling-price band id of `PRICE_BANDS` ("100-200": ₹100 up to, not including, ₹200);
 * - `discount`: a least discount in percent, one of `DISCOUNT_STEPS`;
 * - `sort`: `relevance` (default: best match for a search, newest first for a listing),
 *   `price_asc`, `price_desc` (selling price) or `discount` (largest first);
 * - `facets: true` adds `facets` to the answer (counts per brand, price band and discount step).
 */
import { z } from 'zod'
import { CONTROL_CHARACTERS } from '../category/catalog-schemas.ts'
import { ProductSearchSchema, ProductsByCategoryAndSubCategorySchema } from '../product/schemas.ts'

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

/** Orders of a list. */
export const SORTS = ['relevance', 'price_asc', 'price_desc', 'discount'] as const
export type Sort = (typeof SORTS)[number]

/** Most brands one request may name. */
export const MAX_BRANDS = 20
/** Longest brand name accepted. */
export const MAX_BRAND_LENGTH = 100

const BrandSchema = z
  .string({ error: 'Expected a brand name (text)' })
  .trim()
  .max(MAX_BRAND_LENGTH, `A brand name has at most ${MAX_BRAND_LENGTH} characters`)
  .refine((text) => !CONTROL_CHARACTERS.test(text), 'A brand name must be one line of text')

/** The optional list fields (see the module comment), with their defaults. */
export const ListOptionsSchema = z.object({
  brand: z
    .union([BrandSchema.transform((b) => [b]), z.array(BrandSchema).max(MAX_BRANDS, `At most ${MAX_BRANDS} brands`)], {
      error: 'Expected a brand or a list of brands',
    })
    .nullish()
    .transform((brands) => [...new Set((brands ?? []).filter((b) => b !== ''))]),
  price: z
    .union([z.literal(''), z.enum(PRICE_BANDS.map((b) => b.id) as [PriceBandId, ...PriceBandId[]])], {
      error: `Expected a price band: ${PRICE_BANDS.map((b) => b.id).join(', ')}`,
    })
    .nullish()
    .transform((v) => (v ? v : null)),
  discount: z
    .union([z.number(), z.literal('').transform(() => null), z.string().regex(/^\d+$/).transform(Number)], {
      error: `Expected a least discount: ${DISCOUNT_STEPS.join(', ')}`,
    })
    .nullish()
    .refine(
      (v) => v == null || (DISCOUNT_STEPS as readonly number[]).includes(v),
      `Expected a least discount: ${DISCOUNT_STEPS.join(', ')}`,
    )
    .transform((v) => v ?? null),
  sort: z
    .enum(SORTS, { error: `Expected a sort: ${SORTS.join(', ')}` })
    .nullish()
    .transform((v) => v ?? 'relevance'),
  facets: z
    .boolean({ error: 'Expected true or false' })
    .nullish()
    .transform((v) => v ?? false),
})
export type ListOptions = z.output<typeof ListOptionsSchema>

/** Whether `options` change anything about a list (filters, a sort other than the default, facets). */
export function changesList(options: ListOptions): boolean {
  return options.brand.length > 0 || options.price !== null || options.discount !== null || options.sort !== 'relevance' || options.facets
}

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

/** POST /api/product/get and /api/product/search-product: `{ search, page, limit }` and the list options. */
export const SearchRequestSchema = ProductSearchSchema.extend(ListOptionsSchema.shape)
/** POST /api/product/get-product-by-category-and-subcategory: the listing's fields and the list options. */
export const ListingRequestSchema = ProductsByCategoryAndSubCategorySchema.extend(ListOptionsSchema.shape)
