/**
 * Guest carts and cart write budgets on a fresh database (PGlite, or PostgreSQL with
 * TEST_DATABASE_URL), after docs/security.md, "Carts": a guest cart id costs no row until its first
 * line; many shoppers behind one address can all add; writes are budgeted per cart and, for guests,
 * per address (an IPv6 /64 as one) with 429 and Retry-After, never locking out a signed-in shopper;
 * guest rows are capped, the longest idle removed first; rows idle past 30 days are removed by the
 * hourly `carts.purge-idle-guests` job.
 */
import { createHash } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryRows } from '../../db/query.ts'
import type { Product } from '../../db/schema.ts'
import { createRateLimits } from '../../lib/rate-limit.ts'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { createShopper } from '../../testing/auth.ts'
import { insertProduct } from '../../testing/fixtures.ts'
import { CART_TOO_FAST } from './routes.ts'
import { CART_EXPIRED } from './service.ts'

const hashOf = (id: string) => createHash('sha256').update(id).digest('hex')
const guestRows = async (t: TestApp) =>
  (await queryRows<{ h: string }>(t.db, sql`select guest_token_hash as h from carts where guest_token_hash is not null`)).map((r) => r.h)

/** Calls of one test app, each from `ip` (the address server.ts puts in X-Client-Ip). */
function caller(t: TestApp) {
  const from = (ip: string, guest?: string, token?: string) => ({
    token,
    headers: { 'X-Client-Ip': ip, ...(guest ? { 'X-Guest-Cart': guest } : {}) },
  })
  return {
    newGuest: async (ip = '203.0.113.1') => (await t.call('cart/guest', { method: 'POST', ...from(ip) })).body.data.guestCartId as string,
    add: (productId: string, ip: string, guest?: string, token?: string) =>
      t.call('cart/create', { method: 'POST', json: { productId }, ...from(ip, guest, token) }),
    get: (ip: string, guest?: string) => t.call('cart/get', from(ip, guest)),
  }
}

describe('a guest cart costs a row only from its first line', () => {
  let t: TestApp
  let milk: Product
  beforeAll(async () => {
    t = await createTestApp()
    milk = await insertProduct(t.db, { name: 'Toned Milk', price: 30, stock: 500 })
  })
  afterAll(() => t?.close())

  it('POST /guest stores nothing; the id reads as an empty cart; the first line makes the row', async () => {
    const { newGuest, add, get } = caller(t)
    const guest = await newGuest()
    expect(guest).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(await guestRows(t)).toEqual([])
    const empty = await get('203.0.113.1', guest)
    expect(empty.status).toBe(200)
    expect(empty.body.data).toEqual([])
    expect(await guestRows(t)).toEqual([])
    const line = await add(milk.id, '203.0.113.1', guest)
    expect(line.status).toBe(200)
    expect(line.body.data).toMatchObject({ quantity: 1, userId: null })
    expect(await guestRows(t)).toEqual([hashOf(guest)])
    expect((await get('203.0.113.1', guest)).body.data).toHaveLength(1)
  })

  it('a cart idle past 30 days reads as empty; an ADD starts it again with that line alone', async () => {
    const { newGuest, add, get } = caller(t)
    const ip = '203.0.113.9'
    const guest = await newGuest(ip)
    expect((await add(milk.id, ip, guest)).status).toBe(200)
    expect((await add(milk.id, ip, guest)).status).toBe(200)
    const idleSince = new Date(Date.now() - 31 * 24 * 60 * 60 * 1000).toISOString()
    await t.db.execute(sql`update carts set updated_at = ${idleSince} where guest_token_hash = ${hashOf(guest)}`)
    expect((await get(ip, guest)).body.data).toEqual([])
    expect((await add(milk.id, ip, guest)).status).toBe(200)
    const lines = (await get(ip, guest)).body.data as Array<{ quantity: number }>
    expect(lines.map((line) => line.quantity)).toEqual([1])
  })

  it('a made-up or altered id is 401 "Your cart has expired", and makes no row', async () => {
    const { newGuest, add, get } = caller(t)
    const before = await guestRows(t)
    const real = await newGuest()
    const altered = (real[0] === 'A' ? 'B' : 'A') + real.slice(1)
    for (const id of ['x'.repeat(43), altered, real.slice(0, 42)]) {
      const res = await get('203.0.113.1', id)
      expect(res.status).toBe(401)
      expect(res.body.message).toBe(CART_EXPIRED)
      expect((await add(milk.id, '203.0.113.1', id)).status).toBe(401)
    }
    expect(await guestRows(t)).toEqual(before)
  })

  it('61 shoppers behind one address (a carrier NAT) can each start a cart and add to it', async () => {
    const { newGuest, add } = caller(t)
    for (let i = 0; i < 61; i++) {
      const guest = await newGuest('198.51.100.7')
      expect((await t.call('cart/guest', { method: 'POST', headers: { 'X-Client-Ip': '198.51.100.7' } })).status).toBe(201)
      const res = await add(milk.id, '198.51.100.7', guest)
      expect(res.status, `shopper ${i + 1}`).toBe(200)
    }
  })
})

