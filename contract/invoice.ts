/**
 * The tax invoice of an order (docs/commerce-api.md, "Tax invoice"): the answer of
 * POST /api/invoice/details, and the GSTIN rule the seller's settings are checked against. Money on
 * the wire is in rupees (two decimals), rates in percent.
 */
import { z } from 'zod'
import { OrderAddressSchema } from './order.ts'
import { ORDER_STATUSES } from './order-status.ts'
import { ISSUE_KINDS } from './order-issue.ts'

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

/** Messages of a GSTIN field. */
export const GSTIN_SHAPE_MESSAGE =
  'GSTIN must be 15 characters: state code, PAN, entity number, Z and a check character (e.g. 29AAAAA0000A1ZY)'
export const GSTIN_CHECK_MESSAGE = "This GSTIN's last character does not match the others: check it for a typing mistake"

/** A GSTIN as typed (spaces trimmed, upper-cased): the standard shape and a matching check character. */
export const GstinSchema = z
  .string({ error: 'GSTIN must be text' })
  .trim()
  .toUpperCase()
  .regex(GSTIN_PATTERN, GSTIN_SHAPE_MESSAGE)
  .refine((gstin) => !GSTIN_PATTERN.test(gstin) || isValidGstin(gstin), GSTIN_CHECK_MESSAGE)
  .meta({ pattern: '^[0-9]{2}[A-Za-z]{5}[0-9]{4}[A-Za-z][1-9A-Za-z][Zz][0-9A-Za-z]$' })

/**
 * GST state codes (the first two digits of a GSTIN and the "place of supply" code): the list of
 * the GST portal's state code master, as CBIC publishes it. 25 (Daman and Diu) merged into 26 in
 * 2020; 28 was Andhra Pradesh before 2014 and is not given now.
 */
export const GST_STATE_CODES: Readonly<Record<string, string>> = {
  '01': 'Jammu and Kashmir',
  '02': 'Himachal Pradesh',
  '03': 'Punjab',
  '04': 'Chandigarh',
  '05': 'Uttarakhand',
  '06': 'Haryana',
  '07': 'Delhi',
  '08': 'Rajasthan',
  '09': 'Uttar Pradesh',
  '10': 'Bihar',
  '11': 'Sikkim',
  '12': 'Arunachal Pradesh',
  '13': 'Nagaland',
  '14': 'Manipur',
  '15': 'Mizoram',
  '16': 'Tripura',
  '17': 'Meghalaya',
  '18': 'Assam',
  '19': 'West Bengal',
  '20': 'Jharkhand',
  '21': 'Odisha',
  '22': 'Chhattisgarh',
  '23': 'Madhya Pradesh',
  '24': 'Gujarat',
  '26': 'Dadra and Nagar Haveli and Daman and Diu',
  '27': 'Maharashtra',
  '29': 'Karnataka',
  '30': 'Goa',
  '31': 'Lakshadweep',
  '32': 'Kerala',
  '33': 'Tamil Nadu',
  '34': 'Puducherry',
  '35': 'Andaman and Nicobar Islands',
  '36': 'Telangana',
  '37': 'Andhra Pradesh',
  '38': 'Ladakh',
}

/** Other spellings of state names (India Post's data among them) → the GST state code. */
const STATE_ALIASES: Readonly<Record<string, string>> = {
  'nct of delhi': '07',
  'new delhi': '07',
  'jammu kashmir': '01',
  orissa: '21',
  chattisgarh: '22',
  pondicherry: '34',
  'andaman and nicobar': '35',
  'dadra and nagar haveli': '26',
  'daman and diu': '26',
}

const normalState = (name: string) =>
  name
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z ]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()

const CODE_BY_STATE = new Map<string, string>([
  ...Object.entries(GST_STATE_CODES).map(([code, name]) => [normalState(name), code] as [string, string]),
  ...Object.entries(STATE_ALIASES),
])

/** The GST state code of a state's name in any usual spelling ("Karnataka", "Jammu & Kashmir"), or null. */
export function gstStateCode(stateName: string): string | null {
  return CODE_BY_STATE.get(normalState(stateName)) ?? null
}

/**
 * One line of the invoice (rupees); `kind` `delivery` is the delivery charge, `fee` a named fee
 * (handling charge, small cart fee, late night fee: docs/commerce-api.md, "Fees"), taxed as delivery.
 */
export const InvoiceLineSchema = z
  .object({
    kind: z.enum(['goods', 'delivery', 'fee']),
    name: z.string(),
    unit: z.string(),
    quantity: z.number(),
    mrp: z.number(),
    price: z.number(),
    discount: z.number(),
    /** The line's share of the coupon's discount, taken off before tax (docs/offers.md, "Refunds"); 0 without a coupon. */
    couponDiscount: z.number(),
    amount: z.number(),
    gstRate: z.number(),
    taxable: z.number(),
    cgst: z.number(),
    sgst: z.number(),
    /** All the line's tax when the supply is inter-State (then `cgst` and `sgst` are 0). */
    igst: z.number(),
    subCategory: z.string().nullable(),
    /** HSN code of the goods (SAC 9968 for the delivery charge); null when the product has none. */
    hsn: z.string().nullable(),
  })
  .meta({ id: 'InvoiceLine' })

