/**
 * Credit notes of refunded problem reports (docs/help-after-delivery.md, "Credit notes";
 * docs/decisions/0075-credit-notes-for-problem-reports.md; CGST Rules 2017, rule 53) on a fresh
 * database (PGlite, or PostgreSQL with TEST_DATABASE_URL, where the concurrent approvals really race):
 * a report refunded (automatically or approved; online or as a cash note) gets one credit note in the
 * store's series with its units, value, taxable value and tax exact in paise (a coupon share, the
 * odd paisa of CGST/SGST), the last units take what is left of the line, a later cancel or whole-line
 * note credits only the rest, an order without an invoice gets none, and duplicate approvals one note.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryRows } from '../../db/query.ts'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { createAdmin, type SignedIn } from '../../testing/auth.ts'
import { insertProduct } from '../../testing/fixtures.ts'
import { createShopperWithAddress, payOnline } from '../../testing/orders.ts'
import { testPaymentSettings } from '../payment/settings.ts'
import { createTestProvider } from '../payment/test-provider.ts'

const provider = createTestProvider({ keySecret: 'test-key-secret-0123456789', webhookSecret: 'test-webhook-secret-0123456789' })

let t: TestApp
let admin: SignedIn
let keySeq = 0

beforeAll(async () => {
  t = await createTestApp({ payments: { ...testPaymentSettings(), provider, testProvider: provider } })
  admin = await createAdmin(t)
  provider.setSink(async () => undefined)
})
afterAll(() => t?.close())

type Shopper = SignedIn & { addressId: string }
const paise = (r: number) => Math.round(r * 100)

/** Places an order of `items` (product id, units) by cash on delivery or online (UPI), optionally with a coupon, and marks it delivered. */
async function deliveredOrder(items: [string, number][], opts: { online?: boolean; coupon?: string } = {}) {
  const who: Shopper = await createShopperWithAddress(t)
  for (const [productId, units] of items)
    for (let i = 0; i < units; i++)
      expect((await t.call('cart/create', { method: 'POST', json: { productId }, token: who.token })).status).toBe(200)
  if (opts.coupon) expect((await t.call('cart/coupon', { method: 'POST', json: { code: opts.coupon }, token: who.token })).status).toBe(200)
  const headers = { 'Idempotency-Key': `rcn-${process.pid}-${++keySeq}` }
  let orderId: string
  if (opts.online) {
    orderId = (await payOnline(t, who, provider, headers['Idempotency-Key']))._id
  } else {
    const res = await t.call('order/cash-on-delivery', { method: 'POST', json: { addressId: who.addressId }, token: who.token, headers })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    orderId = res.body.data._id
  }
  await t.db.execute(sql`update orders set status = 'delivered', delivered_at = ${new Date().toISOString()} where id = ${orderId}`)
  const options = await t.call('order-issue/list', { method: 'POST', json: { orderId }, token: who.token })
  const lines = options.body.data.lines as { lineId: string; name: string }[]
  const lineOf = (name: string) => lines.find((l) => l.name === name)!.lineId
  return { who, orderId, lineOf }
}

const report = (who: SignedIn, body: Record<string, unknown>) =>
  t.call('order-issue/report', { method: 'POST', json: body, token: who.token })
const notesOf = async (who: SignedIn, orderId: string) => {
  const res = await t.call('invoice/credit-notes', { method: 'POST', json: { orderId }, token: who.token })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.data as {
    creditNoteNumber: string
    reason: string
    problem?: { issueId: string; kind: string; units: number }
    lines: {
      name: string
      quantity: number
      amount: number
      taxable: number
      cgst: number
      sgst: number
      igst: number
      couponDiscount: number
    }[]
    totals: { taxable: number; cgst: number; sgst: number; tax: number; grandTotal: number }
  }[]
}
const invoiceOf = async (who: SignedIn, orderId: string) =>
  (await t.call('invoice/details', { method: 'POST', json: { orderId }, token: who.token })).body.data
/** A line's figures in paise: units, amount, taxable, CGST, SGST. */
const figures = (l: { quantity: number; amount: number; taxable: number; cgst: number; sgst: number }) => [
  l.quantity,
  paise(l.amount),
  paise(l.taxable),
  paise(l.cgst),
  paise(l.sgst),
]

