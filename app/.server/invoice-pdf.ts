/**
 * Renders an order's tax invoice and its credit notes as PDFs with pdfkit (pdfkit docs, "Getting
 * Started"; docs/commerce-api.md, "Tax invoice"; CGST Rules 2017, rules 46 and 53 for what each
 * states). Everything printed comes from the API (app/.server/api/invoice.ts): this module lays it
 * out and adds nothing up except the per-rate summary, summed in integer paise. A4, the standard
 * Helvetica font for our own labels (its WinAnsi encoding has no rupee sign, so amounts say "Rs");
 * what a shopper or an operator typed (names, addresses, product names) goes through
 * app/.server/pdf-fonts.ts, which prints every Indian script in its Noto font.
 * `compress: false` leaves the text readable in the file (tests look for it).
 */
import PDFDocument from 'pdfkit'
import type { CreditNote, Invoice } from './api/invoice.ts'
import { drawText, heightOfText } from './pdf-fonts.ts'
import { floorText } from '../../contract/address.ts'
import { ISSUE_KIND_LABELS } from '../../contract/order-issue.ts'

/** The two weights the documents use. */
type Weight = 'regular' | 'bold'

/** Sets the font of what is written next: the standard Helvetica of `weight` at `size` points. */
function setFont(doc: PDFKit.PDFDocument, weight: Weight, size?: number): PDFKit.PDFDocument {
  doc.font(weight === 'bold' ? 'Helvetica-Bold' : 'Helvetica')
  return size === undefined ? doc : doc.fontSize(size)
}

