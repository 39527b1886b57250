/**
 * Body schemas of the product read endpoints (contract, "Endpoints" and "Defaults and bounds").
 *
 * Missing paging fields are defaults, not errors (contract, "Defects": missing paging fields crashed
 * the original). Wrong types are a 400: an object where a string or number belongs is never passed
 * on to a query (contract, "Defects": `{"$ne": null}` query objects; OWASP Input Validation Cheat Sheet).
 * Unknown keys are dropped, so the original client's extra fields do no harm.
 */
import { z } from 'zod'
import { IdSchema } from '../category/catalog-schemas.ts'

/** Page used when the body gives none. */
export const DEFAULT_PAGE = 1
/** Page size used when the body gives none (contract: "limit defaults to 10"). */
export const DEFAULT_LIMIT = 10
/** Largest page size served; larger asks are lowered to it, not refused (contract: "limit is capped"). */
export const MAX_LIMIT = 100
/** Largest page number accepted; keeps OFFSET within reason. */
export const MAX_PAGE = 100_000
/** Longest search text accepted, in characters. */
export const MAX_SEARCH_LENGTH = 200
/** Most category ids one by-category call may name (the catalogue has 11 categories). */
export const MAX_CATEGORY_IDS = 100

const WHOLE_NUMBER = 'Expected a whole number'

/**
 * A positive whole number given as a JSON number or as digits in a string (form posts send
 * strings); `null` or absent means "use the default".
 */
function positiveInt(max: number) {
  return z
    .union([z.number(), z.string().trim().regex(/^\d+$/, WHOLE_NUMBER).transform(Number)], { error: WHOLE_NUMBER })
    .pipe(z.number().int(WHOLE_NUMBER).min(1, 'Must be at least 1').max(max, `Must be at most ${max}`))
    .nullish()
}

/** `page`: 1-based page number, default 1. */
export const PageSchema = positiveInt(MAX_PAGE).transform((v) => v ?? DEFAULT_PAGE)
/** `limit`: page size, default 10, capped at 100. */
export const LimitSchema = positiveInt(Number.MAX_SAFE_INTEGER).transform((v) => Math.min(v ?? DEFAULT_LIMIT, MAX_LIMIT))
/** `search`: free text, default '' (everything). */
export const SearchSchema = z
  .string({ error: 'Expected text' })
  .max(MAX_SEARCH_LENGTH, `At most ${MAX_SEARCH_LENGTH} characters`)
  .nullish()
  .transform((v) => v ?? '')

export { IdSchema }

/** One id or a list of ids, normalised to a list without duplicates (order kept). */
const IdListSchema = z
  .union([IdSchema.transform((id) => [id]), z.array(IdSchema).max(MAX_CATEGORY_IDS, `At most ${MAX_CATEGORY_IDS} ids`)], {
    error: 'Expected an id or a list of ids',
  })
  .transform((ids) => [...new Set(ids)])

/** POST /api/product/get and /api/product/search-product: `{ page, limit, search }`. */
export const ProductSearchSchema = z.object({ page: PageSchema, limit: LimitSchema, search: SearchSchema })
export type ProductSearchInput = z.output<typeof ProductSearchSchema>

/**
 * POST /api/product/get-product-by-category: `{ id, grouped? }`. `id` is one category id or a list;
 * `grouped: true` answers one `{ categoryId, products }` entry per id (the BFF home page's rows).
 */
export const ProductsByCategorySchema = z.object({
  id: IdListSchema,
  grouped: z.boolean({ error: 'Expected true or false' }).nullish().transform((v) => v ?? false),
})
export type ProductsByCategoryInput = z.output<typeof ProductsByCategorySchema>

/** Optional variant of the id list: absent, null, '' or [] means "not filtered". */
const OptionalIdListSchema = z
  .union([z.literal(''), IdListSchema], { error: 'Expected an id or a list of ids' })
  .nullish()
  .transform((v) => (v === '' || v == null || v.length === 0 ? null : v))

/**
 * POST /api/product/get-product-by-category-and-subcategory: `{ categoryId, subCategoryId?, page,
 * limit }`. Each id may be one id or a list (any of them matches: the original client sent either).
 * Without `subCategoryId` every product of the category is listed (a category with no sub category).
 */
export const ProductsByCategoryAndSubCategorySchema = z.object({
  categoryId: IdListSchema,
  subCategoryId: OptionalIdListSchema,
  page: PageSchema,
  limit: LimitSchema,
})
export type ProductsByCategoryAndSubCategoryInput = z.output<typeof ProductsByCategoryAndSubCategorySchema>

/**
 * POST /api/product/get-product-details: `{ productId }`. Any text is accepted here: an id of the
 * wrong shape is a 404 like any unknown id, not a 400 or a 500.
 */
export const ProductDetailsSchema = z.object({
  productId: z.string({ error: 'Expected a product id (text)' }).max(1000, 'Not an id'),
})
export type ProductDetailsInput = z.output<typeof ProductDetailsSchema>
