/**
 * Renders an order's tax invoice as a PDF with pdfkit (pdfkit docs, "Getting Started"; docs/commerce-api.md,
 * "Tax invoice"). Everything printed comes from the API's invoice (app/.server/api/invoice.ts): this
 * module lays it out and adds nothing up except the per-rate summary, summed in integer paise. A4,
 * the standard Helvetica font (its WinAnsi encoding has no rupee sign, so amounts say "Rs"); what a
 * shopper or an operator typed (names, addresses, product names) goes through app/.server/pdf-fonts.ts,
 * which prints every Indian script in its Noto font.
 * `compress: false` leaves the text readable in the file (tests look for it).
 */
import PDFDocument from 'pdfkit'
import type { Invoice } from './api/invoice.ts'
import { drawText, heightOfText } from './pdf-fonts.ts'

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

/** Taxable value, CGST and SGST per GST rate (rupees), summed in paise; rates ascending. */
export function taxByRate(invoice: Pick<Invoice, 'lines'>): { rate: number; taxable: number; cgst: number; sgst: number }[] {
  const byRate = new Map<number, { taxable: number; cgst: number; sgst: number }>()
  const paise = (r: number) => Math.round(r * 100)
  for (const l of invoice.lines) {
    const row = byRate.get(l.gstRate) ?? { taxable: 0, cgst: 0, sgst: 0 }
    row.taxable += paise(l.taxable)
    row.cgst += paise(l.cgst)
    row.sgst += paise(l.sgst)
    byRate.set(l.gstRate, row)
  }
  return [...byRate.entries()]
    .sort(([a], [b]) => a - b)
    .map(([rate, r]) => ({ rate, taxable: r.taxable / 100, cgst: r.cgst / 100, sgst: r.sgst / 100 }))
}

interface Column {
  title: string
  width: number
  align: 'left' | 'right'
}

/** The line table: 523 points wide (A4 less the margins). */
const COLUMNS: Column[] = [
  { title: '#', width: 16, align: 'left' },
  { title: 'Item', width: 139, align: 'left' },
  { title: 'Qty', width: 22, align: 'right' },
  { title: 'MRP', width: 40, align: 'right' },
  { title: 'Discount', width: 40, align: 'right' },
  { title: 'Price', width: 40, align: 'right' },
  { title: 'GST', width: 26, align: 'right' },
  { title: 'Taxable', width: 46, align: 'right' },
  { title: 'CGST', width: 38, align: 'right' },
  { title: 'SGST', width: 38, align: 'right' },
  { title: 'Amount', width: 48, align: 'right' },
]
const GAP = 3

/**
 * The invoice as a PDF document (a Buffer starting `%PDF`). `compress` (default true) deflates the
 * page contents; false keeps the text searchable in the raw file.
 */
