/**
 * /search: the search results page (docs/product.md, "Search": a real results page instead of the
 * original app's placeholder). A GET form (`?q=`), so it works without JavaScript; the results grid
 * appends pages of 12 (app/components/pager.tsx). With JavaScript the results follow the typing,
 * debounced 300 ms (docs/product.md, "Constants"), replacing the history entry each time; focus and
 * caret stay in the input. Typo
 * tolerance ("panner" finds paneer) is the API's (POST /api/product/search-product).
 *
 * The header shows its own search form on /search without a query string and hides it with one
 * (docs/product.md, "Header"; app/components/header.tsx). This page shows its form exactly when the
 * header's is hidden, so there is always one search input. Typing in either is followed: a document-level
 * listener catches input into any `q` field of a form that submits to /search.
 *
 * Above the results: what the search was taken to mean ("Showing results for milk (doodh)", "Did you
 * mean bread?", words left out) from the API's `understood`, and the filters and sort
 * (app/components/list-facets.tsx: GET parameters, so they work without JavaScript and can be shared).
 *
 * Upstream calls per render: one (none for an empty query).
 */
import { useEffect, useEffectEvent, useRef } from 'react'
import { Form, Link, useLocation, useNavigation, useSubmit } from 'react-router'
import type { Route } from './+types/search'
import { fetchRange, searchProducts, type Understood } from '../.server/api/catalog.ts'
import { filtersBody, filtersKey, isSorted, readListFilters } from '../lib/list-filters.ts'
import { ListFacets } from '../components/list-facets.tsx'
import { clientIp } from '../.server/request.ts'
import { useDebouncedCallback, SEARCH_DEBOUNCE_MS } from '../lib/use-debounce.ts'
import { ProductGrid } from '../components/product-card.tsx'
import { toCardData, type ProductCardData } from '../lib/catalog-cards.ts'
import { EarlierPagesNote, LoadMore, useAppendingList } from '../components/pager.tsx'
import { pageRange, readPageRequest, type PageWindow } from '../lib/paging.ts'
import { countLabel } from '../lib/plural.ts'
import { listingPath } from '../lib/slug.ts'
import { ProductGridCellsSkeleton, Spinner } from '../components/skeletons.tsx'
import { GeneralErrorBoundary } from '../components/error-boundary.tsx'
import { SHOP_NAME, showsHeaderSearch } from '../components/header.tsx'
import { SEARCH_PLACEHOLDER } from '../components/search-bar.tsx'
import { SearchIcon } from '../components/icons.tsx'
import { PERSONAL_SLOTS_HANDLE } from '../lib/personal-slots.ts'
import { revalidateExceptAfterCartWrite } from '../lib/cart.ts'
import { apiOf } from '../.server/api-context.ts'

/** The page differs between visitors only in personal slots (app/lib/personal-slots.ts). */
export const handle = PERSONAL_SLOTS_HANDLE

/** An ADD or a stepper here re-reads only the root loader's cart summary (app/lib/cart.ts). */
export const shouldRevalidate = revalidateExceptAfterCartWrite

/** Results per page (docs/product.md, "Constants"). */
const SEARCH_PAGE_SIZE = 12
/** Longest query sent upstream (the API refuses longer ones). */
const MAX_QUERY_LENGTH = 200
/** What the empty page suggests (the header prompt's words, docs/product.md, "Search bar", spelt correctly). */
const SUGGESTIONS = ['milk', 'bread', 'sugar', 'paneer', 'chocolate', 'curd', 'egg', 'chips', 'rice', 'atta', 'dal']

export async function loader({ context, request }: Route.LoaderArgs) {
  const api = apiOf(context)
  const url = new URL(request.url)
  const q = (url.searchParams.get('q') ?? '').trim().slice(0, MAX_QUERY_LENGTH)
  const filters = readListFilters(url)
  if (!q) return { q, list: null, filters, facets: undefined, understood: undefined }
  const { page, isSingle } = readPageRequest(url)
  const { start, end } = pageRange(page, SEARCH_PAGE_SIZE, isSingle)
  const call = { clientIp: clientIp(request) }
  const options = filtersBody(filters)
  const { products, totalCount, facets, understood } = await fetchRange(
    (p, limit) => searchProducts(api, { search: q, page: p, limit, options }, call),
    start,
    end,
  )
  const list: PageWindow<ProductCardData> = {
    items: products.map(toCardData),
    start,
    page,
    pageSize: SEARCH_PAGE_SIZE,
    totalCount,
    scope: `${q}\u0000${filtersKey(filters)}`,
  }
  return { q, list, filters, facets, understood }
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData?.q ? `“${loaderData.q}” | Search | ${SHOP_NAME}` : `Search | ${SHOP_NAME}` },
  { name: 'description', content: 'Search fruits, vegetables, dairy, atta, dal, snacks and more.' },
  // Result pages are endless variations of one page: keep them out of search engines.
  { name: 'robots', content: 'noindex, follow' },
]

// Catalogue pages are personal (the header shows the shopper), so no shared cache may keep them.
export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, max-age=0' })

