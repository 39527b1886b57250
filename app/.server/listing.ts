/**
 * The loader work the two product listing pages share (docs/product.md, "Listings" and "States and
 * transitions"; docs/product.md, "Constants": page size 8): /{category}
 * (app/routes/$category/index.tsx) and /{category}/{subCategory} (app/routes/$category/$subCategory.tsx).
 *
 * Each page checks its own ids and slugs between the two steps:
 * 1. `startListing` asks for the product window at once, beside the category and sub category
 *    lookups, and waits for the lookups only;
 * 2. the page finds its category (and sub category), answers 404 or the 301 to its canonical path;
 * 3. `listing.finish(category, scope)` waits for the products and builds the sidebar and the window.
 *
 * Upstream calls per render: three, in parallel (categories, sub categories, one product page; a
 * JavaScript-off window past 12 pages may take one more).
 */
import { data } from 'react-router'
import { fetchRange, listCategories, listSubCategories, productsByCategoryAndSubCategory, refId, type Category } from './api/catalog.ts'
import { clientIp } from './request.ts'
import { toCardData, type CategoryLinkData, type ProductCardData } from '../lib/catalog-cards.ts'
import { pageRange, readPageRequest, type PageWindow } from '../lib/paging.ts'
import { listingPath } from '../lib/slug.ts'
import { filtersBody, filtersKey, readListFilters } from '../lib/list-filters.ts'
import type { Api } from './api-context.ts'

/** The 404 a listing page throws for an unknown id or a sub category outside its category. */
export const notFound = () => data(null, { status: 404, statusText: 'Not Found' })

/**
 * Starts loading a listing: reads `?page=` and `?single=` of `request` (app/lib/paging.ts) and
 * its filters and sort (`?brand=`, `?price=`, `?discount=`, `?sort=`: app/lib/list-filters.ts), asks
 * for the products of `filter` in that window (`pageSize` per page) with their facet counts, and
 * waits for all categories and sub categories. Answers the request's URL, the lookups, and `finish`.
 *
 * An id the API rejects must still end as the page's 404, so a failure of the product call is only
 * raised by `finish`, after the page has checked its ids. Lookup failures throw (502, api/catalog.ts).
 */
export async function startListing(api: Api, request: Request, filter: { categoryId: string; subCategoryId?: string }, pageSize: number) {
  const url = new URL(request.url)
  const { page, isSingle } = readPageRequest(url)
  const { start, end } = pageRange(page, pageSize, isSingle)
  const call = { clientIp: clientIp(request) }
  const filters = readListFilters(url, 'listing')
  const options = filtersBody(filters)

  const productsPromise = fetchRange(
    (p, limit) => productsByCategoryAndSubCategory(api, { ...filter, page: p, limit, options }, call),
    start,
    end,
  )
  productsPromise.catch(() => {})
  const [categories, subCategories] = await Promise.all([listCategories(api, call), listSubCategories(api, call)])

  /**
   * Waits for the products and answers the sidebar (the sub categories of `category`, each a link to
   * its listing), the page window of product cards, the filters read and the facet counts; `scope`
   * names the list, so appending stops when the shopper moves to another or changes a filter
   * (app/lib/paging.ts). Throws the product call's failure.
   */
  async function finish(category: Category, scope: string) {
    const { products, totalCount, facets } = await productsPromise
    const sidebar: CategoryLinkData[] = subCategories
      .filter((sub) => sub.category?.some((ref) => refId(ref) === filter.categoryId))
      .map((sub) => ({ _id: sub._id, name: sub.name, image: sub.image, href: listingPath(category, sub) }))
    const list: PageWindow<ProductCardData> = {
      items: products.map(toCardData),
      start,
      page,
      pageSize,
      totalCount,
      scope: `${scope}\u0000${filtersKey(filters)}`,
    }
    return { sidebar, list, filters, facets }
  }

  return { url, categories, subCategories, finish }
}
