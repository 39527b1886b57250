/**
 * Dark stores on a fresh database (PGlite, or PostgreSQL with TEST_DATABASE_URL): serviceability by
 * pincode and coordinates, per-store stock in every product answer, the order taken from the
 * store's own stock (a race in one store never touches another's), the out-of-area and closed-store
 * refusals, the promised time kept on the order, location change fitting a cart, a saved address
 * as the location, the admin's order list by store and late, and the admin routes (docs/stores.md).
 */
import { and, desc, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auditLog, type Product } from '../../db/schema.ts'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { createAdmin, createShopper, createStaff, type SignedIn } from '../../testing/auth.ts'
import { SEEDED_DEFAULT_STORE, insertProduct, setStockIn, stockIn } from '../../testing/fixtures.ts'

const KORAMANGALA = 'storeBlrKoramangala'
let t: TestApp
let admin: SignedIn
let rice: Product
let dal: Product
let now = new Date('2026-11-26T06:30:00Z') // 12:00 in India

beforeAll(async () => {
  t = await createTestApp({ clock: () => now })
  admin = await createAdmin(t)
  rice = await insertProduct(t.db, { name: 'Sona Masoori Rice', price: 90, stock: 5, storeStock: { [KORAMANGALA]: 0 } })
  dal = await insertProduct(t.db, { name: 'Toor Dal', price: 150, stock: 2, storeStock: { [KORAMANGALA]: 40 } })
})
afterAll(() => t?.close())

const resolve = (query: string) => t.call(`location/resolve?${query}`)
const inStore = (storeId: string) => ({ 'X-Store-Id': storeId })
let keySeq = 0

async function shopperAt(pincode: string): Promise<SignedIn & { addressId: string }> {
  const who = await createShopper(t)
  const res = await t.call('address/create', {
    method: 'POST',
    json: { address_line: '1, Main Road', city: 'Bengaluru', state: 'Karnataka', pincode, mobile: '9845012345' },
    token: who.token,
  })
  return { ...who, addressId: res.body.data._id }
}
const add = (who: SignedIn, productId: string, storeId = SEEDED_DEFAULT_STORE) =>
  t.call('cart/create', { method: 'POST', json: { productId }, token: who.token, headers: inStore(storeId) })
const place = (who: SignedIn & { addressId: string }, headers: Record<string, string> = {}) =>
  t.call('order/cash-on-delivery', {
    method: 'POST',
    json: { addressId: who.addressId },
    token: who.token,
    headers: { 'Idempotency-Key': `stores-${process.pid}-${++keySeq}`, ...headers },
  })

