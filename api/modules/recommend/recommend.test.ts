/**
 * Recommendation rows (docs/recommendations.md) on a fresh database (PGlite, or PostgreSQL with
 * TEST_DATABASE_URL): the mining's support, confidence, lift and pair-count thresholds over delivered
 * orders only, the `recommend.mine` job, "Frequently bought together" and "You might have missed"
 * (rules by lift, never out of stock or in the basket, the shelf's best sellers when rules are thin),
 * "Buy again" (most often, then most recently ordered; only the shopper's own; in stock), and the
 * demo history's seeding (idempotent, enough for rules).
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Product } from '../../db/schema.ts'
import { queryRows } from '../../db/query.ts'
import { newId } from '../../lib/ids.ts'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { createAdmin, createShopper } from '../../testing/auth.ts'
import { z } from 'zod'
import { OrderSchema } from '../../../contract/order.ts'
import { insertCategory, insertProducts, insertSubCategory, SEEDED_DEFAULT_STORE, setStockIn } from '../../testing/fixtures.ts'
import { mineAssociationRules } from './service.ts'
import { DEFAULT_ASSOCIATION_THRESHOLDS, parseAssociationThresholds, type AssociationThresholds } from './thresholds.ts'
import { DEMO_HISTORY_EMAIL, seedDemoOrders } from '../../db/seed/demo-orders.ts'

let t: TestApp
let shopperId: string
let seq = 0
const p: Record<string, Product> = {}

/** A whole delivery address snapshot, as placement writes one (contract/order.ts OrderAddressSchema). */
const ADDRESS = JSON.stringify({
  address_line: '1 MG Road',
  city: 'Bengaluru',
  state: 'Karnataka',
  pincode: '560001',
  country: 'India',
  mobile: '9876543210',
})

/** One order of `user` holding `ids` (one unit each), with `status`, `at` (default now). */
async function order(userId: string, ids: string[], status = 'delivered', at = new Date()): Promise<void> {
  const orderId = newId()
  const n = ++seq
  await t.db.execute(sql`
    insert into orders (id, order_number, user_id, status, delivery_address, items_total_mrp_paise, items_total_paise,
                        delivery_charge_paise, grand_total_paise, store_id, idempotency_key, created_at, updated_at)
    values (${orderId}, ${`ODTEST${process.pid}${n}`}, ${userId}, ${status}, ${ADDRESS}::jsonb, 100, 100, 0, 100, ${SEEDED_DEFAULT_STORE},
            ${`k-${n}`}, ${at}, ${at})`)
  for (const [position, id] of ids.entries())
    await t.db.execute(sql`
      insert into order_lines (id, order_id, position, product_id, name, quantity, unit_price_paise, mrp_paise, discount, line_total_paise)
      values (${newId()}, ${orderId}, ${position}, ${id}, 'x', 1, 100, 100, 0, 100)`)
}

/** The stored rules as "X>Y". */
async function rules(): Promise<string[]> {
  const rows = await queryRows<{ a: string; c: string }>(t.db, sql`select antecedent_id as a, consequent_id as c from product_associations`)
  const name = (id: string) => Object.entries(p).find(([, row]) => row.id === id)?.[0] ?? id
  return rows.map((r) => `${name(r.a)}>${name(r.c)}`).sort()
}

const mine = (recommend: AssociationThresholds) => mineAssociationRules({ ...t.deps, recommend })
const cards = (res: { body: { data: { products: Array<{ _id: string }> } } }) =>
  res.body.data.products.map((c) => Object.entries(p).find(([, row]) => row.id === c._id)?.[0] ?? c._id)

