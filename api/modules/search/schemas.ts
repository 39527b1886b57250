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
 *   `popular` (most ordered first: the product's order lines), `newest` (latest added first),
 *   `price_asc`, `price_desc` (selling price) or `discount` (largest first);
 * - `facets: true` adds `facets` to the answer (counts per brand, price band and discount step);
 * - `groupSizes: true` lists each pack group once (docs/product.md, "Pack sizes"): its best-ranked
 *   size stands for it, carrying every size in `packSizes`, and the count and facets count groups.
 */
import { z } from 'zod'
import { CONTROL_CHARACTERS, ONE_LINE_OR_EMPTY_PATTERN } from '../../../contract/fields.ts'
import { ProductSearchSchema, ProductsByCategoryAndSubCategorySchema } from '../../../contract/product.ts'
import { DISCOUNT_STEPS, MAX_BRAND_LENGTH, MAX_BRANDS, PRICE_BANDS, SORTS, type PriceBandId } from '../../../contract/search.ts'

export { DISCOUNT_STEPS, PRICE_BANDS, SORTS, type Facets, type FacetValue, type PriceBandId, type Sort } from '../../../contract/search.ts'

const BrandSchema = z
  .string({ error: 'Expected a brand name (text)' })
  .trim()
  .max(MAX_BRAND_LENGTH, `A brand name has at most ${MAX_BRAND_LENGTH} characters`)
  .refine((text) => !CONTROL_CHARACTERS.test(text), 'A brand name must be one line of text')
  .meta({ pattern: ONE_LINE_OR_EMPTY_PATTERN })

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
    .transform((v) => v ?? null)
    // The document lists the steps themselves (as numbers or digits), not any number.
    .meta({ anyOf: [{ enum: [...DISCOUNT_STEPS, ...DISCOUNT_STEPS.map(String), ''] }, { type: 'null' }] }),
  sort: z
    .enum(SORTS, { error: `Expected a sort: ${SORTS.join(', ')}` })
    .nullish()
    .transform((v) => v ?? 'relevance'),
  facets: z
    .boolean({ error: 'Expected true or false' })
    .nullish()
    .transform((v) => v ?? false),
  groupSizes: z
    .boolean({ error: 'Expected true or false' })
    .nullish()
    .transform((v) => v ?? false),
})
export type ListOptions = z.output<typeof ListOptionsSchema>

/** Whether `options` change anything about a list (filters, a sort other than the default, facets, pack groups). */
export function changesList(options: ListOptions): boolean {
  return (
    options.brand.length > 0 ||
    options.price !== null ||
    options.discount !== null ||
    options.sort !== 'relevance' ||
    options.facets ||
    options.groupSizes
  )
}

/** POST /api/product/get and /api/product/search-product: `{ search, page, limit }` and the list options. */
export const SearchRequestSchema = ProductSearchSchema.extend(ListOptionsSchema.shape)
/** POST /api/product/get-product-by-category-and-subcategory: the listing's fields and the list options. */
export const ListingRequestSchema = ProductsByCategoryAndSubCategorySchema.extend(ListOptionsSchema.shape)
