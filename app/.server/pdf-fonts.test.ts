/**
 * Indian scripts in the PDFs (app/.server/pdf-fonts.ts): strings split into runs by script, and an
 * invoice whose buyer writes in Devanagari and whose lines are named in Tamil and Bengali printing
 * them so that the text extracted by poppler's `pdftotext` (Debian `poppler-utils`) is what was
 * typed, ₹ included. With Helvetica alone none of them survives.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import PDFDocument from 'pdfkit'
import { afterAll, describe, expect, it } from 'vitest'
import type { Invoice } from './api/invoice.ts'
import { renderInvoicePdf } from './invoice-pdf.ts'
import { drawText, textRuns } from './pdf-fonts.ts'
import { invoiceLine, testInvoice } from './testing/invoice.ts'

const dir = mkdtempSync(join(tmpdir(), 'pdf-fonts-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** The text poppler extracts from `pdf` (UTF-8, layout order). */
function extract(pdf: Buffer, name: string): string {
  const file = join(dir, `${name}.pdf`)
  writeFileSync(file, pdf)
  return execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' })
}

/** A document drawn by `draw`, as bytes. */
function pdfOf(draw: (doc: PDFKit.PDFDocument) => void): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: 36 })
  const chunks: Buffer[] = []
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))))
  doc.on('data', (c: Buffer) => chunks.push(c))
  draw(doc)
  doc.end()
  return done
}

const NAME = 'श्रीमती किरण क्षत्रिय'
const ADDRESS = '१२, गांधी मार्ग, त्रिनगर'
const CITY = 'दिल्ली'
const TAMIL = 'கத்திரிக்காய்'
const BENGALI = 'আলু পোস্ত'

/** A Delhi store's invoice to a Devanagari-writing buyer, its two ₹40 lines at 0 % named in Tamil and Bengali. */
const invoice: Invoice = {
  ...testInvoice,
  invoiceNumber: 'DEL1/26-27/00077',
  seller: {
    ...testInvoice.seller,
    storeName: 'Rohini',
    address: '12, MG Road\nDelhi 110035',
    gstin: '07AAAAA0000A1Z4',
    state: { code: '07', name: 'Delhi' },
  },
  placeOfSupply: { code: '07', name: 'Delhi' },
  amountInWords: 'Rupees Eighty Only',
  buyer: {
    name: NAME,
    address: { address_line: ADDRESS, city: CITY, state: 'Delhi', pincode: '110035', country: 'India', mobile: '9845012345' },
  },
  lines: [invoiceLine(TAMIL, 1, 40, 0, 40, 0, 0), invoiceLine(BENGALI, 1, 40, 0, 40, 0, 0)],
  totals: {
    ...testInvoice.totals,
    mrp: 80,
    taxable: 80,
    cgst: 0,
    sgst: 0,
    tax: 0,
    itemsTotal: 80,
    deliveryCharge: 0,
    amount: 80,
    rounding: 0,
    grandTotal: 80,
  },
}

describe('textRuns', () => {
  it('splits by script; spaces stay in an Indic run, digits and commas go to Helvetica, ₹ follows its neighbour', () => {
    const runs = textRuns('Asha देवी, 12 ₹ নাম ₹5')
    expect(runs.map((r) => [r.text, r.script])).toEqual([
      ['Asha ', null],
      ['देवी', 'Devanagari'],
      [', 12 ', null],
      ['₹ নাম ₹', 'Bengali'],
      ['5', null],
    ])
    expect(runs[0]!.font).toBe('Helvetica')
    expect(runs[1]!.font).toMatch(/noto-sans-devanagari-devanagari-400-normal\.woff$/)
  })

  it('takes the bold faces, and gives a lone ₹ the first Indic font that has it', () => {
    expect(textRuns('नमक', { bold: true })[0]!.font).toMatch(/devanagari-700-normal\.woff$/)
    expect(textRuns('Total ₹80', { bold: true }).map((r) => [r.text, r.font.replace(/.*\//, '')])).toEqual([
      ['Total ', 'Helvetica-Bold'],
      ['₹', 'noto-sans-devanagari-devanagari-700-normal.woff'],
      ['80', 'Helvetica-Bold'],
    ])
  })

  it('keeps a Latin-only string one Helvetica run', () => {
    expect(textRuns('Invoice no: INV-1')).toEqual([{ text: 'Invoice no: INV-1', font: 'Helvetica', script: null }])
  })
})

describe('drawText', () => {
  it('prints every Indian script and ₹ so that the extracted text is the typed text', async () => {
    const samples = [
      'हिन्दी: क्षत्रिय',
      'বাংলা: ক্ষুধা',
      'ਪੰਜਾਬੀ: ਸ੍ਰੀ',
      'ગુજરાતી: ક્ષમા',
      'ଓଡ଼ିଆ: କ୍ଷମା',
      'தமிழ்: க்ஷேத்திரம்',
      'తెలుగు: క్షమ',
      'ಕನ್ನಡ: ಕ್ಷಮೆ',
      'മലയാളം: ക്ഷമ',
      'Total ₹1,234.50',
    ]
    const pdf = await pdfOf((doc) => {
      for (const s of samples) drawText(doc, s, 36, undefined, { width: 300 })
      drawText(doc, 'ಬೆಂಗಳೂರು ₹99', 36, undefined, { width: 300, align: 'right', bold: true })
    })
    const text = extract(pdf, 'samples')
    for (const s of [...samples, 'ಬೆಂಗಳೂರು ₹99']) expect(text).toContain(s)
  })
})

describe('the invoice PDF', () => {
  it('prints a Devanagari name and address and Tamil and Bengali item names as typed', async () => {
    const pdf = await renderInvoicePdf(invoice)
    const text = extract(pdf, 'invoice')
    expect(text).toContain(NAME)
    expect(text).toContain(ADDRESS)
    expect(text).toContain(`${CITY}, Delhi 110035`)
    expect(text).toContain(TAMIL)
    expect(text).toContain(BENGALI)
    expect(text).toContain('DEL1/26-27/00077')
    // Only the glyphs used are embedded: the three fonts' files alone are 140 KB (about 11 KB measured).
    expect(pdf.length).toBeLessThan(30_000)
  })
})
