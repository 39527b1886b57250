/**
 * Typed calls to the upstream catalogue API (/api/category, /api/subcategory, /api/product;
 * docs/api-contract.md, "Catalogue"). Every call goes through `upstream()`; catalogue reads are
 * public, so no session is passed (a stale access token must never turn a product page into a refresh
 * round trip).
 *
 * Failures: reads that a page cannot do without throw a React Router error response (the route's
 * ErrorBoundary renders it); 5xx and unreachable upstreams become 502 Bad Gateway, because the BFF
 * itself did not fail. "Not found" answers come back as `null` so the loader decides on its 404.
 */
import { throwFailure } from '../failure.ts'
import { upstream } from '../upstream.ts'
import type { Facets, Understood } from '../../../contract/search.ts'

export type { Facets, FacetValue, Understood } from '../../../contract/search.ts'

/** A category as sub categories and products reference it (`_id`, name, sometimes the image). */
export interface CategoryRef {
  _id: string
  name: string
  image?: string
}

/** A sub category reference inside a product. */
export interface SubCategoryRef {
  _id: string
  name: string
  image?: string
}

/** Category (docs/product.md, "Entities"): `_id`, name, image url. */
export interface Category {
  _id: string
  name: string
  image: string
  createdAt?: string
  updatedAt?: string
}

/** Sub category (docs/product.md, "Entities") with its categories expanded to `{ _id, name, image }` (contract). */
export interface SubCategory {
  _id: string
  name: string
  image: string
  category: CategoryRef[]
  createdAt?: string
  updatedAt?: string
}

/**
 * Product (docs/product.md, "Entities"). `price` is the MRP in rupees, `sellingPrice` the selling
 * price in rupees as stored, `discount` a percentage (0-100) derived from the two (app/lib/money.ts
 * derives a selling price only when an older API leaves it out). `category`/`subCategory` are
 * expanded objects on the list endpoints and may be bare ids elsewhere, so both shapes are allowed.
 */
export interface Product {
  _id: string
  name: string
  image: string[]
  category: Array<CategoryRef | string>
  subCategory: Array<SubCategoryRef | string>
  unit: string
  stock: number
  /** MRP in rupees. */
  price: number
  /** Selling price in rupees, as the catalogue gives it (absent only from an older API). */
  sellingPrice?: number
  discount: number
  description: string
  more_details: Record<string, string>
  publish?: boolean
  createdAt?: string
  updatedAt?: string
}

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

/** One home row: the products of one category (at most 15, contract). */
export interface CategoryProducts {
  categoryId: string
  products: Product[]
}

/** Options every call accepts: the shopper's address for the API's per-IP limits. */
export interface CatalogCallOptions {
  clientIp?: string
}

async function read<T>(path: string, json: unknown, opts: CatalogCallOptions | undefined, method: 'GET' | 'POST' = 'POST') {
  const result = await upstream<T>(path, { method, json: method === 'GET' ? undefined : json, clientIp: opts?.clientIp })
  if (!result.ok) throwFailure(result)
  return result
}

const asNumber = (value: unknown, fallback: number) => {
  const n = typeof value === 'number' ? value : Number(value)
  return Number.isFinite(n) ? n : fallback
}

/** The id of a category or sub category reference, whichever shape the API sent. */
export function refId(ref: CategoryRef | SubCategoryRef | string): string {
  return typeof ref === 'string' ? ref : ref._id
}

/** All categories (GET /api/category/get), in the API's order. Throws 502 when the API fails. */
export async function listCategories(opts?: CatalogCallOptions): Promise<Category[]> {
  const result = await read<Category[]>('category/get', undefined, opts, 'GET')
  return Array.isArray(result.data) ? result.data : []
}

/** All sub categories with their categories expanded (POST /api/subcategory/get). Throws 502 on failure. */
export async function listSubCategories(opts?: CatalogCallOptions): Promise<SubCategory[]> {
  const result = await read<SubCategory[]>('subcategory/get', {}, opts)
  return Array.isArray(result.data) ? result.data : []
}

/**
 * The home rows in ONE call (docs/decisions/0005-catalogue-cache.md: a constant number of upstream
 * calls per page): POST /api/product/get-product-by-category `{ id: [...], grouped: true }` answering
 * `[{ categoryId, products }]`. Should the API answer the plain flat list instead (an older server
 * that ignores `grouped`), the products are grouped here by their category ids, 15 per category.
 * Rows come back in the order of `categoryIds`; a category without products gets an empty row.
 */
