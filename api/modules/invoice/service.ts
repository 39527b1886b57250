/**
 * An order's tax invoice (docs/commerce-api.md, "Tax invoice"; docs/decisions/0021-tax-invoice.md):
 * the order as `orderDetails` answers it to this viewer (the shopper's own, any for an admin; 404
 * otherwise), each line's GST rate from its product's first sub category and category today
 * (api/modules/invoice/gst-rates.ts), the seller from the settings, and the arithmetic of
 * api/modules/invoice/compute.ts. Amounts are computed in paise and answered in rupees.
 */
import { sql } from 'drizzle-orm'
import type { AppDeps } from '../../deps.ts'
import { queryRows } from '../../db/query.ts'
import { fromPaise, toPaise } from '../../lib/money.ts'
import { orderDetails } from '../order/service.ts'
import type { Invoice } from '../../../contract/invoice.ts'
import { computeInvoice, type InvoiceLine, type InvoiceLineInput } from './compute.ts'
import { gstRateFor } from './gst-rates.ts'

type InvoiceDeps = Parameters<typeof orderDetails>[0] & Pick<AppDeps, 'invoice'>

/** `INV-<order number>`: one invoice per order, so the number is the order's (deterministic, never reused). */
export function invoiceNumber(orderNumber: string): string {
  return `INV-${orderNumber}`
}

const INDIA_DAY = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata', year: 'numeric', month: '2-digit', day: '2-digit' })

/** The day in India (UTC+5:30) of an ISO timestamp, as YYYY-MM-DD: the invoice date of an order placed then. */
export function indiaDate(iso: string): string {
  return INDIA_DAY.format(new Date(iso))
}

interface Shelf {
  id: string
  sub_category: string | null
  category: string | null
}

/** Each product's first sub category and first category by the admin's order (names), for the given ids. */
async function shelvesOf(db: AppDeps['db'], productIds: string[]): Promise<Map<string, Shelf>> {
  if (productIds.length === 0) return new Map()
  const rows = await queryRows<Shelf>(
    db,
    sql`select p.id,
        (select s.name from product_sub_categories ps join sub_categories s on s.id = ps.sub_category_id
          where ps.product_id = p.id order by ps.position, s.name limit 1) as sub_category,
        (select c.name from product_categories pc join categories c on c.id = pc.category_id
          where pc.product_id = p.id order by pc.position, c.name limit 1) as category
      from products p where p.id in (${sql.join(
        productIds.map((id) => sql`${id}`),
        sql`, `,
      )})`,
  )
  return new Map(rows.map((r) => [r.id, r]))
}

function lineToWire(l: InvoiceLine): Invoice['lines'][number] {
  return {
    kind: l.kind,
    name: l.name,
    unit: l.unit,
    quantity: l.quantity,
    mrp: fromPaise(l.mrpPaise),
    price: fromPaise(l.sellingPaise),
    discount: fromPaise(l.discountPaise),
    amount: fromPaise(l.amountPaise),
    gstRate: l.rateBp / 100,
    taxable: fromPaise(l.taxablePaise),
    cgst: fromPaise(l.cgstPaise),
    sgst: fromPaise(l.sgstPaise),
    subCategory: l.subCategory,
  }
}

/**
 * The invoice of order `ref` (`_id` or order number) for `viewer`.
 * @throws 404 ORDER_NOT_FOUND for an unknown order or another shopper's
 */
export async function orderInvoice(deps: InvoiceDeps, viewer: { id: string; role: string }, ref: string): Promise<Invoice> {
  const order = await orderDetails(deps, viewer, ref)
  const { gstRates } = deps.invoice
  const shelves = await shelvesOf(deps.db, [...new Set(order.items.flatMap((l) => (l.productId ? [l.productId] : [])))])
  const inputs: InvoiceLineInput[] = order.items.map((l) => {
    const shelf = l.productId ? shelves.get(l.productId) : undefined
    const subCategory = shelf?.sub_category ?? null
    return {
      name: l.name,
      unit: l.unit,
      quantity: l.quantity,
      mrpPaise: toPaise(l.mrp),
      sellingPaise: toPaise(l.price),
      lineTotalPaise: toPaise(l.lineTotal),
      rateBp: gstRateFor(gstRates, subCategory, shelf?.category ?? null),
      subCategory,
    }
  })
  const { lines, totals } = computeInvoice(
    inputs,
    {
      itemsTotalPaise: toPaise(order.bill.itemsTotal),
      deliveryChargePaise: toPaise(order.bill.deliveryCharge),
      roundingPaise: toPaise(order.bill.roundingOff),
      grandTotalPaise: toPaise(order.bill.grandTotal),
    },
    gstRates.deliveryBp,
  )
  const [buyer] = await queryRows<{ name: string }>(deps.db, sql`select name from users where id = ${order.userId}`)
  return {
    invoiceNumber: invoiceNumber(order.orderId),
    invoiceDate: indiaDate(order.createdAt),
    orderId: order.orderId,
    orderRef: order._id,
    status: order.status,
    paymentMethod: order.payment_status,
    seller: { name: deps.invoice.sellerName, address: deps.invoice.sellerAddress, gstin: deps.invoice.sellerGstin },
    buyer: { name: buyer?.name ?? '', address: order.delivery_address },
    lines: lines.map(lineToWire),
    totals: {
      mrp: fromPaise(totals.mrpPaise),
      discount: fromPaise(totals.discountPaise),
      taxable: fromPaise(totals.taxablePaise),
      cgst: fromPaise(totals.cgstPaise),
      sgst: fromPaise(totals.sgstPaise),
      tax: fromPaise(totals.taxPaise),
      itemsTotal: fromPaise(totals.itemsTotalPaise),
      deliveryCharge: fromPaise(totals.deliveryChargePaise),
      amount: fromPaise(totals.amountPaise),
      rounding: fromPaise(totals.roundingPaise),
      grandTotal: fromPaise(totals.grandTotalPaise),
    },
  }
}
