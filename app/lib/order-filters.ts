/**
 * The admin order list's filters in the address bar (docs/commerce-api.md, "Admin orders at volume"):
 * read from `?q=&status=&store=&payment=&late=&overdue=&from=&to=&sort=` with contract/order.ts `AdminOrderFilterSchema`, and written back as a query
 * string for the paging links and the CSV export link. Shared by the page and the export route.
 */
import { AdminOrderFilterSchema, type AdminOrderFilter } from '../../contract/order.ts'

const FIELD_NAMES: Record<string, string> = {
  q: 'Search',
  status: 'Status',
  store: 'Store',
  payment: 'Payment',
  late: 'Late',
  overdue: 'Past promise',
  from: 'From',
  to: 'To',
  sort: 'Sort',
}

/**
 * The filters of `search` as the API takes them: a field the schema refuses is left out and its
 * message kept ("From: Not a real date"), so a mistyped date shows a message instead of an error page.
 */
export function readOrderFilters(search: URLSearchParams): { filter: AdminOrderFilter; errors: string[] } {
  const raw: Record<string, string> = {}
  for (const key of ['q', 'status', 'store', 'payment', 'late', 'overdue', 'from', 'to', 'sort'] as const) {
    const value = search.get(key)?.trim()
    if (value) raw[key] = value
  }
  const errors: string[] = []
  for (;;) {
    const parsed = AdminOrderFilterSchema.safeParse(raw)
    if (parsed.success) return { filter: parsed.data, errors }
    const issue = parsed.error.issues[0]!
    const field = String(issue.path[0] ?? '')
    errors.push(`${FIELD_NAMES[field] ?? field}: ${issue.message}`)
    if (!(field in raw)) return { filter: { q: undefined, sort: 'newest' }, errors }
    delete raw[field]
  }
}

/** The filters as a query string (only those set; the default sort left out). */
export function orderFilterQuery(filter: Partial<AdminOrderFilter>): string {
  const params = new URLSearchParams()
  for (const key of ['q', 'status', 'store', 'payment', 'from', 'to', 'sort'] as const) {
    const value = filter[key]
    if (value && !(key === 'sort' && value === 'newest')) params.set(key, value)
  }
  if (filter.late) params.set('late', '1')
  if (filter.overdue) params.set('overdue', '1')
  return params.toString()
}

/** The orders export's query key for one row per order line (`?rows=lines`) instead of one per order. */
export const ORDER_EXPORT_ROWS_PARAM = 'rows'