describe('location', () => {
  it('serves 560038 from Indiranagar with a computed delivery time, and names the area', async () => {
    const res = await resolve('pincode=560038')
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({
      pincode: '560038',
      area: 'Indiranagar',
      state: 'Karnataka',
      serviceable: true,
      store: { _id: SEEDED_DEFAULT_STORE, name: 'Indiranagar', open: true },
      distanceKm: 0,
    })
    // Distance 0: the least travel (3) and picking (3), no queue.
    expect(res.body.data.deliveryMinutes).toBe(6)
  })

  it('serves a neighbouring pincode from the nearest store within its radius, a little later', async () => {
    const res = await resolve('pincode=560008')
    expect(res.body.data.store._id).toBe(SEEDED_DEFAULT_STORE)
    expect(res.body.data.distanceKm).toBeGreaterThan(1)
    // 1.7 km at 20 km/h is about 5 minutes of travel, plus 3 of picking.
    expect(res.body.data.deliveryMinutes).toBe(9)
    expect((await resolve('pincode=560034')).body.data.store._id).toBe(KORAMANGALA)
  })

  it('says 799001 (Agartala) is not served and names the nearest served area', async () => {
    const res = await resolve('pincode=799001')
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ pincode: '799001', area: 'Agartala', serviceable: false, store: null, deliveryMinutes: null })
    expect(res.body.data.nearest).toMatchObject({ city: expect.any(String), distanceKm: expect.any(Number) })
  })

  it('finds the nearest pincode to coordinates', async () => {
    const res = await resolve('lat=12.9784&lng=77.6408')
    expect(res.body.data).toMatchObject({ pincode: '560038', serviceable: true })
  })

  it('refuses a malformed or unknown pincode, or half coordinates, with 400 and the field', async () => {
    for (const query of ['pincode=12345', 'pincode=abcdef', 'pincode=099999', 'lat=12.9', 'lat=100&lng=77', '']) {
      const res = await resolve(query)
      expect(res.status, query).toBe(400)
      expect(res.body.error).toBe(true)
    }
    expect((await resolve('pincode=12345')).body.message).toBe('Enter a valid 6-digit pincode')
    expect((await resolve('pincode=999999')).body.message).toBe('We could not find this pincode')
  })

  it('takes coordinates only as plain decimals: hex, exponents and empty values are a 400 naming the field', async () => {
    // Number() reads "0x10" as 16, "1e1" as 10 and "" as 0: each would have been a place.
    const refused = {
      'lat=0x10&lng=77.6': 'Latitude must be a number',
      'lat=1e1&lng=77.6': 'Latitude must be a number',
      'lat=12.97&lng=': 'Longitude must be a number',
      'lat=12.97&lng=%20': 'Longitude must be a number',
      'lat=12.97&lng=0x4D': 'Longitude must be a number',
      'lat=Infinity&lng=77.6': 'Latitude must be a number',
      'lat=100&lng=77.6': 'Latitude is out of range',
    }
    for (const [query, message] of Object.entries(refused)) {
      const res = await resolve(query)
      expect(res.status, query).toBe(400)
      expect(res.body.message, query).toBe(message)
    }
    expect((await resolve('lat=%2B12.9784&lng=77.6408')).body.data).toMatchObject({ pincode: '560038' })
    // The same rule for a body's numbers given as text: an empty stock is not 0.
    const row = { storeId: SEEDED_DEFAULT_STORE, productId: rice.id }
    for (const stock of ['', ' ', '0x10', '1e1']) {
      const res = await t.call('inventory/update', { method: 'PUT', json: { rows: [{ ...row, stock }] }, token: admin.token })
      expect(res.status, JSON.stringify(stock)).toBe(400)
      expect(res.body.message, JSON.stringify(stock)).toBe('rows.0.stock: Stock must be a whole number')
    }
  })

  it("saves a signed-in shopper's choice and fits the cart to the new store's stock", async () => {
    const who = await shopperAt('560038')
    expect((await add(who, rice.id)).status).toBe(200)
    expect((await add(who, dal.id)).status).toBe(200)
    expect((await add(who, dal.id)).status).toBe(200)
    await setStockIn(t.db, dal.id, 1, KORAMANGALA)
    const res = await t.call('location', { method: 'PUT', json: { pincode: '560034' }, token: who.token })
    expect(res.status).toBe(200)
    expect(res.body.data.store._id).toBe(KORAMANGALA)
    expect(res.body.cartChanges).toEqual([
      { productId: rice.id, name: rice.name, kind: 'stock', before: 1, after: 0 },
      { productId: dal.id, name: dal.name, kind: 'stock', before: 2, after: 1 },
    ])
    const saved = await t.call('location', { token: who.token })
    expect(saved.body.data.pincode).toBe('560034')
    // The cart read in the new store shows its stock: rice unavailable there, kept in the cart.
    const cart = await t.call('cart/get', { token: who.token, headers: inStore(KORAMANGALA) })
    const lines = cart.body.data as { productId: { _id: string; stock: number }; quantity: number }[]
    expect(lines.map((l) => [l.productId._id, l.productId.stock, l.quantity])).toEqual([
      [rice.id, 0, 1],
      [dal.id, 1, 1],
    ])
    await setStockIn(t.db, dal.id, 40, KORAMANGALA)
  })

  it('keeps the latest choice on the account (a sign-in saves the fresh one over the old), a place not served too', async () => {
    // What the storefront does at sign-in (app/.server/location.server.ts `syncLocationAtSignIn`):
    // the account's older choice is replaced by the one made before signing in.
    const who = await shopperAt('560034')
    expect((await t.call('location', { method: 'PUT', json: { pincode: '560034' }, token: who.token })).status).toBe(200)
    expect((await t.call('location', { method: 'PUT', json: { pincode: '560038' }, token: who.token })).status).toBe(200)
    expect((await t.call('location', { token: who.token })).body.data).toMatchObject({ pincode: '560038', serviceable: true })
    const agartala = await t.call('location', { method: 'PUT', json: { pincode: '799001' }, token: who.token })
    expect(agartala.status).toBe(200)
    expect(agartala.body.data.serviceable).toBe(false)
    expect((await t.call('location', { token: who.token })).body.data).toMatchObject({ pincode: '799001', serviceable: false })
    // A visitor's choice is answered but saved nowhere; reading it needs an account.
    expect((await t.call('location', { method: 'PUT', json: { pincode: '560034' } })).status).toBe(200)
    expect((await t.call('location')).status).toBe(401)
  })

  it("picks one of the signed-in shopper's saved addresses; never another's, nor a visitor's", async () => {
    const who = await shopperAt('560034')
    const res = await t.call('location', { method: 'PUT', json: { addressId: who.addressId }, token: who.token })
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ pincode: '560034', area: 'Koramangala', serviceable: true, store: { _id: KORAMANGALA } })
    expect((await t.call('location', { token: who.token })).body.data.pincode).toBe('560034')
    const other = await shopperAt('560038')
    const theirs = await t.call('location', { method: 'PUT', json: { addressId: who.addressId }, token: other.token })
    expect(theirs.status).toBe(404)
    expect((await t.call('location', { token: other.token })).body.data).toBeNull()
    expect((await t.call('location', { method: 'PUT', json: { addressId: who.addressId } })).status).toBe(404)
  })
})

