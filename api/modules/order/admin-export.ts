/**
 * The admin's CSV export of the filtered order list (docs/commerce-api.md, "Admin orders at volume"):
 * the orders the list's filters select, in its sort, one row per order, written with csv-stringify
 * (RFC 4180 quoting) and streamed in pages of EXPORT_PAGE orders read by keyset (the sort key and the
 * id of the last row sent), so 100,000 orders never sit in memory and no transaction stays open while
 * the client reads. Amounts are rupees with two decimals, computed from integer paise; times are IST.
 * The coupon an order used and its discount close the row (a line's share of it closes the line's row:
 * docs/offers.md, "Refunds"); a failed delivery's reason in words is the last column (docs/delivery.md,
 * "Could not deliver"). Text a shopper typed (name, email, address, cancel reason) is guarded against CSV injection, and the
 * file starts with a byte order mark so Excel reads ₹ right (api/lib/csv-cells.ts, shared with the
 * product export); our own numbers (a negative rounding) stay numbers.
 */
import { eq, inArray, sql, type SQL } from 'drizzle-orm'
import { orderLines, products, refunds } from '../../db/schema.ts'
import { stringify } from 'csv-stringify/sync'
import { CSV_BOM, guardCell } from '../../lib/csv-cells.ts'
import { paymentStateLabel } from '../../../contract/payment.ts'
import { deliveryFailureText, type DeliveryFailureReason } from '../../../contract/delivery-failure.ts'
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
  'Store',
  'Payment state',
  'Refunded (₹)',
  'Coupon',
  'Coupon discount (₹)',
  'Tip (₹)',
  'Handling charge (₹)',
  'Small cart fee (₹)',
  'Late night fee (₹)',
  'Delivery failure',
] as const

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
  store_name: string | null
  payment_state: string
  refunded_paise: number
  coupon_code: string | null
  coupon_discount_paise: number
  tip_paise: number
  handling_charge_paise: number
  small_cart_fee_paise: number
  late_night_fee_paise: number
  delivery_failure_reason: DeliveryFailureReason | null
  delivery_failure_note: string | null
}

function toRecord(r: ExportRow): string[] {
  return [
    r.order_number,
    r.placed_ist,
    r.status,
    guardCell(r.name),
    guardCell(r.email),
    guardCell(r.phone),
    guardCell(r.address_line),
    guardCell(r.city),
    guardCell(r.state),
    guardCell(r.pincode),
    String(r.item_count),
    paiseToRupeesText(r.items_total_paise),
    paiseToRupeesText(r.delivery_charge_paise),
    paiseToRupeesText(r.rounding_paise),
    paiseToRupeesText(r.grand_total_paise),
    r.payment_method,
    guardCell(r.cancel_reason),
    guardCell(r.store_name),
    paymentStateLabel(r.payment_state),
    paiseToRupeesText(r.refunded_paise),
    guardCell(r.coupon_code),
    paiseToRupeesText(r.coupon_discount_paise),
    paiseToRupeesText(r.tip_paise),
    paiseToRupeesText(r.handling_charge_paise),
    paiseToRupeesText(r.small_cart_fee_paise),
    paiseToRupeesText(r.late_night_fee_paise),
    // A failed delivery's reason in words (the rider's note guarded: typed text).
    r.delivery_failure_reason ? guardCell(deliveryFailureText(r.delivery_failure_reason, r.delivery_failure_note)) : '',
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
  // raw SQL: a row-value keyset, the IST date by `to_char`, the item count and the refunded amount as correlated sums.
  return queryRows<ExportRow>(
    db,
    sql`select o.id, (${column})::text as sort_key, o.order_number,
        to_char(o.created_at at time zone 'Asia/Kolkata', 'YYYY-MM-DD HH24:MI') as placed_ist, o.status,
        u.name, coalesce(u.email, '') as email, coalesce(o.delivery_address->>'mobile', u.mobile) as phone,
        o.delivery_address->>'address_line' as address_line, o.delivery_address->>'city' as city,
        o.delivery_address->>'state' as state, o.delivery_address->>'pincode' as pincode,
        (select coalesce(sum(l.quantity), 0)::int from order_lines l where l.order_id = o.id) as item_count,
        o.items_total_paise, o.delivery_charge_paise, o.rounding_paise, o.grand_total_paise, o.payment_method,
        case when o.status = 'cancelled' then o.cancel_reason end as cancel_reason,
        s.name as store_name, o.payment_state,
        (select coalesce(sum(r.amount_paise), 0)::int from refunds r where r.order_id = o.id and r.status = 'processed') as refunded_paise,
        o.coupon_code, o.coupon_discount_paise, o.tip_paise,
        o.handling_charge_paise, o.small_cart_fee_paise, o.late_night_fee_paise,
        case when o.status = 'delivery_failed' then o.delivery_failure_reason end as delivery_failure_reason,
        case when o.status = 'delivery_failed' then o.delivery_failure_note end as delivery_failure_note
      from orders o join users u on u.id = o.user_id left join stores s on s.id = o.store_id ${where} ${adminOrderBy(filter.sort)} limit ${limit}`,
  )
}

/**
 * Streams the orders `filter` selects as CSV bytes: the byte order mark and `header` first, then,
 * per keyset page of `pageSize` orders, the records `toRecords` makes of the page. A client that
 * goes away cancels the stream and no further page is read.
 */
function streamOrderPages(
  deps: Pick<AppDeps, 'db'>,
  filter: AdminOrderFilter,
  pageSize: number,
  header: readonly string[],
  toRecords: (rows: ExportRow[]) => Promise<string[][]>,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  let after: { key: string; id: string } | null = null
  let done = false
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(`${CSV_BOM}${stringify([[...header]])}`))
    },
    async pull(controller) {
      if (done) return
      const rows = await exportPage(deps.db, filter, after, pageSize)
      if (rows.length > 0) {
        const records = await toRecords(rows)
        if (!done && records.length > 0) controller.enqueue(encoder.encode(stringify(records)))
        const last = rows[rows.length - 1]!
        after = { key: last.sort_key, id: last.id }
      }
      if (rows.length < pageSize && !done) {
        done = true
        controller.close()
      }
    },
    cancel() {
      done = true
    },
  })
}

