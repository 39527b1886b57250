/**
 * The invoice and credit-note PDFs (app/.server/invoice-pdf.ts): a real PDF, its text (uncompressed)
 * holding the invoice number, the seller's GSTIN, every line with its HSN code and the bill as the
 * API computed it, the place of supply and the amount in words, the per-rate summary adding up to the
 * totals to the paisa, IGST alone between States, CANCELLED with the credit note on a cancelled
 * order's invoice (DELIVERY FAILED on a failed delivery's), the credit note naming its invoice, and long orders running onto more pages.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { CreditNote, Invoice } from './api/invoice.ts'
import {
  creditNoteBanner,
  creditNoteFileName,
  formatRupees,
  invoiceFileName,
  renderCreditNotePdf,
  renderInvoicePdf,
  taxByRate,
} from './invoice-pdf.ts'
import { invoiceLine as line, testInvoice as invoice } from './testing/invoice.ts'

/** The text of every text operation of an uncompressed pdfkit file (its `[<hex> kern <hex>] TJ` arrays), one string each. */
function pdfTexts(pdf: Buffer): string[] {
  return [...pdf.toString('latin1').matchAll(/\[([^\]]*)\] TJ/g)].map((m) =>
    [...m[1]!.matchAll(/<([0-9a-f]*)>/g)].map((h) => Buffer.from(h[1]!, 'hex').toString('latin1')).join(''),
  )
}