describe('per-store stock in the catalogue', () => {
  it("answers each store's stock, in-stock first, and the default store without a header", async () => {
    const details = async (headers: Record<string, string>) =>
      (await t.call('product/get-product-details', { method: 'POST', json: { productId: rice.id }, headers })).body.data.stock
    expect(await details({})).toBe(5)
    expect(await details(inStore(SEEDED_DEFAULT_STORE))).toBe(5)
    expect(await details(inStore(KORAMANGALA))).toBe(0)
    expect(await details(inStore('noSuchStore'))).toBe(5)
    const list = await t.call('product/get', { method: 'POST', json: { page: 1, limit: 50 }, headers: inStore(KORAMANGALA) })
    const ids = (list.body.data as { _id: string; stock: number }[]).map((p) => [p._id, p.stock > 0])
    expect(ids.findIndex(([id]) => id === rice.id)).toBeGreaterThan(ids.findIndex(([id]) => id === dal.id))
  })

  it('caps the cart by the store the request names', async () => {
    const who = await createShopper(t)
    const refused = await add(who, rice.id, KORAMANGALA)
    expect(refused.status).toBe(409)
    expect(refused.body.message).toBe('Out of stock')
    expect((await add(who, rice.id, SEEDED_DEFAULT_STORE)).status).toBe(200)
  })
})