describe('cart write budgets', () => {
  let t: TestApp
  let milk: Product
  beforeAll(async () => {
    t = await createTestApp({
      rateLimits: createRateLimits({ cartWriteByCart: { points: 3, duration: 60 }, cartWriteByIp: { points: 6, duration: 60 } }),
    })
    milk = await insertProduct(t.db, { name: 'Toned Milk', price: 30, stock: 500 })
  })
  afterAll(() => t?.close())

  it("spends a cart's budget on every write: then 429 with Retry-After, while another cart still writes", async () => {
    const { newGuest, add } = caller(t)
    const guest = await newGuest()
    for (let i = 0; i < 3; i++) expect((await add(milk.id, '192.0.2.10', guest)).status).toBe(200)
    const refused = await add(milk.id, '192.0.2.10', guest)
    expect(refused.status).toBe(429)
    expect(refused.body.message).toBe(CART_TOO_FAST)
    const wait = Number(refused.headers.get('Retry-After'))
    expect(wait).toBeGreaterThanOrEqual(1)
    expect(wait).toBeLessThanOrEqual(60)
    const line = (await t.call('cart/get', { headers: { 'X-Guest-Cart': guest } })).body.data[0]
    expect(line.quantity).toBe(3)
    // Updates and removals spend the same budget.
    const set = await t.call('cart/update-qty', {
      method: 'PUT',
      json: { _id: line._id, qty: 1 },
      headers: { 'X-Guest-Cart': guest, 'X-Client-Ip': '192.0.2.10' },
    })
    expect(set.status).toBe(429)
    expect((await add(milk.id, '192.0.2.10', await newGuest())).status).toBe(200)
  })

  it('counts guest writes per address, an IPv6 /64 as one, and never refuses a signed-in shopper there', async () => {
    const { newGuest, add } = caller(t)
    // Six writes from one /64, each from another address and another guest cart.
    for (let i = 1; i <= 6; i++) expect((await add(milk.id, `2001:db8:7:7::${i}`, await newGuest())).status).toBe(200)
    const refused = await add(milk.id, '2001:db8:7:7:ffff::1', await newGuest())
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThanOrEqual(1)
    // The neighbouring /64 has its own budget.
    expect((await add(milk.id, '2001:db8:7:8::1', await newGuest())).status).toBe(200)
    // A signed-in shopper behind the spent address adds on.
    const shopper = await createShopper(t)
    expect((await add(milk.id, '2001:db8:7:7::1', undefined, shopper.token)).status).toBe(200)
  })
})

describe('the guest row cap', () => {
  let t: TestApp
  let milk: Product
  let now = new Date('2026-03-01T10:00:00Z')
  beforeAll(async () => {
    t = await createTestApp({
      clock: () => now,
      commerce: { maxQtyPerLine: 12, deliveryChargePaise: 2500, freeDeliveryAbovePaise: 19900, maxGuestCarts: 3 },
    })
    milk = await insertProduct(t.db, { name: 'Toned Milk', price: 30, stock: 500 })
  })
  afterAll(() => t?.close())

  it('keeps at most the cap of guest rows, removing the longest idle first', async () => {
    const { newGuest, add, get } = caller(t)
    const tick = () => (now = new Date(now.getTime() + 60_000))
    const guests: string[] = []
    for (let i = 0; i < 3; i++) {
      tick()
      guests.push(await newGuest())
      expect((await add(milk.id, '192.0.2.20', guests[i])).status).toBe(200)
    }
    // The first cart is used again, so the second is now the longest idle.
    tick()
    expect((await add(milk.id, '192.0.2.20', guests[0])).status).toBe(200)
    tick()
    guests.push(await newGuest())
    expect((await add(milk.id, '192.0.2.20', guests[3])).status).toBe(200)
    expect((await guestRows(t)).sort()).toEqual([guests[0], guests[2], guests[3]].map(hashOf).sort())
    expect((await get('192.0.2.20', guests[1])).body.data).toEqual([])
    expect((await get('192.0.2.20', guests[0])).body.data[0].quantity).toBe(2)
    // A user's cart never counts and is never removed.
    const shopper = await createShopper(t)
    expect((await add(milk.id, '192.0.2.20', undefined, shopper.token)).status).toBe(200)
    tick()
    guests.push(await newGuest())
    expect((await add(milk.id, '192.0.2.20', guests[4])).status).toBe(200)
    expect(await guestRows(t)).toHaveLength(3)
    expect((await t.call('cart/get', { token: shopper.token })).body.data).toHaveLength(1)
  })

  it('removes guest carts idle past 30 days in the hourly job, keeping the others and every user cart', async () => {
    const schedules = await queryRows<{ name: string; cron: string }>(t.db, sql`select name, cron from pgboss.schedule order by name`)
    expect(schedules).toEqual([
      { name: 'carts.purge-idle-guests', cron: '0 * * * *' },
      { name: 'dispatch.sweep', cron: '* * * * *' },
      { name: 'images.sweep', cron: '0 */6 * * *' },
      { name: 'payments.sweep', cron: '* * * * *' },
      { name: 'recommend.mine', cron: '0 * * * *' },
      { name: 'tracking.purge', cron: '0 * * * *' },
    ])
    const [idle, ...kept] = await guestRows(t)
    const idleSince = new Date(now.getTime() - 30 * 24 * 60 * 60 * 1000 - 60_000).toISOString()
    await t.db.execute(sql`update carts set updated_at = ${idleSince} where guest_token_hash = ${idle!}`)
    const users = await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from carts where user_id is not null`)
    await t.deps.jobs.send('carts.purge-idle-guests', {})
    expect(await t.deps.jobs.drain()).toBe(1)
    expect((await guestRows(t)).sort()).toEqual(kept.sort())
    expect(await queryRows(t.db, sql`select count(*)::int as n from carts where user_id is not null`)).toEqual(users)
  })
})
