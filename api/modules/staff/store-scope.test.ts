/**
 * A staff member works in their own dark store (docs/product.md, "Staff"), on a fresh database
 * (PGlite, or PostgreSQL with TEST_DATABASE_URL):
 *
 * - the order desk (list, both exports) shows their store's orders only, whatever store the request
 *   names; naming another store is a 403;
 * - another store's order cannot be moved (404 alone, a refused outcome in a bulk change);
 * - another store's stock can be read but not changed (403 on the stock edit and the CSV import);
 * - a staff account without a store and an admin run every store, as before.
 */
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { users } from '../../db/schema.ts'
import { OTHER_STORE } from '../../lib/auth.ts'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { createAdmin, createStaff, type SignedIn } from '../../testing/auth.ts'
import { SEEDED_DEFAULT_STORE, insertProduct, stockIn } from '../../testing/fixtures.ts'
import { placeTestOrder } from '../../testing/orders.ts'

const KORAMANGALA = 'storeBlrKoramangala'

let t: TestApp
let admin: SignedIn
/** Staff of the store that delivers the test orders (Indiranagar). */
let own: SignedIn
/** Staff of another store (Koramangala). */
let other: SignedIn
/** Staff with no store (an account made before stores were assigned). */
let unassigned: SignedIn
let order: { _id: string; orderId: string; version: number }

const inStore = async (who: SignedIn, storeId: string | null) => {
  await t.db.update(users).set({ storeId }).where(eq(users.id, who.user.id))
}

beforeAll(async () => {
  t = await createTestApp()
  admin = await createAdmin(t)
  own = await createStaff(t)
  other = await createStaff(t)
  unassigned = await createStaff(t)
  await inStore(own, SEEDED_DEFAULT_STORE)
  await inStore(other, KORAMANGALA)
  ;({ order } = await placeTestOrder(t))
}, 180_000)
afterAll(() => t?.close())

const listed = async (who: SignedIn, json: Record<string, unknown> = {}) => {
  const res = await t.call('order/admin-list', { method: 'POST', json: { limit: 50, ...json }, token: who.token })
  return {
    status: res.status,
    message: res.body.message as string,
    numbers: ((res.body.data ?? []) as { orderId: string }[]).map((o) => o.orderId),
  }
}
const exported = async (who: SignedIn, path: string) => {
  const res = await t.app.request(`/api/order/${path}`, { headers: { Authorization: `Bearer ${who.token}` } })
  return { status: res.status, text: await res.text() }
}

describe('the order desk of a staff member', () => {
  it('lists and exports their store only; another store named is a 403', async () => {
    expect((await listed(own)).numbers).toContain(order.orderId)
    expect((await listed(other)).numbers).not.toContain(order.orderId)
    const named = await listed(other, { store: SEEDED_DEFAULT_STORE })
    expect(named.status).toBe(403)
    expect(named.message).toBe(OTHER_STORE)
    expect((await listed(other, { store: KORAMANGALA })).status).toBe(200)
    for (const path of ['admin/export', 'admin/export/lines']) {
      expect((await exported(own, path)).text).toContain(order.orderId)
      expect((await exported(other, path)).text).not.toContain(order.orderId)
      expect((await exported(other, `${path}?store=${SEEDED_DEFAULT_STORE}`)).status).toBe(403)
    }
  })

  it('an admin and a staff account without a store see every store', async () => {
    expect((await listed(admin)).numbers).toContain(order.orderId)
    expect((await listed(unassigned)).numbers).toContain(order.orderId)
  })

  it("cannot move another store's order, alone or in bulk; their own store's moves", async () => {
    const alone = await t.call('order/update-status', {
      method: 'PUT',
      json: { orderId: order._id, status: 'packed' },
      token: other.token,
    })
    expect(alone.status).toBe(404)
    const bulk = await t.call('order/bulk-status', {
      method: 'POST',
      json: { orderIds: [order._id], status: 'packed' },
      token: other.token,
    })
    expect(bulk.status).toBe(200)
    expect(bulk.body).toMatchObject({ moved: 0, refused: 1 })
    const moved = await t.call('order/update-status', {
      method: 'PUT',
      json: { orderId: order._id, status: 'packed' },
      token: own.token,
    })
    expect(moved.status, JSON.stringify(moved.body)).toBe(200)
    expect(moved.body.data.status).toBe('packed')
  })
})

describe("another store's stock", () => {
  it('is read, not changed: the edit and the CSV import are 403, their own store is changed', async () => {
    const product = await insertProduct(t.db, { name: 'Scope Test Rice', unit: '1 kg', price: 90, sellingPrice: 80, stock: 4 })
    const read = await t.call('inventory/product', { method: 'POST', json: { productId: product.id }, token: other.token })
    expect(read.status).toBe(200)
    const edit = (storeId: string) =>
      t.call('inventory/update', { method: 'PUT', json: { rows: [{ storeId, productId: product.id, stock: 9 }] }, token: other.token })
    const refused = await edit(SEEDED_DEFAULT_STORE)
    expect(refused.status).toBe(403)
    expect(refused.body.message).toBe(OTHER_STORE)
    expect(await stockIn(t.db, product.id, SEEDED_DEFAULT_STORE)).toBe(4)
    expect((await edit(KORAMANGALA)).status).toBe(200)
    expect(await stockIn(t.db, product.id, KORAMANGALA)).toBe(9)
    const form = () => {
      const f = new FormData()
      f.append('file', new File(['sku,stock\n'], 'stock.csv', { type: 'text/csv' }))
      return f
    }
    for (const path of ['inventory/import', 'inventory/import/apply']) {
      const res = await t.call(`${path}?storeId=${SEEDED_DEFAULT_STORE}`, { method: 'POST', body: form(), token: other.token })
      expect(res.status, path).toBe(403)
    }
  })
})
