import { Hono, type Context } from 'hono'
import { clientIp } from '../../lib/client-ip.ts'
import { consume } from '../../lib/rate-limit.ts'
import type { AppDeps } from '../../app.ts'
import { currentUser, requireAdmin } from '../../lib/auth.ts'
import { idempotencyClaim } from '../../lib/idempotency.ts'
import { ok } from '../../lib/envelope.ts'
import { readBody } from '../../lib/validate.ts'
import { DeleteByIdSchema } from '../category/schemas.ts'
import { CreateProductSchema, ProductDetailsSchema, ProductsByCategorySchema, UpdateProductSchema } from './schemas.ts'
import { ListingRequestSchema, SearchRequestSchema } from '../search/schemas.ts'
import { productListing } from '../search/service.ts'
import {
  createProduct,
  deleteProduct,
  PRODUCT_CREATED,
  PRODUCT_DELETED,
  PRODUCT_UPDATED,
  productDetails,
  productsByCategory,
  productsByCategoryGrouped,
  searchProducts,
  updateProduct,
} from './service.ts'

/** Number of pages of `limit` products needed for `totalCount` products (0 when there is none). */
const pageCount = (totalCount: number, limit: number) => Math.ceil(totalCount / limit)

/**
 * Routes of /api/product (docs/api-contract.md, "Endpoints"). Every body is validated (400 with `issues` on
 * wrong types). Writes need an ADMIN token (401 without a valid one, 403 for anyone else: checked
 * before the body is read).
 *
 * - POST /get `{ page, limit, search }` → Product[]; `totalCount`, `totalNoPage`
 * - POST /get-product-by-category `{ id, grouped? }` → Product[] (at most 15 per category), or with
 *   `grouped: true` one `{ categoryId, products }` per id (the home page's rows in one call)
 * - POST /get-product-by-category-and-subcategory (and the original client's misspelt
 *   /get-pruduct-by-category-and-subcategory) `{ categoryId, subCategoryId?, page, limit }` →
 *   Product[]; `totalCount`, `page`, `limit`
 * - POST /get-product-details `{ productId }` → Product, or 404 "Product not found"
 * - POST /search-product `{ search, page, limit }` → Product[]; `totalCount`, `totalPage`, `page`, `limit`
 * - The three lists (/get, /search-product, the by-category-and-subcategory listing) also take the
 *   optional `brand`, `price`, `discount`, `sort` and `facets` (docs/search.md); searches answer
 *   `understood` (synonyms, corrections) and, when asked, `facets`
 * - POST /create (ADMIN) the create payload (+ optional `Idempotency-Key` header, api/lib/idempotency.ts)
 *   → 201 Product; 400 bad body, image not uploaded, unknown ids, a sub category outside the chosen
 *   categories; 422 key reused for another body
 * - PUT /update-product-details (ADMIN) `{ _id, ...any create fields }` → Product; 404 unknown id
 * - DELETE /delete-product (ADMIN) `{ _id }` → null; 404 unknown id
 */
export function productRoutes(deps: AppDeps) {
  const r = new Hono()
  // Searches the cache cannot answer are limited per client address (api/lib/rate-limit.ts).
  // and bounded in number at once for the whole process (deps.searchGate).
  const searchLimit = (c: Context) => ({ beforeSearch: () => consume(deps.rateLimits.searchByIp, clientIp(c)), gate: deps.searchGate })

  r.post('/get', async (c) => {
    const input = await readBody(c, SearchRequestSchema)
    const { data, totalCount, ...extra } = await searchProducts(deps, input, searchLimit(c))
    return ok(c, 'Product data', data, { totalCount, totalNoPage: pageCount(totalCount, input.limit), ...extra })
  })

  r.post('/get-product-by-category', async (c) => {
    const { id, grouped } = await readBody(c, ProductsByCategorySchema)
    if (grouped) return ok(c, 'category product list', await productsByCategoryGrouped(deps, id))
    return ok(c, 'category product list', await productsByCategory(deps, id))
  })

  const byCategoryAndSubCategory = async (c: Context) => {
    const input = await readBody(c, ListingRequestSchema)
    const { data, totalCount, ...extra } = await productListing(deps, input, { gate: deps.searchGate })
    return ok(c, 'Product list', data, { totalCount, page: input.page, limit: input.limit, ...extra })
  }
  r.post('/get-product-by-category-and-subcategory', byCategoryAndSubCategory)
  // The original client's spelling (docs/api-contract.md, "Aliases").
  r.post('/get-pruduct-by-category-and-subcategory', byCategoryAndSubCategory)

  r.post('/get-product-details', async (c) => {
    const { productId } = await readBody(c, ProductDetailsSchema)
    return ok(c, 'product details', await productDetails(deps, productId))
  })

  r.post('/search-product', async (c) => {
    const input = await readBody(c, SearchRequestSchema)
    const { data, totalCount, ...extra } = await searchProducts(deps, input, searchLimit(c))
    return ok(c, 'Product data', data, {
      totalCount,
      totalPage: pageCount(totalCount, input.limit),
      page: input.page,
      limit: input.limit,
      ...extra,
    })
  })

  r.post('/create', requireAdmin(deps), async (c) => {
    const input = await readBody(c, CreateProductSchema)
    const idempotency = idempotencyClaim(c, currentUser(c).id, 'product:create', input)
    return ok(c, PRODUCT_CREATED, await createProduct(deps, input, idempotency), {}, 201)
  })

  r.put('/update-product-details', requireAdmin(deps), async (c) => {
    const input = await readBody(c, UpdateProductSchema)
    return ok(c, PRODUCT_UPDATED, await updateProduct(deps, input))
  })

  r.delete('/delete-product', requireAdmin(deps), async (c) => {
    const { _id } = await readBody(c, DeleteByIdSchema)
    await deleteProduct(deps, _id)
    return ok(c, PRODUCT_DELETED, null)
  })

  return r
}
