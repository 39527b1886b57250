/**
 * A tip for the delivery partner and delivery instructions at placement (docs/commerce-api.md, "Tip
 * and delivery instructions"): stored and answered, in the grand total to the paisa; refused on the
 * field when out of bounds (400); a tip that is not the one the bill showed refused with 409 and the
 * bill with it, as a stale coupon; the tip remembered for the next checkout; the original client
 * unchanged; the tax invoice leaves the tip out; the admin's CSV has it before the fees. Test products at ₹150
 * (MRP ₹180).
 */
import { parse } from 'csv-parse/sync'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { orders, users } from '../../db/schema.ts'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { createAdmin, type SignedIn } from '../../testing/auth.ts'
import { insertProduct } from '../../testing/fixtures.ts'
import { createShopperWithAddress } from '../../testing/orders.ts'
import { INSTRUCTIONS_NOTE_MAX } from '../../../contract/tip.ts'
import type { MailMessage } from '../../lib/mail.ts'

let t: TestApp
let admin: SignedIn
let seq = 0
const sent: MailMessage[] = []

beforeAll(async () => {
  t = await createTestApp({ mailer: { send: async (m) => void sent.push(m) } })
  admin = await createAdmin(t)
})
afterAll(() => t?.close())

type Buyer = SignedIn & { addressId: string }

async function buyer(units: number): Promise<Buyer> {
  const dal = await insertProduct(t.db, { name: `Toor Dal ${++seq}`, unit: '1 kg', price: 180, sellingPrice: 150, stock: 100 })
  const who = await createShopperWithAddress(t)
  for (let i = 0; i < units; i++)
    expect((await t.call('cart/create', { method: 'POST', json: { productId: dal.id }, token: who.token })).status).toBe(200)
  return who
}
const place = (who: Buyer, json: Record<string, unknown> = {}) =>
  t.call('order/cash-on-delivery', {
    method: 'POST',
    json: { addressId: who.addressId, ...json },
    token: who.token,
    headers: { 'Idempotency-Key': `tip-${process.pid}-${++seq}` },
  })
const prefs = async (who: SignedIn) => (await t.call('order/checkout-preferences', { token: who.token })).body.data

