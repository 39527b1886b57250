/**
 * Credit notes (CGST Rules 2017, rule 53; docs/decisions/0042-invoice-and-credit-note-numbering.md):
 * issued by the database in the transaction of an invoiced order's cancel or of a line's refund row
 * (migration 0026_tax_invoices), read here. A credit note's lines are computed as the invoice's
 * (api/modules/invoice/compute.ts), so each reversed line carries the very taxable value and tax it
 * had on the invoice, split the same way (CGST + SGST, or IGST):
 *
 * - a line refund reverses that line;
 * - a cancel reverses every line no earlier credit note reversed, the delivery charge, the named
 *   fees (docs/commerce-api.md, "Fees") and the rounding, so the credit notes of an order add up to its invoice.
 */
import type { CreditNote } from '../../../contract/invoice.ts'
import { amountInWords } from './amount-in-words.ts'
import { computeInvoice } from './compute.ts'
import { creditNoteRows, type CreditNoteRow } from './credit-note-rows.ts'
import { indiaDate, invoiceBasis, lineToWire, totalsToWire, type InvoiceBasis, type InvoiceDeps } from './service.ts'

/** One credit note computed from the invoice's basis: the lines it reverses, their tax, the totals. */
function toCreditNote(basis: InvoiceBasis, row: CreditNoteRow, all: CreditNoteRow[], deliveryBp: number): CreditNote {
  let chosen
  let bill
  if (row.order_line_id !== null) {
    chosen = basis.lines.filter((l) => l.id === row.order_line_id)
    const items = chosen.reduce((n, l) => n + l.lineTotalPaise, 0)
    // What the line refund gave back: its total less its share of the coupon (docs/offers.md, "Refunds").
    const coupon = chosen.reduce((n, l) => n + (l.couponSharePaise ?? 0), 0)
    bill = {
      itemsTotalPaise: items,
      couponDiscountPaise: coupon,
      deliveryChargePaise: 0,
      roundingPaise: 0,
      grandTotalPaise: items - coupon,
    }
  } else {
    // The cancel: what the line refunds before it did not reverse, with the delivery and the rounding.
    const credited = new Set(
      all
        .filter((r) => r.order_line_id !== null && new Date(r.issued_at).getTime() <= new Date(row.issued_at).getTime())
        .map((r) => r.order_line_id),
    )
    chosen = basis.lines.filter((l) => !credited.has(l.id))
    const items = chosen.reduce((n, l) => n + l.lineTotalPaise, 0)
    const coupon = chosen.reduce((n, l) => n + (l.couponSharePaise ?? 0), 0)
    // The named fees are reversed with the delivery charge: a cancellation refunds them, a line refund never.
    const { deliveryChargePaise, handlingChargePaise, smallCartFeePaise, lateNightFeePaise, roundingPaise } = basis.bill
    bill = {
      itemsTotalPaise: items,
      couponDiscountPaise: coupon,
      deliveryChargePaise,
      handlingChargePaise,
      smallCartFeePaise,
      lateNightFeePaise,
      roundingPaise,
      grandTotalPaise: items - coupon + deliveryChargePaise + handlingChargePaise + smallCartFeePaise + lateNightFeePaise + roundingPaise,
    }
  }
  const { lines, totals } = computeInvoice(chosen, bill, deliveryBp, basis.interState)
  return {
    creditNoteNumber: row.number,
    creditNoteDate: indiaDate(row.issued_at),
    reason: row.reason,
    invoiceNumber: basis.invoiceNumber,
    invoiceDate: indiaDate(basis.invoiceIssuedAt),
    orderId: basis.order.orderId,
    orderRef: basis.order._id,
    seller: basis.seller,
    buyer: { name: basis.buyerName, address: basis.order.delivery_address },
    placeOfSupply: basis.placeOfSupply,
    interState: basis.interState,
    lines: lines.map(lineToWire),
    totals: totalsToWire(totals),
    amountInWords: amountInWords(Math.max(0, totals.grandTotalPaise)),
  }
}

/**
 * The credit notes of order `ref` (`_id` or order number) for `viewer`, oldest first; an empty list
 * for an invoiced order never cancelled nor refunded.
 * @throws 404 ORDER_NOT_FOUND for an unknown order or another shopper's; 409 for an order without an
 *   invoice (nothing to credit)
 */
export async function orderCreditNotes(deps: InvoiceDeps, viewer: { id: string; role: string }, ref: string): Promise<CreditNote[]> {
  const basis = await invoiceBasis(deps, viewer, ref)
  const rows = await creditNoteRows(deps.db, basis.order._id)
  return rows.map((row) => toCreditNote(basis, row, rows, deps.invoice.gstRates.deliveryBp))
}
