/**
 * The admin product grid's state in the address bar (docs/product-csv.md, "The admin grid"):
 * `?q=&stock=&category=&subCategory=&brand=&sort=&page=`, read with contract/product-admin.ts
 * `AdminProductFilterSchema` and written back as a query string for the paging links, the sort and
 * filter links, the CSV export link and the redirects after a bulk edit. Shared by the grid page, its
 * export route and the upstream client, so all three read the same address the same way.
 */
import { AdminProductFilterSchema, type AdminProductFilter } from '../../contract/product-admin.ts'

/** The filter keys, in the order they are written to the address. */
export const PRODUCT_GRID_KEYS = ['q', 'stock', 'category', 'subCategory', 'brand', 'sort'] as const

const FIELD_NAMES: Record<string, string> = {
  q: 'Search',
  stock: 'Stock',
  category: 'Category',
  subCategory: 'Sub category',
  brand: 'Brand',
  sort: 'Sort',
}

/** Highest page number the address may ask for. */
const MAX_PAGE = 100_000

/** The grid's state: its filters (as the API takes them), the page (1-based) and a message per refused field. */
export interface ProductGridState {
  filter: AdminProductFilter
  page: number
  errors: string[]
}

/**
 * The grid's state in `search`: a field the schema refuses is left out and its message kept
 * ("Stock: stock must be one of out, low"), so a mistyped address shows a message, not an error page;
 * a page that is not a whole number ≥ 1 is page 1.
 */
export function readProductGrid(search: URLSearchParams): ProductGridState {
  const raw: Record<string, string> = {}
  for (const key of PRODUCT_GRID_KEYS) {
    const value = search.get(key)?.trim()
    if (value) raw[key] = value
  }
  const rawPage = Number.parseInt(search.get('page') ?? '', 10)
  const page = Number.isFinite(rawPage) && rawPage >= 1 ? Math.min(rawPage, MAX_PAGE) : 1
  const errors: string[] = []
  for (;;) {
    const parsed = AdminProductFilterSchema.safeParse(raw)
    if (parsed.success) return { filter: parsed.data, page, errors }
    const issue = parsed.error.issues[0]!
    const field = String(issue.path[0] ?? '')
    errors.push(`${FIELD_NAMES[field] ?? field}: ${issue.message}`)
    if (!(field in raw)) return { filter: { sort: 'newest' } as AdminProductFilter, page, errors }
    delete raw[field]
  }
}

/** The filters as a query string (only those set; the default sort left out), with `page` when above 1. */
export function productGridQuery(filter: Partial<AdminProductFilter>, page = 1): string {
  const params = new URLSearchParams()
  for (const key of PRODUCT_GRID_KEYS) {
    const value = filter[key]
    if (value && !(key === 'sort' && value === 'newest')) params.set(key, value)
  }
  if (page > 1) params.set('page', String(page))
  return params.toString()
}

/** The grid's page (app/routes/dashboard/product/index.tsx). */
export const PRODUCT_LIST_PATH = '/dashboard/product'

/**
 * The grid's address for `state`, with at most one dialog open (`edit` or `delete` of an id); the
 * filters and page are left out at their defaults. E.g. `/dashboard/product?stock=out&page=2&edit=ab12`.
 */
export function productListHref(
  state: Pick<ProductGridState, 'filter' | 'page'>,
  dialog?: { kind: 'edit' | 'delete'; id: string },
): string {
  const params = new URLSearchParams(productGridQuery(state.filter, state.page))
  if (dialog) params.set(dialog.kind, dialog.id)
  const query = params.toString()
  return query ? `${PRODUCT_LIST_PATH}?${query}` : PRODUCT_LIST_PATH
}
