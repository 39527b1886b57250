/**
 * Paging rules shared by loaders and pages:
 * - the appending lists of the listing, category and search pages (docs/product.md, "Listings": page
 *   1 replaces the list, later pages append): which window of items a loader fetches for `?page=N`
 *   (app/components/pager.tsx renders it);
 * - the admin data tables (docs/product.md, "Sub Category admin"), cut into pages of 10 rows.
 */

/** Most pages the JavaScript-off "Load more" link shows at once; older pages drop off the top beyond this. */
export const MAX_WINDOW_PAGES = 12
/** Highest page number a URL may ask for; larger values are read as this. */
export const MAX_PAGE = 10_000

/** A slice of a paged list as a loader answers it. */
export interface PageWindow<T> {
  /** The items of pages (first shown page)..`page`. */
  items: T[]
  /** 0-based index of the first item in the whole list. */
  start: number
  /** The last page included (1-based). */
  page: number
  pageSize: number
  totalCount: number
  /** Identifies the list (a category and sub category, a search text): answers of another list are ignored. */
  scope: string
}

/**
 * The page the URL asks for: `?page=N` (whole number, 1..MAX_PAGE), else 1; and whether only that
 * page is wanted (`&single=1`, the fetcher's request).
 */
export function readPageRequest(url: URL): { page: number; isSingle: boolean } {
  const raw = Number.parseInt(url.searchParams.get('page') ?? '', 10)
  const page = Number.isFinite(raw) && raw >= 1 ? Math.min(raw, MAX_PAGE) : 1
  return { page, isSingle: url.searchParams.get('single') === '1' }
}

/**
 * The items `[start, end)` a loader should fetch for `page` of size `pageSize`: only that page for
 * the fetcher, else pages 1..page, trimmed to the last MAX_WINDOW_PAGES pages.
 */
export function pageRange(page: number, pageSize: number, isSingle: boolean): { start: number; end: number } {
  const end = page * pageSize
  const first = isSingle ? page : Math.max(1, page - MAX_WINDOW_PAGES + 1)
  return { start: (first - 1) * pageSize, end }
}

/** The admin data tables' page size, in rows. */
export const TABLE_PAGE_SIZE = 10

/** One page of a table: its rows, the 1-based page shown, the page count and the serial number of the first row. */
export interface Page<T> {
  rows: T[]
  page: number
  totalPages: number
  /** Serial number ("No.") of the first row: (page - 1) * size + 1. */
  firstSerial: number
}

/**
 * Page `requested` (1-based; a number or the raw `?page=` text) of `items`, `size` rows a page. A
 * missing, malformed or too small page gives page 1, one past the end the last page; an empty list
 * has one empty page.
 */
export function paginate<T>(items: readonly T[], requested: number | string | null | undefined, size = TABLE_PAGE_SIZE): Page<T> {
  const totalPages = Math.max(1, Math.ceil(items.length / size))
  const asNumber = typeof requested === 'number' ? requested : Number.parseInt(String(requested ?? ''), 10)
  const page = Number.isFinite(asNumber) ? Math.min(Math.max(1, Math.trunc(asNumber)), totalPages) : 1
  const start = (page - 1) * size
  return { rows: items.slice(start, start + size), page, totalPages, firstSerial: start + 1 }
}
