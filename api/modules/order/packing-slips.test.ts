/**
 * Packing slips (docs/commerce-api.md, "Packing slips") on a fresh database (PGlite, or PostgreSQL
 * with TEST_DATABASE_URL): POST /api/order/admin/packing-slips answers one store's packed orders only,
 * oldest first, each line with its aisle and in pick order; or the orders named, with the refs not
 * found; ADMIN and STAFF only, a staff member in their own store only; bad input is a 400 naming the field; an unknown store a 404. The pick
 * order rule itself (pure) is tested with it.
 */
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { orders, users } from '../../db/schema.ts'
import { OTHER_STORE } from '../../lib/auth.ts'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { createAdmin, createShopper, createStaff, type SignedIn } from '../../testing/auth.ts'
import { insertCategory, insertProduct, insertSubCategory } from '../../testing/fixtures.ts'
import { pickOrder, SLIPS_NEED_ONE } from './packing-slips.ts'

let t: TestApp
let admin: SignedIn
let shopper: SignedIn & { addressId: string }
const productIds: Record<string, string> = {}
let keySeq = 0

beforeAll(async () => {
  t = await createTestApp()
  admin = await createAdmin(t)
  const staples = await insertCategory(t.db, { name: 'Staples' })
  const dairy = await insertCategory(t.db, { name: 'Dairy & Eggs' })
  const dals = await insertSubCategory(t.db, { name: 'Dals & Pulses', categoryIds: [staples.id] })
  const rice = await insertSubCategory(t.db, { name: 'Rice', categoryIds: [staples.id] })
  const milk = await insertSubCategory(t.db, { name: 'Milk', categoryIds: [dairy.id] })
  const curd = await insertSubCategory(t.db, { name: 'Curd', categoryIds: [dairy.id] })
  const products = [
    { name: 'Toor Dal', categoryIds: [staples.id], subCategoryIds: [dals.id] },
    { name: 'Basmati Rice', categoryIds: [staples.id], subCategoryIds: [rice.id] },
    { name: 'Zebra Candles' },
    { name: 'Amul Taaza Milk', categoryIds: [dairy.id], subCategoryIds: [milk.id] },
    { name: 'Masoor Dal', categoryIds: [staples.id], subCategoryIds: [dals.id] },
    // Two categories: its first by position (Dairy) is its aisle.
    { name: 'Mishti Doi', categoryIds: [dairy.id, staples.id], subCategoryIds: [curd.id] },
  ]
  for (const p of products) productIds[p.name] = (await insertProduct(t.db, { ...p, price: 50, stock: 100 })).id
  const who = await createShopper(t)
  const address = { address_line: '12, MG Road', city: 'Bengaluru', state: 'Karnataka', pincode: '560038', mobile: '9845012345' }
  shopper = { ...who, addressId: (await t.call('address/create', { method: 'POST', json: address, token: who.token })).body.data._id }
})
afterAll(() => t?.close())

/** Places an order of `names` (in that order) and moves it to `status`. */
async function order(names: string[], status: 'placed' | 'packed' = 'packed'): Promise<{ _id: string; orderId: string }> {
  for (const name of names) await t.call('cart/create', { method: 'POST', json: { productId: productIds[name] }, token: shopper.token })
  const res = await t.call('order/cash-on-delivery', {
    method: 'POST',
    json: { addressId: shopper.addressId },
    token: shopper.token,
    headers: { 'Idempotency-Key': `slips-${process.pid}-${++keySeq}` },
  })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  if (status === 'packed')
    expect(
      (await t.call('order/update-status', { method: 'PUT', json: { orderId: res.body.data._id, status }, token: admin.token })).status,
    ).toBe(200)
  return res.body.data
}

const slips = (json: unknown, token = admin.token) => t.call('order/admin/packing-slips', { method: 'POST', json, token })
const STORE = 'storeBlrIndiranagar'

describe('pick order', () => {
  it('sorts by category, then sub category, then product name; lines without an aisle last; stable', () => {
    const line = (name: string, category: string | null, subCategory: string | null) => ({ name, category, subCategory })
    const lines = [
      line('Toor Dal', 'Staples', 'Dals'),
      line('candles', null, null),
      line('Amul Milk', 'dairy', 'Milk'),
      line('Atta 10 kg', 'Staples', 'Atta'),
      line('Atta 2 kg', 'Staples', 'Atta'),
      line('Curd', 'Dairy', 'Curd'),
      line('Ágar', null, null),
    ]
    expect(pickOrder(lines).map((l) => l.name)).toEqual(['Curd', 'Amul Milk', 'Atta 2 kg', 'Atta 10 kg', 'Toor Dal', 'Ágar', 'candles'])
    // A new array: the order's own lines keep their order.
    expect(lines[0]!.name).toBe('Toor Dal')
    const same = [line('b', 'X', 'Y'), line('B', 'X', 'Y')]
    expect(pickOrder(same)).toEqual(same)
  })
})