/** The invoice's totals (rupees): `grandTotal` is the order's `totalAmt`. */
export const InvoiceTotalsSchema = z
  .object({
    mrp: z.number(),
    discount: z.number(),
    /** The coupon's discount, before tax; 0 without a coupon. */
    couponDiscount: z.number(),
    taxable: z.number(),
    cgst: z.number(),
    sgst: z.number(),
    igst: z.number(),
    tax: z.number(),
    itemsTotal: z.number(),
    deliveryCharge: z.number(),
    /** The named fees' lines together, GST included (docs/commerce-api.md, "Fees"); 0 without fees. */
    fees: z.number(),
    amount: z.number(),
    rounding: z.number(),
    grandTotal: z.number(),
  })
  .meta({ id: 'InvoiceTotals' })

/**
 * Why a credit note was issued: the order was cancelled, one line was refunded (not delivered), or a
 * problem reported after delivery was refunded (units of one line: docs/help-after-delivery.md,
 * "Credit notes").
 */
export const CREDIT_NOTE_REASONS = ['cancelled', 'line_refund', 'problem_report'] as const

/** A credit note as an invoice names it: number, date in India (YYYY-MM-DD) and reason. */
export const CreditNoteRefSchema = z
  .object({ number: z.string(), date: z.string(), reason: z.enum(CREDIT_NOTE_REASONS) })
  .meta({ id: 'CreditNoteRef' })

/** A State as an invoice names it: its GST state code and name. */
export const GstStateSchema = z.object({ code: z.string(), name: z.string() }).meta({ id: 'GstState' })

/**
 * The supplier on an invoice: the legal name (`SELLER_NAME`), the store that delivered the order
 * (its name, GSTIN and registered address as they were when the invoice was issued; a store without
 * a GSTIN: `SELLER_GSTIN` and `SELLER_ADDRESS`), and the State of its GSTIN.
 */
export const InvoiceSellerSchema = z
  .object({
    name: z.string(),
    storeName: z.string(),
    address: z.string(),
    gstin: z.string(),
    state: GstStateSchema,
  })
  .meta({ id: 'InvoiceSeller' })

/**
 * What an invoice and a credit note both state: the order (number and `_id`), the supplier, the
 * buyer and the address as at order time, the place of supply, whether the supply is inter-State,
 * the lines, the totals and the total in words.
 */
const taxDocumentShape = {
  orderId: z.string(),
  orderRef: z.string(),
  seller: InvoiceSellerSchema,
  buyer: z.object({ name: z.string(), address: OrderAddressSchema }),
  placeOfSupply: GstStateSchema,
  interState: z.boolean(),
  lines: z.array(InvoiceLineSchema),
  totals: InvoiceTotalsSchema,
  amountInWords: z.string(),
}

/**
 * An order's tax invoice (CGST Rules 2017, rule 46): number in the delivering store's series
 * (`BLR1/26-27/00123`, at most 16 characters, consecutive per store and financial year), the date
 * it was issued in India (YYYY-MM-DD: the placement of a cash-on-delivery order, the payment of an
 * online one), the supplier, the buyer and the address as at order time, the place of supply (the
 * State of the delivery address) and whether the supply is inter-State (IGST) or not (CGST + SGST),
 * the lines with HSN codes, the totals and the total in words. `creditNotes` are the credit notes
 * issued against it, oldest first (a cancelled order's invoice names the one that cancels it).
 */
export const InvoiceSchema = z
  .object({
    invoiceNumber: z.string(),
    invoiceDate: z.string(),
    status: z.enum(ORDER_STATUSES),
    paymentMethod: z.string(),
    ...taxDocumentShape,
    creditNotes: z.array(CreditNoteRefSchema),
    /**
     * The tip for the delivery partner paid with the order, rupees (absent: none): shown after the
     * tax invoice's totals, outside them (collected on the rider's behalf, not a supply, outside
     * GST: docs/decisions/0070-tip-and-delivery-instructions.md).
     */
    tip: z.number().optional(),
  })
  .meta({ id: 'Invoice' })
export type Invoice = z.output<typeof InvoiceSchema>

/**
 * A credit note (CGST Rules 2017, rule 53): its number in the store's credit-note series
 * (`BLR1C/26-27/0001`, at most 16 characters), its date in India, the invoice it reverses (number and
 * date), the supplier, buyer and place of supply as on that invoice, the reversed lines with their
 * taxable value, rate and tax split as the invoice's (CGST + SGST or IGST), the totals and the total
 * in words. A cancel reverses what is left of every line (after earlier credit notes), the delivery
 * charge and the rounding; a line refund reverses what is left of that line; a problem report's note
 * credits its units of one line (their paid value, the taxable value backed out of it at the line's
 * rate).
 */
export const CreditNoteSchema = z
  .object({
    creditNoteNumber: z.string(),
    creditNoteDate: z.string(),
    reason: z.enum(CREDIT_NOTE_REASONS),
    /**
     * A `problem_report` note's report: what was wrong and how many units of its line it credits
     * (absent on other notes).
     */
    problem: z.object({ issueId: z.string(), kind: z.enum(ISSUE_KINDS), units: z.number().int() }).optional(),
    invoiceNumber: z.string(),
    invoiceDate: z.string(),
    ...taxDocumentShape,
  })
  .meta({ id: 'CreditNote' })
export type CreditNote = z.output<typeof CreditNoteSchema>
