/**
 * An order's tax invoice (docs/commerce-api.md, "Tax invoice"; docs/decisions/0021-tax-invoice.md,
 * docs/decisions/0042-invoice-and-credit-note-numbering.md): the order as `orderDetails` answers it
 * to this viewer (the shopper's own, any for an admin; 404 otherwise), its number, date and supplier
 * as the database gave them when the order became a placed cash-on-delivery order or a paid one
 * (migration 0026_tax_invoices; 409 before that), each line's HSN code and GST rate from the product's
 * own HSN code or its first sub category and category today (api/modules/invoice/gst-rates.ts), the
 * place of supply from the delivery address's PIN code, and the arithmetic of
 * api/modules/invoice/compute.ts. Amounts are computed in paise and answered in rupees.
 */
import { eq, sql } from 'drizzle-orm'
import type { AppDeps } from '../../deps.ts'
import { queryRows } from '../../db/query.ts'
import { orders, users } from '../../db/schema.ts'
import { HttpError } from '../../lib/errors.ts'
import { fromPaise } from '../../lib/money.ts'
import { lookupPincode } from '../../lib/pincodes.ts'
import { orderDetails } from '../order/service.ts'
import { GST_STATE_CODES, gstStateCode, type Invoice } from '../../../contract/invoice.ts'
import type { Order } from '../../../contract/order.ts'
import { amountInWords } from './amount-in-words.ts'
import { creditNoteRows } from './credit-note-rows.ts'
import { computeInvoice, type InvoiceLine, type InvoiceLineInput, type InvoiceTotals } from './compute.ts'
import { gstTaxFor } from './gst-rates.ts'

export type InvoiceDeps = Parameters<typeof orderDetails>[0] & Pick<AppDeps, 'invoice'>

const INDIA_DAY = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata', year: 'numeric', month: '2-digit', day: '2-digit' })

/** The day in India (UTC+5:30) of an ISO timestamp, as YYYY-MM-DD: the date of an invoice issued then. */
export function indiaDate(iso: string | Date): string {
  return INDIA_DAY.format(new Date(iso))
}

/** Why an order has no invoice (409): it awaits payment, or its online payment never completed. */
export const NOT_INVOICED_PENDING = 'This order has no tax invoice yet: it is issued once the payment is received'
export const NOT_INVOICED_UNPAID = 'This order has no tax invoice: its online payment never completed'

/** One order line as stored (paise), with its product's HSN code and shelves. */
export interface StoredLine extends InvoiceLineInput {
  id: string
}

/** What an invoice and its credit notes are computed from. */
export interface InvoiceBasis {
  order: Order
  invoiceNumber: string
  invoiceIssuedAt: Date
  seller: Invoice['seller']
  placeOfSupply: Invoice['placeOfSupply']
  interState: boolean
  buyerName: string
  lines: StoredLine[]
  bill: {
    itemsTotalPaise: number
    couponDiscountPaise: number
    deliveryChargePaise: number
    /** The named fees as stored on the order (docs/commerce-api.md, "Fees"). */
    handlingChargePaise: number
    smallCartFeePaise: number
    lateNightFeePaise: number
    roundingPaise: number
    grandTotalPaise: number
  }
  /** The tip paid with the order, paise (0: none), outside the tax invoice's totals. */
  tipPaise: number
}

interface LineRow {
  id: string
  name: string
  unit: string
  quantity: number
  unit_price_paise: number
  mrp_paise: number
  line_total_paise: number
  coupon_share_paise: number
  hsn: string | null
  sub_category: string | null
  category: string | null
}

/** A State by GST code, or by name when the code is unknown. */
function stateOf(code: string | null, fallbackName: string): Invoice['placeOfSupply'] {
  return code ? { code, name: GST_STATE_CODES[code] ?? fallbackName } : { code: '', name: fallbackName }
}

/**
 * The place of supply of goods delivered to `address` (IGST Act 2017 s. 10(1)(a): where the movement
 * ends): the State of its PIN code in India Post's data, else the State the address names.
 */