/**
 * The CSV of every order `filter` selects, as a stream of UTF-8 bytes: the byte order mark and the
 * header row (EXPORT_COLUMNS) first, then one row per order, a chunk per page of EXPORT_PAGE orders.
 */
export function exportOrdersCsv(deps: Pick<AppDeps, 'db'>, filter: AdminOrderFilter, pageSize = EXPORT_PAGE): ReadableStream<Uint8Array> {
  return streamOrderPages(deps, filter, pageSize, EXPORT_COLUMNS, async (rows) => rows.map(toRecord))
}

/** The lines export's columns, in order (the header row): the order's identity, then the line as billed. */
export const LINE_EXPORT_COLUMNS = [
  'Order number',
  'Placed at (IST)',
  'Status',
  'Store',
  'Line',
  'SKU',
  'Product',
  'Brand',
  'Unit',
  'Quantity',
  'MRP (₹)',
  'Selling price (₹)',
  'Line total (₹)',
  'Refunded (₹)',
  'Coupon share (₹)',
] as const

interface LineRow {
  order_id: string
  position: number
  sku: string | null
  name: string
  brand: string
  unit: string
  quantity: number
  mrp_paise: number
  unit_price_paise: number
  line_total_paise: number
  refunded_paise: number
  coupon_share_paise: number
}

/** The lines of `orderIds`, by order then position, each with its SKU (when the product still exists) and its refunds paid out. */
async function linesOf(db: AppDeps['db'], orderIds: string[]): Promise<LineRow[]> {
  return db
    .select({
      order_id: orderLines.orderId,
      position: orderLines.position,
      sku: products.sku,
      name: orderLines.name,
      brand: orderLines.brand,
      unit: orderLines.unit,
      quantity: orderLines.quantity,
      mrp_paise: orderLines.mrpPaise,
      unit_price_paise: orderLines.unitPricePaise,
      line_total_paise: orderLines.lineTotalPaise,
      coupon_share_paise: orderLines.couponSharePaise,
      refunded_paise: sql<number>`(select coalesce(sum(${refunds.amountPaise}), 0)::int from ${refunds}
        where ${refunds.orderLineId} = ${orderLines.id} and ${refunds.status} = 'processed')`.mapWith(Number),
    })
    .from(orderLines)
    .leftJoin(products, eq(products.id, orderLines.productId))
    .where(inArray(orderLines.orderId, orderIds))
    .orderBy(orderLines.orderId, orderLines.position)
}

/**
 * The CSV of the lines of every order `filter` selects (one row per order line, the orders in the
 * list's sort, each order's lines in their bill order), as a stream of UTF-8 bytes with the byte
 * order mark and the header row (LINE_EXPORT_COLUMNS) first. Amounts in rupees with two decimals,
 * exact; text from people and from the catalogue guarded against CSV injection (api/lib/csv-cells.ts).
 */
export function exportOrderLinesCsv(
  deps: Pick<AppDeps, 'db'>,
  filter: AdminOrderFilter,
  pageSize = EXPORT_PAGE,
): ReadableStream<Uint8Array> {
  return streamOrderPages(deps, filter, pageSize, LINE_EXPORT_COLUMNS, async (orders) => {
    const byOrder = new Map<string, LineRow[]>()
    for (const line of await linesOf(
      deps.db,
      orders.map((o) => o.id),
    )) {
      const list = byOrder.get(line.order_id) ?? []
      list.push(line)
      byOrder.set(line.order_id, list)
    }
    return orders.flatMap((o) =>
      (byOrder.get(o.id) ?? []).map((l) => [
        o.order_number,
        o.placed_ist,
        o.status,
        guardCell(o.store_name),
        String(l.position + 1),
        guardCell(l.sku),
        guardCell(l.name),
        guardCell(l.brand),
        guardCell(l.unit),
        String(l.quantity),
        paiseToRupeesText(l.mrp_paise),
        paiseToRupeesText(l.unit_price_paise),
        paiseToRupeesText(l.line_total_paise),
        paiseToRupeesText(l.refunded_paise),
        paiseToRupeesText(l.coupon_share_paise),
      ]),
    )
  })
}
