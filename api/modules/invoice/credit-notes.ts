/**
 * Credit notes (CGST Rules 2017, rule 53; docs/decisions/0042-invoice-and-credit-note-numbering.md,
 * docs/decisions/0075-credit-notes-for-problem-reports.md): issued by the database in the transaction
 * of an invoiced order's cancel, of a line's refund row (migration 0026_tax_invoices) or of a problem
 * report's refund (migration 0048), read here. Each is computed from the invoice's own lines
 * (api/modules/invoice/compute.ts), walking the order's notes oldest first and keeping what each line
 * has had credited, so a line's notes never credit more than its invoice value, nor a tax it did not
 * carry:
 *
 * - a problem report's note credits its units of one line: their value (the report's, what was paid
 *   for them after the coupon share, docs/help-after-delivery.md, "Value"), the tax backed out of it
 *   at the line's rate as the invoice does (`includedTax`), the taxable value the rest; the note that
 *   takes the line's last units (or the last of its value) takes what is left of the line's amount,
 *   taxable value and tax, as the report's value takes what is left of what was paid. CGST and SGST
 *   split the line's credited tax so far as the invoice splits a tax (`splitTax`: the odd paisa to
 *   SGST), so the notes of a line add up to its CGST and its SGST;
 * - a line refund credits what is left of that line (all of it when no report credited part);
 * - a cancel credits what is left of every line, the delivery charge, the named fees
 *   (docs/commerce-api.md, "Fees") and the rounding, so the credit notes of an order add up to its invoice.
 */
import type { CreditNote } from '../../../contract/invoice.ts'
import { amountInWords } from './amount-in-words.ts'
import { computeInvoice, includedTax, type InvoiceLine, type InvoiceTotals } from './compute.ts'
import { creditNoteRows, type CreditNoteRow } from './credit-note-rows.ts'
import { indiaDate, invoiceBasis, lineToWire, totalsToWire, type InvoiceBasis, type InvoiceDeps } from './service.ts'

/** What has been credited of one invoice line so far (paise, units). */
interface Credited {
  units: number
  amountPaise: number
  couponPaise: number
  taxablePaise: number
  cgstPaise: number
  sgstPaise: number
  igstPaise: number
}

const NOTHING: Credited = { units: 0, amountPaise: 0, couponPaise: 0, taxablePaise: 0, cgstPaise: 0, sgstPaise: 0, igstPaise: 0 }

const taxOf = (c: Pick<Credited, 'cgstPaise' | 'sgstPaise' | 'igstPaise'>) => c.cgstPaise + c.sgstPaise + c.igstPaise

/** A goods line of `quantity` units with the given figures (the unit prices of the invoice line). */
function piece(line: InvoiceLine, quantity: number, c: Omit<Credited, 'units'>): InvoiceLine {
  return { ...line, quantity, discountPaise: Math.max(0, line.mrpPaise - line.sellingPaise) * quantity, ...c }
}

/** What is left of invoice line `line` after `done`: the line a cancel or a line refund credits. */
function rest(line: InvoiceLine, done: Credited): InvoiceLine {
  return piece(line, Math.max(0, line.quantity - done.units), {
    amountPaise: line.amountPaise - done.amountPaise,
    couponPaise: line.couponPaise - done.couponPaise,
    taxablePaise: line.taxablePaise - done.taxablePaise,
    cgstPaise: line.cgstPaise - done.cgstPaise,
    sgstPaise: line.sgstPaise - done.sgstPaise,
    igstPaise: line.igstPaise - done.igstPaise,
  })
}

/**
 * The part of invoice line `line` a problem report's note credits: `units` units worth `amountPaise`
 * (GST included), after `done` was credited. Exported for its unit test.
 */
export function reportPiece(line: InvoiceLine, done: Credited, units: number, amountPaise: number, interState: boolean): InvoiceLine {
  const left = rest(line, done)
  // The line's last units, or the last of its value: all that is left (never more).
  if (units >= left.quantity || amountPaise >= left.amountPaise) return { ...left, quantity: Math.min(units, left.quantity) }
  const tax = Math.min(includedTax(amountPaise, line.rateBp), taxOf(left))
  let split: Pick<Credited, 'cgstPaise' | 'sgstPaise' | 'igstPaise'>
  if (interState) split = { cgstPaise: 0, sgstPaise: 0, igstPaise: tax }
  else {
    // The line's credited tax so far split as splitTax splits a tax: CGST the lower half.
    const cgst = Math.min(tax, Math.max(0, Math.floor((taxOf(done) + tax) / 2) - done.cgstPaise))
    split = { cgstPaise: cgst, sgstPaise: tax - cgst, igstPaise: 0 }
  }
  const coupon = Math.min(left.couponPaise, Math.max(0, units * line.sellingPaise - amountPaise))
  return piece(line, units, { amountPaise, couponPaise: coupon, taxablePaise: amountPaise - tax, ...split })
}

