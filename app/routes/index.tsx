/**
 * Home (docs/product.md, "Home"; skeleton counts: docs/product.md, "Constants"): the banner, the
 * category image grid and one product row per category.
 *
 * Upstream calls: always three, whatever the number of categories (docs/product.md, "Home";
 * docs/decisions/0005-catalogue-cache.md): categories and
 * sub categories in parallel, then ONE grouped by-category call for every row.
 *
 * Loading strategy (a deliberate choice):
 * - The server loader awaits everything. Streaming the rows (returning an un-awaited promise) would
 *   send them, on a document request, as hidden HTML that only an inline script reveals: with
 *   JavaScript off the rows would never show. So documents always arrive complete.
 * - Client-side navigations to / go through `clientLoader`, which returns the server loader's promise
 *   un-awaited: the page switches at once and shows the skeletons (12 category tiles, 6 cards per
 *   row) inside <Suspense>/<Await> until the data arrives. The first load hydrates with the server's
 *   data (no `clientLoader.hydrate`), so it never flashes skeletons.
 */
import { lazy, Suspense } from 'react'
import { Await, Link, useAsyncError, type ShouldRevalidateFunctionArgs } from 'react-router'
import type { Route } from './+types/index'
import { listCategories, listSubCategories, productsByCategoryGrouped, refId } from '../.server/api/catalog.ts'
import { clientIp } from '../.server/request.ts'
import { categoryPath, listingPath } from '../lib/slug.ts'
import { Banner } from '../components/banner.tsx'
import { CategoryGrid } from '../components/category-grid.tsx'
import { HOME_ROW_CARDS, homeRowCards, ProductRow } from '../components/product-row.tsx'
import { HydrateWhenVisible } from '../components/hydrate-when-visible.tsx'
import type { CategoryLinkData, ProductCardData } from '../lib/catalog-cards.ts'
import { GeneralErrorBoundary } from '../components/error-boundary.tsx'
import { SHOP_NAME } from '../components/header.tsx'
import { originFromMatches, pageMeta } from '../lib/seo.ts'
import { PERSONAL_SLOTS_HANDLE } from '../lib/personal-slots.ts'
import { apiOf } from '../.server/api-context.ts'
import { getSession } from '../.server/context.ts'
import { buyAgainProducts } from '../.server/api/recommend.ts'
import { BuyAgainRow } from '../components/buy-again-row.tsx'
import { BUY_AGAIN_HOME_CARDS } from '../../contract/recommend.ts'
import { PersonalSlot } from '../components/personal-slot.tsx'

/** The page differs between visitors only in personal slots (app/lib/personal-slots.ts). */
export const handle = PERSONAL_SLOTS_HANDLE

/** One home row: a category's name, its listing and its products. */
interface HomeRow {
  categoryId: string
  title: string
  seeAllHref: string
  products: ProductCardData[]
}

/** Rows hydrated with the page; the others hydrate when they come near the screen. */
const EAGER_ROWS = 1

// The skeletons show only on client-side navigations: they load then, not with the page.
const HomeSkeleton = lazy(() => import('../components/skeletons.tsx').then((module) => ({ default: module.HomeSkeleton })))

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    origin: originFromMatches(matches),
    path: '/',
    title: `${SHOP_NAME} | Groceries delivered in minutes`,
    description: 'Fresh fruits, vegetables, dairy, atta, dal, snacks and more, delivered to your door in minutes.',
    siteName: SHOP_NAME,
  })

// Catalogue pages are personal (the header shows the shopper), so no shared cache may keep them.
export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, max-age=0' })

