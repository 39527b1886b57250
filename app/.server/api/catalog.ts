/**
 * Typed calls to the upstream catalogue API (/api/category, /api/subcategory, /api/product;
 * docs/api-contract.md, "Catalogue"), each answer parsed with the schema of that endpoint in contract/
 * (contract/*.ts; docs/api.md). Every call goes through `upstream()`; catalogue reads are
 * public, so no session is passed (a stale access token must never turn a product page into a refresh
 * round trip).
 *
 * Failures: reads that a page cannot do without throw a React Router error response (the route's
 * ErrorBoundary renders it); 5xx and unreachable upstreams become 502 Bad Gateway, because the BFF
 * itself did not fail. "Not found" answers come back as `null` so the loader decides on its 404.
 */
import { z } from 'zod'
import { throwFailure } from '../failure.ts'
import { notePageAvailabilityOrdered } from '../page-shows.ts'
import { parseAnswer, parseData, upstream } from '../upstream.ts'
import { FacetsSchema, UnderstoodSchema } from '../../../contract/search-answers.ts'
import type { Facets, Understood } from '../../../contract/search.ts'
import { successOf } from '../../../contract/envelope.ts'
import { CategorySchema } from '../../../contract/category.ts'
import { SubCategorySchema, type SubCategory } from '../../../contract/subcategory.ts'
import {
  CategoryProductsSchema,
  ProductSchema,
  SimilarProductsSchema,
  type CatalogRef,
  type CategoryProducts,
  type Product,
  type SimilarProducts,
} from '../../../contract/product.ts'
import type { Category } from '../../../contract/category.ts'
import type { Api } from '../api-context.ts'

export type { Facets, FacetValue, Understood } from '../../../contract/search.ts'

export type { Category } from '../../../contract/category.ts'
export type { SubCategory } from '../../../contract/subcategory.ts'
export type { CatalogRef, CategoryProducts, Product } from '../../../contract/product.ts'

/** One page of products with the paging keys the API sends beside `data`. */
export interface ProductPage {
  products: Product[]
  /** Matching products in all pages. */
  totalCount: number
  /** 1-based page number as answered. */
  page: number
  /** Page size as answered (the API caps it). */
  limit: number
  /** Present when the call asked for facets (and the API offers them). */
  facets?: Facets
  /** Present for a search (and an API that explains its searches). */
  understood?: Understood
}

/** Options every call accepts: the shopper's address for the API's per-IP limits. */
export interface CatalogCallOptions {
  clientIp?: string
}

/**
 * Calls a catalogue read and parses the whole answer with `schema` (the envelope (contract/envelope.ts) of the
 * endpoint). Throws the API's failure (app/.server/failure.ts); an answer off contract/ is a 502.
 */
async function read<S extends z.ZodType>(
  api: Api,
  path: string,
  json: unknown,
  opts: CatalogCallOptions | undefined,
  schema: S,
  method: 'GET' | 'POST' = 'POST',
): Promise<z.output<S>> {
  const result = parseAnswer(
    await upstream(api, path, { method, json: method === 'GET' ? undefined : json, clientIp: opts?.clientIp }),
    schema,
  )
  if (!result.ok) throwFailure(result)
  return result.data
}

const products = z.array(ProductSchema)
/** The keys a paged product list answers beside `data` (docs/search.md: `facets` when asked, `understood` for a search). */
const PageAnswerSchema = successOf(products, {
  totalCount: z.number(),
  page: z.number(),
  limit: z.number(),
  facets: FacetsSchema.optional(),
  understood: UnderstoodSchema.optional(),
})

/** The id of a category or sub category reference, whichever shape the API sent. */
export function refId(ref: CatalogRef | string): string {
  return typeof ref === 'string' ? ref : ref._id
}

/** All categories (GET /api/category/get), in the API's order. Throws 502 when the API fails. */
export async function listCategories(api: Api, opts?: CatalogCallOptions): Promise<Category[]> {
  return (await read(api, 'category/get', undefined, opts, successOf(z.array(CategorySchema)), 'GET')).data
}

/** All sub categories with their categories expanded (POST /api/subcategory/get). Throws 502 on failure. */
export async function listSubCategories(api: Api, opts?: CatalogCallOptions): Promise<SubCategory[]> {
  return (await read(api, 'subcategory/get', {}, opts, successOf(z.array(SubCategorySchema)))).data
}

/**
 * The home rows in ONE call (docs/decisions/0005-catalogue-cache.md: a constant number of upstream
 * calls per page): POST /api/product/get-product-by-category `{ id: [...], grouped: true, groupSizes: true }`
 * answering `[{ categoryId, products }]`, each pack group one card with its sizes (docs/product.md, "Pack sizes"). Rows come back in the order of `categoryIds`; a category without
 * products gets an empty row.
 */
export async function productsByCategoryGrouped(api: Api, categoryIds: string[], opts?: CatalogCallOptions): Promise<CategoryProducts[]> {
  if (categoryIds.length === 0) return []
  const rows = (
    await read(
      api,
      'product/get-product-by-category',
      { id: categoryIds, grouped: true, groupSizes: true },
      opts,
      successOf(z.array(CategoryProductsSchema)),
    )
  ).data
  const byCategory = new Map(rows.map((row) => [row.categoryId, row.products]))
  return categoryIds.map((categoryId) => ({ categoryId, products: byCategory.get(categoryId) ?? [] }))
}