const MARGIN = 36
const MONEY = new Intl.NumberFormat('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 })
const DAY = new Intl.DateTimeFormat('en-IN', { day: '2-digit', month: 'short', year: 'numeric', timeZone: 'UTC' })

/** Rupees as printed: `1,23,456.70` (Indian digit grouping, two decimals). */
export function formatRupees(rupees: number): string {
  return MONEY.format(rupees)
}

/** A rate as printed: `5%`, `12.5%`. */
function formatRate(percent: number): string {
  return `${percent}%`
}

/** The file name the browser offers: `invoice-<order number>.pdf`. */
export function invoiceFileName(invoice: Pick<Invoice, 'orderId'>): string {
  return `invoice-${invoice.orderId.replace(/[^A-Za-z0-9_-]/g, '')}.pdf`
}

/** The file name of a credit note: `credit-note-<number with / as ->.pdf`. */
export function creditNoteFileName(note: Pick<CreditNote, 'creditNoteNumber'>): string {
  return `credit-note-${note.creditNoteNumber.replace(/\//g, '-').replace(/[^A-Za-z0-9_-]/g, '')}.pdf`
}

/** Taxable value, CGST, SGST and IGST per GST rate (rupees), summed in paise; rates ascending. */
export function taxByRate(invoice: Pick<Invoice, 'lines'>): { rate: number; taxable: number; cgst: number; sgst: number; igst: number }[] {
  const byRate = new Map<number, { taxable: number; cgst: number; sgst: number; igst: number }>()
  const paise = (r: number) => Math.round(r * 100)
  for (const l of invoice.lines) {
    const row = byRate.get(l.gstRate) ?? { taxable: 0, cgst: 0, sgst: 0, igst: 0 }
    row.taxable += paise(l.taxable)
    row.cgst += paise(l.cgst)
    row.sgst += paise(l.sgst)
    row.igst += paise(l.igst)
    byRate.set(l.gstRate, row)
  }
  return [...byRate.entries()]
    .sort(([a], [b]) => a - b)
    .map(([rate, r]) => ({ rate, taxable: r.taxable / 100, cgst: r.cgst / 100, sgst: r.sgst / 100, igst: r.igst / 100 }))
}

interface Column {
  title: string
  width: number
  align: 'left' | 'right'
}

/** The line table's columns, 523 points wide (A4 less the margins): CGST and SGST, or IGST between States. */
function columns(interState: boolean): Column[] {
  const head: Column[] = [
    { title: '#', width: 16, align: 'left' },
    { title: 'Item', width: 113, align: 'left' },
    { title: 'HSN', width: 38, align: 'left' },
    { title: 'Qty', width: 20, align: 'right' },
    { title: 'MRP', width: 40, align: 'right' },
    { title: 'Discount', width: 38, align: 'right' },
    { title: 'Price', width: 40, align: 'right' },
    { title: 'GST', width: 24, align: 'right' },
    { title: 'Taxable', width: 46, align: 'right' },
  ]
  const tax: Column[] = interState
    ? [{ title: 'IGST', width: 72, align: 'right' }]
    : [
        { title: 'CGST', width: 36, align: 'right' },
        { title: 'SGST', width: 36, align: 'right' },
      ]
  return [...head, ...tax, { title: 'Amount', width: 76, align: 'right' }]
}
const GAP = 3

/** What the layout prints of an invoice or a credit note. */
interface TaxDocument {
  title: string
  /** "Invoice no: …", "Invoice date: …" and the like, top right. */
  facts: string[]
  /** A line printed large under the title (a cancelled invoice's notice), or null. */
  banner: string | null
  seller: Invoice['seller']
  buyer: Invoice['buyer']
  placeOfSupply: Invoice['placeOfSupply']
  interState: boolean
  lines: Invoice['lines']
  totals: Invoice['totals']
  amountInWords: string
  /** A line after the totals, outside them (the invoice's tip), or null. */
  afterTotals: string | null
  footer: string
  info: { Title: string; Subject: string }
}

/**
 * The invoice as a PDF document (a Buffer starting `%PDF`). `compress` (default true) deflates the
 * page contents; false keeps the text searchable in the raw file. A cancelled order's invoice says
 * CANCELLED (a failed delivery's DELIVERY FAILED) and names the credit note that cancels it.
 */
export function renderInvoicePdf(invoice: Invoice, opts: { compress?: boolean } = {}): Promise<Buffer> {
  const cancelNote = invoice.creditNotes.find((n) => n.reason === 'cancelled')
  // A failed delivery is reversed as a cancellation is (docs/delivery.md, "Could not deliver").
  const ended = invoice.status === 'cancelled' ? 'CANCELLED' : invoice.status === 'delivery_failed' ? 'DELIVERY FAILED' : null
  const banner = ended
    ? `${ended}${cancelNote ? `: reversed by credit note ${cancelNote.number} of ${printDate(cancelNote.date)}` : ''}`
    : null
  const others = invoice.creditNotes.filter((n) => n !== cancelNote).map((n) => n.number)
  return renderTaxDocument(
    {
      title: 'TAX INVOICE',
      facts: [
        `Invoice no: ${invoice.invoiceNumber}`,
        `Invoice date: ${printDate(invoice.invoiceDate)}`,
        `Order no: ${invoice.orderId}`,
        `Payment: ${invoice.paymentMethod}`,
      ],
      banner,
      seller: invoice.seller,
      buyer: invoice.buyer,
      placeOfSupply: invoice.placeOfSupply,
      interState: invoice.interState,
      lines: invoice.lines,
      totals: invoice.totals,
      amountInWords: invoice.amountInWords,
      // The tip is not the store's supply: after the tax invoice's totals and outside them
      // (docs/decisions/0070-tip-and-delivery-instructions.md).
      afterTotals: invoice.tip
        ? `Tip for your delivery partner (collected on their behalf; not a supply, outside GST): Rs ${formatRupees(invoice.tip)}. ` +
          `Paid with the order: Rs ${formatRupees(invoice.totals.grandTotal + invoice.tip)}.`
        : null,
      footer:
        `Payment: ${invoice.paymentMethod}. Tax payable on reverse charge: No.` +
        (others.length > 0 ? ` Credit notes issued against this invoice: ${others.join(', ')}.` : ''),
      info: { Title: `Tax invoice ${invoice.invoiceNumber}`, Subject: `Order ${invoice.orderId}` },
    },
    opts,
  )
}

/**
 * Why a credit note was issued, as its banner says: "Order cancelled", "Item refunded: not
 * delivered", or for a problem report's note "Problem reported: damaged (2 units)"
 * (docs/help-after-delivery.md, "Credit notes").
 */
export function creditNoteBanner(note: Pick<CreditNote, 'reason' | 'problem'>): string {
  if (note.reason === 'cancelled') return 'Order cancelled'
  if (note.reason === 'problem_report' && note.problem)
    return `Problem reported: ${ISSUE_KIND_LABELS[note.problem.kind].toLowerCase()} (${note.problem.units} ${note.problem.units === 1 ? 'unit' : 'units'})`
  if (note.reason === 'problem_report') return 'Problem reported'
  return 'Item refunded: not delivered'
}

/** A credit note as a PDF document (CGST Rules 2017, rule 53): like the invoice, naming the invoice it reverses. */
export function renderCreditNotePdf(note: CreditNote, opts: { compress?: boolean } = {}): Promise<Buffer> {
  return renderTaxDocument(
    {
      title: 'CREDIT NOTE',
      facts: [
        `Credit note no: ${note.creditNoteNumber}`,
        `Credit note date: ${printDate(note.creditNoteDate)}`,
        `Against invoice: ${note.invoiceNumber}`,
        `Invoice date: ${printDate(note.invoiceDate)}`,
        `Order no: ${note.orderId}`,
      ],
      banner: creditNoteBanner(note),
      seller: note.seller,
      buyer: note.buyer,
      placeOfSupply: note.placeOfSupply,
      interState: note.interState,
      lines: note.lines,
      totals: note.totals,
      amountInWords: note.amountInWords,
      afterTotals: null,
      footer:
        note.reason === 'problem_report'
          ? `Reduces the value of the supply above of tax invoice ${note.invoiceNumber}, with the tax charged on it.`
          : `Reverses the supplies above of tax invoice ${note.invoiceNumber}, with the tax charged on them.`,
      info: { Title: `Credit note ${note.creditNoteNumber}`, Subject: `Order ${note.orderId}` },
    },
    opts,
  )
}

/** YYYY-MM-DD as printed: `26 Nov 2026`. */
function printDate(isoDay: string): string {
  const [y, m, d] = isoDay.split('-').map(Number)
  return DAY.format(new Date(Date.UTC(y!, m! - 1, d!)))
}

function renderTaxDocument(invoice: TaxDocument, opts: { compress?: boolean }): Promise<Buffer> {
  const COLUMNS = columns(invoice.interState)
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    compress: opts.compress ?? true,
    info: { ...invoice.info, Author: invoice.seller.name },
  })
  const chunks: Buffer[] = []
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk))
    doc.on('end', () => resolve(Buffer.concat(chunks)))
    doc.on('error', reject)
  })
  const left = MARGIN
  const width = doc.page.width - 2 * MARGIN
  const bottom = () => doc.page.height - MARGIN

  // Header: the seller (legal name, the store, its registered address and GSTIN), then the number and date.
  setFont(doc, 'bold', 16).text(invoice.title, left, MARGIN, { width, align: 'right' })
  doc.moveUp()
  drawText(setFont(doc, 'bold', 13), invoice.seller.name, left, MARGIN, { width: width * 0.6, bold: true })
  drawText(
    setFont(doc, 'regular', 9),
    [invoice.seller.storeName ? `Store: ${invoice.seller.storeName}` : '', invoice.seller.address].filter(Boolean).join('\n'),
    undefined,
    undefined,
    { width: width * 0.6 },
  )
  setFont(doc, 'bold').text(`GSTIN: ${invoice.seller.gstin}`, { width: width * 0.6 })
  setFont(doc, 'regular').text(`State: ${invoice.seller.state.name} (${invoice.seller.state.code})`, { width: width * 0.6 })
  const afterSeller = doc.y
  setFont(doc, 'regular', 9).text(invoice.facts.join('\n'), left + width * 0.6, MARGIN + 22, { width: width * 0.4, align: 'right' })
  doc.y = Math.max(afterSeller, doc.y) + 10
  if (invoice.banner) {
    setFont(doc, 'bold', 12).fillColor('#b91c1c').text(invoice.banner, left, doc.y, { width })
    doc.fillColor('black').moveDown(0.4)
    setFont(doc, 'regular', 9)
  }

  // The buyer and the place of supply.
  const a = invoice.buyer.address
  setFont(doc, 'bold').text('Bill to / Ship to', left, doc.y, { width })
  setFont(doc, 'regular')
  for (const text of [
    invoice.buyer.name,
    // Floor and landmark (migration 0031) when the order's address has them.
    floorText(a.floor),
    a.address_line,
    a.landmark ? `Landmark: ${a.landmark}` : '',
    `${a.city}, ${a.state} ${a.pincode}`,
    a.country,
    a.mobile ? `Mobile: ${a.mobile}` : '',
  ]) {
    if (text) drawText(doc, text, left, undefined, { width })
  }
  const place = invoice.placeOfSupply
  drawText(doc, `Place of supply: ${place.name}${place.code ? ` (${place.code})` : ''}`, left, undefined, { width })
  doc.text(invoice.interState ? 'Inter-State supply: IGST' : 'Intra-State supply: CGST + SGST', left, undefined, { width })
  doc.moveDown(0.8)

  // The lines.
  const drawRow = (cells: string[], bold: boolean) => {
    setFont(doc, bold ? 'bold' : 'regular', 7.5)
    const heights = cells.map((cell, i) => heightOfText(doc, cell, { width: COLUMNS[i]!.width - GAP, bold }))
    const height = Math.max(...heights) + 4
    if (doc.y + height > bottom()) {
      doc.addPage()
      if (!bold)
        drawRow(
          COLUMNS.map((c) => c.title),
          true,
        )
    }
    const top = doc.y
    let x = left
    cells.forEach((cell, i) => {
      const col = COLUMNS[i]!
      drawText(doc, cell, x, top + 2, { width: col.width - GAP, align: col.align, bold })
      x += col.width
    })
    doc
      .moveTo(left, top + height)
      .lineTo(left + width, top + height)
      .lineWidth(bold ? 0.8 : 0.3)
      .stroke('#999999')
    doc.x = left
    doc.y = top + height
  }
  drawRow(
    COLUMNS.map((c) => c.title),
    true,
  )
  invoice.lines.forEach((l, i) => {
    // A coupon's share is taken off before tax (docs/offers.md, "Refunds"): said under the item, its
    // taxable value and amount already net of it.
    const coupon = l.couponDiscount > 0 ? `Coupon - ${formatRupees(l.couponDiscount)} (before tax)` : ''
    const item = [l.name, [l.unit, l.subCategory].filter(Boolean).join(' · '), coupon].filter(Boolean).join('\n')
    drawRow(
      [
        String(i + 1),
        item,
        l.hsn ?? '',
        String(l.quantity),
        formatRupees(l.mrp),
        formatRupees(l.discount),
        formatRupees(l.price),
        formatRate(l.gstRate),
        formatRupees(l.taxable),
        ...(invoice.interState ? [formatRupees(l.igst)] : [formatRupees(l.cgst), formatRupees(l.sgst)]),
        formatRupees(l.amount),
      ],
      false,
    )
  })

  // Tax by rate and the bill.
  const t = invoice.totals
  const summary: [string, string][] = [
    ['Total MRP', formatRupees(t.mrp)],
    ['Discount', `- ${formatRupees(t.discount)}`],
    ['Items total (incl. GST)', formatRupees(t.itemsTotal)],
    ...(t.couponDiscount > 0 ? [['Coupon discount (before tax)', `- ${formatRupees(t.couponDiscount)}`] as [string, string]] : []),
    ['Delivery charge (incl. GST)', formatRupees(t.deliveryCharge)],
    ...(t.fees > 0 ? [['Fees (incl. GST)', formatRupees(t.fees)] as [string, string]] : []),
    ['Taxable value', formatRupees(t.taxable)],
    ...(invoice.interState
      ? [['IGST', formatRupees(t.igst)] as [string, string]]
      : [['CGST', formatRupees(t.cgst)] as [string, string], ['SGST', formatRupees(t.sgst)] as [string, string]]),
    ['Total (incl. GST)', formatRupees(t.amount)],
    ['Rounding', `${t.rounding < 0 ? '- ' : ''}${formatRupees(Math.abs(t.rounding))}`],
    ['Grand total (Rs)', formatRupees(t.grandTotal)],
  ]
  const rates = taxByRate(invoice)
  const blockHeight = Math.max(summary.length, rates.length + 2) * 12 + 60
  if (doc.y + blockHeight > bottom()) doc.addPage()
  const blockTop = doc.y + 10
  setFont(doc, 'bold', 8).text('GST by rate', left, blockTop, { width: 240 })
  setFont(doc, 'regular', 8)
  const rateRows = [
    invoice.interState ? ['Rate', 'Taxable', 'IGST'] : ['Rate', 'Taxable', 'CGST', 'SGST'],
    ...rates.map((r) => [
      formatRate(r.rate),
      formatRupees(r.taxable),
      ...(invoice.interState ? [formatRupees(r.igst)] : [formatRupees(r.cgst), formatRupees(r.sgst)]),
    ]),
  ]
  for (const cells of rateRows) {
    const rowTop = doc.y
    cells.forEach((cell, i) => doc.text(cell, left + i * 60, rowTop, { width: 56, align: i === 0 ? 'left' : 'right' }))
    doc.x = left
    doc.y = rowTop + 11
  }
  const rightLeft = left + width - 230
  doc.y = blockTop
  summary.forEach(([label, value], i) => {
    const last = i === summary.length - 1
    const rowTop = doc.y
    setFont(doc, last ? 'bold' : 'regular', last ? 10 : 8.5)
    doc.text(label, rightLeft, rowTop, { width: 150 })
    doc.text(value, rightLeft + 150, rowTop, { width: 80, align: 'right' })
    doc.y = rowTop + (last ? 14 : 12)
  })
  doc.moveDown(0.5)
  setFont(doc, 'bold', 8.5).text(`Amount in words: ${invoice.amountInWords}`, left, doc.y, { width })
  if (invoice.afterTotals) {
    doc.moveDown(0.5)
    setFont(doc, 'regular', 8.5).text(invoice.afterTotals, left, doc.y, { width })
  }
  doc.moveDown(1)
  setFont(doc, 'regular', 7.5).text(
    `Amounts in rupees (Rs). Prices include GST; each line's tax is its amount x rate / (100 + rate), ` +
      (invoice.interState ? 'all of it IGST (inter-State supply). ' : 'split equally into CGST and SGST. ') +
      `${invoice.footer} This is a computer-generated document and needs no signature.`,
    left,
    doc.y,
    { width },
  )
  doc.end()
  return done
}
