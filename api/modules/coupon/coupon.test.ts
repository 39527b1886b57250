/**
 * Coupons at /api/coupon (docs/offers.md, "Coupons"), on a fresh database (PGlite, or PostgreSQL with
 * TEST_DATABASE_URL):
 *
 * - only an admin lists, creates and changes coupons (401 signed out, 403 staff and shoppers);
 * - the demo codes WELCOME50 and SAVE10 exist on a fresh database;
 * - a create keeps the code upper-case, amounts in paise, the window in IST, and is audited; a taken
 *   code is 409 (also for two creates at once); bad shapes are 400 on their field;
 * - an update changes only what it names, clears with null, switches the coupon off, and audits the
 *   changed fields only.
 */
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auditLog, coupons } from '../../db/schema.ts'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { createAdmin, createShopper, createStaff, type SignedIn } from '../../testing/auth.ts'
import { SEEDED_DEFAULT_STORE } from '../../testing/fixtures.ts'
import { COUPON_MESSAGES } from '../../../contract/coupon.ts'

let t: TestApp
let admin: SignedIn

beforeAll(async () => {
  t = await createTestApp()
  admin = await createAdmin(t, { email: 'coupons-owner@example.com', name: 'Owner' })
}, 180_000)
afterAll(() => t?.close())

let seq = 0
const newCode = () => `TEST${process.pid % 1000}X${++seq}`
const create = (json: unknown, token = admin.token) => t.call('coupon/create', { json, token })
const update = (json: unknown, token = admin.token) => t.call('coupon/update', { method: 'PUT', json, token })
const entriesOf = (entityId: string) =>
  t.db
    .select({ action: auditLog.action, entity: auditLog.entity, actor: auditLog.actorId, before: auditLog.before, after: auditLog.after })
    .from(auditLog)
    .where(eq(auditLog.entityId, entityId))
    .orderBy(auditLog.at, auditLog.id)

describe('who may manage coupons', () => {
  it('only an admin: signed out 401, staff and shoppers 403, nothing written', async () => {
    const staff = await createStaff(t)
    const shopper = await createShopper(t)
    const code = newCode()
    expect((await t.call('coupon/list')).status).toBe(401)
    expect((await create({ code, kind: 'flat', amount: 10 }, '')).status).toBe(401)
    for (const who of [staff, shopper]) {
      expect((await t.call('coupon/list', { token: who.token })).status).toBe(403)
      expect((await create({ code, kind: 'flat', amount: 10 }, who.token)).status).toBe(403)
      expect((await update({ _id: 'c0000000000000000000c001', active: false }, who.token)).status).toBe(403)
    }
    expect(await t.db.select().from(coupons).where(eq(coupons.code, code))).toEqual([])
    const [welcome] = await t.db.select().from(coupons).where(eq(coupons.code, 'WELCOME50'))
    expect(welcome!.active).toBe(true)
  })
})

describe('GET /api/coupon/list', () => {
  it('answers the demo codes of a fresh database with their rules in rupees', async () => {
    const res = await t.call('coupon/list', { token: admin.token })
    expect(res.status).toBe(200)
    const byCode = new Map(res.body.data.map((c: { code: string }) => [c.code, c]))
    expect(byCode.get('WELCOME50')).toMatchObject({
      kind: 'flat',
      amount: 50,
      minBasket: 199,
      firstOrderOnly: true,
      perUserLimit: 1,
      active: true,
    })
    expect(byCode.get('SAVE10')).toMatchObject({
      kind: 'percent',
      percent: 10,
      maxDiscount: 75,
      minBasket: 499,
      firstOrderOnly: false,
      active: true,
    })
  })
})