beforeAll(async () => {
  t = await createTestApp()
  const dairy = await insertCategory(t.db, { name: 'Dairy' })
  const bread = await insertSubCategory(t.db, { name: 'Bread', categoryIds: [dairy.id] })
  const spreads = await insertSubCategory(t.db, { name: 'Spreads', categoryIds: [dairy.id] })
  const other = await insertSubCategory(t.db, { name: 'Other', categoryIds: [dairy.id] })
  const rows = await insertProducts(t.db, [
    { name: 'Bread', subCategoryIds: [bread.id], categoryIds: [dairy.id] },
    { name: 'Butter', subCategoryIds: [spreads.id], categoryIds: [dairy.id] },
    { name: 'Jam', subCategoryIds: [spreads.id], categoryIds: [dairy.id] },
    { name: 'Cheese', subCategoryIds: [spreads.id], categoryIds: [dairy.id] },
    { name: 'Milk', subCategoryIds: [other.id], categoryIds: [dairy.id] },
    { name: 'Rusk', subCategoryIds: [bread.id], categoryIds: [dairy.id] },
    { name: 'Bun', subCategoryIds: [bread.id], categoryIds: [dairy.id] },
    { name: 'Lonely', subCategoryIds: [other.id], categoryIds: [dairy.id] },
  ])
  for (const row of rows) p[row.name] = row
  shopperId = (await createShopper(t)).user.id
  // 20 delivered orders: Bread+Butter 8, Bread+Jam 2, Bread+Milk 2, Milk alone 6, Butter+Cheese 1, Rusk 1.
  // support(Bread∪Butter) = 0.4, confidence(Bread→Butter) = 8/12, lift = (8/12)/(9/20) ≈ 1.48;
  // Bread→Jam: support 0.1, confidence 2/12, lift (2/12)/(2/20) ≈ 1.67; Bread→Milk: confidence 2/12,
  // lift (2/12)/(8/20) ≈ 0.42 (Milk sells anyway); Butter+Cheese once (below 2 orders).
  for (let i = 0; i < 8; i++) await order(shopperId, [p.Bread!.id, p.Butter!.id])
  for (let i = 0; i < 2; i++) await order(shopperId, [p.Bread!.id, p.Jam!.id])
  for (let i = 0; i < 2; i++) await order(shopperId, [p.Bread!.id, p.Milk!.id])
  for (let i = 0; i < 6; i++) await order(shopperId, [p.Milk!.id])
  await order(shopperId, [p.Butter!.id, p.Cheese!.id])
  await order(shopperId, [p.Rusk!.id])
  // Not delivered: never mined (they would make Bread→Lonely certain).
  for (let i = 0; i < 5; i++) await order(shopperId, [p.Bread!.id, p.Lonely!.id], 'cancelled')
  for (let i = 0; i < 5; i++) await order(shopperId, [p.Bread!.id, p.Lonely!.id], 'placed')
})
afterAll(() => t?.close())