describe('credit notes of problem reports', () => {
  it('a cash note gets its credit note: exact in paise, the odd paisa alternating; the last units take what is left; a cancel credits the rest', async () => {
    // ₹33.34 × 3 = 10,002 paise at 18 %: the line's tax is round(10,002 × 18/118) = 1,526 (CGST 763, SGST 763), taxable 8,476.
    const dal = await insertProduct(t.db, { name: 'Odd Dal', unit: '1 kg', price: 33.34, sellingPrice: 33.34, stock: 10 })
    const { who, orderId, lineOf } = await deliveredOrder([[dal.id, 3]])
    const invoice = await invoiceOf(who, orderId)
    const invLine = invoice.lines.find((l: { name: string }) => l.name === 'Odd Dal')
    expect(figures(invLine)).toEqual([3, 10002, 8476, 763, 763])

    const first = await report(who, { orderId, lineId: lineOf('Odd Dal'), kind: 'damaged', units: 1 })
    expect(first.body.data).toMatchObject({ status: 'refunded', refundMethod: 'cod_note', value: 33.34 })
    let notes = await notesOf(who, orderId)
    expect(notes).toHaveLength(1)
    expect(notes[0]).toMatchObject({ reason: 'problem_report', problem: { issueId: first.body.data._id, kind: 'damaged', units: 1 } })
    expect(notes[0]!.creditNoteNumber).toMatch(/^[A-Z0-9]{1,4}C\/\d\d-\d\d\/\d{4,}$/)
    // 3,334 paise: tax round(3,334 × 18/118) = 509 (508.58), taxable 2,825, CGST 254 and SGST 255 (the odd paisa to SGST).
    expect(notes[0]!.lines.map(figures)).toEqual([[1, 3334, 2825, 254, 255]])
    expect(paise(notes[0]!.totals.grandTotal)).toBe(3334)
    // The invoice names it, as it names every credit note.
    expect((await invoiceOf(who, orderId)).creditNotes.map((n: { number: string }) => n.number)).toEqual([notes[0]!.creditNoteNumber])

    await report(who, { orderId, lineId: lineOf('Odd Dal'), kind: 'missing', units: 1 })
    notes = await notesOf(who, orderId)
    // The line's credited tax is 1,018 now: CGST 509, SGST 509, so this note's odd paisa goes to CGST.
    expect(notes[1]!.lines.map(figures)).toEqual([[1, 3334, 2825, 255, 254]])
    const numbers = notes.map((n) => Number(n.creditNoteNumber.split('/')[2]))
    expect(numbers[1]).toBe(numbers[0]! + 1)

    // The cancel (as an admin's cancel would) credits what is left of the line: 3,334 with the
    // line's last tax, 508 (not 509), and the delivery charge and the rounding.
    await t.db.execute(sql`update orders set status = 'cancelled', updated_at = now() where id = ${orderId}`)
    notes = await notesOf(who, orderId)
    expect(notes.map((n) => n.reason)).toEqual(['problem_report', 'problem_report', 'cancelled'])
    const rest = notes[2]!.lines.find((l) => l.name === 'Odd Dal')!
    expect(figures(rest)).toEqual([1, 3334, 2826, 254, 254])
    // Every note of the order adds up to its invoice, to the paisa: amount, taxable value and each tax.
    const sum = (pick: (n: (typeof notes)[number]) => number) => notes.reduce((s, n) => s + paise(pick(n)), 0)
    expect(sum((n) => n.totals.grandTotal)).toBe(paise(invoice.totals.grandTotal))
    expect(sum((n) => n.totals.taxable)).toBe(paise(invoice.totals.taxable))
    expect(sum((n) => n.totals.cgst)).toBe(paise(invoice.totals.cgst))
    expect(sum((n) => n.totals.sgst)).toBe(paise(invoice.totals.sgst))
  })

  it('an online refund of a coupon order credits the units’ paid share, the coupon share off before tax; the last units take the rest', async () => {
    const cashews = await insertProduct(t.db, { name: 'Coupon Cashews', price: 300, sellingPrice: 300, stock: 5 })
    const dates = await insertProduct(t.db, { name: 'Coupon Dates', price: 100.01, sellingPrice: 100.01, stock: 5 })
    const { who, orderId, lineOf } = await deliveredOrder(
      [
        [cashews.id, 1],
        [dates.id, 3],
      ],
      { online: true, coupon: 'WELCOME50' },
    )
    const invoice = await invoiceOf(who, orderId)
    const invDates = invoice.lines.find((l: { name: string }) => l.name === 'Coupon Dates')
    // ₹50 off shared by largest remainder over 30,000 and 30,003 paise: 2,500 each.
    expect(paise(invDates.couponDiscount)).toBe(2500)
    // Paid for the line: 30,003 − 2,500 = 27,503; tax round(27,503 × 18/118) = 4,195, taxable 23,308.
    expect(figures(invDates)).toEqual([3, 27503, 23308, 2097, 2098])

    const res = await report(who, { orderId, lineId: lineOf('Coupon Dates'), kind: 'expired', units: 1 })
    expect(res.body.data).toMatchObject({ status: 'refunded', refundMethod: 'online', value: 91.67 })
    const [refund] = await queryRows<{ amount_paise: number; order_line_id: string | null }>(
      t.db,
      sql`select amount_paise, order_line_id from refunds where order_id = ${orderId}`,
    )
    expect(refund).toEqual({ amount_paise: 9167, order_line_id: null })
    let notes = await notesOf(who, orderId)
    expect(notes).toHaveLength(1)
    // 1 unit: floor(27,503 / 3) = 9,167 paise; tax round(9,167 × 18/118) = 1,398 (1,398.36), taxable 7,769;
    // its coupon share 10,001 − 9,167 = 834.
    expect(notes[0]!.lines.map(figures)).toEqual([[1, 9167, 7769, 699, 699]])
    expect(paise(notes[0]!.lines[0]!.couponDiscount)).toBe(834)

    // The last two units: 27,503 − 9,167 = 18,336 paise, and what is left of the tax: 4,195 − 1,398 = 2,797.
    const last = await report(who, { orderId, lineId: lineOf('Coupon Dates'), kind: 'expired', units: 2 })
    expect(last.status).toBe(200)
    expect(last.body.data.value).toBe(183.36)
    // Above the ₹200 per-order cap of automatic refunds (91.67 + 183.36): an admin approves it.
    expect(last.body.data.status).toBe('pending')
    expect((await notesOf(who, orderId)).length).toBe(1)
    expect(
      (
        await t.call('order-issue/decide', {
          method: 'POST',
          json: { issueId: last.body.data._id, decision: 'approve' },
          token: admin.token,
        })
      ).status,
    ).toBe(200)
    notes = await notesOf(who, orderId)
    expect(notes[1]!.lines.map(figures)).toEqual([[2, 18336, 18336 - 2797, 1398, 1399]])
    const credited = notes.reduce((s, n) => s + paise(n.lines[0]!.taxable), 0)
    expect(credited).toBe(paise(invDates.taxable))

    // A whole-line refund of that line now (the refunds trigger's call) credits nothing more; the
    // cancel credits only the cashews, the delivery and the rounding.
    await t.db.execute(sql`select issue_credit_note(${orderId}, ${lineOf('Coupon Dates')}, 'line_refund', now())`)
    await t.db.execute(sql`update orders set status = 'cancelled', updated_at = now() where id = ${orderId}`)
    notes = await notesOf(admin, orderId)
    expect(notes.map((n) => n.reason)).toEqual(['problem_report', 'problem_report', 'line_refund', 'cancelled'])
    expect(notes[2]!.lines.map(figures)).toEqual([[0, 0, 0, 0, 0]])
    expect(notes[3]!.lines.map((l) => l.name)).not.toContain('Coupon Dates')
    expect(notes.reduce((s, n) => s + paise(n.totals.grandTotal), 0)).toBe(paise(invoice.totals.grandTotal))
    expect(notes.reduce((s, n) => s + paise(n.totals.tax), 0)).toBe(paise(invoice.totals.tax))
  })

  it('a whole-line refund after a report credits only the line’s other units', async () => {
    const rice = await insertProduct(t.db, { name: 'Part Rice', price: 60, sellingPrice: 60, stock: 5 })
    const { who, orderId, lineOf } = await deliveredOrder([[rice.id, 4]])
    await report(who, { orderId, lineId: lineOf('Part Rice'), kind: 'missing', units: 1 })
    await t.db.execute(sql`select issue_credit_note(${orderId}, ${lineOf('Part Rice')}, 'line_refund', now())`)
    const notes = await notesOf(who, orderId)
    expect(notes.map((n) => n.reason)).toEqual(['problem_report', 'line_refund'])
    // 24,000 paise: tax 3,661, taxable 20,339; one unit 6,000: tax 915, taxable 5,085; the rest 18,000: tax 2,746.
    expect(notes.map((n) => figures(n.lines[0]!))).toEqual([
      [1, 6000, 5085, 457, 458],
      [3, 18000, 18000 - 2746, 1373, 1373],
    ])
  })

  it('an order without an invoice gets no credit note for its report', async () => {
    const salt = await insertProduct(t.db, { name: 'Plain Salt', price: 20, sellingPrice: 20, stock: 5 })
    const { who, orderId, lineOf } = await deliveredOrder([[salt.id, 2]])
    // An order from before invoices (migration 0026 numbered only those still open): no number.
    await t.db.execute(sql`update orders set invoice_number = null, invoice_issued_at = null where id = ${orderId}`)
    const res = await report(who, { orderId, lineId: lineOf('Plain Salt'), kind: 'missing', units: 1 })
    expect(res.body.data.status).toBe('refunded')
    const [row] = await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from credit_notes where order_id = ${orderId}`)
    expect(row!.n).toBe(0)
  })

  it('a rejected report gets no credit note', async () => {
    const oil = await insertProduct(t.db, { name: 'Dear Oil', price: 450, sellingPrice: 450, stock: 5 })
    const { who, orderId, lineOf } = await deliveredOrder([[oil.id, 1]])
    const pending = await report(who, { orderId, lineId: lineOf('Dear Oil'), kind: 'wrong_item', units: 1 })
    expect(pending.body.data.status).toBe('pending')
    const res = await t.call('order-issue/decide', {
      method: 'POST',
      json: { issueId: pending.body.data._id, decision: 'reject', reason: 'Right item' },
      token: admin.token,
    })
    expect(res.status).toBe(200)
    expect(await notesOf(who, orderId)).toEqual([])
  })
})

describe('races (PostgreSQL: the copies really run at once)', () => {
  it('admins approving one report at once issue one credit note, numbered once', async () => {
    const ghee = await insertProduct(t.db, { name: 'Race Ghee', price: 300, sellingPrice: 300, stock: 5 })
    const { who, orderId, lineOf } = await deliveredOrder([[ghee.id, 2]])
    const pending = await report(who, { orderId, lineId: lineOf('Race Ghee'), kind: 'damaged', units: 1 })
    expect(pending.body.data.status).toBe('pending')
    const admin2 = await createAdmin(t)
    const answers = await Promise.all(
      [admin, admin2, admin, admin2].map((a) =>
        t.call('order-issue/decide', { method: 'POST', json: { issueId: pending.body.data._id, decision: 'approve' }, token: a.token }),
      ),
    )
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409])
    const rows = await queryRows<{ number: string; order_issue_id: string; units: number; amount_paise: number }>(
      t.db,
      sql`select number, order_issue_id, units, amount_paise from credit_notes where order_id = ${orderId}`,
    )
    expect(rows).toEqual([{ number: expect.any(String), order_issue_id: pending.body.data._id, units: 1, amount_paise: 30000 }])
    // Issuing it again (a retried call) changes nothing: once per report.
    await Promise.all([1, 2, 3].map(() => t.db.execute(sql`select issue_report_credit_note(${pending.body.data._id}, now())`)))
    const [count] = await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from credit_notes where order_id = ${orderId}`)
    expect(count!.n).toBe(1)
  })
})
