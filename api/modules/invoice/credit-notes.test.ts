/**
 * Which orders have a tax invoice, and the credit notes (CGST Rules 2017, rules 46 and 53;
 * docs/decisions/0042-invoice-and-credit-note-numbering.md) on a fresh database (PGlite, or
 * PostgreSQL with TEST_DATABASE_URL), through the test payment provider: an order awaiting its
 * online payment, or whose payment never completed, has no invoice (409); a paid one is invoiced at
 * payment, a Delhi store delivering to Karnataka charges IGST; cancelling an invoiced order issues a
 * credit note naming the invoice and reversing its remaining lines, delivery and rounding; refunding a
 * line issues one for that line, with the invoice's tax split; the invoice of a cancelled order names
 * its credit note.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryRows } from '../../db/query.ts'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { createAdmin, createShopper, type SignedIn } from '../../testing/auth.ts'
import { insertProduct } from '../../testing/fixtures.ts'
import { createShopperWithAddress } from '../../testing/orders.ts'
import { expireReservations } from '../payment/service.ts'
import { testPaymentSettings } from '../payment/settings.ts'
import { createTestProvider } from '../payment/test-provider.ts'
import { NOT_INVOICED_PENDING, NOT_INVOICED_UNPAID } from './service.ts'

const provider = createTestProvider({ keySecret: 'test-key-secret-0123456789', webhookSecret: 'test-webhook-secret-0123456789' })
const RESERVATION_MS = 15 * 60_000

let t: TestApp
let admin: SignedIn
let offset = 0
let keySeq = 0

beforeAll(async () => {
  t = await createTestApp({
    clock: () => new Date(Date.now() + offset),
    payments: { ...testPaymentSettings(), provider, testProvider: provider, reservationMs: RESERVATION_MS },
  })
  admin = await createAdmin(t)
  provider.setSink(async () => undefined)
})
afterAll(() => t?.close())

type Shopper = SignedIn & { addressId: string }
const shopper = () => createShopperWithAddress(t)
const add = async (who: SignedIn, productId: string) =>
  expect((await t.call('cart/create', { method: 'POST', json: { productId }, token: who.token })).status).toBe(200)
const startOnline = async (who: Shopper) =>
  (
    await t.call('payment/start', {
      method: 'POST',
      json: {
        addressId: who.addressId,
        method: 'upi',
        callbackUrl: 'http://shop.test/checkout/payment/callback',
        cancelUrl: 'http://shop.test/checkout',
      },
      token: who.token,
      headers: { 'Idempotency-Key': `cn-pay-${process.pid}-${++keySeq}` },
    })
  ).body.data
const placeCod = async (who: Shopper) => {
  const res = await t.call('order/cash-on-delivery', {
    method: 'POST',
    json: { addressId: who.addressId },
    token: who.token,
    headers: { 'Idempotency-Key': `cn-cod-${process.pid}-${++keySeq}` },
  })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body.data as { _id: string; orderId: string }
}
const invoiceOf = (who: SignedIn, orderId: string) => t.call('invoice/details', { method: 'POST', json: { orderId }, token: who.token })
const creditNotesOf = (who: SignedIn, orderId: string) =>
  t.call('invoice/credit-notes', { method: 'POST', json: { orderId }, token: who.token })
const paise = (r: number) => Math.round(r * 100)

describe('which orders have an invoice', () => {
  it('an order awaiting its online payment has none (409), nor one whose payment never completed', async () => {
    const p = await insertProduct(t.db, { name: 'Cashews', price: 450, sellingPrice: 450, stock: 5 })
    const who = await shopper()
    await add(who, p.id)
    const { order } = await startOnline(who)
    const waiting = await invoiceOf(who, order._id)
    expect(waiting.status).toBe(409)
    expect(waiting.body.message).toBe(NOT_INVOICED_PENDING)
    expect((await creditNotesOf(who, order._id)).status).toBe(409)
    offset = RESERVATION_MS + 60_000
    try {
      await expireReservations(t.deps)
    } finally {
      offset = 0
    }
    const expired = await invoiceOf(who, order._id)
    expect(expired.status).toBe(409)
    expect(expired.body.message).toBe(NOT_INVOICED_UNPAID)
    expect((await invoiceOf(admin, order._id)).status).toBe(409)
  })

  it('a paid order is invoiced at payment in the store’s series', async () => {
    const p = await insertProduct(t.db, { name: 'Almonds', price: 300, sellingPrice: 300, stock: 5 })
    const who = await shopper()
    await add(who, p.id)
    const { order, checkout } = await startOnline(who)
    await t.call('payment/callback', { method: 'POST', json: await provider.complete(checkout.providerOrderId, 'captured') })
    const res = await invoiceOf(who, order._id)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.data.invoiceNumber).toMatch(/^BLR1\/[0-9]{2}-[0-9]{2}\/[0-9]{5}$/)
    expect(res.body.data.creditNotes).toEqual([])
  })
})

describe('credit notes', () => {
  it('cancelling an invoiced COD order issues one credit note reversing the whole invoice; the invoice names it', async () => {
    const a = await insertProduct(t.db, { name: 'Ghee', price: 655.55, sellingPrice: 655.55, stock: 5 })
    const who = await shopper()
    await add(who, a.id)
    const order = await placeCod(who)
    const invoice = (await invoiceOf(who, order._id)).body.data
    expect((await creditNotesOf(who, order._id)).body.data).toEqual([])
    expect((await t.call('order/cancel', { method: 'POST', json: { orderId: order._id }, token: who.token })).status).toBe(200)
    const notes = (await creditNotesOf(who, order._id)).body.data
    expect(notes).toHaveLength(1)
    const [note] = notes
    expect(note.creditNoteNumber).toMatch(/^BLR1C\/[0-9]{2}-[0-9]{2}\/[0-9]{4}$/)
    expect(note.creditNoteNumber.length).toBeLessThanOrEqual(16)
    expect(note).toMatchObject({
      reason: 'cancelled',
      invoiceNumber: invoice.invoiceNumber,
      invoiceDate: invoice.invoiceDate,
      interState: false,
      seller: invoice.seller,
    })
    expect(note.lines).toEqual(invoice.lines)
    expect(note.totals).toEqual(invoice.totals)
    expect(note.amountInWords).toBe(invoice.amountInWords)
    const after = (await invoiceOf(who, order._id)).body.data
    expect(after.status).toBe('cancelled')
    expect(after.creditNotes).toEqual([{ number: note.creditNoteNumber, date: note.creditNoteDate, reason: 'cancelled' }])
    // Another shopper sees neither.
    const other = await createShopper(t)
    expect((await creditNotesOf(other, order._id)).status).toBe(404)
  })

  it('refunding a line issues its credit note (same tax split); a later cancel reverses only the rest', async () => {
    const a = await insertProduct(t.db, { name: 'Walnuts', price: 300, sellingPrice: 300, stock: 3 })
    const b = await insertProduct(t.db, { name: 'Raisins', price: 105, sellingPrice: 105, stock: 3 })
    const who = await shopper()
    await add(who, a.id)
    await add(who, b.id)
    const { order, checkout } = await startOnline(who)
    await t.call('payment/callback', { method: 'POST', json: await provider.complete(checkout.providerOrderId, 'captured') })
    const invoice = (await invoiceOf(who, order._id)).body.data
    const refunded = await t.call('payment/refund-line', {
      method: 'POST',
      json: { orderId: order._id, productId: b.id },
      token: admin.token,
    })
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(200)
    const [line] = (await creditNotesOf(admin, order._id)).body.data
    expect(line).toMatchObject({ reason: 'line_refund', invoiceNumber: invoice.invoiceNumber })
    const raisins = invoice.lines.find((l: { name: string }) => l.name === 'Raisins')
    expect(line.lines).toEqual([raisins])
    expect(paise(line.totals.grandTotal)).toBe(10500)
    expect(paise(line.totals.taxable) + paise(line.totals.cgst) + paise(line.totals.sgst)).toBe(10500)
    const [stored] = await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from credit_notes where order_id = ${order._id}`)
    expect(stored!.n).toBe(1)

    expect((await t.call('order/cancel', { method: 'POST', json: { orderId: order._id }, token: who.token })).status).toBe(200)
    const notes = (await creditNotesOf(who, order._id)).body.data
    expect(notes.map((n: { reason: string }) => n.reason)).toEqual(['line_refund', 'cancelled'])
    const cancel = notes[1]
    expect(cancel.lines.map((l: { name: string }) => l.name)).not.toContain('Raisins')
    // The two credit notes add up to the invoice, to the paisa.
    expect(paise(line.totals.grandTotal) + paise(cancel.totals.grandTotal)).toBe(paise(invoice.totals.grandTotal))
    expect(paise(line.totals.taxable) + paise(cancel.totals.taxable)).toBe(paise(invoice.totals.taxable))
    const numbers = notes.map((n: { creditNoteNumber: string }) => Number(n.creditNoteNumber.split('/')[2]))
    expect(numbers[1]).toBe(numbers[0] + 1)
  })

  it('an order from a Delhi store to a Karnataka address charges IGST, on its invoice and its credit note', async () => {
    const p = await insertProduct(t.db, { name: 'Basmati', price: 236, sellingPrice: 236, stock: 5 })
    const who = await shopper()
    await add(who, p.id)
    const order = await placeCod(who)
    // Delivered by a Delhi store (as if placed there): the invoice is issued again in its series.
    await t.db.execute(
      sql`update orders set store_id = 'storeDelHauzKhas', invoice_number = null, invoice_supplier = null where id = ${order._id}`,
    )
    await t.db.execute(sql`update orders set status = status where id = ${order._id}`)
    const invoice = (await invoiceOf(who, order._id)).body.data
    expect(invoice.invoiceNumber).toMatch(/^DEL2\//)
    expect(invoice.seller).toMatchObject({ gstin: '07AAAAA0000A1Z4', state: { code: '07', name: 'Delhi' } })
    expect(invoice.placeOfSupply).toEqual({ code: '29', name: 'Karnataka' })
    expect(invoice.interState).toBe(true)
    expect(invoice.totals.cgst + invoice.totals.sgst).toBe(0)
    expect(paise(invoice.totals.igst)).toBe(paise(invoice.totals.tax))
    expect(paise(invoice.totals.igst)).toBeGreaterThan(0)
    expect((await t.call('order/cancel', { method: 'POST', json: { orderId: order._id }, token: who.token })).status).toBe(200)
    const [note] = (await creditNotesOf(who, order._id)).body.data
    expect(note.creditNoteNumber).toMatch(/^DEL2C\//)
    expect(note.interState).toBe(true)
    expect(note.totals.igst).toBe(invoice.totals.igst)
  })
})
