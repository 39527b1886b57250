/**
 * The tax invoice's arithmetic, in integer paise (docs/commerce-api.md, "Tax invoice";
 * docs/decisions/0021-tax-invoice.md). Prices in India include GST, so each line's tax is taken out
 * of what the shopper paid: tax = amount × rate / (100 + rate), rounded half up to the paisa, split
 * into CGST and SGST halves that add up to it (the odd paisa goes to SGST); taxable value = amount −
 * tax. Within one State (the supplier's State is the place of supply) the tax is CGST + SGST; between
 * States it is IGST, all of it (IGST Act 2017 ss. 7(1), 8(1); the place of supply of goods delivered
 * to the buyer is where the delivery ends, s. 10(1)(a)). The delivery charge is a line of its own at
 * the delivery rate, and so is each named fee (handling charge, small cart fee, late-night fee:
 * docs/commerce-api.md, "Fees"), a service line at the delivery's rate and SAC as the delivery charge
 * is (docs/decisions/0071-named-fees.md). A coupon's discount comes off before tax, as Indian invoices show a discount
 * allowed at the time of supply (CGST Act 2017 s. 15(3)(a)): each line's share of it (stored with the
 * order line, docs/offers.md, "At placement") is its own column, and the line's amount, taxable value
 * and tax are of what was paid after it. The totals add the lines, so the invoice's total is the
 * order's bill to the paisa: items total − coupon + delivery + fees + rounding = grand total.
 */

import { DELIVERY_SAC } from './gst-rates.ts'

/** One line as sold (integer paise) with its rate in basis points (5 % = 500). */
export interface InvoiceLineInput {
  name: string
  unit: string
  quantity: number
  mrpPaise: number
  sellingPaise: number
  lineTotalPaise: number
  /** The line's share of the order's coupon discount (0 or absent: none). */
  couponSharePaise?: number
  rateBp: number
  subCategory: string | null
  /** HSN code (goods) or SAC (the delivery charge); null when unknown. */
  hsn: string | null
}

/** A computed invoice line (paise); `kind` is `goods`, `delivery` or `fee` (a named fee). */
export interface InvoiceLine {
  kind: 'goods' | 'delivery' | 'fee'
  name: string
  unit: string
  quantity: number
  mrpPaise: number
  sellingPaise: number
  /** (MRP − selling price) × quantity. */
  discountPaise: number
  /** The line's share of the coupon's discount, taken off before tax. */
  couponPaise: number
  /** What the shopper pays for the line, GST included: selling price × quantity − `couponPaise`. */
  amountPaise: number
  rateBp: number
  taxablePaise: number
  cgstPaise: number
  sgstPaise: number
  /** All the tax of an inter-State supply (then CGST and SGST are 0). */
  igstPaise: number
  subCategory: string | null
  hsn: string | null
}

/** The bill of the order as stored (paise). */
export interface OrderBillPaise {
  itemsTotalPaise: number
  /** The coupon's discount (0 or absent: none). */
  couponDiscountPaise?: number
  deliveryChargePaise: number
  /** The named fees as stored on the order (0 or absent: none; docs/commerce-api.md, "Fees"). */
  handlingChargePaise?: number
  smallCartFeePaise?: number
  lateNightFeePaise?: number
  roundingPaise: number
  grandTotalPaise: number
}

/** The named fees' invoice lines: the bill's field and the line's name, in the bill's order. */
export const FEE_LINES = [
  ['handlingChargePaise', 'Handling charge'],
  ['smallCartFeePaise', 'Small cart fee'],
  ['lateNightFeePaise', 'Late night fee'],
] as const

/** The invoice's totals (paise). `grandTotalPaise` = `amountPaise` + `roundingPaise`. */
export interface InvoiceTotals {
  mrpPaise: number
  discountPaise: number
  couponPaise: number
  taxablePaise: number
  cgstPaise: number
  sgstPaise: number
  igstPaise: number
  taxPaise: number
  /** The items at selling price, before the coupon. */
  itemsTotalPaise: number
  deliveryChargePaise: number
  /** The named fees' lines together, GST included. */
  feesPaise: number
  /** Every line's amount: items (after the coupon), delivery and fees, GST included. */
  amountPaise: number
  roundingPaise: number
  grandTotalPaise: number
}

/**
 * The GST inside `amountPaise` at `rateBp`: round half up of amount × rate / (10000 + rate), in
 * integers (exact for any amount below 2^53 / 10000 paise).
 */
export function includedTax(amountPaise: number, rateBp: number): number {
  if (!Number.isSafeInteger(amountPaise) || amountPaise < 0) throw new RangeError(`Not an amount in paise: ${amountPaise}`)
  if (!Number.isInteger(rateBp) || rateBp < 0) throw new RangeError(`Not a rate in basis points: ${rateBp}`)
  const den = 10_000 + rateBp
  return Math.floor((2 * amountPaise * rateBp + den) / (2 * den))
}

