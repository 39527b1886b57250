/**
 * The admin's CSV export of the filtered order list (docs/commerce-api.md, "Admin orders at volume"):
 * the orders the list's filters select, in its sort, one row per order, written with csv-stringify
 * (RFC 4180 quoting) and streamed in pages of EXPORT_PAGE orders read by keyset (the sort key and the
 * id of the last row sent), so 100,000 orders never sit in memory and no transaction stays open while
 * the client reads. Amounts are rupees with two decimals, computed from integer paise; times are IST.
 * Text a shopper typed (name, email, address, cancel reason) is guarded against CSV injection
 * (OWASP, "CSV Injection"): a cell starting with =, +, -, @, a tab or a carriage return gets a leading
 * apostrophe, so a spreadsheet shows it as text instead of running it as a formula.
 */
import { sql, type SQL } from 'drizzle-orm'
import { stringify } from 'csv-stringify/sync'
import type { AppDeps } from '../../deps.ts'
import { queryRows } from '../../db/query.ts'
import type { AdminOrderFilter } from '../../../contract/order.ts'
import { adminOrderBy, adminOrderWhere, SORT_KEYS } from './admin-filter.ts'

/** Orders read per query while streaming. */
export const EXPORT_PAGE = 1000

/** The export's columns, in order (the header row). */
export const EXPORT_COLUMNS = [
  'Order number',
  'Placed at (IST)',
  'Status',
  'Customer',
  'Email',
  'Phone',
  'Address',
  'City',
  'State',
  'Pincode',
  'Items',
  'Items total (₹)',
  'Delivery (₹)',
  'Rounding (₹)',
  'Grand total (₹)',
  'Payment',
  'Cancel reason',
] as const

/**
 * A cell safe to open in a spreadsheet (OWASP, "CSV Injection"): text starting with =, +, -, @, a tab
 * or a carriage return gets a leading apostrophe. Only text from people goes through it; our own
 * numbers (a negative rounding) stay numbers.
 */
export function csvSafe(text: string | null | undefined): string {
  const value = text ?? ''
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value
}

/** Paise as rupees with two decimals ("-0.40", "1234.50"), exact (integer arithmetic). */
export function paiseToRupeesText(paise: number): string {
  const sign = paise < 0 ? '-' : ''
  const abs = Math.abs(paise)
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`
}

interface ExportRow {
  id: string
  sort_key: string
  order_number: string
  placed_ist: string
  status: string
  name: string
  email: string
  phone: string | null
  address_line: string | null
  city: string | null
  state: string | null
  pincode: string | null
  item_count: number
  items_total_paise: number
  delivery_charge_paise: number
  rounding_paise: number
  grand_total_paise: number
  payment_method: string
  cancel_reason: string | null
}

function toRecord(r: ExportRow): string[] {
  return [
    r.order_number,
    r.placed_ist,
    r.status,
    csvSafe(r.name),
    csvSafe(r.email),
    csvSafe(r.phone),
    csvSafe(r.address_line),
    csvSafe(r.city),
    csvSafe(r.state),
    csvSafe(r.pincode),
    String(r.item_count),
    paiseToRupeesText(r.items_total_paise),
    paiseToRupeesText(r.delivery_charge_paise),
    paiseToRupeesText(r.rounding_paise),
    paiseToRupeesText(r.grand_total_paise),
    r.payment_method,
    csvSafe(r.cancel_reason),
  ]
}

/** One keyset page: the orders after `after` (the last row's sort key as text and id) in the sort. */
async function exportPage(
  db: AppDeps['db'],
  filter: AdminOrderFilter,
  after: { key: string; id: string } | null,
  limit: number,
): Promise<ExportRow[]> {
  const { column, desc } = SORT_KEYS[filter.sort]
  const keyset: SQL[] = []
  if (after) {
    const key = filter.sort === 'newest' || filter.sort === 'oldest' ? sql`${after.key}::timestamptz` : sql`${after.key}::int`
    keyset.push(desc ? sql`(${column}, o.id) < (${key}, ${after.id})` : sql`(${column}, o.id) > (${key}, ${after.id})`)
  }
  const where = adminOrderWhere(filter, keyset)
  // raw SQL: a row-value keyset, the IST date by `to_char` and the item count as a correlated sum.
  return queryRows<ExportRow>(
    db,
    sql`select o.id, (${column})::text as sort_key, o.order_number,
        to_char(o.created_at at time zone 'Asia/Kolkata', 'YYYY-MM-DD HH24:MI') as placed_ist, o.status,
        u.name, u.email, coalesce(o.delivery_address->>'mobile', u.mobile) as phone,
        o.delivery_address->>'address_line' as address_line, o.delivery_address->>'city' as city,
        o.delivery_address->>'state' as state, o.delivery_address->>'pincode' as pincode,
        (select coalesce(sum(l.quantity), 0)::int from order_lines l where l.order_id = o.id) as item_count,
        o.items_total_paise, o.delivery_charge_paise, o.rounding_paise, o.grand_total_paise, o.payment_method,
        case when o.status = 'cancelled' then o.cancel_reason end as cancel_reason
      from orders o join users u on u.id = o.user_id ${where} ${adminOrderBy(filter.sort)} limit ${limit}`,
  )
}

/**
 * The CSV of every order `filter` selects, as a stream of UTF-8 bytes: the header row first, then one
 * chunk per page of EXPORT_PAGE orders. A client that goes away cancels the stream and no further page
 * is read.
 */
export function exportOrdersCsv(deps: Pick<AppDeps, 'db'>, filter: AdminOrderFilter, pageSize = EXPORT_PAGE): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  let after: { key: string; id: string } | null = null
  let done = false
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(stringify([[...EXPORT_COLUMNS]])))
    },
    async pull(controller) {
      if (done) return
      const rows = await exportPage(deps.db, filter, after, pageSize)
      if (rows.length > 0) {
        controller.enqueue(encoder.encode(stringify(rows.map(toRecord))))
        const last = rows[rows.length - 1]!
        after = { key: last.sort_key, id: last.id }
      }
      if (rows.length < pageSize) {
        done = true
        controller.close()
      }
    },
    cancel() {
      done = true
    },
  })
}