describe('renderInvoicePdf', () => {
  it('is a PDF whose text holds the number, the seller, the lines and the bill', async () => {
    const pdf = await renderInvoicePdf(invoice, { compress: false })
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-')
    const texts = pdfTexts(pdf)
    expect(texts).toContain('TAX INVOICE')
    expect(texts).toContain('Invoice no: BLR1/26-27/00042')
    expect(texts).toContain('Invoice date: 26 Nov 2026')
    expect(texts).toContain('GSTIN: 29AAAAA0000A1ZY')
    expect(texts).toContain('Payment: CASH ON DELIVERY')
    expect(texts).toContain('Place of supply: Karnataka (29)')
    expect(texts).toContain('Intra-State supply: CGST + SGST')
    expect(texts).toContain('Amount in words: Rupees Five Hundred Ninety-Six Only')
    expect(texts).toContain('0713')
    expect(texts).toContain('9968')
    expect(texts).not.toContain('IGST')
    expect(texts.some((s) => s.startsWith('CANCELLED'))).toBe(false)
    for (const name of ['Onion', 'Shampoo', 'Delivery charge']) expect(texts).toContain(name)
    const after = (label: string) => texts[texts.indexOf(label) + 1]
    expect(after('Grand total (Rs)')).toBe('596.00')
    // The bill's CGST and SGST (the last of their labels: the line table and the summary come first).
    expect(texts[texts.lastIndexOf('CGST') + 1]).toBe('14.26')
    expect(texts[texts.lastIndexOf('SGST') + 1]).toBe('14.28')
    expect(after('Rounding')).toBe('- 0.39')
    expect(after('Total (incl. GST)')).toBe('596.39')
    expect(pdf.toString('latin1')).toContain('(Tax invoice BLR1/26-27/00042)')
  })

  it('sums GST by rate in paise: the summary adds up to the totals', () => {
    const rows = taxByRate(invoice)
    expect(rows.map((r) => r.rate)).toEqual([0, 5, 18])
    const paise = (n: number) => Math.round(n * 100)
    expect(rows.reduce((n, r) => n + paise(r.cgst), 0)).toBe(paise(invoice.totals.cgst))
    expect(rows.reduce((n, r) => n + paise(r.sgst), 0)).toBe(paise(invoice.totals.sgst))
    expect(rows.reduce((n, r) => n + paise(r.taxable), 0)).toBe(paise(invoice.totals.taxable))
  })

  it('runs a long order onto more pages, compressed by default', async () => {
    const many = {
      ...invoice,
      lines: Array.from({ length: 120 }, (_, i) => line(`Product ${i + 1} with a rather long name to wrap`, 1, 10, 5, 9.52, 0.24, 0.24)),
    }
    const pdf = await renderInvoicePdf(many)
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-')
    const pages = Number(/\/Count (\d+)/.exec(pdf.toString('latin1'))?.[1])
    expect(pages).toBeGreaterThan(1)
  })

  it('an inter-State invoice prints IGST alone; a cancelled one says CANCELLED and names its credit note', async () => {
    const inter: Invoice = {
      ...invoice,
      status: 'cancelled',
      placeOfSupply: { code: '07', name: 'Delhi' },
      interState: true,
      lines: invoice.lines.map((l) => ({ ...l, igst: Math.round((l.cgst + l.sgst) * 100) / 100, cgst: 0, sgst: 0 })),
      totals: { ...invoice.totals, cgst: 0, sgst: 0, igst: 28.54 },
      creditNotes: [{ number: 'BLR1C/26-27/0007', date: '2026-11-27', reason: 'cancelled' }],
    }
    const texts = pdfTexts(await renderInvoicePdf(inter, { compress: false }))
    expect(texts).toContain('CANCELLED: reversed by credit note BLR1C/26-27/0007 of 27 Nov 2026')
    expect(texts).toContain('Inter-State supply: IGST')
    expect(texts[texts.lastIndexOf('IGST') + 1]).toBe('28.54')
    expect(texts).not.toContain('CGST')
  })

  it('a failed delivery’s invoice says DELIVERY FAILED and names its credit note (docs/delivery.md, "Could not deliver")', async () => {
    const failed: Invoice = {
      ...invoice,
      status: 'delivery_failed',
      creditNotes: [{ number: 'BLR1C/26-27/0008', date: '2026-11-28', reason: 'cancelled' }],
    }
    const texts = pdfTexts(await renderInvoicePdf(failed, { compress: false }))
    expect(texts).toContain('DELIVERY FAILED: reversed by credit note BLR1C/26-27/0008 of 28 Nov 2026')
    expect(texts.some((s) => s.startsWith('CANCELLED'))).toBe(false)
  })

  it('a credit note names itself, the invoice it reverses and its date, with the reversed lines', async () => {
    const note: CreditNote = {
      creditNoteNumber: 'BLR1C/26-27/0007',
      creditNoteDate: '2026-11-27',
      reason: 'line_refund',
      invoiceNumber: invoice.invoiceNumber,
      invoiceDate: invoice.invoiceDate,
      orderId: invoice.orderId,
      orderRef: invoice.orderRef,
      seller: invoice.seller,
      buyer: invoice.buyer,
      placeOfSupply: invoice.placeOfSupply,
      interState: false,
      lines: [invoice.lines[1]!],
      totals: { ...invoice.totals, grandTotal: 519.39 },
      amountInWords: 'Rupees Five Hundred Nineteen and Thirty-Nine Paise Only',
    }
    const pdf = await renderCreditNotePdf(note, { compress: false })
    const texts = pdfTexts(pdf)
    expect(texts).toContain('CREDIT NOTE')
    expect(texts).toContain('Credit note no: BLR1C/26-27/0007')
    expect(texts).toContain('Against invoice: BLR1/26-27/00042')
    expect(texts).toContain('Invoice date: 26 Nov 2026')
    expect(texts).toContain('Shampoo')
    expect(texts).not.toContain('Onion')
    expect(texts).toContain('Amount in words: Rupees Five Hundred Nineteen and Thirty-Nine Paise Only')
    expect(creditNoteFileName(note)).toBe('credit-note-BLR1C-26-27-0007.pdf')
  })

  it('a problem report’s credit note prints its reason, the line with the units credited, taxable value, tax and total (pdftotext)', async () => {
    // 1 of 3 × ₹173.13 at 5 %: ₹173.13, tax round(17,313 × 5/105) = 824 paise (CGST 4.12, SGST 4.12), taxable ₹164.89.
    const credited = line('Shampoo', 1, 173.13, 5, 164.89, 4.12, 4.12)
    const note: CreditNote = {
      creditNoteNumber: 'BLR1C/26-27/0008',
      creditNoteDate: '2026-11-28',
      reason: 'problem_report',
      problem: { issueId: 'issue1', kind: 'wrong_item', units: 1 },
      invoiceNumber: invoice.invoiceNumber,
      invoiceDate: invoice.invoiceDate,
      orderId: invoice.orderId,
      orderRef: invoice.orderRef,
      seller: invoice.seller,
      buyer: invoice.buyer,
      placeOfSupply: invoice.placeOfSupply,
      interState: false,
      lines: [credited],
      totals: {
        ...invoice.totals,
        mrp: 173.13,
        taxable: 164.89,
        cgst: 4.12,
        sgst: 4.12,
        tax: 8.24,
        itemsTotal: 173.13,
        deliveryCharge: 0,
        amount: 173.13,
        rounding: 0,
        grandTotal: 173.13,
      },
      amountInWords: 'Rupees One Hundred Seventy-Three and Thirteen Paise Only',
    }
    expect(creditNoteBanner(note)).toBe('Problem reported: wrong item (1 unit)')
    expect(creditNoteBanner({ ...note, problem: { issueId: 'i', kind: 'damaged', units: 2 } })).toBe('Problem reported: damaged (2 units)')
    const dir = mkdtempSync(join(tmpdir(), 'credit-note-pdf-'))
    try {
      const file = join(dir, 'note.pdf')
      writeFileSync(file, await renderCreditNotePdf(note))
      const text = execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' })
      expect(text).toContain('CREDIT NOTE')
      expect(text).toContain('Credit note no: BLR1C/26-27/0008')
      expect(text).toContain('Against invoice: BLR1/26-27/00042')
      expect(text).toContain('Problem reported: wrong item (1 unit)')
      expect(text).toMatch(/Shampoo.*\b1\b.*173\.13/)
      expect(text).not.toContain('Onion')
      for (const figure of ['164.89', '4.12', '173.13']) expect(text).toContain(figure)
      expect(text.replace(/\s+/g, ' ')).toContain('Reduces the value of the supply above of tax invoice BLR1/26-27/00042')
      expect(text).toContain('Rupees One Hundred Seventy-Three and Thirteen Paise Only')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('prints each named fee as a service line and the tip after the totals, outside GST (docs/commerce-api.md, "Fees")', async () => {
    // ₹2 handling and ₹20 small cart fee at 18 % (as delivery, SAC 9968) and a ₹20 tip outside the totals.
    const fee = (name: string, amount: number, taxable: number, cgst: number, sgst: number) => ({
      ...line(name, 1, amount, 18, taxable, cgst, sgst),
      kind: 'fee' as const,
      unit: '',
      subCategory: null,
      hsn: '9968',
    })
    const withFees: Invoice = {
      ...invoice,
      lines: [...invoice.lines, fee('Handling charge', 2, 1.69, 0.15, 0.16), fee('Small cart fee', 20, 16.95, 1.52, 1.53)],
      totals: {
        ...invoice.totals,
        taxable: 567.85 + 1.69 + 16.95,
        cgst: 14.26 + 0.15 + 1.52,
        sgst: 14.28 + 0.16 + 1.53,
        tax: 28.54 + 3.36,
        fees: 22,
        amount: 618.39,
        grandTotal: 618,
      },
      tip: 20,
    }
    const texts = pdfTexts(await renderInvoicePdf(withFees, { compress: false }))
    expect(texts).toContain('Handling charge')
    expect(texts).toContain('Small cart fee')
    expect(texts[texts.indexOf('Fees (incl. GST)') + 1]).toBe('22.00')
    expect(texts[texts.indexOf('Grand total (Rs)') + 1]).toBe('618.00')
    const tip = texts.findIndex((t) => t.startsWith('Tip for your delivery partner'))
    expect(tip).toBeGreaterThan(texts.indexOf('Grand total (Rs)'))
    expect(texts.slice(tip, tip + 3).join(' ')).toContain(
      'Tip for your delivery partner (collected on their behalf; not a supply, outside GST): Rs 20.00.',
    )
    // Without a tip, no such line.
    expect(pdfTexts(await renderInvoicePdf(invoice, { compress: false })).some((t) => t.startsWith('Tip for'))).toBe(false)
  })

  it('formats rupees the Indian way and names the file after the order', () => {
    expect(formatRupees(123456.7)).toBe('1,23,456.70')
    expect(invoiceFileName({ orderId: 'OD000042' })).toBe('invoice-OD000042.pdf')
  })
})
