/**
 * The searched and paged product lists, on the original client's paths under /api/product
 * (api/app.ts mounts them beside api/modules/product/routes.ts): POST /get, /search-product and
 * /get-product-by-category-and-subcategory with its alias /get-pruduct-by-category-and-subcategory.
 * Each endpoint's body and answer: docs/api-contract.md, "Endpoints", "Catalogue" and "Aliases"; the
 * lists' optional `brand`, `price`, `discount`, `sort` and `facets`: docs/search.md, "Facets and
 * sorting". They live in the search module, which builds on the product module's reads, so the
 * product module never imports the search (docs/decisions/0048-module-layering.md). Every body is
 * validated (400 with `issues` on wrong types).
 */
import type { Context } from 'hono'
import { z } from 'zod'
import { clientIp } from '../../lib/client-ip.ts'
import { consume } from '../../lib/rate-limit.ts'
import type { AppDeps } from '../../deps.ts'
import { ok } from '../../lib/envelope.ts'
import { apiRouter } from '../../lib/openapi.ts'
import { pageCount, PagingExtraShape } from '../../../contract/paging.ts'
import { FacetsSchema, UnderstoodSchema } from '../../../contract/search-answers.ts'
import { ProductSchema } from '../../../contract/product.ts'
import { STORE_HEADER, productReadDeps } from '../store/service.ts'
import { ListingRequestSchema, SearchRequestSchema } from './schemas.ts'
import { productListing, searchProducts } from './service.ts'

/** The search's routes, mounted on /api/product (see the module comment). */
export function searchRoutes(deps: AppDeps) {
  // The document's tag stays the product's: these are product endpoints to a client.
  const { router, endpoint } = apiRouter('Product')
  // A search of the request's store. Searches the cache cannot answer are limited per client address
  // (api/lib/rate-limit.ts) and bounded in number at once for the whole process (deps.searchGate).
  const search = async (c: Context, input: z.output<typeof SearchRequestSchema>) =>
    searchProducts(await productReadDeps(deps, c.req.header(STORE_HEADER)), input, {
      beforeSearch: () => consume(deps.rateLimits.searchByIp, clientIp(c)),
      gate: deps.searchGate,
    })
  const products = z.array(ProductSchema)
  const listExtras = { facets: FacetsSchema.optional(), understood: UnderstoodSchema.optional() }

  /** A searched list's declaration: one page of products with `extra` beside it; 429 past the search limit. */
  const searchList = <E extends z.ZodRawShape>(path: string, summary: string, extra: E) => ({
    method: 'post' as const,
    path,
    summary,
    access: 'public' as const,
    body: SearchRequestSchema,
    answers: { 200: { description: 'One page of products', data: products, extra: { ...extra, ...listExtras } } },
    errors: [429 as const],
  })

  endpoint(searchList('/get', 'Products, newest first or matching `search`, one page', PagingExtraShape), async (c, input) => {
    const { data, totalCount, ...extra } = await search(c, input)
    return ok(c, 'Product data', data, { totalCount, totalNoPage: pageCount(totalCount, input.limit), ...extra })
  })

  const listing = {
    method: 'post',
    summary: "One page of a category's products, narrowed to sub categories when given",
    access: 'public',
    body: ListingRequestSchema,
    answers: {
      200: {
        description: 'One page of products',
        data: products,
        extra: { totalCount: z.number(), page: z.number(), limit: z.number(), ...listExtras },
      },
    },
  } as const
  const listingPaths = [
    { path: '/get-product-by-category-and-subcategory', summary: listing.summary },
    // The original client's spelling (docs/api-contract.md, "Aliases").
    { path: '/get-pruduct-by-category-and-subcategory', summary: `${listing.summary} (the original client's spelling)` },
  ]
  for (const { path, summary } of listingPaths) {
    endpoint({ ...listing, path, summary }, async (c, input) => {
      const { data, totalCount, ...extra } = await productListing(await productReadDeps(deps, c.req.header(STORE_HEADER)), input, {
        gate: deps.searchGate,
      })
      return ok(c, 'Product list', data, { totalCount, page: input.page, limit: input.limit, ...extra })
    })
  }

  endpoint(
    searchList('/search-product', 'Products matching `search` (typos, synonyms, ranking: docs/search.md), one page', {
      totalCount: z.number(),
      totalPage: z.number(),
      page: z.number(),
      limit: z.number(),
    }),
    async (c, input) => {
      const { data, totalCount, ...extra } = await search(c, input)
      return ok(c, 'Product data', data, {
        totalCount,
        totalPage: pageCount(totalCount, input.limit),
        page: input.page,
        limit: input.limit,
        ...extra,
      })
    },
  )

  return router
}
