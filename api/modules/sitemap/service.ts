/**
 * What a search engine may crawl: every category, every (category, sub category) shelf and every
 * published product, with the time each last changed. The BFF turns these into `sitemap.xml` files
 * (the sitemaps.org protocol: at most 50,000 URLs per file, docs/seo.md).
 *
 * Reads go through `deps.cache` (keys `sitemap:`), which every catalogue write clears, so the sitemap
 * never lists a deleted product or misses a new one for longer than the cache takes to clear.
 */
import { asc, eq, sql, type SQL } from 'drizzle-orm'
import type { AppDeps } from '../../deps.ts'
import { categories, products, subCategories, subCategoryCategories } from '../../db/schema.ts'
import type { PagingExtra } from '../../../contract/paging.ts'
import type { SitemapProduct, SitemapShelves } from '../../../contract/sitemap.ts'

/** Products per page of `products`: the protocol's limit of URLs in one sitemap file. */
export const SITEMAP_PRODUCTS_PER_PAGE = 50_000

/** One page of published products, oldest id first (stable across pages). */
export interface SitemapProducts extends PagingExtra {
  products: SitemapProduct[]
  page: number
  limit: number
}

type Deps = Pick<AppDeps, 'db' | 'cache'>

/** A timestamp as the sitemaps.org `lastmod` text: ISO 8601 in UTC, to the second. */
const lastmod = (column: SQL) => sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`

/** Every category and shelf, ordered by name. */
export function sitemapShelves(deps: Deps): Promise<SitemapShelves> {
  return deps.cache.get('sitemap:shelves', async () => {
    const categoryRows = await deps.db
      .select({ _id: categories.id, name: categories.name, updatedAt: lastmod(sql`${categories.updatedAt}`) })
      .from(categories)
      .orderBy(asc(categories.name), asc(categories.id))
    // A shelf changed when its category or its sub category last did.
    const rows = await deps.db
      .select({
        cid: categories.id,
        cname: categories.name,
        sid: subCategories.id,
        sname: subCategories.name,
        updatedAt: lastmod(sql`greatest(${categories.updatedAt}, ${subCategories.updatedAt})`),
      })
      .from(subCategoryCategories)
      .innerJoin(categories, eq(categories.id, subCategoryCategories.categoryId))
      .innerJoin(subCategories, eq(subCategories.id, subCategoryCategories.subCategoryId))
      .orderBy(asc(categories.name), asc(categories.id), asc(subCategories.name), asc(subCategories.id))
    return {
      categories: categoryRows,
      shelves: rows.map((r) => ({
        category: { _id: r.cid, name: r.cname },
        subCategory: { _id: r.sid, name: r.sname },
        updatedAt: r.updatedAt,
      })),
    }
  })
}

/**
 * Page `page` (1-based) of the published products, {@link SITEMAP_PRODUCTS_PER_PAGE} a page.
 * A page past the end answers an empty list (the BFF answers 404 for it).
 */
export function sitemapProducts(deps: Deps, page: number): Promise<SitemapProducts> {
  const limit = SITEMAP_PRODUCTS_PER_PAGE
  return deps.cache.get(`sitemap:products:${page}`, async () => {
    const count = await deps.db.$count(products, eq(products.publish, true))
    const rows = await deps.db
      .select({ _id: products.id, name: products.name, updatedAt: lastmod(sql`${products.updatedAt}`) })
      .from(products)
      .where(eq(products.publish, true))
      .orderBy(asc(products.id))
      .limit(limit)
      .offset((page - 1) * limit)
    return { products: rows, totalCount: count, page, limit, totalNoPage: Math.max(1, Math.ceil(count / limit)) }
  })
}
