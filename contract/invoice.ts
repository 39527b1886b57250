/**
 * The tax invoice of an order (docs/commerce-api.md, "Tax invoice"): the answer of
 * POST /api/invoice/details, and the GSTIN rule the seller's settings are checked against. Money on
 * the wire is in rupees (two decimals), rates in percent.
 */
import { z } from 'zod'
import { OrderAddressSchema } from './order.ts'
import { ORDER_STATUSES } from './order-status.ts'

/**
 * A GSTIN's shape: 2-digit state code, the 10-character PAN (5 letters, 4 digits, 1 letter), the
 * entity number (1-9 or A-Z), `Z`, and a check character (CBIC, "GSTIN format", as the GST portal
 * validates it).
 */
export const GSTIN_PATTERN = /^\d{2}[A-Z]{5}\d{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/

const GSTIN_CHARS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'

/**
 * The check character of a GSTIN's first 14 characters: the mod-36 Luhn scheme of the GST portal
 * (each character's value, doubled at every second place, its base-36 digits added).
 */
export function gstinCheckChar(first14: string): string {
  let sum = 0
  for (let i = 0; i < 14; i++) {
    const product = GSTIN_CHARS.indexOf(first14[i]!) * (i % 2 === 0 ? 1 : 2)
    sum += Math.floor(product / 36) + (product % 36)
  }
  return GSTIN_CHARS[(36 - (sum % 36)) % 36]!
}

/** True for a 15-character GSTIN of the right shape whose check character matches. */
export function isValidGstin(gstin: string): boolean {
  return GSTIN_PATTERN.test(gstin) && gstinCheckChar(gstin.slice(0, 14)) === gstin[14]
}

/** One line of the invoice (rupees); `kind` `delivery` is the delivery charge. */
export const InvoiceLineSchema = z
  .object({
    kind: z.enum(['goods', 'delivery']),
    name: z.string(),
    unit: z.string(),
    quantity: z.number(),
    mrp: z.number(),
    price: z.number(),
    discount: z.number(),
    amount: z.number(),
    gstRate: z.number(),
    taxable: z.number(),
    cgst: z.number(),
    sgst: z.number(),
    subCategory: z.string().nullable(),
  })
  .meta({ id: 'InvoiceLine' })

/** The invoice's totals (rupees): `grandTotal` is the order's `totalAmt`. */
export const InvoiceTotalsSchema = z
  .object({
    mrp: z.number(),
    discount: z.number(),
    taxable: z.number(),
    cgst: z.number(),
    sgst: z.number(),
    tax: z.number(),
    itemsTotal: z.number(),
    deliveryCharge: z.number(),
    amount: z.number(),
    rounding: z.number(),
    grandTotal: z.number(),
  })
  .meta({ id: 'InvoiceTotals' })

/**
 * An order's tax invoice: number `INV-<order number>`, date the order's day in India (YYYY-MM-DD),
 * the seller from the server's settings, the buyer and the address as at order time.
 */
export const InvoiceSchema = z
  .object({
    invoiceNumber: z.string(),
    invoiceDate: z.string(),
    orderId: z.string(),
    orderRef: z.string(),
    status: z.enum(ORDER_STATUSES),
    paymentMethod: z.string(),
    seller: z.object({ name: z.string(), address: z.string(), gstin: z.string() }),
    buyer: z.object({ name: z.string(), address: OrderAddressSchema }),
    lines: z.array(InvoiceLineSchema),
    totals: InvoiceTotalsSchema,
  })
  .meta({ id: 'Invoice' })
export type Invoice = z.output<typeof InvoiceSchema>
