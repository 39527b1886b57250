/**
 * The admin order list's filters as SQL (docs/commerce-api.md, "Admin orders at volume"), shared by
 * the list (POST /api/order/admin-list) and the CSV export (GET /api/order/admin/export), so both
 * always mean the same orders. Each filter is one clause of `adminOrderWhere`, the store and the
 * payment state (docs/payments.md) included. Queries read `orders o join users u`.
 */
import { sql, type SQL } from 'drizzle-orm'
import type { AdminOrderFilter, AdminOrderSort } from '../../../contract/order.ts'

/** India's offset from UTC; the shop's days are IST days (docs/commerce-api.md, "Orders": order numbers by the day in India). */
const IST_OFFSET = '+05:30'

/** The first instant of an IST day (`YYYY-MM-DD`) as an ISO timestamp. */
export function istDayStart(day: string): string {
  return new Date(`${day}T00:00:00${IST_OFFSET}`).toISOString()
}

/** The first instant after an IST day (the next day's start), for an end bound that includes the whole day. */
export function istDayEnd(day: string): string {
  return new Date(new Date(`${day}T00:00:00${IST_OFFSET}`).getTime() + 24 * 3600 * 1000).toISOString()
}

/** `text` with LIKE's wildcards and its escape character escaped (PostgreSQL docs, 9.7.1 "LIKE"). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (ch) => `\\${ch}`)
}

/** The statuses of an order still on its way: overdue once its promised time has passed. */
const OPEN_STATUSES = ['placed', 'packed', 'out_for_delivery'].map((status) => sql`${status}`)

/** A PIN code: six digits, the first not 0 (India Post). */
const PINCODE = /^[1-9][0-9]{5}$/

/** An order number as shoppers see it: "OD" and digits (api/modules/order/service.ts `orderNumber`). */
const ORDER_NUMBER_LIKE = /^od\d*$/i

/**
 * The search clause of `q`: an order number exact or by prefix ("OD26112" finds that day's orders);
 * otherwise the shopper's name or email containing it (case-insensitive) or, with at least three
 * digits in it, a phone (the delivery address's mobile or the account's) containing those digits;
 * six digits are also the delivery address's PIN code, exactly.
 * A `q` of fewer than three characters other than an order number matches names and emails by prefix
 * only (a trigram index needs three).
 */
export function searchClause(q: string): SQL {
  if (ORDER_NUMBER_LIKE.test(q)) return sql`o.order_number like ${`${escapeLike(q.toUpperCase())}%`}`
  const text = escapeLike(q.toLowerCase())
  const pattern = q.length >= 3 ? `%${text}%` : `${text}%`
  const digits = q.replace(/\D/g, '')
  // A phone typed with +91, spaces or dashes: its last ten digits are the number stored.
  const phone = digits.length >= 3 && /^[\d\s+()-]+$/.test(q) ? digits.slice(-10) : null
  const people = sql`select id from users where lower(name) like ${pattern} or email like ${pattern}${
    phone ? sql` or mobile like ${`%${phone}%`}` : sql``
  }`
  const pincode = PINCODE.test(q) ? sql` or (o.delivery_address->>'pincode') = ${q}` : sql``
  return sql`(o.user_id in (${people})${phone ? sql` or (o.delivery_address->>'mobile') like ${`%${phone}%`}` : sql``}${pincode} or o.order_number = ${q.toUpperCase()})`
}

/** The `where` of the admin list and export for `filter` and any `extra` clauses (empty when there are none). */
export function adminOrderWhere(filter: Partial<AdminOrderFilter>, extra: SQL[] = []): SQL {
  const condition = adminOrderCondition(filter, extra)
  return condition ? sql`where ${condition}` : sql``
}

/**
 * The filter's clauses and `extra` joined by `and`, on alias `o` of `orders`, without the `where`
 * keyword (for a builder query over `alias(orders, 'o')`); undefined when nothing is filtered.
 */
export function adminOrderCondition(filter: Partial<AdminOrderFilter>, extra: SQL[] = []): SQL | undefined {
  const clauses: SQL[] = [...extra]
  if (filter.q) clauses.push(searchClause(filter.q))
  if (filter.status) clauses.push(sql`o.status = ${filter.status}`)
  if (filter.from) clauses.push(sql`o.created_at >= ${istDayStart(filter.from)}`)
  if (filter.to) clauses.push(sql`o.created_at < ${istDayEnd(filter.to)}`)
  if (filter.store) clauses.push(sql`o.store_id = ${filter.store}`)
  if (filter.late) clauses.push(sql`o.delivered_at > o.promised_at`)
  if (filter.overdue) clauses.push(sql`o.status in (${sql.join(OPEN_STATUSES, sql`, `)}) and o.promised_at < now()`)
  if (filter.payment) clauses.push(sql`o.payment_state = ${filter.payment}`)
  return clauses.length ? sql.join(clauses, sql` and `) : undefined
}

/** The column a sort orders by and its direction; `o.id` breaks ties in the same direction. */
export const SORT_KEYS: Record<AdminOrderSort, { column: SQL; desc: boolean }> = {
  newest: { column: sql`o.created_at`, desc: true },
  oldest: { column: sql`o.created_at`, desc: false },
  total_desc: { column: sql`o.grand_total_paise`, desc: true },
  total_asc: { column: sql`o.grand_total_paise`, desc: false },
}

/** `order by` of a sort, with `o.id` as the tie-break. */
export function adminOrderBy(sort: AdminOrderSort = 'newest'): SQL {
  const { column, desc } = SORT_KEYS[sort]
  return desc ? sql`order by ${column} desc, o.id desc` : sql`order by ${column} asc, o.id asc`
}