describe('POST /api/order/admin/packing-slips', () => {
  let first: { _id: string; orderId: string }
  let second: { _id: string; orderId: string }
  let waiting: { _id: string; orderId: string }

  beforeAll(async () => {
    first = await order(['Toor Dal', 'Zebra Candles', 'Amul Taaza Milk', 'Basmati Rice', 'Mishti Doi', 'Masoor Dal'])
    waiting = await order(['Toor Dal'], 'placed')
    second = await order(['Basmati Rice', 'Amul Taaza Milk'])
    // The first is the older.
    await t.db
      .update(orders)
      .set({ createdAt: new Date('2026-11-20T10:00:00Z') })
      .where(eq(orders.id, first._id))
  })

  it("answers one store's packed orders only, oldest first, lines in pick order with their aisles", async () => {
    const res = await slips({ storeId: STORE })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.data.map((o: { orderId: string }) => o.orderId)).toEqual([first.orderId, second.orderId])
    expect(res.body.totalCount).toBe(2)
    expect(res.body.missing).toEqual([])
    const lines = res.body.data[0].items
    expect(lines.map((l: { name: string }) => l.name)).toEqual([
      'Mishti Doi',
      'Amul Taaza Milk',
      'Masoor Dal',
      'Toor Dal',
      'Basmati Rice',
      'Zebra Candles',
    ])
    expect(lines[0]).toMatchObject({ category: 'Dairy & Eggs', subCategory: 'Curd', quantity: 1 })
    expect(lines[5]).toMatchObject({ category: null, subCategory: null })
    expect(res.body.data[0].customer).toBeDefined()
    // The placed order is not among them; another store has none.
    expect(res.body.data.map((o: { _id: string }) => o._id)).not.toContain(waiting._id)
    const other = await slips({ storeId: 'storeBlrKoramangala' })
    expect(other.status).toBe(200)
    expect(other.body).toMatchObject({ data: [], totalCount: 0 })
  })

  it('answers the orders named, in the order named, whatever their status, with the refs not found', async () => {
    const res = await slips({ orderIds: [waiting.orderId, first._id, 'OD0000000000', waiting._id] })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.data.map((o: { _id: string }) => o._id)).toEqual([waiting._id, first._id, waiting._id])
    expect(res.body.missing).toEqual(['OD0000000000'])
  })

  it("a staff member prints their own store's slips only: another store is a 403, another store's order not found", async () => {
    const staffOf = async (storeId: string) => {
      const who = await createStaff(t)
      await t.db.update(users).set({ storeId }).where(eq(users.id, who.user.id))
      return who
    }
    const own = await staffOf(STORE)
    const other = await staffOf('storeBlrKoramangala')
    expect((await slips({ storeId: STORE }, own.token)).body.totalCount).toBe(2)
    const refused = await slips({ storeId: STORE }, other.token)
    expect(refused.status).toBe(403)
    expect(refused.body.message).toBe(OTHER_STORE)
    const named = await slips({ orderIds: [first._id] }, other.token)
    expect(named.status).toBe(200)
    expect(named.body).toMatchObject({ data: [], missing: [first._id] })
    expect((await slips({ orderIds: [first._id] }, own.token)).body.data).toHaveLength(1)
  })

  it('is for ADMIN and STAFF only', async () => {
    expect((await slips({ storeId: STORE }, (await createStaff(t)).token)).status).toBe(200)
    expect((await slips({ storeId: STORE }, shopper.token)).status).toBe(403)
    expect((await t.call('order/admin/packing-slips', { method: 'POST', json: { storeId: STORE } })).status).toBe(401)
  })

  it('refuses bad input with a 400 naming it, and an unknown store with a 404', async () => {
    for (const body of [{}, { storeId: STORE, orderIds: [first._id] }, { orderIds: [] }]) {
      const res = await slips(body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.message).toContain(SLIPS_NEED_ONE)
    }
    const many = await slips({ orderIds: Array.from({ length: 101 }, (_, i) => `OD${i}`) })
    expect(many.status).toBe(400)
    expect(many.body.message).toContain('at most 100')
    expect((await slips({ storeId: 42 })).status).toBe(400)
    expect((await slips('not json')).status).toBe(400)
    const unknown = await slips({ storeId: 'noSuchStore' })
    expect(unknown.status).toBe(404)
    expect(unknown.body.message).toBe('Store not found')
  })
})