export function placeOfSupply(address: { pincode: string; state: string }): Invoice['placeOfSupply'] {
  const byPincode = lookupPincode(address.pincode)?.state
  const name = byPincode ?? address.state
  return stateOf(gstStateCode(name), name)
}

/**
 * Everything the invoice of order `ref` (`_id` or order number) is made of, for `viewer`.
 * @throws 404 ORDER_NOT_FOUND for an unknown order or another shopper's; 409 when the order has no
 *   invoice (awaiting payment, or its online payment never completed)
 */
export async function invoiceBasis(deps: InvoiceDeps, viewer: { id: string; role: string }, ref: string): Promise<InvoiceBasis> {
  const order = await orderDetails(deps, viewer, ref)
  const [row] = await deps.db
    .select({
      invoiceNumber: orders.invoiceNumber,
      invoiceIssuedAt: orders.invoiceIssuedAt,
      invoiceSupplier: orders.invoiceSupplier,
      paymentState: orders.paymentState,
      itemsTotalPaise: orders.itemsTotalPaise,
      couponDiscountPaise: orders.couponDiscountPaise,
      deliveryChargePaise: orders.deliveryChargePaise,
      roundingPaise: orders.roundingPaise,
      grandTotalPaise: orders.grandTotalPaise,
      tipPaise: orders.tipPaise,
      handlingChargePaise: orders.handlingChargePaise,
      smallCartFeePaise: orders.smallCartFeePaise,
      lateNightFeePaise: orders.lateNightFeePaise,
      buyer: users.name,
    })
    .from(orders)
    .leftJoin(users, eq(users.id, orders.userId))
    .where(eq(orders.id, order._id))
  if (!row?.invoiceNumber || !row.invoiceIssuedAt)
    throw new HttpError(409, row?.paymentState === 'pending' ? NOT_INVOICED_PENDING : NOT_INVOICED_UNPAID)
  // raw SQL: each line's first sub category and category are correlated subqueries.
  const lineRows = await queryRows<LineRow>(
    deps.db,
    sql`select l.id, l.name, l.unit, l.quantity, l.unit_price_paise, l.mrp_paise, l.line_total_paise, l.coupon_share_paise, p.hsn,
        (select s.name from product_sub_categories ps join sub_categories s on s.id = ps.sub_category_id
          where ps.product_id = p.id order by ps.position, s.name limit 1) as sub_category,
        (select c.name from product_categories pc join categories c on c.id = pc.category_id
          where pc.product_id = p.id order by pc.position, c.name limit 1) as category
      from order_lines l left join products p on p.id = l.product_id
      where l.order_id = ${order._id} order by l.position, l.id`,
  )
  const lines: StoredLine[] = lineRows.map((l) => {
    const tax = gstTaxFor(deps.invoice.gstRates, { hsn: l.hsn, subCategory: l.sub_category, category: l.category })
    return {
      id: l.id,
      name: l.name,
      unit: l.unit,
      quantity: l.quantity,
      mrpPaise: l.mrp_paise,
      sellingPaise: l.unit_price_paise,
      lineTotalPaise: l.line_total_paise,
      couponSharePaise: l.coupon_share_paise,
      rateBp: tax.rateBp,
      subCategory: l.sub_category,
      hsn: tax.hsn,
    }
  })
  // The store's GSTIN and address as issued; a store without a GSTIN: the seller's registration.
  const snap = row.invoiceSupplier
  const gstin = snap?.gstin ?? deps.invoice.sellerGstin
  const supplierState = stateOf(gstin.slice(0, 2), '')
  const place = placeOfSupply(order.delivery_address)
  return {
    order,
    invoiceNumber: row.invoiceNumber,
    invoiceIssuedAt: new Date(row.invoiceIssuedAt),
    seller: {
      name: deps.invoice.sellerName,
      storeName: snap?.storeName ?? '',
      address: snap?.gstin ? snap.address : deps.invoice.sellerAddress,
      gstin,
      state: supplierState,
    },
    placeOfSupply: place,
    // An unknown place (no State code) is taken as within the supplier's State.
    interState: place.code !== '' && place.code !== supplierState.code,
    buyerName: row.buyer ?? '',
    lines,
    bill: {
      itemsTotalPaise: row.itemsTotalPaise,
      couponDiscountPaise: row.couponDiscountPaise,
      deliveryChargePaise: row.deliveryChargePaise,
      handlingChargePaise: row.handlingChargePaise,
      smallCartFeePaise: row.smallCartFeePaise,
      lateNightFeePaise: row.lateNightFeePaise,
      roundingPaise: row.roundingPaise,
      // The tip is the delivery partner's, not the store's supply: the tax invoice leaves it out
      // (docs/decisions/0070-tip-and-delivery-instructions.md); the order's bill shows it.
      grandTotalPaise: row.grandTotalPaise - row.tipPaise,
    },
    tipPaise: row.tipPaise,
  }
}