export async function loader({ context, request }: Route.LoaderArgs) {
  const api = apiOf(context)
  const call = { clientIp: clientIp(request) }
  const [categories, subCategories] = await Promise.all([listCategories(api, call), listSubCategories(api, call)])
  const grouped = await productsByCategoryGrouped(
    api,
    categories.map((category) => category._id),
    call,
  )

  // A tile opens the first sub category that lists its category (docs/product.md, "Home"); a category
  // that no sub category lists opens its own page instead of failing (docs/product.md, "Differences
  // from the original app").
  const tiles: CategoryLinkData[] = categories.map((category) => {
    const subCategory = subCategories.find((sub) => sub.category?.some((ref) => refId(ref) === category._id))
    return {
      _id: category._id,
      name: category.name,
      image: category.image,
      href: subCategory ? listingPath(category, subCategory) : categoryPath(category),
    }
  })

  const productsByCategory = new Map(grouped.map((row) => [row.categoryId, row.products]))
  const rows: HomeRow[] = categories
    .map((category) => ({
      categoryId: category._id,
      title: category.name,
      seeAllHref: categoryPath(category),
      // One card per pack group (the API's `groupSizes`), without the size picker: 66 pickers took the
      // document from under 150 kB to 177 kB (docs/product.md, "Pack sizes"); the card's page lists them.
      products: homeRowCards(productsByCategory.get(category._id) ?? [], 0, HOME_ROW_CARDS),
    }))
    .filter((row) => row.products.length > 0)

  // A page rendered for a signed-in shopper alone (not from the shared page): their "Buy again" row.
  const session = getSession(context)
  const buyAgain = session.user ? ((await buyAgainProducts(api, session, call)) ?? []) : []

  return { tiles, rows, buyAgain: homeRowCards(buyAgain, 0, BUY_AGAIN_HOME_CARDS) }
}

type HomeData = Awaited<ReturnType<typeof loader>>

/** Client-side navigations: show the skeletons at once, fill in when the server answers. */
export function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  void import('../components/skeletons.tsx')
  return { pending: serverLoader() }
}

/**
 * The catalogue does not depend on who is signed in, so form submissions elsewhere on the page
 * (sign out) need not reload it, nor flash the skeletons.
 */
export function shouldRevalidate({ formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formMethod ? false : defaultShouldRevalidate
}

export default function Home({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-5 px-3 py-4 sm:px-4">
      <h1 className="sr-only">Groceries delivered in minutes</h1>
      <Banner />
      {'pending' in loaderData ? (
        <Suspense
          fallback={
            <Suspense fallback={null}>
              <HomeSkeleton />
            </Suspense>
          }
        >
          <Await resolve={loaderData.pending} errorElement={<HomeLoadError />}>
            {(data) => <HomeContent data={data} />}
          </Await>
        </Suspense>
      ) : (
        <HomeContent data={loaderData} />
      )}
    </div>
  )
}

function HomeContent({ data }: { data: HomeData }) {
  if (data.tiles.length === 0) {
    return (
      <p className="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center text-slate-600">
        The shelves are being stocked. Please come back in a few minutes.
      </p>
    )
  }
  return (
    <>
      <section aria-labelledby="home-categories">
        <h2 id="home-categories" className="sr-only">
          Shop by category
        </h2>
        <CategoryGrid tiles={data.tiles} />
      </section>
      <div className="flex flex-col gap-1">
        <PersonalSlot slot={{ kind: 'buy-again' }}>
          <BuyAgainRow fromLoader={data.buyAgain} />
        </PersonalSlot>
        {data.rows.map((row, i) => {
          const content = (
            <ProductRow
              headingId={`row-${row.categoryId}`}
              title={row.title}
              seeAllHref={row.seeAllHref}
              products={row.products}
              moreHref={`/home-row/${row.categoryId}`}
            />
          )
          // The first row hydrates with the page; the others when they come near the screen, and
          // the browser skips their layout and paint until then (content-visibility, CSS Containment
          // Level 2), reserving about a row's height so the scrollbar stays put.
          return i < EAGER_ROWS ? (
            <div key={row.categoryId}>{content}</div>
          ) : (
            <HydrateWhenVisible key={row.categoryId} className="[contain-intrinsic-size:auto_340px] [content-visibility:auto]">
              {content}
            </HydrateWhenVisible>
          )
        })}
      </div>
    </>
  )
}

/** When the deferred data fails on a client-side navigation: say so and offer a full reload. */
function HomeLoadError() {
  const error = useAsyncError()
  const detail = error instanceof Error ? error.message : 'The shop could not be loaded.'
  return (
    <div role="alert" className="rounded-xl border border-red-200 bg-red-50 p-6 text-center text-red-800">
      <p className="font-semibold">Unexpected Application Error!</p>
      <p className="mt-1 text-sm">{detail}</p>
      <Link to="/" reloadDocument className="mt-3 inline-block font-semibold text-accent underline">
        Try again
      </Link>
    </div>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