describe('mineAssociationRules', () => {
  const loose = { minSupport: 0.01, minConfidence: 0.01, minLift: 0.01, minPairOrders: 1 }

  it('keeps every pair of delivered orders with loose thresholds, with support, confidence and lift as defined', async () => {
    const result = await mine(loose)
    expect(result).toEqual({ orders: 20, rules: 8 })
    expect(await rules()).toEqual(
      ['Bread>Butter', 'Bread>Jam', 'Bread>Milk', 'Butter>Bread', 'Butter>Cheese', 'Cheese>Butter', 'Jam>Bread', 'Milk>Bread'].sort(),
    )
    const [rule] = await queryRows<{ support: number; confidence: number; lift: number; pair_orders: number }>(
      t.db,
      sql`select support, confidence, lift, pair_orders from product_associations where antecedent_id = ${p.Bread!.id} and consequent_id = ${p.Butter!.id}`,
    )
    expect(rule!.pair_orders).toBe(8)
    expect(rule!.support).toBeCloseTo(0.4, 10)
    expect(rule!.confidence).toBeCloseTo(8 / 12, 10)
    expect(rule!.lift).toBeCloseTo(8 / 12 / (9 / 20), 10)
  })

  it('drops pairs in fewer orders than minPairOrders', async () => {
    await mine({ ...loose, minPairOrders: 2 })
    expect(await rules()).not.toContain('Butter>Cheese')
    expect(await rules()).toContain('Bread>Jam')
  })

  it('drops rules under minSupport (and, Apriori, products under it alone)', async () => {
    await mine({ ...loose, minSupport: 0.2 })
    expect(await rules()).toEqual(['Bread>Butter', 'Butter>Bread'])
  })

  it('drops rules under minConfidence: Jam→Bread is certain, Bread→Jam is not', async () => {
    await mine({ ...loose, minConfidence: 0.5 })
    // Butter→Cheese is 1/9 and Milk→Bread 2/8; Cheese→Butter is 1/1.
    expect(await rules()).toEqual(['Bread>Butter', 'Butter>Bread', 'Cheese>Butter', 'Jam>Bread'])
  })

  it('drops rules under minLift: Bread→Milk is bought together less than chance', async () => {
    await mine({ ...loose, minLift: 1 })
    const kept = await rules()
    expect(kept).toContain('Bread>Jam')
    expect(kept).not.toContain('Bread>Milk')
    expect(kept).not.toContain('Milk>Bread')
  })

  it('the defaults keep the strong pairs only; a second run changes nothing', async () => {
    await mine(DEFAULT_ASSOCIATION_THRESHOLDS)
    const first = await rules()
    expect(first).toEqual(['Bread>Butter', 'Bread>Jam', 'Butter>Bread', 'Jam>Bread'])
    await mine(DEFAULT_ASSOCIATION_THRESHOLDS)
    expect(await rules()).toEqual(first)
    // Two instances mining at once take turns: each rule once, no duplicate key.
    await Promise.all([mine(DEFAULT_ASSOCIATION_THRESHOLDS), mine(DEFAULT_ASSOCIATION_THRESHOLDS), mine(DEFAULT_ASSOCIATION_THRESHOLDS)])
    expect(await rules()).toEqual(first)
  })

  it('reads its thresholds from the environment and refuses nonsense', () => {
    expect(parseAssociationThresholds({})).toEqual(DEFAULT_ASSOCIATION_THRESHOLDS)
    expect(parseAssociationThresholds({ RECOMMEND_MIN_LIFT: '2', RECOMMEND_MIN_PAIR_ORDERS: '3' })).toMatchObject({
      minLift: 2,
      minPairOrders: 3,
    })
    expect(() => parseAssociationThresholds({ RECOMMEND_MIN_SUPPORT: '1.5' })).toThrow(/RECOMMEND_MIN_SUPPORT/)
    expect(() => parseAssociationThresholds({ RECOMMEND_MIN_CONFIDENCE: '0' })).toThrow(/RECOMMEND_MIN_CONFIDENCE/)
    expect(() => parseAssociationThresholds({ RECOMMEND_MIN_PAIR_ORDERS: '1.5' })).toThrow(/RECOMMEND_MIN_PAIR_ORDERS/)
  })
})

describe('the recommend.mine job', () => {
  it('mines the rules when the queue runs it', async () => {
    await t.db.execute(sql`delete from product_associations`)
    await t.deps.jobs.send('recommend.mine', {})
    expect(await t.deps.jobs.drain()).toBeGreaterThanOrEqual(1)
    expect(await rules()).toEqual(['Bread>Butter', 'Bread>Jam', 'Butter>Bread', 'Jam>Bread'])
  })
})

describe('POST /api/recommend/together and /missed', () => {
  it('answers the rules by lift, then the shelf best sellers; never the product itself', async () => {
    await mine(DEFAULT_ASSOCIATION_THRESHOLDS)
    const res = await t.call('recommend/together', { json: { productId: p.Bread!.id } })
    expect(res.status).toBe(200)
    expect(res.body.data.source).toBe('rules')
    // Jam (lift 1.67) before Butter (1.48); then Bread's shelf: Rusk (1 delivered) before Bun (none).
    expect(cards(res)).toEqual(['Jam', 'Butter', 'Rusk', 'Bun'])
  })

  it('falls back to the same sub category best sellers when a product has no rule', async () => {
    const res = await t.call('recommend/together', { json: { productId: p.Cheese!.id } })
    expect(res.body.data.source).toBe('best-sellers')
    // Spreads: Butter (10 delivered lines) before Jam (2).
    expect(cards(res)).toEqual(['Butter', 'Jam'])
  })

  it('leaves out a product out of stock in the store', async () => {
    await setStockIn(t.db, p.Jam!.id, 0)
    t.deps.cache.invalidate()
    try {
      const res = await t.call('recommend/together', { json: { productId: p.Bread!.id } })
      expect(cards(res)).toEqual(['Butter', 'Rusk', 'Bun'])
    } finally {
      await setStockIn(t.db, p.Jam!.id, 10)
      t.deps.cache.invalidate()
    }
  })

  it('answers 404 for an unknown product and 400 for a malformed body', async () => {
    expect((await t.call('recommend/together', { json: { productId: 'nope' } })).status).toBe(404)
    expect((await t.call('recommend/together', { json: { productId: 5 } })).status).toBe(400)
    expect((await t.call('recommend/missed', { json: { productIds: 'x' } })).status).toBe(400)
    expect((await t.call('recommend/missed', { json: { productIds: Array.from({ length: 51 }, () => 'a') } })).status).toBe(400)
  })

  it('never answers a product already in the basket', async () => {
    const res = await t.call('recommend/missed', { json: { productIds: [p.Bread!.id, p.Jam!.id] } })
    expect(res.status).toBe(200)
    expect(res.body.data.source).toBe('rules')
    // Butter from both rules (Bread→Butter, Jam's shelf); neither Bread nor Jam.
    expect(cards(res)[0]).toBe('Butter')
    expect(cards(res)).not.toContain('Bread')
    expect(cards(res)).not.toContain('Jam')
    const empty = await t.call('recommend/missed', { json: { productIds: [] } })
    expect(empty.body.data.products).toEqual([])
  })
})