/** A computed line on the wire (rupees, rate in percent). */
export function lineToWire(l: InvoiceLine): Invoice['lines'][number] {
  return {
    kind: l.kind,
    name: l.name,
    unit: l.unit,
    quantity: l.quantity,
    mrp: fromPaise(l.mrpPaise),
    price: fromPaise(l.sellingPaise),
    discount: fromPaise(l.discountPaise),
    couponDiscount: fromPaise(l.couponPaise),
    amount: fromPaise(l.amountPaise),
    gstRate: l.rateBp / 100,
    taxable: fromPaise(l.taxablePaise),
    cgst: fromPaise(l.cgstPaise),
    sgst: fromPaise(l.sgstPaise),
    igst: fromPaise(l.igstPaise),
    subCategory: l.subCategory,
    hsn: l.hsn,
  }
}

/** Computed totals on the wire (rupees). */
export function totalsToWire(totals: InvoiceTotals): Invoice['totals'] {
  return {
    mrp: fromPaise(totals.mrpPaise),
    discount: fromPaise(totals.discountPaise),
    couponDiscount: fromPaise(totals.couponPaise),
    taxable: fromPaise(totals.taxablePaise),
    cgst: fromPaise(totals.cgstPaise),
    sgst: fromPaise(totals.sgstPaise),
    igst: fromPaise(totals.igstPaise),
    tax: fromPaise(totals.taxPaise),
    itemsTotal: fromPaise(totals.itemsTotalPaise),
    deliveryCharge: fromPaise(totals.deliveryChargePaise),
    fees: fromPaise(totals.feesPaise),
    amount: fromPaise(totals.amountPaise),
    rounding: fromPaise(totals.roundingPaise),
    grandTotal: fromPaise(totals.grandTotalPaise),
  }
}

/**
 * The invoice of order `ref` (`_id` or order number) for `viewer`.
 * @throws 404 ORDER_NOT_FOUND for an unknown order or another shopper's; 409 for an order without an
 *   invoice (awaiting payment, or never paid)
 */
export async function orderInvoice(deps: InvoiceDeps, viewer: { id: string; role: string }, ref: string): Promise<Invoice> {
  const basis = await invoiceBasis(deps, viewer, ref)
  const { lines, totals } = computeInvoice(basis.lines, basis.bill, deps.invoice.gstRates.deliveryBp, basis.interState)
  const { order } = basis
  return {
    invoiceNumber: basis.invoiceNumber,
    invoiceDate: indiaDate(basis.invoiceIssuedAt),
    orderId: order.orderId,
    orderRef: order._id,
    status: order.status,
    paymentMethod: order.payment_status,
    seller: basis.seller,
    buyer: { name: basis.buyerName, address: order.delivery_address },
    placeOfSupply: basis.placeOfSupply,
    interState: basis.interState,
    lines: lines.map(lineToWire),
    totals: totalsToWire(totals),
    amountInWords: amountInWords(totals.grandTotalPaise),
    creditNotes: (await creditNoteRows(deps.db, order._id)).map((r) => ({
      number: r.number,
      date: indiaDate(r.issued_at),
      reason: r.reason,
    })),
    // Shown after the totals, outside them (docs/decisions/0070-tip-and-delivery-instructions.md).
    ...(basis.tipPaise > 0 ? { tip: fromPaise(basis.tipPaise) } : {}),
  }
}
