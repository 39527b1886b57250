/**
 * The cash to collect and cancelling, on a fresh database (PGlite, or PostgreSQL with
 * TEST_DATABASE_URL): a cash-on-delivery grand total is rounded to the nearest rupee with a rounding
 * off in the bill, kept on the order and written in the email, while every other amount keeps its
 * paise (docs/commerce-api.md, "Money"); a cancellation keeps its optional reason (docs/commerce-api.md,
 * "Orders").
 */
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { orders } from '../../db/schema.ts'
import type { MailMessage } from '../../lib/mail.ts'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { createAdmin, createShopper, type SignedIn } from '../../testing/auth.ts'
import { insertProduct } from '../../testing/fixtures.ts'

let t: TestApp
let admin: SignedIn
const sent: MailMessage[] = []

beforeAll(async () => {
  t = await createTestApp({ mailer: { send: async (m) => void sent.push(m) } })
  admin = await createAdmin(t)
})
afterAll(() => t?.close())

const address = { address_line: '12, Old Airport Road', city: 'Bengaluru', state: 'Karnataka', pincode: '560008', mobile: '9845012345' }
let keySeq = 0
const newKey = () => `cash-key-${process.pid}-${++keySeq}`

async function shopperWithAddress(): Promise<SignedIn & { addressId: string }> {
  const who = await createShopper(t)
  const res = await t.call('address/create', { method: 'POST', json: address, token: who.token })
  return { ...who, addressId: res.body.data._id }
}
async function add(who: SignedIn, productId: string, times = 1) {
  for (let i = 0; i < times; i++)
    expect((await t.call('cart/create', { method: 'POST', json: { productId }, token: who.token })).status).toBe(200)
}
const place = (who: SignedIn & { addressId: string }) =>
  t.call('order/cash-on-delivery', {
    method: 'POST',
    json: { addressId: who.addressId },
    token: who.token,
    headers: { 'Idempotency-Key': newKey() },
  })
/** The mail about `orderId`, once the jobs due (the order emails) ran. */
const mailOf = async (orderId: string) => {
  await t.deps.jobs.drain()
  return sent.find((m) => m.subject.includes(orderId))
}

describe('the cash to collect', () => {
  it('is rounded up to the rupee (₹255.81 → ₹256) with "Rounding off" in the bill, the row and the email; the items total keeps its paise', async () => {
    const ghee = await insertProduct(t.db, { name: 'Cow Ghee', unit: '500 ml', price: 300, sellingPrice: 255.81, stock: 10 })
    const who = await shopperWithAddress()
    await add(who, ghee.id)
    // The cart, and so the checkout, shows the total the order will ask for.
    const cart = await t.call('cart/get', { token: who.token })
    expect(cart.body.bill).toMatchObject({ itemsTotal: 255.81, deliveryCharge: 0, roundingOff: 0.19, grandTotal: 256 })

    const res = await place(who)
    expect(res.status).toBe(201)
    const order = res.body.data
    expect(order.bill).toMatchObject({ itemsTotal: 255.81, deliveryCharge: 0, roundingOff: 0.19, grandTotal: 256 })
    expect(order.subTotalAmt).toBe(255.81)
    expect(order.totalAmt).toBe(256)
    expect(order.items[0]).toMatchObject({ price: 255.81, lineTotal: 255.81 })

    const [row] = await t.db.select().from(orders).where(eq(orders.id, order._id))
    expect(row).toMatchObject({ itemsTotalPaise: 25581, deliveryChargePaise: 0, roundingPaise: 19, grandTotalPaise: 25600 })

    const mail = (await mailOf(order.orderId))!
    expect(mail.text).toContain('1 × Cow Ghee (500 ml): ₹255.81')
    expect(mail.text).toContain('Items total: ₹255.81')
    expect(mail.text).toContain('Rounding off: +₹0.19')
    expect(mail.text).toContain('To pay on delivery (cash): ₹256\n')
    expect(mail.text).not.toContain('₹255.81 in cash')
  })

  it('is rounded down below 50 paise (₹199.31 → ₹199) and up from 50 paise with the delivery charge (₹28.50 + ₹25 → ₹54)', async () => {
    const dal = await insertProduct(t.db, { name: 'Toor Dal', price: 220, sellingPrice: 199.31, stock: 10 })
    const down = await shopperWithAddress()
    await add(down, dal.id)
    const low = (await place(down)).body.data
    expect(low.bill).toMatchObject({ itemsTotal: 199.31, deliveryCharge: 0, roundingOff: -0.31, grandTotal: 199 })
    expect((await mailOf(low.orderId))!.text).toContain('Rounding off: −₹0.31')

    const salt = await insertProduct(t.db, { name: 'Rock Salt', price: 30, sellingPrice: 28.5, stock: 10 })
    const up = await shopperWithAddress()
    await add(up, salt.id)
    const half = (await place(up)).body.data
    expect(half.bill).toMatchObject({ itemsTotal: 28.5, deliveryCharge: 25, roundingOff: 0.5, grandTotal: 54 })
  })

  it('has no rounding line when the total is whole rupees', async () => {
    const rice = await insertProduct(t.db, { name: 'Sona Masoori Rice', price: 250, sellingPrice: 240, stock: 10 })
    const who = await shopperWithAddress()
    await add(who, rice.id)
    const order = (await place(who)).body.data
    expect(order.bill).toMatchObject({ roundingOff: 0, grandTotal: 240 })
    expect((await mailOf(order.orderId))!.text).not.toContain('Rounding off')
  })

  it('answers what the order stored, not a recomputation: an order placed before rounding keeps its paise total', async () => {
    const jam = await insertProduct(t.db, { name: 'Mixed Fruit Jam', price: 260, sellingPrice: 255.81, stock: 10 })
    const who = await shopperWithAddress()
    await add(who, jam.id)
    const placed = (await place(who)).body.data
    // An order of the days before rounding: no rounding, the grand total in paise.
    await t.db.update(orders).set({ roundingPaise: 0, grandTotalPaise: 25581 }).where(eq(orders.id, placed._id))
    const seen = (await t.call('order/details', { method: 'POST', json: { orderId: placed._id }, token: who.token })).body.data
    expect(seen.bill).toMatchObject({ itemsTotal: 255.81, roundingOff: 0, grandTotal: 255.81 })
    expect(seen.totalAmt).toBe(255.81)
  })
})