describe('orders from a store', () => {
  it('takes stock from the store only, keeps the store and the promised time, and gives it back on cancel', async () => {
    const who = await shopperAt('560034')
    expect((await add(who, dal.id, KORAMANGALA)).status).toBe(200)
    const res = await place(who, inStore(KORAMANGALA))
    expect(res.status).toBe(201)
    const order = res.body.data
    expect(order.store).toEqual({ _id: KORAMANGALA, name: 'Koramangala', area: 'Koramangala' })
    expect(order.promisedMinutes).toBeGreaterThanOrEqual(6)
    expect(Date.parse(order.promisedAt) - Date.parse(order.createdAt)).toBe(order.promisedMinutes * 60_000)
    expect(order.late).toBe(false)
    expect(await stockIn(t.db, dal.id, KORAMANGALA)).toBe(39)
    expect(await stockIn(t.db, dal.id)).toBe(2)
    const cancelled = await t.call('order/cancel', { method: 'POST', json: { orderId: order._id }, token: who.token })
    expect(cancelled.status).toBe(200)
    expect(await stockIn(t.db, dal.id, KORAMANGALA)).toBe(40)
    expect(await stockIn(t.db, dal.id)).toBe(2)
  })

  it('refuses an address outside the named store’s radius (422), and takes nothing', async () => {
    const who = await shopperAt('560034')
    await add(who, dal.id)
    const res = await place(who, inStore(SEEDED_DEFAULT_STORE))
    expect(res.status).toBe(422)
    expect(res.body.message).toMatch(/^Indiranagar does not deliver to pincode 560034/)
    expect(await stockIn(t.db, dal.id)).toBe(2)
  })

  it('without a named store (the original client), orders from the store serving the address, or refuses an unserved one', async () => {
    const near = await shopperAt('560008')
    await add(near, rice.id)
    const placed = await place(near)
    expect(placed.status).toBe(201)
    expect(placed.body.data.store._id).toBe(SEEDED_DEFAULT_STORE)
    await setStockIn(t.db, rice.id, 5)
    const far = await createShopper(t)
    const address = await t.call('address/create', {
      method: 'POST',
      json: { address_line: '1, Hospital Road', city: 'Agartala', state: 'Tripura', pincode: '799001', mobile: '9845012345' },
      token: far.token,
    })
    await add(far, rice.id)
    const refused = await place({ ...far, addressId: address.body.data._id })
    expect(refused.status).toBe(422)
    expect(refused.body.message).toBe("We don't deliver to Agartala, 799001 yet")
  })

  it('refuses a closed store with its opening time', async () => {
    now = new Date('2026-11-26T21:00:00Z') // 02:30 in India: Koramangala opens at 06:00
    try {
      const who = await shopperAt('560034')
      await add(who, dal.id, KORAMANGALA)
      const res = await place(who, inStore(KORAMANGALA))
      expect(res.status).toBe(422)
      expect(res.body.message).toBe('Koramangala is closed now. It opens at 06:00.')
      expect((await resolve('pincode=560034')).body.data.store.open).toBe(false)
    } finally {
      now = new Date('2026-11-26T06:30:00Z')
    }
  })

  it("an admin's pause stops orders at once within the hours, says why, is audited, and lifts", async () => {
    const pause = (pausedNote: string | null, token = admin.token) =>
      t.call('store/update', { method: 'PUT', json: { _id: KORAMANGALA, pausedNote }, token })
    const staff = await createStaff(t)
    expect((await pause('Closed for stock-taking', staff.token)).status).toBe(403)
    expect((await pause('x'.repeat(61))).status).toBe(400)
    const paused = await pause('  Closed for stock-taking ')
    expect(paused.status, JSON.stringify(paused.body)).toBe(200)
    expect(paused.body.data.pausedNote).toBe('Closed for stock-taking')
    try {
      // The next answer, not a cached one: every page reads it at once.
      const store = (await resolve('pincode=560034')).body.data.store
      expect(store).toMatchObject({ _id: KORAMANGALA, open: false, closedNote: 'Closed for stock-taking' })
      const who = await shopperAt('560034')
      await add(who, dal.id, KORAMANGALA)
      const res = await place(who, inStore(KORAMANGALA))
      expect(res.status).toBe(422)
      expect(res.body.message).toBe('Koramangala is not taking orders now: Closed for stock-taking.')
      const [entry] = await t.db
        .select({ before: auditLog.before, after: auditLog.after })
        .from(auditLog)
        .where(and(eq(auditLog.entityId, KORAMANGALA), eq(auditLog.entity, 'store')))
        .orderBy(desc(auditLog.at))
        .limit(1)
      expect(entry).toEqual({ before: { pausedNote: null }, after: { pausedNote: 'Closed for stock-taking' } })
    } finally {
      expect((await pause(null)).body.data.pausedNote).toBeNull()
    }
    expect((await resolve('pincode=560034')).body.data.store).toMatchObject({ open: true, closedNote: null })
  })

  it("a store's own rider speed replaces the global one in its delivery minutes and orders, bounded, audited, and null goes back", async () => {
    const speed = (riderKmph: unknown) =>
      t.call('store/update', { method: 'PUT', json: { _id: SEEDED_DEFAULT_STORE, riderKmph }, token: admin.token })
    // 560008 is 1.7 km from Indiranagar: at the global 20 km/h, ⌈5.1 + 3⌉ = 9 minutes.
    expect((await resolve('pincode=560008')).body.data.deliveryMinutes).toBe(9)
    for (const bad of [4.9, 60.1, 'fast', '']) expect((await speed(bad)).status, `riderKmph ${JSON.stringify(bad)}`).toBe(400)
    const slow = await speed('10')
    expect(slow.status, JSON.stringify(slow.body)).toBe(200)
    expect(slow.body.data.riderKmph).toBe(10)
    try {
      // 1.7 km at 10 km/h = 10.2 minutes + 3 of picking → 14.
      expect((await resolve('pincode=560008')).body.data.deliveryMinutes).toBe(14)
      const who = await shopperAt('560008')
      await add(who, dal.id)
      const order = (await place(who)).body.data
      expect(order.promisedMinutes).toBeGreaterThanOrEqual(14)
      const [entry] = await t.db
        .select({ before: auditLog.before, after: auditLog.after })
        .from(auditLog)
        .where(and(eq(auditLog.entityId, SEEDED_DEFAULT_STORE), eq(auditLog.entity, 'store')))
        .orderBy(desc(auditLog.at))
        .limit(1)
      expect(entry).toEqual({ before: { riderKmph: null }, after: { riderKmph: 10 } })
      await t.call('order/update-status', { method: 'PUT', json: { orderId: order._id, status: 'cancelled' }, token: admin.token })
    } finally {
      expect((await speed(null)).body.data.riderKmph).toBeNull()
    }
    expect((await resolve('pincode=560008')).body.data.deliveryMinutes).toBe(9)
  })

  it('two buyers racing for the last unit in one store: one order; the other store’s stock is untouched', async () => {
    await setStockIn(t.db, rice.id, 1, KORAMANGALA)
    await setStockIn(t.db, rice.id, 7)
    t.deps.cache.invalidate()
    const [a, b] = await Promise.all([shopperAt('560034'), shopperAt('560034')])
    expect((await add(a, rice.id, KORAMANGALA)).status).toBe(200)
    expect((await add(b, rice.id, KORAMANGALA)).status).toBe(200)
    const results = await Promise.all([place(a, inStore(KORAMANGALA)), place(b, inStore(KORAMANGALA))])
    expect(results.map((r) => r.status).sort()).toEqual([201, 409])
    expect(await stockIn(t.db, rice.id, KORAMANGALA)).toBe(0)
    expect(await stockIn(t.db, rice.id)).toBe(7)
  })

  it('grows the promised time with the store’s queue', async () => {
    await t.call('store/update', { method: 'PUT', json: { _id: KORAMANGALA, pickers: 1 }, token: admin.token })
    const before = (await resolve('pincode=560034')).body.data.deliveryMinutes
    const who = await shopperAt('560034')
    await add(who, dal.id, KORAMANGALA)
    expect((await place(who, inStore(KORAMANGALA))).status).toBe(201)
    const after = (await resolve('pincode=560034')).body.data.deliveryMinutes
    expect(after).toBeGreaterThan(before)
    await t.call('store/update', { method: 'PUT', json: { _id: KORAMANGALA, pickers: 5 }, token: admin.token })
  })

  it('flags an order delivered after its promise as late', async () => {
    const who = await shopperAt('560038')
    await add(who, dal.id)
    const order = (await place(who)).body.data
    // The promise ran out an hour ago (moving the clock instead would expire the test's tokens).
    await t.db.execute(sql`update orders set promised_at = promised_at - interval '1 hour' where id = ${order._id}`)
    const deliver = async (orderId: string) => {
      for (const status of ['packed', 'out_for_delivery', 'delivered'])
        expect((await t.call('order/update-status', { method: 'PUT', json: { orderId, status }, token: admin.token })).status).toBe(200)
    }
    await deliver(order._id)
    const done = await t.call('order/details', { method: 'POST', json: { orderId: order._id }, token: who.token })
    expect(done.body.data).toMatchObject({ status: 'delivered', late: true })
    expect(done.body.data.deliveredAt).toBe(now.toISOString())
    const onTime = await shopperAt('560038')
    await add(onTime, dal.id)
    const second = (await place(onTime)).body.data
    await deliver(second._id)
    expect((await t.call('order/details', { method: 'POST', json: { orderId: second._id }, token: onTime.token })).body.data.late).toBe(
      false,
    )
  })
})

