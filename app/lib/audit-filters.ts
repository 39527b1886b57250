/**
 * The audit trail's filters in the address bar (docs/product.md, "Audit trail"): read from
 * `?actor=&entity=&action=&from=&to=&page=` field by field with contract/audit.ts `AuditQuerySchema`,
 * and written back as a query string for the paging links. A value the schema refuses is dropped
 * with its message ("From: A date must be a real day…"), so a hand-edited link still shows a page.
 * Also how an entry's values read on the page.
 */
import { AuditQuerySchema, type AuditQuery } from '../../contract/audit.ts'

const FIELDS = ['actor', 'entity', 'action', 'from', 'to', 'page'] as const
const FIELD_LABELS: Record<(typeof FIELDS)[number], string> = {
  actor: 'Actor',
  entity: 'Entity',
  action: 'Action',
  from: 'From',
  to: 'To',
  page: 'Page',
}

/** The filters of `search` as the API takes them (empty fields left out), and a message per value dropped. */
export function readAuditFilters(search: URLSearchParams): { query: AuditQuery; errors: string[] } {
  const shape = AuditQuerySchema.shape
  const query: Record<string, string> = {}
  const errors: string[] = []
  for (const key of FIELDS) {
    const value = search.get(key)?.trim()
    if (!value) continue
    const parsed = shape[key].safeParse(value)
    if (parsed.success) query[key] = value
    else errors.push(`${FIELD_LABELS[key]}: ${parsed.error.issues[0]?.message ?? 'Not understood'}`)
  }
  if (query.from && query.to && query.from > query.to) {
    errors.push('To: The start date must not be after the end date')
    delete query.to
  }
  return { query: query as AuditQuery, errors }
}

/** The filters as a query string (only those set), with `page` when above 1. */
export function auditFilterQuery(query: AuditQuery, page = 1): string {
  const params = new URLSearchParams()
  for (const key of ['actor', 'entity', 'action', 'from', 'to'] as const) {
    const value = query[key]
    if (value) params.set(key, value)
  }
  if (page > 1) params.set('page', String(page))
  return params.toString()
}

/** One value of an entry as the page shows it: "—" for none, lists joined, everything else as JSON text. */
export function auditValueText(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—'
  if (Array.isArray(value)) return value.length === 0 ? '—' : value.map((v) => auditValueText(v)).join(', ')
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  return JSON.stringify(value)
}

/** The fields an entry touched, in the order of `after` then any only in `before`, with both values as text. */
export function auditChanges(
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
): { field: string; before: string; after: string }[] {
  const fields = [...new Set([...Object.keys(after ?? {}), ...Object.keys(before ?? {})])]
  return fields.map((field) => ({
    field,
    before: before && field in before ? auditValueText(before[field]) : '—',
    after: after && field in after ? auditValueText(after[field]) : '—',
  }))
}