/** Splits a tax into CGST and SGST halves that add up to it; the odd paisa goes to SGST. */
export function splitTax(taxPaise: number): { cgstPaise: number; sgstPaise: number } {
  const cgstPaise = Math.floor(taxPaise / 2)
  return { cgstPaise, sgstPaise: taxPaise - cgstPaise }
}

function taxed(line: Omit<InvoiceLine, 'taxablePaise' | 'cgstPaise' | 'sgstPaise' | 'igstPaise'>, interState: boolean): InvoiceLine {
  const tax = includedTax(line.amountPaise, line.rateBp)
  const split = interState ? { cgstPaise: 0, sgstPaise: 0, igstPaise: tax } : { ...splitTax(tax), igstPaise: 0 }
  return { ...line, taxablePaise: line.amountPaise - tax, ...split }
}

/**
 * The invoice of an order: its lines with their tax (IGST when `interState`, else CGST + SGST), a
 * delivery line when the order paid for delivery (at `deliveryRateBp`, SAC 9968), a line for each
 * named fee charged (taxed as the delivery line), and the totals. Throws an Error when the lines do not add up to the stored
 * items total or the bill does not add up (a corrupt order must not be invoiced).
 */
export function computeInvoice(
  lines: readonly InvoiceLineInput[],
  bill: OrderBillPaise,
  deliveryRateBp: number,
  interState = false,
): { lines: InvoiceLine[]; totals: InvoiceTotals } {
  const out: InvoiceLine[] = lines.map((l) =>
    taxed(
      {
        kind: 'goods',
        name: l.name,
        unit: l.unit,
        quantity: l.quantity,
        mrpPaise: l.mrpPaise,
        sellingPaise: l.sellingPaise,
        discountPaise: Math.max(0, l.mrpPaise - l.sellingPaise) * l.quantity,
        couponPaise: l.couponSharePaise ?? 0,
        amountPaise: l.lineTotalPaise - (l.couponSharePaise ?? 0),
        rateBp: l.rateBp,
        subCategory: l.subCategory,
        hsn: l.hsn,
      },
      interState,
    ),
  )
  const itemsTotalPaise = out.reduce((n, l) => n + l.amountPaise + l.couponPaise, 0)
  if (itemsTotalPaise !== bill.itemsTotalPaise)
    throw new Error(`Invoice lines add up to ${itemsTotalPaise} paise, the order's items total is ${bill.itemsTotalPaise}`)
  const couponPaise = out.reduce((n, l) => n + l.couponPaise, 0)
  if (couponPaise !== (bill.couponDiscountPaise ?? 0))
    throw new Error(
      `Invoice lines' coupon shares add up to ${couponPaise} paise, the order's coupon discount is ${bill.couponDiscountPaise ?? 0}`,
    )
  if (bill.deliveryChargePaise > 0)
    out.push(
      taxed(
        {
          kind: 'delivery',
          name: 'Delivery charge',
          unit: '',
          quantity: 1,
          mrpPaise: bill.deliveryChargePaise,
          sellingPaise: bill.deliveryChargePaise,
          discountPaise: 0,
          couponPaise: 0,
          amountPaise: bill.deliveryChargePaise,
          rateBp: deliveryRateBp,
          subCategory: null,
          hsn: DELIVERY_SAC,
        },
        interState,
      ),
    )
  for (const [field, name] of FEE_LINES) {
    const fee = bill[field] ?? 0
    if (fee > 0)
      out.push(
        taxed(
          {
            kind: 'fee',
            name,
            unit: '',
            quantity: 1,
            mrpPaise: fee,
            sellingPaise: fee,
            discountPaise: 0,
            couponPaise: 0,
            amountPaise: fee,
            rateBp: deliveryRateBp,
            subCategory: null,
            hsn: DELIVERY_SAC,
          },
          interState,
        ),
      )
  }
  const sum = (pick: (l: InvoiceLine) => number) => out.reduce((n, l) => n + pick(l), 0)
  const amountPaise = sum((l) => l.amountPaise)
  if (amountPaise + bill.roundingPaise !== bill.grandTotalPaise)
    throw new Error(`Invoice total ${amountPaise} + rounding ${bill.roundingPaise} paise is not the grand total ${bill.grandTotalPaise}`)
  const cgstPaise = sum((l) => l.cgstPaise)
  const sgstPaise = sum((l) => l.sgstPaise)
  const igstPaise = sum((l) => l.igstPaise)
  return {
    lines: out,
    totals: {
      mrpPaise: sum((l) => l.mrpPaise * l.quantity),
      discountPaise: sum((l) => l.discountPaise),
      couponPaise,
      taxablePaise: sum((l) => l.taxablePaise),
      cgstPaise,
      sgstPaise,
      igstPaise,
      taxPaise: cgstPaise + sgstPaise + igstPaise,
      itemsTotalPaise,
      deliveryChargePaise: bill.deliveryChargePaise,
      feesPaise: sum((l) => (l.kind === 'fee' ? l.amountPaise : 0)),
      amountPaise,
      roundingPaise: bill.roundingPaise,
      grandTotalPaise: bill.grandTotalPaise,
    },
  }
}