export async function productsByCategoryGrouped(categoryIds: string[], opts?: CatalogCallOptions): Promise<CategoryProducts[]> {
  if (categoryIds.length === 0) return []
  const result = await read<Array<CategoryProducts | Product>>('product/get-product-by-category', { id: categoryIds, grouped: true }, opts)
  const answer = Array.isArray(result.data) ? result.data : []
  const byCategory = new Map<string, Product[]>(categoryIds.map((id) => [id, []]))
  for (const item of answer) {
    if ('categoryId' in item && Array.isArray((item as CategoryProducts).products)) {
      const row = item as CategoryProducts
      byCategory.set(row.categoryId, row.products)
      continue
    }
    const product = item as Product
    for (const ref of product.category ?? []) {
      const list = byCategory.get(refId(ref))
      if (list && list.length < 15) list.push(product)
    }
  }
  return categoryIds.map((categoryId) => ({ categoryId, products: byCategory.get(categoryId) ?? [] }))
}

/**
 * One page of a category's products, narrowed to a sub category when `subCategoryId` is given
 * (POST /api/product/get-product-by-category-and-subcategory). `page` is 1-based, `limit` a page
 * size (the API caps it). Throws 502 on an API fault and the API's 4xx otherwise.
 */
export async function productsByCategoryAndSubCategory(
  query: { categoryId: string; subCategoryId?: string; page: number; limit: number; options?: Record<string, unknown> },
  opts?: CatalogCallOptions,
): Promise<ProductPage> {
  const body: Record<string, unknown> = { categoryId: query.categoryId, page: query.page, limit: query.limit, ...query.options }
  if (query.subCategoryId) body.subCategoryId = query.subCategoryId
  const result = await read<Product[]>('product/get-product-by-category-and-subcategory', body, opts)
  return toPage(result.data, result.extra, query.page, query.limit)
}

/**
 * One product (POST /api/product/get-product-details), or null when the API answers 404 or rejects
 * the id as malformed (400): both mean "no such product" to a shopper. Other failures throw.
 */
export async function productDetails(productId: string, opts?: CatalogCallOptions): Promise<Product | null> {
  const result = await upstream<Product>('product/get-product-details', { json: { productId }, clientIp: opts?.clientIp })
  if (!result.ok) {
    if (result.status === 404 || result.status === 400) return null
    throwFailure(result)
  }
  return result.data ?? null
}

/**
 * One page of search results (POST /api/product/search-product). Typo tolerance ("panner" finds
 * paneer), synonyms and ranking are the API's job; `options` are the optional list fields (filters,
 * sort, `facets`: app/lib/list-filters.ts `filtersBody`). Throws 502 on an API fault.
 */
export async function searchProducts(
  query: { search: string; page: number; limit: number; options?: Record<string, unknown> },
  opts?: CatalogCallOptions,
): Promise<ProductPage> {
  const { options, ...fields } = query
  const result = await read<Product[]>('product/search-product', { ...fields, ...options }, opts)
  return toPage(result.data, result.extra, query.page, query.limit)
}

function toPage(list: Product[] | undefined, extra: Record<string, unknown>, page: number, limit: number): ProductPage {
  const products = Array.isArray(list) ? list : []
  return {
    products,
    totalCount: asNumber(extra.totalCount, products.length),
    page: asNumber(extra.page, page),
    limit: asNumber(extra.limit, limit),
    ...(isFacets(extra.facets) ? { facets: extra.facets } : {}),
    ...(isUnderstood(extra.understood) ? { understood: extra.understood } : {}),
  }
}

const isList = (value: unknown): value is unknown[] => Array.isArray(value)
function isFacets(value: unknown): value is Facets {
  const v = value as Facets | null
  return typeof v === 'object' && v !== null && isList(v.brand) && isList(v.price) && isList(v.discount)
}
function isUnderstood(value: unknown): value is Understood {
  const v = value as Understood | null
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.query === 'string' &&
    isList(v.synonyms) &&
    isList(v.corrections) &&
    isList(v.ignored) &&
    isList(v.relaxed)
  )
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