describe('a tip and delivery instructions at placement', () => {
  it('are stored and answered; the grand total includes the tip to the paisa; the tip is remembered', async () => {
    const who = await buyer(1)
    expect(await prefs(who)).toEqual({ tip: 0 })
    const placed = await place(who, {
      tip: 20,
      shownTip: 20,
      deliveryInstructions: { chips: ['pet_at_home', 'leave_at_door', 'leave_at_door'], note: '  Gate code 4521  ' },
    })
    expect(placed.status).toBe(201)
    const order = placed.body.data
    // ₹150 + delivery (below free delivery) + ₹20 tip; whole rupees, so no rounding moves.
    expect(order.bill).toMatchObject({ itemsTotal: 150, tip: 20, roundingOff: 0 })
    expect(order.bill.grandTotal).toBe(150 + order.bill.deliveryCharge + 20)
    expect(order.totalAmt).toBe(order.bill.grandTotal)
    expect(order.bill.totalSavings).toBe(30 + (order.bill.deliveryCharge === 0 ? t.deps.commerce.deliveryChargePaise / 100 : 0))
    // Chips each once, in the chips' order; the text trimmed.
    expect(order.deliveryInstructions).toEqual({ chips: ['leave_at_door', 'pet_at_home'], note: 'Gate code 4521' })
    const [row] = await t.db.select().from(orders).where(eq(orders.id, order._id))
    expect(row!.tipPaise).toBe(2000)
    expect(row!.grandTotalPaise).toBe(15000 + row!.deliveryChargePaise + 2000)
    expect(await prefs(who)).toEqual({ tip: 20 })
    // The confirmation email names the tip, so its lines add up to what is paid.
    await t.deps.jobs.drain()
    expect(sent.find((m) => m.text.includes(order.orderId))?.text).toContain('Delivery partner tip: ₹20')
    // The admin reads the same order with them.
    const seen = await t.call('order/details', { method: 'POST', json: { orderId: order._id }, token: admin.token })
    expect(seen.body.data).toMatchObject({ bill: { tip: 20 }, deliveryInstructions: { chips: ['leave_at_door', 'pet_at_home'] } })

    // The next order without a tip, shown none: remembered as none.
    await t.call('cart/create', { method: 'POST', json: { productId: order.items[0].productId }, token: who.token })
    const none = await place(who, { shownTip: 0, deliveryInstructions: { chips: [], note: '  ' } })
    expect(none.status).toBe(201)
    expect(none.body.data.bill.tip).toBeUndefined()
    expect(none.body.data.deliveryInstructions).toBeUndefined()
    expect(await prefs(who)).toEqual({ tip: 0 })
  })

  it('out-of-bounds tips and instructions are 400 on the field, nothing ordered', async () => {
    const who = await buyer(1)
    const cases: [Record<string, unknown>, string][] = [
      [{ tip: 0 }, 'tip'],
      [{ tip: 201 }, 'tip'],
      [{ tip: 10.5 }, 'tip'],
      [{ tip: '20' }, 'tip'],
      [{ shownTip: -1 }, 'shownTip'],
      [{ deliveryInstructions: { chips: [], note: 'x'.repeat(INSTRUCTIONS_NOTE_MAX + 1) } }, 'deliveryInstructions.note'],
      [{ deliveryInstructions: { chips: [], note: 'ring\u0007' } }, 'deliveryInstructions.note'],
      [{ deliveryInstructions: { chips: ['shout'], note: '' } }, 'deliveryInstructions.chips.0'],
    ]
    for (const [body, path] of cases) {
      const res = await place(who, body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.issues.map((i: { path: string }) => i.path)).toContain(path)
    }
    // 120 characters exactly is fine.
    const ok = await place(who, { tip: 200, shownTip: 200, deliveryInstructions: { note: 'y'.repeat(INSTRUCTIONS_NOTE_MAX) } })
    expect(ok.status).toBe(201)
    expect(ok.body.data.bill.tip).toBe(200)
  })

  it('a tip that is not the one the bill showed is 409 with the bill as it would be; that bill then places', async () => {
    const who = await buyer(2)
    const stale = await place(who, { tip: 30, shownTip: 10 })
    expect(stale.status).toBe(409)
    expect(stale.body.bill).toMatchObject({ itemsTotal: 300, tip: 30 })
    expect(stale.body.coupon).toBeUndefined()
    expect(stale.body.message).toBe(
      `With your tip of ₹30 the total is ₹${stale.body.bill.grandTotal}. Check the bill and place the order again.`,
    )
    const dropped = await place(who, { shownTip: 10 })
    expect(dropped.status).toBe(409)
    expect(dropped.body.message).toMatch(/^Without a tip the total is ₹/)
    expect(dropped.body.bill.tip).toBeUndefined()
    // Nothing was ordered: the cart is whole.
    expect((await t.call('cart/get', { token: who.token })).body.data).toHaveLength(1)
    const placed = await place(who, { tip: 30, shownTip: 30 })
    expect(placed.status).toBe(201)
    expect(placed.body.data.bill.grandTotal).toBe(stale.body.bill.grandTotal)
  })

  it('with a coupon: the tip is added after the discount; a stale tip answers the coupon too', async () => {
    const who = await buyer(2)
    expect((await t.call('cart/coupon', { method: 'POST', json: { code: 'WELCOME50' }, token: who.token })).status).toBe(200)
    const stale = await place(who, { couponDiscount: 50, tip: 10, shownTip: 0 })
    expect(stale.status).toBe(409)
    expect(stale.body.coupon).toMatchObject({ code: 'WELCOME50', applied: true })
    expect(stale.body.bill).toMatchObject({ couponDiscount: 50, tip: 10 })
    const placed = await place(who, { couponDiscount: 50, tip: 10, shownTip: 10 })
    expect(placed.status).toBe(201)
    const bill = placed.body.data.bill
    expect(bill.grandTotal).toBe(300 + bill.deliveryCharge - 50 + 10 + bill.roundingOff)
    // The tax invoice leaves the tip out: its total is the bill less the tip, its taxable value the goods'.
    const invoice = await t.call('invoice/details', { method: 'POST', json: { orderId: placed.body.data._id }, token: who.token })
    expect(invoice.status).toBe(200)
    const totals = invoice.body.data.totals
    expect(totals).toMatchObject({ itemsTotal: 300, couponDiscount: 50, grandTotal: bill.grandTotal - 10 })
    expect(Math.round((totals.amount + totals.rounding) * 100)).toBe(Math.round((bill.grandTotal - 10) * 100))
    expect(invoice.body.data.lines.map((l: { kind: string }) => l.kind)).not.toContain('tip')
    // Cancelled: its credit note reverses the invoice, the tip left out as there.
    expect((await t.call('order/cancel', { method: 'POST', json: { orderId: placed.body.data._id }, token: who.token })).status).toBe(200)
    const notes = await t.call('invoice/credit-notes', { method: 'POST', json: { orderId: placed.body.data._id }, token: who.token })
    expect(notes.status).toBe(200)
    expect(notes.body.data[0].totals.grandTotal).toBe(totals.grandTotal)
  })

  it('the original client (no tip fields) places as before and leaves the remembered tip alone', async () => {
    const who = await buyer(1)
    await t.db.update(users).set({ lastTipPaise: 3000 }).where(eq(users.id, who.user.id))
    const placed = await place(who, { list_items: [], subTotalAmt: 150, totalAmt: 150 })
    expect(placed.status).toBe(201)
    expect(placed.body.data.bill.tip).toBeUndefined()
    expect(placed.body.data.deliveryInstructions).toBeUndefined()
    expect(placed.body.data.bill.grandTotal).toBe(150 + placed.body.data.bill.deliveryCharge)
    expect(await prefs(who)).toEqual({ tip: 30 })
    expect((await t.call('order/checkout-preferences')).status).toBe(401)
  })

  it('the same placement sent 8 times at once: one order, its tip counted once (PostgreSQL: really concurrent)', async () => {
    const who = await buyer(1)
    const key = `tip-race-${process.pid}-${++seq}`
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        t.call('order/cash-on-delivery', {
          method: 'POST',
          json: { addressId: who.addressId, tip: 30, shownTip: 30 },
          token: who.token,
          headers: { 'Idempotency-Key': key },
        }),
      ),
    )
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 201])
    const ids = new Set(results.map((r) => r.body.data._id))
    expect(ids.size).toBe(1)
    const rows = await t.db.select().from(orders).where(eq(orders.userId, who.user.id))
    expect(rows).toHaveLength(1)
    expect(rows[0]!.tipPaise).toBe(3000)
    expect(rows[0]!.grandTotalPaise).toBe(15000 + rows[0]!.deliveryChargePaise + 3000)
  })

  it('the packing slip carries the instructions', async () => {
    const who = await buyer(1)
    const placed = await place(who, { deliveryInstructions: { chips: ['no_bell'], note: 'Baby sleeping' } })
    expect(placed.status).toBe(201)
    const slips = await t.call('order/admin/packing-slips', {
      method: 'POST',
      json: { orderIds: [placed.body.data._id] },
      token: admin.token,
    })
    expect(slips.status).toBe(200)
    expect(slips.body.data[0].deliveryInstructions).toEqual({ chips: ['no_bell'], note: 'Baby sleeping' })
  })

  it("the admin's orders CSV has the tip before the fees", async () => {
    const who = await buyer(1)
    const placed = await place(who, { tip: 25, shownTip: 25 })
    expect(placed.status).toBe(201)
    const res = await t.app.request(`/api/order/admin/export?q=${placed.body.data.orderId}`, {
      headers: { Authorization: `Bearer ${admin.token}` },
    })
    expect(res.status).toBe(200)
    const [header, ...rows] = parse((await res.text()).replace(/^\uFEFF/, '')) as string[][]
    // The tip, then the three fee columns (docs/commerce-api.md, "Fees"), then the delivery failure (docs/delivery.md).
    const tip = header!.indexOf('Tip (₹)')
    expect(tip).toBe(header!.length - 5)
    expect(rows.map((r) => r[tip])).toEqual(['25.00'])
  })
})