describe('POST /api/recommend/buy-again', () => {
  it('asks a guest to sign in', async () => {
    expect((await t.call('recommend/buy-again', { json: {} })).status).toBe(401)
  })

  it('lists the shopper’s own products, most often then most recently ordered, in stock only, not from cancelled orders', async () => {
    const who = await createShopper(t)
    const day = (n: number) => new Date(Date.UTC(2026, 10, n))
    await order(who.user.id, [p.Milk!.id, p.Bread!.id], 'delivered', day(1))
    await order(who.user.id, [p.Milk!.id], 'placed', day(2))
    await order(who.user.id, [p.Jam!.id], 'delivered', day(3))
    await order(who.user.id, [p.Butter!.id], 'delivered', day(4))
    await order(who.user.id, [p.Lonely!.id], 'cancelled', day(5))
    await order(who.user.id, [p.Rusk!.id], 'delivered', day(6))
    await setStockIn(t.db, p.Rusk!.id, 0)
    try {
      const res = await t.call('recommend/buy-again', { json: {}, token: who.token })
      expect(res.status).toBe(200)
      // Milk twice; then once each, latest first: Butter (4th), Jam (3rd), Bread (1st). Rusk is sold out, Lonely cancelled.
      expect(cards(res)).toEqual(['Milk', 'Butter', 'Jam', 'Bread'])
    } finally {
      await setStockIn(t.db, p.Rusk!.id, 10)
    }
  })

  it('answers an empty list for a shopper without orders', async () => {
    const who = await createShopper(t)
    const res = await t.call('recommend/buy-again', { json: {}, token: who.token })
    expect(res.body.data.products).toEqual([])
  })
})

describe('seedDemoOrders', () => {
  it('writes the delivered history of the baskets whose SKUs exist, once (a second start writes nothing)', async () => {
    // Eggs (BB-6) and butter (BB-136) stand for Bread and Butter here; no other basket has two products.
    await t.db.execute(sql`update products set sku = 'BB-6' where id = ${p.Bread!.id}`)
    await t.db.execute(sql`update products set sku = 'BB-136' where id = ${p.Butter!.id}`)
    // Two starts seeding at once: one writes the history, the other nothing.
    expect((await Promise.all([seedDemoOrders(t.db), seedDemoOrders(t.db)])).sort()).toEqual([0, 8])
    const [history] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from orders o join users u on u.id = o.user_id where u.email = ${DEMO_HISTORY_EMAIL} and o.status = 'delivered'`,
    )
    expect(Number(history!.n)).toBe(8)
    // The orders are whole orders: the admin's list answers them in the shape of contract/order.ts
    // (an order off that shape makes the dashboard's order desk a 502).
    const admin = await createAdmin(t)
    const list = await t.call('order/admin-list', { method: 'POST', json: { page: 1, limit: 50 }, token: admin.token })
    expect(list.status, JSON.stringify(list.body)).toBe(200)
    const body = list.body as { data: unknown[] }
    expect(z.array(OrderSchema).safeParse(body.data).error?.issues ?? []).toEqual([])
    expect(body.data.length).toBeGreaterThanOrEqual(8)
    expect(await seedDemoOrders(t.db)).toBe(0)
  })
})
