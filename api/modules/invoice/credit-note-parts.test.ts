/**
 * The arithmetic of credit notes for parts of lines (api/modules/invoice/credit-notes.ts
 * `computeCreditNotes`; docs/decisions/0075-credit-notes-for-problem-reports.md), without a database:
 * IGST between States, and for many lines, rates, coupon shares and splits of units into reports, the
 * notes of an order add up to its invoice to the paisa (amount, taxable value, CGST, SGST, IGST), no
 * figure is ever negative, and a report that is not the line's last has the invoice's own tax of its value.
 */
import { describe, expect, it } from 'vitest'
import { computeInvoice, includedTax } from './compute.ts'
import type { CreditNoteRow } from './credit-note-rows.ts'
import { computeCreditNotes } from './credit-notes.ts'
import type { StoredLine } from './service.ts'

const line = (id: string, quantity: number, sellingPaise: number, rateBp: number, couponSharePaise = 0): StoredLine => ({
  id,
  name: id,
  unit: '1 pc',
  quantity,
  mrpPaise: sellingPaise,
  sellingPaise,
  lineTotalPaise: quantity * sellingPaise,
  couponSharePaise,
  rateBp,
  subCategory: null,
  hsn: null,
})

function basisOf(lines: StoredLine[], interState: boolean, deliveryChargePaise = 2500, roundingPaise = 0) {
  const items = lines.reduce((n, l) => n + l.lineTotalPaise, 0)
  const coupon = lines.reduce((n, l) => n + (l.couponSharePaise ?? 0), 0)
  return {
    lines,
    interState,
    bill: {
      itemsTotalPaise: items,
      couponDiscountPaise: coupon,
      deliveryChargePaise,
      handlingChargePaise: 0,
      smallCartFeePaise: 0,
      lateNightFeePaise: 0,
      roundingPaise,
      grandTotalPaise: items - coupon + deliveryChargePaise + roundingPaise,
    },
  }
}

let seq = 0
const reportRow = (lineId: string, units: number, amountPaise: number): CreditNoteRow => ({
  number: `N${String(++seq).padStart(6, '0')}`,
  order_line_id: lineId,
  reason: 'problem_report',
  issued_at: new Date(1_800_000_000_000 + seq * 1000),
  issue: { id: `i${seq}`, kind: 'missing', units, amountPaise },
})
const cancelRow = (): CreditNoteRow => ({
  number: `N${String(++seq).padStart(6, '0')}`,
  order_line_id: null,
  reason: 'cancelled',
  issued_at: new Date(1_800_000_000_000 + seq * 1000),
  issue: null,
})

/** A line's reports as the order-issue module values them: pro rata rounded down, the last units take the rest. */
function reportsOf(l: StoredLine, splits: number[]): CreditNoteRow[] {
  const paid = l.lineTotalPaise - (l.couponSharePaise ?? 0)
  let units = 0
  let paise = 0
  return splits.map((u) => {
    const value = units + u >= l.quantity ? paid - paise : Math.floor((u * paid) / l.quantity)
    units += u
    paise += value
    return reportRow(l.id, u, value)
  })
}

describe('computeCreditNotes', () => {
  it('between States a report credits IGST alone, the invoice’s tax of its value', () => {
    const basis = basisOf([line('a', 3, 3334, 1200)], true)
    const [note] = computeCreditNotes(basis, reportsOf(basis.lines[0]!, [1]), 1800)
    // 3,334 at 12 %: round(3,334 × 12/112) = 357 (357.21).
    expect(note!.lines).toMatchObject([{ quantity: 1, amountPaise: 3334, igstPaise: 357, cgstPaise: 0, sgstPaise: 0, taxablePaise: 2977 }])
    expect(note!.totals).toMatchObject({ grandTotalPaise: 3334, taxPaise: 357, deliveryChargePaise: 0, roundingPaise: 0 })
  })

  it('for any split of units into reports and a cancel, the notes add up to the invoice, tax by tax, never negative', () => {
    let state = 12345
    const rand = (n: number) => {
      state = (state * 1103515245 + 12345) % 2 ** 31
      return state % n
    }
    for (let round = 0; round < 300; round++) {
      const rates = [0, 500, 1200, 1800, 2800, 4000]
      const lines = Array.from({ length: 1 + rand(3) }, (_, i) => {
        const qty = 1 + rand(7)
        const price = 1 + rand(50_000)
        return line(`l${i}`, qty, price, rates[rand(rates.length)]!, rand(Math.min(qty * price, 3000)))
      })
      const interState = rand(2) === 0
      const basis = basisOf(lines, interState, rand(2) * 2500, rand(99) - 49)
      const rows: CreditNoteRow[] = []
      for (const l of lines) {
        const splits: number[] = []
        let left = l.quantity - rand(l.quantity + 1)
        while (left > 0) {
          const u = 1 + rand(left)
          splits.push(u)
          left -= u
        }
        rows.push(...reportsOf(l, splits))
      }
      rows.sort(() => rand(3) - 1)
      rows.push(cancelRow())
      const notes = computeCreditNotes(basis, rows, 1800)
      const invoice = computeInvoice(basis.lines, basis.bill, 1800, interState)
      for (const key of ['amountPaise', 'taxablePaise', 'cgstPaise', 'sgstPaise', 'igstPaise', 'grandTotalPaise'] as const)
        expect(
          notes.reduce((n, c) => n + c.totals[key], 0),
          key,
        ).toBe(invoice.totals[key])
      for (const n of notes)
        for (const l of n.lines)
          for (const v of [l.quantity, l.amountPaise, l.taxablePaise, l.cgstPaise, l.sgstPaise, l.igstPaise, l.couponPaise])
            expect(v).toBeGreaterThanOrEqual(0)
      // A report that is not its line's last carries the invoice's own tax of its value.
      const seen = new Map<string, number>()
      rows.forEach((r, i) => {
        if (!r.issue) return
        const l = lines.find((x) => x.id === r.order_line_id)!
        const units = (seen.get(l.id) ?? 0) + r.issue.units
        seen.set(l.id, units)
        const n = notes[i]!.lines[0]!
        if (units < l.quantity) expect(n.cgstPaise + n.sgstPaise + n.igstPaise).toBe(includedTax(r.issue.amountPaise, l.rateBp))
      })
    }
  })
})