/**
 * One page of a category's products, narrowed to a sub category when `subCategoryId` is given
 * (POST /api/product/get-product-by-category-and-subcategory). `page` is 1-based, `limit` a page
 * size (the API caps it). Throws 502 on an API fault and the API's 4xx otherwise.
 */
export async function productsByCategoryAndSubCategory(
  api: Api,
  query: { categoryId: string; subCategoryId?: string; page: number; limit: number; options?: Record<string, unknown> },
  opts?: CatalogCallOptions,
): Promise<ProductPage> {
  const body: Record<string, unknown> = { categoryId: query.categoryId, page: query.page, limit: query.limit, ...query.options }
  if (query.subCategoryId) body.subCategoryId = query.subCategoryId
  return toPage(await read(api, 'product/get-product-by-category-and-subcategory', body, opts, PageAnswerSchema))
}

/**
 * One product (POST /api/product/get-product-details), or null when the API answers 404 or rejects
 * the id as malformed (400): both mean "no such product" to a shopper. Other failures throw.
 */
export async function productDetails(api: Api, productId: string, opts?: CatalogCallOptions): Promise<Product | null> {
  const result = parseData(
    await upstream(api, 'product/get-product-details', { json: { productId }, clientIp: opts?.clientIp }),
    ProductSchema,
  )
  if (!result.ok) {
    if (result.status === 404 || result.status === 400) return null
    throwFailure(result)
  }
  return result.data
}

/**
 * The rows beside a product on its page (POST /api/product/similar; docs/product.md, "Product
 * page"): its shelf's nearest in price and more of its brand. Empty rows for an id the API does not
 * know (the page itself answers 404 then); throws 502 on an API fault.
 */
export async function similarProducts(api: Api, productId: string, opts?: CatalogCallOptions): Promise<SimilarProducts> {
  // Both rows put the store's in-stock products first: the page changes when any of them crosses 0.
  notePageAvailabilityOrdered()
  const result = parseData(await upstream(api, 'product/similar', { json: { productId }, clientIp: opts?.clientIp }), SimilarProductsSchema)
  if (!result.ok) {
    if (result.status === 404 || result.status === 400) return { sameShelf: [], sameBrand: [] }
    throwFailure(result)
  }
  return result.data
}

/**
 * One page of search results (POST /api/product/search-product). Typo tolerance ("panner" finds
 * paneer), synonyms and ranking are the API's job; `options` are the optional list fields (filters,
 * sort, `facets`: app/lib/list-filters.ts `filtersBody`). Throws 502 on an API fault.
 */
export async function searchProducts(
  api: Api,
  query: { search: string; page: number; limit: number; options?: Record<string, unknown> },
  opts?: CatalogCallOptions,
): Promise<ProductPage> {
  const { options, ...fields } = query
  // The API ranks a search's in-stock products first: a page of results changes when any crosses 0.
  if (query.search.trim() !== '') notePageAvailabilityOrdered()
  return toPage(await read(api, 'product/search-product', { ...fields, ...options }, opts, PageAnswerSchema))
}

function toPage({ data, totalCount, page, limit, facets, understood }: z.output<typeof PageAnswerSchema>): ProductPage {
  return { products: data, totalCount, page, limit, ...(facets ? { facets } : {}), ...(understood ? { understood } : {}) }
}

/** Largest page size the BFF asks for in one call: a multiple of 8 and 12, under the API's cap of 100. */
export const MAX_RANGE_CHUNK = 96

/**
 * The products `[start, end)` (0-based indexes) of a paged list, read with `fetchPage(page, limit)`.
 * A range that is itself a page of its own size (`[0, n)`, or one page of a fixed size) takes one
 * call; any other range of at most MAX_RANGE_CHUNK items takes at most two calls. Used by the
 * "later pages append" loaders (app/components/pager.tsx). Errors of `fetchPage` propagate.
 */
export async function fetchRange(
  fetchPage: (page: number, limit: number) => Promise<ProductPage>,
  start: number,
  end: number,
): Promise<{ products: Product[]; totalCount: number; facets?: Facets; understood?: Understood }> {
  const size = end - start
  if (size <= 0) {
    const { totalCount, facets, understood } = await fetchPage(1, 1)
    return { products: [], totalCount, facets, understood }
  }
  if (size <= MAX_RANGE_CHUNK && start % size === 0) {
    const answer = await fetchPage(start / size + 1, size)
    return { products: answer.products, totalCount: answer.totalCount, facets: answer.facets, understood: answer.understood }
  }
  const chunk = MAX_RANGE_CHUNK
  const first = Math.floor(start / chunk) + 1
  const last = Math.floor((end - 1) / chunk) + 1
  const pages = await Promise.all(Array.from({ length: last - first + 1 }, (_, i) => fetchPage(first + i, chunk)))
  const offset = start - (first - 1) * chunk
  return {
    products: pages.flatMap((p) => p.products).slice(offset, offset + size),
    totalCount: pages[0]?.totalCount ?? 0,
    facets: pages[0]?.facets,
    understood: pages[0]?.understood,
  }
}