describe("the admin's orders by store", () => {
  it('lists one store’s orders, and only the late ones', async () => {
    const tea = await insertProduct(t.db, { name: 'Assam Tea', price: 120, stock: 10, storeStock: { [KORAMANGALA]: 10 } })
    const list = async (json: Record<string, unknown>) => {
      const res = await t.call('order/admin-list', { method: 'POST', json: { limit: 50, ...json }, token: admin.token })
      expect(res.status).toBe(200)
      return res.body.data as { _id: string; store: { _id: string } }[]
    }
    const placeOne = async (pincode: string, storeId: string) => {
      const who = await shopperAt(pincode)
      expect((await add(who, tea.id, storeId)).status).toBe(200)
      const res = await place(who, inStore(storeId))
      expect(res.status, JSON.stringify(res.body)).toBe(201)
      return res.body.data as { _id: string }
    }
    const fromKoramangala = await placeOne('560034', KORAMANGALA)
    const fromIndiranagar = await placeOne('560038', SEEDED_DEFAULT_STORE)
    const ids = (rows: { _id: string }[]) => rows.map((o) => o._id)
    expect(ids(await list({}))).toEqual(expect.arrayContaining([fromKoramangala._id, fromIndiranagar._id]))
    const ofKoramangala = await list({ store: KORAMANGALA })
    expect(ids(ofKoramangala)).toContain(fromKoramangala._id)
    expect(ids(ofKoramangala)).not.toContain(fromIndiranagar._id)
    expect(new Set(ofKoramangala.map((o) => o.store._id))).toEqual(new Set([KORAMANGALA]))
    expect(ids(await list({ store: SEEDED_DEFAULT_STORE }))).not.toContain(fromKoramangala._id)

    // Late: Indiranagar's order is delivered an hour after its promise, Koramangala's is not delivered.
    await t.db.execute(sql`update orders set promised_at = promised_at - interval '1 hour' where id = ${fromIndiranagar._id}`)
    for (const status of ['packed', 'out_for_delivery', 'delivered']) {
      const moved = await t.call('order/update-status', {
        method: 'PUT',
        json: { orderId: fromIndiranagar._id, status },
        token: admin.token,
      })
      expect(moved.status).toBe(200)
    }
    const late = ids(await list({ late: true }))
    expect(late).toContain(fromIndiranagar._id)
    expect(late).not.toContain(fromKoramangala._id)
    expect(ids(await list({ late: true, store: KORAMANGALA }))).not.toContain(fromIndiranagar._id)
    // An id no store has matches no order; a blank one is refused.
    expect(await list({ store: 'noSuchStore' })).toEqual([])
    expect((await t.call('order/admin-list', { method: 'POST', json: { store: ' ' }, token: admin.token })).status).toBe(400)
  })
})

