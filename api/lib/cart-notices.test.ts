/**
 * Cart-change notices (api/lib/cart-notices.ts, migration 0022_cart_change_notices.sql) on a fresh
 * database (PGlite, or PostgreSQL with TEST_DATABASE_URL): every write that changes what a cart
 * summary shows announces its owner after it commits, a refused write announces nothing, and the
 * end of a user's sessions is announced too.
 */
import pg from 'pg'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../testing/app.ts'
import { createAdmin, createShopper } from '../testing/auth.ts'
import { insertProduct } from '../testing/fixtures.ts'
import { TEST_ADDRESS } from '../testing/orders.ts'
import { cartOwnerKey } from '../../server-shared/cart-owner-key.ts'
import { CART_CHANNEL, createCartNotices, readCartNotice } from './cart-notices.ts'

let t: TestApp
let heard: string[] = []
let listener: pg.Client | null = null

beforeAll(async () => {
  t = await createTestApp()
  const onNotice = (payload: string | undefined) => {
    const key = readCartNotice(payload)
    if (key) heard.push(key)
  }
  if (t.database.listen) await t.database.listen(CART_CHANNEL, onNotice)
  else {
    listener = new pg.Client({ connectionString: t.database.url })
    await listener.connect()
    listener.on('notification', (msg) => onNotice(msg.payload))
    await listener.query(`LISTEN ${CART_CHANNEL}`)
  }
})
afterAll(async () => {
  await listener?.end()
  await t?.close()
})

/** The notices heard since the last call: PGlite's arrive with the commit, PostgreSQL's a moment after. */
async function noticesSince(): Promise<string[]> {
  if (listener) {
    // A round trip on the listening connection: notices sent before it have arrived after it.
    await t.db.execute(sql`select pg_notify(${CART_CHANNEL}, 'user:__fence__')`)
    for (let i = 0; i < 100 && !heard.includes('user:__fence__'); i++) await new Promise((r) => setTimeout(r, 10))
  }
  const got = heard.filter((k) => k !== 'user:__fence__')
  heard = []
  return got
}

const newGuest = async () => (await t.call('cart/guest', { method: 'POST' })).body.data.guestCartId as string

describe('cart-change notices', () => {
  it("name a guest's cart on each add, change and removal, and nothing on a refused write", async () => {
    const milk = await insertProduct(t.db, { name: 'Toned Milk', price: 30, stock: 5 })
    const gone = await insertProduct(t.db, { name: 'Sold Out Ghee', price: 600, stock: 0 })
    const guest = await newGuest()
    const as = { headers: { 'X-Guest-Cart': guest } }
    await noticesSince()
    const key = cartOwnerKey({ guestCartId: guest })
    expect((await t.call('cart/create', { method: 'POST', json: { productId: milk.id }, ...as })).status).toBe(200)
    expect(await noticesSince()).toEqual([key])
    const lineId = (await t.call('cart/summary', as)).body.data.lines[0]._id as string
    expect(await noticesSince()).toEqual([])
    expect((await t.call('cart/update-qty', { method: 'PUT', json: { _id: lineId, qty: 3 }, ...as })).status).toBe(200)
    expect(await noticesSince()).toEqual([key])
    expect((await t.call('cart/create', { method: 'POST', json: { productId: gone.id }, ...as })).status).toBe(409)
    expect(await noticesSince()).toEqual([])
    expect((await t.call('cart/delete-cart-item', { method: 'DELETE', json: { _id: lineId }, ...as })).status).toBe(200)
    expect(await noticesSince()).toEqual([key])
  })

  it("name a shopper's cart when an order empties it, and the shopper when their sessions end", async () => {
    const who = await createShopper(t)
    const dal = await insertProduct(t.db, { name: 'Toor Dal', price: 180, sellingPrice: 150, stock: 10 })
    const address = await t.call('address/create', { method: 'POST', json: TEST_ADDRESS, token: who.token })
    await noticesSince()
    const key = cartOwnerKey({ userId: who.user.id })
    expect((await t.call('cart/create', { method: 'POST', json: { productId: dal.id }, token: who.token })).status).toBe(200)
    expect(await noticesSince()).toEqual([key])
    const order = await t.call('order/cash-on-delivery', {
      method: 'POST',
      json: { addressId: address.body.data._id },
      token: who.token,
      headers: { 'Idempotency-Key': `notice-order-${process.pid}` },
    })
    expect(order.status).toBe(201)
    expect(await noticesSince()).toContain(key)
    expect((await t.call('user/logout', { method: 'POST', token: who.token })).status).toBe(200)
    expect(await noticesSince()).toEqual([key])
  })

  it("name a shopper's cart when a coupon is applied or removed (migration 0039), and nothing on a refused code", async () => {
    const dal = await insertProduct(t.db, { name: 'Moong Dal', price: 250, stock: 5 })
    const who = await createShopper(t)
    await t.call('cart/create', { method: 'POST', json: { productId: dal.id }, token: who.token })
    const key = cartOwnerKey({ userId: who.user.id })
    await noticesSince()
    expect((await t.call('cart/coupon', { method: 'POST', json: { code: 'SAVE10' }, token: who.token })).status).toBe(422)
    expect(await noticesSince()).toEqual([])
    expect((await t.call('cart/coupon', { method: 'POST', json: { code: 'WELCOME50' }, token: who.token })).status).toBe(200)
    expect(await noticesSince()).toEqual([key])
    expect((await t.call('cart/coupon', { method: 'DELETE', token: who.token })).status).toBe(200)
    expect(await noticesSince()).toEqual([key])
  })

  it("name a user whose role or status an admin changes, and every cart of a product's deletion", async () => {
    const admin = await createAdmin(t)
    const who = await createShopper(t)
    const guest = await newGuest()
    const paneer = await insertProduct(t.db, { name: 'Malai Paneer', price: 90, stock: 10 })
    await t.call('cart/create', { method: 'POST', json: { productId: paneer.id }, token: who.token })
    await t.call('cart/create', { method: 'POST', json: { productId: paneer.id }, headers: { 'X-Guest-Cart': guest } })
    await noticesSince()
    await t.db.execute(sql`update users set status = 'Suspended' where id = ${who.user.id}`)
    expect(await noticesSince()).toEqual([cartOwnerKey({ userId: who.user.id })])
    await t.db.execute(sql`delete from products where id = ${paneer.id}`)
    expect((await noticesSince()).sort()).toEqual([cartOwnerKey({ guestCartId: guest }), cartOwnerKey({ userId: who.user.id })].sort())
    expect(admin.user.role).toBe('ADMIN')
  })
})

describe('readCartNotice and the hub', () => {
  it('read owner keys only, and hand each to every listener', () => {
    expect(readCartNotice('guest:' + 'a'.repeat(64))).toBe('guest:' + 'a'.repeat(64))
    expect(readCartNotice('user:abc')).toBe('user:abc')
    for (const bad of [undefined, '', 'abc', 'order:1', 'user:' + 'x'.repeat(200)]) expect(readCartNotice(bad)).toBeUndefined()
    const hub = createCartNotices({ onError: () => undefined })
    const got: Array<string | null> = []
    hub.subscribe(() => {
      throw new Error('a broken listener')
    })
    const stop = hub.subscribe((key) => got.push(key))
    hub.deliver('user:1')
    hub.deliver(null)
    stop()
    hub.deliver('user:2')
    expect(got).toEqual(['user:1', null])
  })
})
