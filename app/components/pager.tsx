/**
 * "Later pages append" paging for the listing, category and search pages (docs/product.md, "States
 * and transitions": page 1 replaces the list, later pages append; docs/product.md, "Listings": with
 * JavaScript off a next-page link does the same).
 *
 * One link serves both worlds. Its href is `?page=N+1`: without JavaScript the browser loads it and
 * the loader answers pages 1..N+1 at once (a window of at most `MAX_WINDOW_PAGES` pages), so the
 * list looks appended. With JavaScript the click is intercepted and a fetcher loads only page N+1
 * (`&single=1`), which is appended in place; the URL does not change.
 */
import { useState } from 'react'
import { Link, useFetcher, useLocation, useNavigation } from 'react-router'
import { Spinner } from './skeletons.tsx'
import type { PageWindow } from '../lib/paging.ts'

function withPage(search: string, page: number, isSingle: boolean): string {
  const params = new URLSearchParams(search)
  params.set('page', String(page))
  params.delete('single')
  if (isSingle) params.set('single', '1')
  return `?${params.toString()}`
}

/** The state of an appending list: everything shown so far, and how to get more. */
export interface AppendingList<T> {
  items: T[]
  start: number
  page: number
  totalCount: number
  hasMore: boolean
  isLoading: boolean
  /** `?page=N+1#page-N+1` of the current URL: the JavaScript-off link. */
  nextHref: string
  /** Loads page N+1 with the fetcher and appends it. */
  loadMore: () => void
}

/**
 * Keeps the loader's window plus pages appended by the fetcher. A new window from the loader (route
 * params changed, a new search) starts the list over: "page 1 replaces the list".
 */
export function useAppendingList<T extends { _id: string }>(loaded: PageWindow<T>): AppendingList<T> {
  const fetcher = useFetcher<{ list: PageWindow<T> }>()
  const location = useLocation()
  const next = fetcher.data?.list
  // `consumed`: the fetcher answer already taken into account, so each answer is appended once.
  const [state, setState] = useState({ base: loaded, items: loaded.items, page: loaded.page, consumed: next })

  // Derived state, adjusted during render (not in an effect) so a new list never flashes the old
  // pages and an appended page shows in the same render as its answer (react.dev, "Adjusting some
  // state when a prop changes"). A new window from the loader starts over and leaves the fetcher's
  // current answer unused.
  let current = state
  if (current.base !== loaded) current = { base: loaded, items: loaded.items, page: loaded.page, consumed: next }
  if (next && next !== current.consumed) {
    // Only the page right after ours, of the same list, is appended (a late answer is dropped).
    if (next.scope === current.base.scope && next.page === current.page + 1) {
      const seen = new Set(current.items.map((item) => item._id))
      current = {
        ...current,
        items: [...current.items, ...next.items.filter((item) => !seen.has(item._id))],
        page: next.page,
        consumed: next,
      }
    } else current = { ...current, consumed: next }
  }
  if (current !== state) setState(current)

  const totalCount =
    current.page > loaded.page && fetcher.data?.list.scope === loaded.scope ? fetcher.data.list.totalCount : loaded.totalCount
  const hasMore = loaded.start + current.items.length < totalCount
  return {
    items: current.items,
    start: loaded.start,
    page: current.page,
    totalCount,
    hasMore,
    isLoading: fetcher.state !== 'idle',
    // The anchor scrolls the reloaded page to the first new card (ProductGrid's `paging`).
    nextHref: `${withPage(location.search, current.page + 1, false)}#page-${current.page + 1}`,
    loadMore: () => {
      if (fetcher.state === 'idle') fetcher.load(`${location.pathname}${withPage(location.search, current.page + 1, true)}`)
    },
  }
}

/**
 * The "Load more" link under a grid, and a line saying how many products are shown. Without
 * JavaScript it is a plain link to the next page; with it, a click appends the next page in place.
 */
export function LoadMore<T extends { _id: string }>({ list, noun = 'products' }: { list: AppendingList<T>; noun?: string }) {
  const shownTo = list.start + list.items.length
  return (
    <div className="mt-6 flex flex-col items-center gap-3">
      {list.totalCount > 1 ? (
        <p className="text-sm text-slate-500" aria-live="polite">
          {list.start === 0 && !list.hasMore
            ? `Showing all ${list.totalCount} ${noun}`
            : `Showing ${list.start > 0 ? `${list.start + 1}–${shownTo}` : shownTo} of ${list.totalCount} ${noun}`}
        </p>
      ) : null}
      {list.hasMore ? (
        <Link
          to={list.nextHref}
          preventScrollReset
          rel="next"
          onClick={(event) => {
            // Modified clicks (new tab) keep the link's own behaviour.
            if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
            event.preventDefault()
            list.loadMore()
          }}
          aria-disabled={list.isLoading || undefined}
          className="inline-flex min-h-11 min-w-40 items-center justify-center gap-2 rounded-full border border-accent bg-white px-6 py-2.5 text-sm font-semibold text-accent shadow-sm transition hover:bg-emerald-50"
        >
          {list.isLoading ? (
            <>
              <Spinner />
              Loading…
            </>
          ) : (
            `Load more ${noun}`
          )}
        </Link>
      ) : null}
    </div>
  )
}

/**
 * Shown above the grid when the list does not start at the first product (a JavaScript-off shopper
 * went past MAX_WINDOW_PAGES pages, or opened a page past the end): a link back to the first page.
 */
export function EarlierPagesNote<T extends { _id: string }>({ list, noun = 'products' }: { list: AppendingList<T>; noun?: string }) {
  const location = useLocation()
  if (list.start === 0) return null
  const params = new URLSearchParams(location.search)
  params.delete('page')
  params.delete('single')
  const query = params.toString()
  return (
    <p className="mb-3 rounded-lg bg-amber-50 px-3 py-2 text-sm text-slate-700">
      {list.items.length > 0 ? `Showing ${noun} from number ${list.start + 1} on. ` : `No more ${noun} on this page. `}
      <Link to={`${location.pathname}${query ? `?${query}` : ''}`} className="font-semibold text-accent underline">
        Back to the first page
      </Link>
    </p>
  )
}

/**
 * True while a link to another page of the same category loads (a sidebar click on the category or
 * listing page): the grid then shows skeletons rather than the old products.
 */
export function useIsSwitchingWithinCategory(): boolean {
  const navigation = useNavigation()
  const location = useLocation()
  const next = navigation.location
  if (navigation.state !== 'loading' || !next || next.pathname === location.pathname) return false
  return next.pathname.split('/')[1] === location.pathname.split('/')[1]
}