/**
 * Debounced search-as-you-type for every `q` input of a form that submits to /search (this page's
 * and the header's). Each pause of SEARCH_DEBOUNCE_MS submits the form as a GET navigation that
 * replaces the current history entry, so Back leaves the search instead of stepping through letters.
 * Emptying the box searches for nothing until a new word is typed.
 */
function useSearchAsYouType() {
  const submit = useSubmit()
  const lastTypedRef = useRef<string | null>(null)
  const search = useDebouncedCallback((form: HTMLFormElement) => {
    submit(form, { replace: true, preventScrollReset: true })
  }, SEARCH_DEBOUNCE_MS)

  useEffect(() => {
    const onInput = (event: Event) => {
      const input = event.target
      if (!(input instanceof HTMLInputElement) || input.name !== 'q' || !input.form) return
      if (new URL(input.form.action, window.location.href).pathname !== '/search') return
      lastTypedRef.current = input.value
      // An emptied box is a shopper about to type a new word: keep the results (and this input,
      // with the focus) until they do. Searching for nothing would swap in the empty page and its
      // header bar mid-word. Enter on an empty box still opens it (a plain GET).
      if (!input.value.trim()) {
        search.cancel()
        return
      }
      search(input.form)
    }
    document.addEventListener('input', onInput)
    return () => document.removeEventListener('input', onInput)
  }, [search])

  return lastTypedRef
}

export default function Search({ loaderData }: Route.ComponentProps) {
  const { q } = loaderData
  const location = useLocation()
  const navigation = useNavigation()
  const lastTypedRef = useSearchAsYouType()
  // Typed text that has become the query is used up: a later visit must not bring it back.
  useEffect(() => {
    if (lastTypedRef.current?.trim() === q) lastTypedRef.current = null
  }, [q, lastTypedRef])
  const showsOwnForm = !showsHeaderSearch(location.pathname, location.search)
  const isSearching = navigation.state !== 'idle' && navigation.location?.pathname === '/search'

  return (
    <div className="mx-auto max-w-7xl px-3 py-4 sm:px-4">
      <h1 className="sr-only">Search</h1>
      {showsOwnForm ? <SearchForm q={q} isSearching={isSearching} lastTypedRef={lastTypedRef} /> : null}
      {/* Announces each new answer to screen readers while the shopper keeps typing. */}
      <p className="sr-only" role="status">
        {loaderData.list ? `${countLabel(loaderData.list.totalCount, 'result')} for ${q}` : ''}
      </p>
      <div aria-busy={isSearching}>
        {loaderData.list ? (
          <>
            {loaderData.understood ? <SearchMeaning q={q} understood={loaderData.understood} /> : null}
            {loaderData.list.totalCount > 0 || hasChosen(loaderData.filters) ? (
              <ListFacets filters={loaderData.filters} facets={loaderData.facets} hidden={{ q }} />
            ) : null}
            <Results key={loaderData.list.scope} q={q} list={loaderData.list} isSearching={isSearching} />
          </>
        ) : (
          <Suggestions heading="What are you looking for today?" />
        )}
      </div>
    </div>
  )
}

/**
 * The page's own search form, shown when the header hides its bar. It keeps its input mounted while
 * results change (focus and caret stay) and only overwrites the text when the query changed from
 * elsewhere (Back, a suggestion link) and the shopper is not typing in it.
 */
function SearchForm({ q, isSearching, lastTypedRef }: { q: string; isSearching: boolean; lastTypedRef: React.RefObject<string | null> }) {
  const input = useRef<HTMLInputElement>(null)

  // Arriving from the header's input (its form is replaced by this one after the first search):
  // carry over what was typed meanwhile and put the caret at the end, where the shopper left it.
  const arrive = useEffectEvent(() => {
    const el = input.current
    if (!el) return
    const typed = lastTypedRef.current
    lastTypedRef.current = null
    if (typed !== null && typed !== el.value) {
      el.value = typed
      // Search again only if the text differs from the query already shown (not just a trailing space).
      if (typed.trim() !== q) el.dispatchEvent(new Event('input', { bubbles: true }))
    }
    if (document.activeElement === el || document.activeElement === document.body) {
      el.focus()
      el.setSelectionRange(el.value.length, el.value.length)
    }
  })
  // Only on mount: later changes of `q` are handled below.
  useEffect(() => arrive(), [])

  useEffect(() => {
    const el = input.current
    if (el && document.activeElement !== el && el.value.trim() !== q) el.value = q
  }, [q])

  return (
    <Form
      method="get"
      action="/search"
      role="search"
      className="mb-4 flex h-12 w-full items-center gap-2 rounded-xl border border-slate-300 bg-white pl-3 pr-1.5 shadow-sm focus-within:border-accent focus-within:ring-2 focus-within:ring-accent/20 md:mx-auto md:max-w-2xl"
    >
      <span className="shrink-0 text-slate-500">{isSearching ? <Spinner className="h-5 w-5" /> : <SearchIcon size={20} />}</span>
      <input
        ref={input}
        type="search"
        name="q"
        defaultValue={q}
        placeholder={SEARCH_PLACEHOLDER}
        aria-label="Search products"
        autoComplete="off"
        enterKeyHint="search"
        maxLength={MAX_QUERY_LENGTH}
        autoFocus
        className="h-full min-w-0 flex-1 bg-transparent text-base text-slate-900 outline-none placeholder:text-slate-500"
      />
      <button
        type="submit"
        className="h-9 shrink-0 rounded-lg bg-accent px-4 text-sm font-semibold text-white hover:bg-accent-dark focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent"
      >
        Search
      </button>
    </Form>
  )
}