describe('cancelling with a reason', () => {
  const cancel = (who: SignedIn, json: object) => t.call('order/cancel', { method: 'POST', json, token: who.token })
  const update = (json: object) => t.call('order/update-status', { method: 'PUT', json, token: admin.token })
  const reasonInDb = async (id: string) =>
    (await t.db.select({ reason: orders.cancelReason }).from(orders).where(eq(orders.id, id)))[0]!.reason

  it('keeps the shopper’s reason on the order (trimmed); no reason or a blank one is none', async () => {
    const tea = await insertProduct(t.db, { name: 'Assam Tea', price: 150, stock: 20 })
    const who = await shopperWithAddress()
    await add(who, tea.id)
    const first = (await place(who)).body.data
    expect(first.cancelReason).toBeNull()
    const res = await cancel(who, { orderId: first._id, reason: '  Ordered by mistake\nwill order again  ' })
    expect(res.status).toBe(200)
    expect(res.body.data.cancelReason).toBe('Ordered by mistake\nwill order again')
    expect(await reasonInDb(first._id)).toBe('Ordered by mistake\nwill order again')
    const listed = (await t.call('order/order-list', { token: who.token })).body.data
    expect(listed.find((o: { _id: string }) => o._id === first._id).cancelReason).toBe('Ordered by mistake\nwill order again')

    await add(who, tea.id)
    const second = (await place(who)).body.data
    expect((await cancel(who, { orderId: second._id, reason: '   ' })).body.data.cancelReason).toBeNull()
    await add(who, tea.id)
    const third = (await place(who)).body.data
    expect((await cancel(who, { orderId: third._id })).body.data.cancelReason).toBeNull()
  })

  it('refuses a reason that is too long or not plain text (400), and cancels nothing', async () => {
    const tea = await insertProduct(t.db, { name: 'Nilgiri Tea', price: 150, stock: 20 })
    const who = await shopperWithAddress()
    await add(who, tea.id)
    const order = (await place(who)).body.data
    for (const reason of ['x'.repeat(301), 'bell\u0007', 42]) {
      const res = await cancel(who, { orderId: order._id, reason })
      expect(res.status).toBe(400)
      expect(res.body.issues[0].path).toBe('reason')
    }
    const seen = (await t.call('order/details', { method: 'POST', json: { orderId: order._id }, token: who.token })).body.data
    expect(seen.status).toBe('placed')
  })

  it('keeps an admin’s reason for a cancellation, and no reason for another status', async () => {
    const tea = await insertProduct(t.db, { name: 'Darjeeling Tea', price: 350, stock: 20 })
    const who = await shopperWithAddress()
    await add(who, tea.id, 2)
    const order = (await place(who)).body.data
    const packed = await update({ orderId: order._id, status: 'packed', version: order.version, reason: 'not a cancellation' })
    expect(packed.status).toBe(200)
    expect(packed.body.data.cancelReason).toBeNull()
    const cancelled = await update({
      orderId: order._id,
      status: 'cancelled',
      version: packed.body.data.version,
      reason: 'Address unreachable',
    })
    expect(cancelled.status).toBe(200)
    expect(cancelled.body.data.cancelReason).toBe('Address unreachable')
    const seen = (await t.call('order/details', { method: 'POST', json: { orderId: order._id }, token: who.token })).body.data
    expect(seen.cancelReason).toBe('Address unreachable')
  })
})
