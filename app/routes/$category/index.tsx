/**
 * /{category}: every product of one category (docs/product.md, "Listings": a category with no sub
 * category still leads somewhere sensible; home's See All links land here). The same frame as the
 * listing page (docs/product.md, "Listings"): the category's sub categories in the sidebar with an
 * "All" entry first, highlighted here; the category name as title; the product grid (2, 3 or 4
 * columns), page size 8 (docs/product.md, "Constants"), later pages append (app/components/pager.tsx).
 *
 * Unknown ids answer 404; a stale name part redirects (301) to the canonical path. Upstream calls
 * per render: three, in parallel (categories, sub categories, one product page).
 */
import { redirect } from 'react-router'
import type { Route } from './+types/index'
import { notFound, startListing } from '../../.server/listing.ts'
import { categoryPath, idFromSlug, isCanonicalSlug } from '../../lib/slug.ts'
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
  if (!categoryId) throw notFound()

  const listing = await startListing(api, request, { categoryId }, LISTING_PAGE_SIZE)
  const category = listing.categories.find((c) => c._id === categoryId)
  if (!category) throw notFound()
  if (!isCanonicalSlug(params.category, category)) throw redirect(`${categoryPath(category)}${listing.url.search}`, 301)

  const { sidebar, list, filters, facets } = await listing.finish(category, categoryId)
  return {
    category: { _id: category._id, name: category.name, image: category.image, href: categoryPath(category) },
    canonical: categoryPath(category),
    sidebar,
    list,
    filters,
    facets,
  }
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  if (!loaderData) return [{ title: `Not found | ${SHOP_NAME}` }]
  const { category, canonical } = loaderData
  const origin = originFromMatches(matches)
  return [
    ...pageMeta({
      origin,
      path: canonical,
      title: `${category.name} | ${SHOP_NAME}`,
      description: `Buy ${category.name} online, delivered in minutes.`,
      image: category.image || undefined,
      siteName: SHOP_NAME,
    }),
    breadcrumbJsonLd(origin, [
      { name: 'Home', path: '/' },
      { name: category.name, path: canonical },
    ]),
  ]
}

// Catalogue pages are personal (the header shows the shopper), so no shared cache may keep them.
export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, max-age=0' })

export default function CategoryPage({ loaderData }: Route.ComponentProps) {
  const { category, sidebar } = loaderData
  const list = useAppendingList(loaderData.list)
  const isSwitching = useIsSwitchingWithinCategory()
  const all: CategoryLinkData = { _id: `all-${category._id}`, name: 'All', image: category.image, href: category.href }

  return (
    <SidebarLayout sidebar={<SubCategorySidebar items={sidebar} all={all} />}>
      <header className="mb-3 flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h1 className="text-xl font-bold text-slate-900 md:text-2xl">{category.name}</h1>
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
            : 'No products in this category yet.'
        }
      />
    </SidebarLayout>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