export function renderInvoicePdf(invoice: Invoice, opts: { compress?: boolean } = {}): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    compress: opts.compress ?? true,
    info: { Title: `Tax invoice ${invoice.invoiceNumber}`, Author: invoice.seller.name, Subject: `Order ${invoice.orderId}` },
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

  // Header: the seller, then the invoice's number and date.
  doc.font('Helvetica-Bold').fontSize(16).text('TAX INVOICE', left, MARGIN, { width, align: 'right' })
  drawText(doc.moveUp().fontSize(13), invoice.seller.name, left, MARGIN, { width: width * 0.6, bold: true })
  drawText(doc.fontSize(9), invoice.seller.address, undefined, undefined, { width: width * 0.6 })
  doc.font('Helvetica-Bold').text(`GSTIN: ${invoice.seller.gstin}`, { width: width * 0.6 })
  const afterSeller = doc.y
  const [y, m, d] = invoice.invoiceDate.split('-').map(Number)
  doc
    .font('Helvetica')
    .fontSize(9)
    .text(
      [
        `Invoice no: ${invoice.invoiceNumber}`,
        `Invoice date: ${DAY.format(new Date(Date.UTC(y!, m! - 1, d!)))}`,
        `Order no: ${invoice.orderId}`,
        `Payment: ${invoice.paymentMethod}`,
      ].join('\n'),
      left + width * 0.6,
      MARGIN + 22,
      { width: width * 0.4, align: 'right' },
    )
  doc.y = Math.max(afterSeller, doc.y) + 10

  // The buyer and the place of supply.
  const a = invoice.buyer.address
  doc.font('Helvetica-Bold').text('Bill to / Ship to', left, doc.y, { width })
  for (const text of [
    invoice.buyer.name,
    a.address_line,
    `${a.city}, ${a.state} ${a.pincode}`,
    a.country,
    a.mobile ? `Mobile: ${a.mobile}` : '',
  ]) {
    if (text) drawText(doc, text, left, undefined, { width })
  }
  drawText(doc, `Place of supply: ${a.state}`, left, undefined, { width })
  doc.moveDown(0.8)

  // The lines.
  const drawRow = (cells: string[], bold: boolean) => {
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(7.5)
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
    const item = [l.name, [l.unit, l.subCategory].filter(Boolean).join(' · ')].filter(Boolean).join('\n')
    drawRow(
      [
        String(i + 1),
        item,
        String(l.quantity),
        formatRupees(l.mrp),
        formatRupees(l.discount),
        formatRupees(l.price),
        formatRate(l.gstRate),
        formatRupees(l.taxable),
        formatRupees(l.cgst),
        formatRupees(l.sgst),
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
    ['Delivery charge (incl. GST)', formatRupees(t.deliveryCharge)],
    ['Taxable value', formatRupees(t.taxable)],
    ['CGST', formatRupees(t.cgst)],
    ['SGST', formatRupees(t.sgst)],
    ['Total (incl. GST)', formatRupees(t.amount)],
    ['Rounding', `${t.rounding < 0 ? '- ' : ''}${formatRupees(Math.abs(t.rounding))}`],
    ['Grand total (Rs)', formatRupees(t.grandTotal)],
  ]
  const rates = taxByRate(invoice)
  const blockHeight = Math.max(summary.length, rates.length + 2) * 12 + 60
  if (doc.y + blockHeight > bottom()) doc.addPage()
  const blockTop = doc.y + 10
  doc.font('Helvetica-Bold').fontSize(8).text('GST by rate', left, blockTop, { width: 240 })
  doc.font('Helvetica').fontSize(8)
  for (const r of [{ rate: 'Rate', taxable: 'Taxable', cgst: 'CGST', sgst: 'SGST' }, ...rates]) {
    const rowTop = doc.y
    const cells =
      typeof r.rate === 'string'
        ? [r.rate, r.taxable, r.cgst, r.sgst].map(String)
        : [formatRate(r.rate), formatRupees(Number(r.taxable)), formatRupees(Number(r.cgst)), formatRupees(Number(r.sgst))]
    cells.forEach((cell, i) => doc.text(cell, left + i * 60, rowTop, { width: 56, align: i === 0 ? 'left' : 'right' }))
    doc.x = left
    doc.y = rowTop + 11
  }
  const rightLeft = left + width - 230
  doc.y = blockTop
  summary.forEach(([label, value], i) => {
    const last = i === summary.length - 1
    const rowTop = doc.y
    doc.font(last ? 'Helvetica-Bold' : 'Helvetica').fontSize(last ? 10 : 8.5)
    doc.text(label, rightLeft, rowTop, { width: 150 })
    doc.text(value, rightLeft + 150, rowTop, { width: 80, align: 'right' })
    doc.y = rowTop + (last ? 14 : 12)
  })
  doc.moveDown(1.5)
  doc
    .font('Helvetica')
    .fontSize(7.5)
    .text(
      `Amounts in rupees (Rs). Prices include GST; each line's tax is its amount x rate / (100 + rate), split equally into CGST and SGST. ` +
        `Payment: ${invoice.paymentMethod}. Tax payable on reverse charge: No. This is a computer-generated invoice and needs no signature.`,
      left,
      doc.y,
      { width },
    )
  doc.end()
  return done
}
