/**
 * The admin product grid's wire shapes (docs/product-csv.md, "The admin grid"): its filters, shared by
 * POST /api/product/admin-list and GET /api/product/export (so the CSV holds exactly the products the
 * grid selects), its sorts and one row of it. Stock is the default store's (api/modules/product/stock.ts).
 */
import { z } from 'zod'
import { CONTROL_CHARACTERS, IdSchema, ONE_LINE_OR_EMPTY_PATTERN } from './fields.ts'
import { LOW_STOCK } from './location.ts'

/** Longest search text of the grid (characters, after trimming). */
export const ADMIN_PRODUCT_QUERY_MAX = 100
/** Longest brand a filter names (characters). */
export const ADMIN_PRODUCT_BRAND_MAX = 100
/** Most distinct brands an answer lists for the brand filter's suggestions (the bundled catalogue has 842). */
export const ADMIN_BRANDS_MAX = 2000
/** Most products one page of the grid holds. */
export const ADMIN_PRODUCT_LIMIT_MAX = 100

/** The grid's sorts: newest first (default), name A–Z, selling price either way, stock either way. */
export const ADMIN_PRODUCT_SORTS = ['newest', 'name', 'price_asc', 'price_desc', 'stock_asc', 'stock_desc'] as const
export type AdminProductSort = (typeof ADMIN_PRODUCT_SORTS)[number]

/** The stock filters: `out` (0 units in the default store), `low` (1..LOW_STOCK units). */
export const ADMIN_STOCK_FILTERS = ['out', 'low'] as const
export type AdminStockFilter = (typeof ADMIN_STOCK_FILTERS)[number]
export { LOW_STOCK }

const oneLine = (max: number, label: string) =>
  z
    .string({ error: `Expected ${label} (text)` })
    .trim()
    .max(max, `${label} has at most ${max} characters`)
    .refine((text) => !CONTROL_CHARACTERS.test(text), `${label} must be one line of text`)
    .meta({ pattern: ONE_LINE_OR_EMPTY_PATTERN })

/**
 * The grid's filters (all optional, all combined with AND): `q` matches the name, the brand or the SKU
 * (part of it, without regard to case); `stock` out or low; `category` and `subCategory` ids; `brand`
 * one brand (whole, without regard to case); `sort` (default newest). Empty strings mean "no filter",
 * so a GET form's blank fields pass through.
 */
export const AdminProductFilterShape = {
  q: oneLine(ADMIN_PRODUCT_QUERY_MAX, 'The search').optional(),
  stock: z
    .union([z.literal(''), z.enum(ADMIN_STOCK_FILTERS)], { error: `stock must be one of ${ADMIN_STOCK_FILTERS.join(', ')}` })
    .optional()
    .transform((v) => v || undefined),
  category: z
    .union([z.literal(''), IdSchema])
    .optional()
    .transform((v) => v || undefined),
  subCategory: z
    .union([z.literal(''), IdSchema])
    .optional()
    .transform((v) => v || undefined),
  brand: oneLine(ADMIN_PRODUCT_BRAND_MAX, 'A brand').optional(),
  sort: z
    .union([z.literal(''), z.enum(ADMIN_PRODUCT_SORTS)], { error: `sort must be one of ${ADMIN_PRODUCT_SORTS.join(', ')}` })
    .optional()
    .transform((v): AdminProductSort => v || 'newest'),
}
export const AdminProductFilterSchema = z.object(AdminProductFilterShape)
export type AdminProductFilter = z.output<typeof AdminProductFilterSchema>

/** POST /api/product/admin-list: the filters, `page` (1-based) and `limit` (at most ADMIN_PRODUCT_LIMIT_MAX). */
export const AdminProductListSchema = z.object({
  ...AdminProductFilterShape,
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(ADMIN_PRODUCT_LIMIT_MAX).default(20),
})
export type AdminProductListInput = z.output<typeof AdminProductListSchema>

/**
 * One row of the grid: MRP (`price`) and selling price in rupees, the default store's stock in
 * units, the brand ('' without one), `sku` (null for a product without one), the first image ('' without).
 */
export const AdminProductRowSchema = z
  .object({
    _id: z.string(),
    sku: z.string().nullable(),
    name: z.string(),
    brand: z.string(),
    unit: z.string(),
    image: z.string(),
    price: z.number(),
    sellingPrice: z.number(),
    stock: z.number().int(),
    publish: z.boolean(),
    updatedAt: z.string(),
  })
  .meta({ id: 'AdminProductRow' })
export type AdminProductRow = z.output<typeof AdminProductRowSchema>
