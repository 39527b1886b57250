/**
 * /{category}/{subCategory}: the products of a category and sub category; the screen, its paging and
 * its 404s are docs/product.md, "Listings" and "Constants" (page size 8), its addresses
 * docs/product.md, "Slugs" (app/lib/slug.ts). Later pages append through app/components/pager.tsx (a
 * fetcher with JavaScript, a "next page" link without).
 *
 * The original app titled the page with the slug words before the id; we show the sub category's real
 * name, which those words are made from (they lose punctuation such as "&" and ",").
 *
 * Upstream calls per render: three, in parallel (categories, sub categories, one product page; a
 * JavaScript-off window past 12 pages may take one more).
 */
import { redirect } from 'react-router'
import type { Route } from './+types/$subCategory'
import { refId } from '../../.server/api/catalog.ts'
import { notFound, startListing } from '../../.server/listing.ts'
import { categoryPath, idFromSlug, isCanonicalSlug, listingPath } from '../../lib/slug.ts'
import { SidebarLayout, SubCategorySidebar } from '../../components/subcategory-sidebar.tsx'
import type { CategoryLinkData } from '../../lib/catalog-cards.ts'
import { ListingProducts } from '../../components/listing-products.tsx'
import { ListFacets } from '../../components/list-facets.tsx'
import { hasFilters } from '../../lib/list-filters.ts'
import { useAppendingList, useIsSwitchingWithinCategory } from '../../components/pager.tsx'
import { GeneralErrorBoundary } from '../../components/error-boundary.tsx'
import { SHOP_NAME } from '../../components/header.tsx'
import { breadcrumbJsonLd, originFromMatches, pageMeta } from '../../lib/seo.ts'
import { countLabel } from '../../lib/plural.ts'
import { PERSONAL_SLOTS_HANDLE } from '../../lib/personal-slots.ts'
import { revalidateExceptAfterCartWrite } from '../../lib/cart.ts'
import { apiOf } from '../../.server/api-context.ts'

/** The page differs between visitors only in personal slots (app/lib/personal-slots.ts). */
export const handle = PERSONAL_SLOTS_HANDLE

/** An ADD or a stepper here re-reads only the root loader's cart summary (app/lib/cart.ts). */
export const shouldRevalidate = revalidateExceptAfterCartWrite

/** Products per page on the category product page (docs/product.md, "Constants"). */
const LISTING_PAGE_SIZE = 8

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const api = apiOf(context)
  const categoryId = idFromSlug(params.category)
  const subCategoryId = idFromSlug(params.subCategory)
  if (!categoryId || !subCategoryId) throw notFound()

  const listing = await startListing(api, request, { categoryId, subCategoryId }, LISTING_PAGE_SIZE)
  const category = listing.categories.find((c) => c._id === categoryId)
  const subCategory = listing.subCategories.find((s) => s._id === subCategoryId)
  if (!category || !subCategory || !subCategory.category?.some((ref) => refId(ref) === categoryId)) throw notFound()

  if (!isCanonicalSlug(params.category, category) || !isCanonicalSlug(params.subCategory, subCategory)) {
    throw redirect(`${listingPath(category, subCategory)}${listing.url.search}`, 301)
  }

  const { sidebar, list, filters, facets } = await listing.finish(category, `${categoryId}/${subCategoryId}`)
  return {
    category: { _id: category._id, name: category.name, image: category.image, href: categoryPath(category) },
    subCategory: { _id: subCategory._id, name: subCategory.name },
    canonical: listingPath(category, subCategory),
    sidebar,
    list,
    filters,
    facets,
  }
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  if (!loaderData) return [{ title: `Not found | ${SHOP_NAME}` }]
  const { category, subCategory, canonical } = loaderData
  const origin = originFromMatches(matches)
  return [
    ...pageMeta({
      origin,
      path: canonical,
      title: `${subCategory.name} | ${category.name} | ${SHOP_NAME}`,
      description: `Buy ${subCategory.name} online in ${category.name}, delivered in minutes.`,
      siteName: SHOP_NAME,
    }),
    breadcrumbJsonLd(origin, [
      { name: 'Home', path: '/' },
      { name: category.name, path: category.href },
      { name: subCategory.name, path: canonical },
    ]),
  ]
}

// Catalogue pages are personal (the header shows the shopper), so no shared cache may keep them.
export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, max-age=0' })

export default function Listing({ loaderData }: Route.ComponentProps) {
  const { category, subCategory, sidebar } = loaderData
  const list = useAppendingList(loaderData.list)
  const isSwitching = useIsSwitchingWithinCategory()
  const all: CategoryLinkData = { _id: `all-${category._id}`, name: 'All', image: category.image, href: category.href }

  return (
    <SidebarLayout sidebar={<SubCategorySidebar items={sidebar} all={all} />}>
      <header className="mb-3 flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <div>
          <p className="text-xs font-medium text-slate-500">{category.name}</p>
          <h1 className="text-xl font-bold text-slate-900 md:text-2xl">{subCategory.name}</h1>
        </div>
        <p className="text-sm text-slate-500">{countLabel(list.totalCount, 'product')}</p>
      </header>
      <ListFacets filters={loaderData.filters} facets={loaderData.facets} />
      <ListingProducts
        list={list}
        pageSize={LISTING_PAGE_SIZE}
        isSwitching={isSwitching}
        emptyMessage={
          loaderData.list.totalCount === 0 && loaderData.list.start === 0 && hasFilters(loaderData.filters)
            ? 'No products match these filters.'
            : 'No products here yet. Try another sub category.'
        }
      />
    </SidebarLayout>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