describe('POST /api/coupon/create', () => {
  it('keeps the code upper-case, paise in the database, the window in IST, and audits the create', async () => {
    const code = newCode()
    const res = await create({
      code: `  ${code.toLowerCase()} `,
      kind: 'percent',
      percent: 15,
      maxDiscount: 100,
      minBasket: 300,
      startsAt: '2026-12-01T09:00',
      endsAt: '2026-12-31T23:59',
      totalLimit: 500,
      perUserLimit: 2,
      storeId: SEEDED_DEFAULT_STORE,
      description: 'Winter sale',
    })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    const coupon = res.body.data
    expect(coupon).toMatchObject({ code, kind: 'percent', percent: 15, maxDiscount: 100, minBasket: 300, amount: null, active: true })
    expect(coupon.startsAt).toBe('2026-12-01T03:30:00.000Z')
    expect(coupon.endsAt).toBe('2026-12-31T18:29:00.000Z')
    const [row] = await t.db.select().from(coupons).where(eq(coupons.id, coupon._id))
    expect(row).toMatchObject({ maxDiscountPaise: 10_000, minBasketPaise: 30_000, storeId: SEEDED_DEFAULT_STORE })
    const entries = await entriesOf(coupon._id)
    expect(entries).toHaveLength(1)
    expect(entries[0]).toMatchObject({ action: 'create', entity: 'coupon', actor: admin.user.id, before: null })
    expect(entries[0]!.after).toMatchObject({ code, percent: 15, maxDiscount: 100, totalLimit: 500 })
  })

  it('refuses a taken code with 409, also for two creates of one code at once', async () => {
    expect((await create({ code: 'welcome50', kind: 'flat', amount: 10 })).body.message).toBe(COUPON_MESSAGES.codeTaken)
    const code = newCode()
    const both = await Promise.all([create({ code, kind: 'flat', amount: 10 }), create({ code, kind: 'flat', amount: 20 })])
    expect(both.map((r) => r.status).sort()).toEqual([201, 409])
    expect(await t.db.select().from(coupons).where(eq(coupons.code, code))).toHaveLength(1)
  })

  it('refuses bad shapes with 400 on their field', async () => {
    const cases: [unknown, string, string][] = [
      [{ code: 'A!', kind: 'flat', amount: 10 }, 'code', COUPON_MESSAGES.codeFormat],
      [{ code: newCode(), kind: 'flat' }, 'amount', ''],
      [{ code: newCode(), kind: 'percent' }, 'percent', ''],
      [{ code: newCode(), kind: 'percent', percent: 101 }, 'percent', ''],
      [{ code: newCode(), kind: 'flat', amount: 10.5 }, 'amount', 'The amount off must be a whole number of rupees'],
      [
        { code: newCode(), kind: 'flat', amount: 10, startsAt: '2026-12-02T00:00', endsAt: '2026-12-01T00:00' },
        'endsAt',
        COUPON_MESSAGES.windowOrder,
      ],
      [{ code: newCode(), kind: 'flat', amount: 10, storeId: 'storeNowhere' }, 'storeId', COUPON_MESSAGES.unknownStore],
      [
        { code: newCode(), kind: 'flat', amount: 10, categoryId: 'ffffffffffffffffffffffff' },
        'categoryId',
        COUPON_MESSAGES.unknownCategory,
      ],
    ]
    for (const [body, path, message] of cases) {
      const res = await create(body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      const issue = (res.body.issues ?? []).find((i: { path: string }) => i.path === path)
      expect(issue, JSON.stringify(res.body)).toBeDefined()
      if (message) expect(issue.message).toBe(message)
    }
  })
})

describe('PUT /api/coupon/update', () => {
  it('changes only what it names, clears with null, switches off, and audits the changed fields only', async () => {
    const made = (await create({ code: newCode(), kind: 'flat', amount: 40, minBasket: 200, totalLimit: 10 })).body.data
    const res = await update({ _id: made._id, minBasket: 250, totalLimit: null })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.data).toMatchObject({ amount: 40, minBasket: 250, totalLimit: null, active: true })
    const off = await update({ _id: made._id, active: false })
    expect(off.body.data.active).toBe(false)
    // The list answers active coupons first: the switched-off one comes after every active one.
    const listed: { _id: string; active: boolean }[] = (await t.call('coupon/list', { token: admin.token })).body.data
    const at = listed.findIndex((c) => c._id === made._id)
    expect(listed.slice(0, at).every((c) => c.active)).toBe(true)
    expect(listed.slice(at).every((c) => !c.active)).toBe(true)
    const entries = await entriesOf(made._id)
    expect(entries.slice(1)).toEqual([
      {
        action: 'update',
        entity: 'coupon',
        actor: admin.user.id,
        before: { minBasket: 200, totalLimit: 10 },
        after: { minBasket: 250, totalLimit: null },
      },
      { action: 'update', entity: 'coupon', actor: admin.user.id, before: { active: true }, after: { active: false } },
    ])
  })

  it('refuses an unknown coupon (404), nothing to change (400), and a flat coupon without its amount (400)', async () => {
    expect((await update({ _id: 'ffffffffffffffffffffffff', active: false })).status).toBe(404)
    const made = (await create({ code: newCode(), kind: 'flat', amount: 40 })).body.data
    expect((await update({ _id: made._id })).status).toBe(400)
    const cleared = await update({ _id: made._id, amount: null })
    expect(cleared.status).toBe(400)
    expect(cleared.body.message).toBe(COUPON_MESSAGES.amountRequired)
    expect(await entriesOf(made._id)).toHaveLength(1)
  })
})