/** Adds `p` (a credited goods line) to `done`. */
function add(done: Credited, p: InvoiceLine): Credited {
  return {
    units: done.units + p.quantity,
    amountPaise: done.amountPaise + p.amountPaise,
    couponPaise: done.couponPaise + p.couponPaise,
    taxablePaise: done.taxablePaise + p.taxablePaise,
    cgstPaise: done.cgstPaise + p.cgstPaise,
    sgstPaise: done.sgstPaise + p.sgstPaise,
    igstPaise: done.igstPaise + p.igstPaise,
  }
}

/** The totals of a credit note's lines (paise); `grandTotalPaise` = their amount + `roundingPaise`. */
export function creditTotals(lines: readonly InvoiceLine[], roundingPaise: number): InvoiceTotals {
  const sum = (pick: (l: InvoiceLine) => number) => lines.reduce((n, l) => n + pick(l), 0)
  const cgstPaise = sum((l) => l.cgstPaise)
  const sgstPaise = sum((l) => l.sgstPaise)
  const igstPaise = sum((l) => l.igstPaise)
  const amountPaise = sum((l) => l.amountPaise)
  return {
    mrpPaise: sum((l) => l.mrpPaise * l.quantity),
    discountPaise: sum((l) => l.discountPaise),
    couponPaise: sum((l) => l.couponPaise),
    taxablePaise: sum((l) => l.taxablePaise),
    cgstPaise,
    sgstPaise,
    igstPaise,
    taxPaise: cgstPaise + sgstPaise + igstPaise,
    itemsTotalPaise: sum((l) => (l.kind === 'goods' ? l.amountPaise + l.couponPaise : 0)),
    deliveryChargePaise: sum((l) => (l.kind === 'delivery' ? l.amountPaise : 0)),
    feesPaise: sum((l) => (l.kind === 'fee' ? l.amountPaise : 0)),
    amountPaise,
    roundingPaise,
    grandTotalPaise: amountPaise + roundingPaise,
  }
}

/**
 * Every credit note of an order computed from the invoice's basis, in the order of `rows` (oldest
 * first): the lines each credits and its totals (paise).
 */
export function computeCreditNotes(
  basis: Pick<InvoiceBasis, 'lines' | 'bill' | 'interState'>,
  rows: readonly CreditNoteRow[],
  deliveryBp: number,
): { lines: InvoiceLine[]; totals: InvoiceTotals }[] {
  const invoice = computeInvoice(basis.lines, basis.bill, deliveryBp, basis.interState)
  const goods = new Map(basis.lines.map((l, i) => [l.id, i]))
  const done: Credited[] = basis.lines.map(() => NOTHING)
  return rows.map((row) => {
    const at = row.order_line_id === null ? undefined : goods.get(row.order_line_id)
    if (row.order_line_id !== null) {
      // A line the invoice does not have credits nothing (cannot happen: notes name the order's lines).
      if (at === undefined) return { lines: [], totals: creditTotals([], 0) }
      const line = invoice.lines[at]!
      const credited = row.issue
        ? reportPiece(line, done[at]!, row.issue.units, row.issue.amountPaise, basis.interState)
        : rest(line, done[at]!)
      done[at] = add(done[at]!, credited)
      return { lines: [credited], totals: creditTotals([credited], 0) }
    }
    // The cancel: what is left of each line, then the delivery charge and the fees, and the rounding.
    const lines: InvoiceLine[] = []
    basis.lines.forEach((_, i) => {
      const left = rest(invoice.lines[i]!, done[i]!)
      if (left.quantity === 0 && left.amountPaise === 0) return
      lines.push(left)
      done[i] = add(done[i]!, left)
    })
    lines.push(...invoice.lines.slice(basis.lines.length))
    return { lines, totals: creditTotals(lines, basis.bill.roundingPaise) }
  })
}

/** A credit note on the wire: its row, the invoice's parties, its computed lines and totals. */
function toCreditNote(basis: InvoiceBasis, row: CreditNoteRow, computed: { lines: InvoiceLine[]; totals: InvoiceTotals }): CreditNote {
  const { lines, totals } = computed
  return {
    creditNoteNumber: row.number,
    creditNoteDate: indiaDate(row.issued_at),
    reason: row.reason,
    ...(row.issue ? { problem: { issueId: row.issue.id, kind: row.issue.kind, units: row.issue.units } } : {}),
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
  const computed = computeCreditNotes(basis, rows, deps.invoice.gstRates.deliveryBp)
  return rows.map((row, i) => toCreditNote(basis, row, computed[i]!))
}