/** Whether the shopper chose a filter or sort (the facet form stays to undo it even with no result). */
function hasChosen(filters: ReturnType<typeof readListFilters>): boolean {
  return filters.brand.length > 0 || filters.price !== null || filters.discount !== null || isSorted(filters)
}

/**
 * What the search was taken to mean, from the API's `understood` (docs/search.md, "Answer"): a
 * spelling correction ("Did you mean bread?", a link that searches the corrected words), synonyms
 * searched too ("Showing results for milk (doodh)"), words left out, words dropped because no
 * product had them all, brands the store does not stock ("No parle products; showing biscuits"), and
 * then the nearest shelf, a link to its listing.
 */
function SearchMeaning({ q, understood }: { q: string; understood: Understood }) {
  const lines: React.ReactNode[] = []
  if (understood.corrections.length > 0) {
    lines.push(
      <>
        Did you mean{' '}
        <Link to={`/search?q=${encodeURIComponent(understood.query)}`} className="font-semibold text-accent underline">
          {understood.query}
        </Link>
        ?
      </>,
    )
  }
  if (understood.synonyms.length > 0) {
    const means = understood.synonyms.map((s) => `${s.means.join(', ')} (${s.word})`).join(', ')
    lines.push(<>Showing results for {means}</>)
  }
  if (understood.ignored.length > 0) {
    lines.push(<>No products match {understood.ignored.map((w) => `“${w}”`).join(', ')}, so we left it out.</>)
  }
  if (understood.relaxed.length > 0) {
    lines.push(
      <>
        No product matches all of “{q}”: showing results for {understood.query}.
      </>,
    )
  }
  for (const n of understood.notStocked ?? []) {
    lines.push(
      <>
        No {n.word} products; showing {n.showing.join(', ')}.
      </>,
    )
  }
  if (understood.shelf) {
    const { category, subCategory } = understood.shelf
    lines.push(
      <>
        Nearest shelf:{' '}
        <Link to={listingPath(category, subCategory)} className="font-semibold text-accent underline" data-testid="search-nearest-shelf">
          {subCategory.name}
        </Link>
      </>,
    )
  }
  if (lines.length === 0) return null
  return (
    <div className="mb-3 rounded-xl bg-brand-light px-3 py-2 text-sm text-slate-800" data-testid="search-meaning">
      {lines.map((line, i) => (
        <p key={i}>{line}</p>
      ))}
    </div>
  )
}

function Results({ q, list: loaded, isSearching }: { q: string; list: PageWindow<ProductCardData>; isSearching: boolean }) {
  const list = useAppendingList(loaded)
  if (list.items.length === 0 && list.start === 0) {
    return <Suggestions heading="Nothing here yet" detail={`We found no products for “${q}”. Try another word:`} />
  }
  return (
    <section aria-labelledby="search-results" className={isSearching ? 'opacity-60 transition-opacity' : 'transition-opacity'}>
      <h2 id="search-results" className="mb-3 text-base font-semibold text-slate-700">
        {countLabel(list.totalCount, 'result')} for “{q}”
      </h2>
      <EarlierPagesNote list={list} noun="results" />
      <ProductGrid products={list.items} paging={{ start: list.start, pageSize: loaded.pageSize }}>
        {list.isLoading ? <ProductGridCellsSkeleton count={4} /> : null}
      </ProductGrid>
      <LoadMore list={list} noun="results" />
    </section>
  )
}

/** The friendly prompt of an empty search, and of one that found nothing. */
function Suggestions({ heading, detail = 'Popular searches:' }: { heading: string; detail?: string }) {
  return (
    <section className="mx-auto flex max-w-2xl flex-col items-center gap-3 px-2 py-10 text-center">
      <span className="grid h-16 w-16 place-items-center rounded-full bg-brand-light text-brand-dark" aria-hidden="true">
        <SearchIcon size={30} />
      </span>
      <h2 className="text-xl font-bold text-slate-900">{heading}</h2>
      <p className="text-slate-600">{detail}</p>
      <ul className="flex flex-wrap justify-center gap-2">
        {SUGGESTIONS.map((word) => (
          <li key={word}>
            <Link
              to={`/search?q=${encodeURIComponent(word)}`}
              className="inline-flex min-h-10 items-center rounded-full border border-slate-300 bg-white px-4 text-sm font-medium text-slate-700 hover:border-accent hover:text-accent"
            >
              {word}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