describe('admin stores and stock', () => {
  it('lists, adds (coordinates from the pincode), edits with a version, and deactivates a store; shoppers only', async () => {
    const list = await t.call('store/list', { token: admin.token })
    expect(list.status).toBe(200)
    expect(list.body.data.map((s: { name: string }) => s.name)).toEqual(expect.arrayContaining(['Indiranagar', 'Bandra West', 'Hauz Khas']))
    const created = await t.call('store/create', {
      method: 'POST',
      json: { name: 'Koramangala 6th Block', area: 'Koramangala', city: 'Bengaluru', addressLine: '1, 80 Feet Road', pincode: '560095' },
      token: admin.token,
    })
    expect(created.status).toBe(201)
    expect(created.body.data).toMatchObject({ coordinatesFromPincode: true, radiusKm: 3, active: true, opensAt: '06:00', pickers: 4 })
    const id = created.body.data._id
    const edited = await t.call('store/update', { method: 'PUT', json: { _id: id, version: 1, radiusKm: 2.5 }, token: admin.token })
    expect(edited.body.data).toMatchObject({ radiusKm: 2.5, version: 2 })
    const stale = await t.call('store/update', { method: 'PUT', json: { _id: id, version: 1, radiusKm: 4 }, token: admin.token })
    expect(stale.status).toBe(409)
    const off = await t.call('store/update', { method: 'PUT', json: { _id: id, active: false }, token: admin.token })
    expect(off.body.data.active).toBe(false)
    const shopper = await createShopper(t)
    expect((await t.call('store/list', { token: shopper.token })).status).toBe(403)
    expect((await t.call('store/list')).status).toBe(401)
    const bad = await t.call('store/create', {
      method: 'POST',
      json: { name: 'X', area: 'Y', city: 'Z', addressLine: 'W', pincode: '999999' },
      token: admin.token,
    })
    expect(bad.status).toBe(400)
  })

  it("searches a store's stock, filters low and out of stock, and edits it in one transaction", async () => {
    const out = await t.call('inventory/list', {
      method: 'POST',
      json: { storeId: KORAMANGALA, filter: 'out', search: 'sona' },
      token: admin.token,
    })
    expect(out.status).toBe(200)
    expect(out.body.data.map((r: { productId: string }) => r.productId)).toEqual([rice.id])
    const bad = await t.call('inventory/update', {
      method: 'PUT',
      json: {
        rows: [
          { storeId: KORAMANGALA, productId: rice.id, stock: 9 },
          { storeId: 'nope', productId: rice.id, stock: 1 },
        ],
      },
      token: admin.token,
    })
    expect(bad.status).toBe(400)
    expect(await stockIn(t.db, rice.id, KORAMANGALA)).toBe(0)
    const ok = await t.call('inventory/update', {
      method: 'PUT',
      json: { rows: [{ storeId: KORAMANGALA, productId: rice.id, stock: 3 }] },
      token: admin.token,
    })
    expect(ok.status).toBe(200)
    const low = await t.call('inventory/list', {
      method: 'POST',
      json: { storeId: KORAMANGALA, filter: 'low', search: 'sona' },
      token: admin.token,
    })
    expect(low.body.data).toEqual([expect.objectContaining({ productId: rice.id, stock: 3 })])
    const perStore = await t.call('inventory/product', { method: 'POST', json: { productId: rice.id }, token: admin.token })
    expect(perStore.body.data.find((s: { storeId: string }) => s.storeId === KORAMANGALA).stock).toBe(3)
    // The shopper's answer follows at once (the write invalidated the caches).
    const details = await t.call('product/get-product-details', {
      method: 'POST',
      json: { productId: rice.id },
      headers: inStore(KORAMANGALA),
    })
    expect(details.body.data.stock).toBe(3)
    const negative = await t.call('inventory/update', {
      method: 'PUT',
      json: { rows: [{ storeId: KORAMANGALA, productId: rice.id, stock: -1 }] },
      token: admin.token,
    })
    expect(negative.status).toBe(400)
  })
})
