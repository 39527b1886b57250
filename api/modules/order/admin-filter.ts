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
 * The delivery address's searchable text, lower-cased: its line, landmark and city joined by spaces
 * (the snapshot has no area of its own: the area is written in the line). The very expression of the
 * trigram index `orders_address_trgm_idx` (migration 0036), so a `like` on it can use that index.
 */
export const ADDRESS_TEXT = sql`lower(coalesce(o.delivery_address->>'address_line', '') || ' ' || coalesce(o.delivery_address->>'landmark', '') || ' ' || coalesce(o.delivery_address->>'city', ''))`

/**
 * The phone digits of `q` when it reads as a phone ("+91 98450 12345", "098450-12345", "98450"):
 * its digits without the country code +91 or a trunk 0 in front, at most the last ten (an Indian
 * mobile number has ten digits, National Numbering Plan 2003); null when `q` has other characters
 * or fewer than three digits.
 */
export function phoneDigits(q: string): string | null {
  if (!/^[\d\s+()-]+$/.test(q)) return null
  let digits = q.replace(/\D/g, '')
  if (/^\s*\+\s*91/.test(q) || (digits.length > 10 && digits.startsWith('91'))) digits = digits.slice(2)
  digits = digits.replace(/^0+/, '')
  return digits.length >= 3 ? digits.slice(-10) : null
}

/**
 * The search clause of `q`: an order number exact or by prefix ("OD26112" finds that day's orders);
 * otherwise the shopper's name or email containing it (case-insensitive) or, when it reads as a
 * phone (`phoneDigits`), a phone (the delivery address's mobile or the account's) containing those
 * digits; six digits are also the delivery address's PIN code, exactly; with three characters or
 * more, the delivery address's line, landmark or city containing it (case-insensitive).
 * A `q` of fewer than three characters other than an order number matches names and emails by prefix
 * only (a trigram index needs three).
 * Each way of matching is its own indexed select of order ids, united (`o.id in (… union all …)`),
 * so PostgreSQL reads each index instead of testing every order against an `or` of them.
 */
export function searchClause(q: string): SQL {
  if (ORDER_NUMBER_LIKE.test(q)) return sql`o.order_number like ${`${escapeLike(q.toUpperCase())}%`}`
  const text = escapeLike(q.toLowerCase())
  const pattern = q.length >= 3 ? `%${text}%` : `${text}%`
  const phone = phoneDigits(q)
  const people = sql`select id from users where lower(name) like ${pattern} or email like ${pattern}${
    phone ? sql` or mobile like ${`%${phone}%`}` : sql``
  }`
  const ways: SQL[] = [
    sql`select o.id from orders o where o.user_id in (${people})`,
    sql`select o.id from orders o where o.order_number = ${q.toUpperCase()}`,
  ]
  if (phone) ways.push(sql`select o.id from orders o where (o.delivery_address->>'mobile') like ${`%${phone}%`}`)
  if (PINCODE.test(q)) ways.push(sql`select o.id from orders o where (o.delivery_address->>'pincode') = ${q}`)
  if (q.length >= 3) ways.push(sql`select o.id from orders o where ${ADDRESS_TEXT} like ${pattern}`)
  return sql`o.id in (${sql.join(ways, sql` union all `)})`
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
