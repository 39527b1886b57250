/**
 * Delivery partners and dispatch (docs/delivery.md), on a fresh database (PGlite, or PostgreSQL with
 * TEST_DATABASE_URL, where the races run truly concurrently):
 *
 * - a RIDER is made by an admin's invite (a store required) or `grantRole`;
 * - the rider's calls are a rider's only, on the orders given to it; bodies are validated;
 * - on / off shift; the dispatch rule (the free rider waiting longest gets the oldest waiting order);
 *   the batch size; an admin's reassignment; "Delivered" with the cash; "Could not deliver";
 * - races: two packers and one rider give the rider exactly one order; two riders going on shift
 *   for one waiting order, exactly one gets it; with batch size 2, three packers, exactly two.
 */
import { and, eq, inArray, sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { DEFAULT_COMMERCE } from '../../config.ts'
import { auditLog, orders, riderShifts, users } from '../../db/schema.ts'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { createAdmin, createRider, createShopper, createStaff, type SignedIn } from '../../testing/auth.ts'
import { SEEDED_DEFAULT_STORE } from '../../testing/fixtures.ts'
import { placeTestOrder } from '../../testing/orders.ts'
import { DELIVERY_CODE_MAX_ATTEMPTS, RIDER_MESSAGES, wrongCodeMessage } from '../../../contract/rider.ts'
import { STAFF_MESSAGES } from '../../../contract/staff.ts'
import { grantRole } from '../user/admin-accounts.ts'

const KORAMANGALA = 'storeBlrKoramangala'

let t: TestApp
let admin: SignedIn
let staff: SignedIn

beforeAll(async () => {
  t = await createTestApp()
  admin = await createAdmin(t)
  staff = await createStaff(t)
}, 180_000)
afterAll(() => t?.close())

/** Every rider off shift and every open order closed: each test starts with an empty store. */
async function emptyStores(app: TestApp) {
  await app.db.update(riderShifts).set({ onShift: false })
  await app.db
    .update(orders)
    .set({ status: 'cancelled', riderId: null })
    .where(inArray(orders.status, ['placed', 'packed', 'out_for_delivery']))
}

const place = async (app: TestApp = t) => (await placeTestOrder(app)).order
const pack = (orderId: string, by: SignedIn = admin, app: TestApp = t) =>
  app.call('order/update-status', { method: 'PUT', json: { orderId, status: 'packed' }, token: by.token })
const shift = (rider: SignedIn, onShift: boolean, app: TestApp = t) =>
  app.call('rider/shift', { method: 'POST', json: { onShift }, token: rider.token })
const me = async (rider: SignedIn, app: TestApp = t) => (await app.call('rider/me', { token: rider.token })).body.data
const riderOf = async (orderId: string, app: TestApp = t) =>
  (await app.db.select({ riderId: orders.riderId }).from(orders).where(eq(orders.id, orderId)))[0]!.riderId
const waitedSince = (rider: SignedIn, at: string, app: TestApp = t) =>
  app.db
    .update(riderShifts)
    .set({ freeSince: new Date(at) })
    .where(eq(riderShifts.userId, rider.user.id))

describe('making a rider', () => {
  it('an admin invites a RIDER with a store; without one it is a 400', async () => {
    const made = await t.call('staff/invite', {
      method: 'POST',
      json: { email: `new-rider-${process.pid}@example.com`, role: 'RIDER', storeId: SEEDED_DEFAULT_STORE },
      token: admin.token,
    })
    expect(made.status).toBe(201)
    expect(made.body.data.member).toMatchObject({ role: 'RIDER', storeId: SEEDED_DEFAULT_STORE })
    const bare = await t.call('staff/invite', {
      method: 'POST',
      json: { email: `bare-rider-${process.pid}@example.com`, role: 'RIDER' },
      token: admin.token,
    })
    expect(bare.status).toBe(400)
    expect(JSON.stringify(bare.body)).toContain(STAFF_MESSAGES.riderStoreRequired)
    // Staff may not make riders.
    const byStaff = await t.call('staff/invite', {
      method: 'POST',
      json: { email: `staff-rider-${process.pid}@example.com`, role: 'RIDER', storeId: SEEDED_DEFAULT_STORE },
      token: staff.token,
    })
    expect(byStaff.status).toBe(403)
  })

  it('grantRole (npm run admin -- --role rider) needs a store and records the grant', async () => {
    await expect(grantRole(t.db, { email: `cli-rider-${process.pid}@example.com`, role: 'RIDER' })).rejects.toThrow(/--store/)
    const done = await grantRole(t.db, { email: `cli-rider-${process.pid}@example.com`, role: 'RIDER', storeId: SEEDED_DEFAULT_STORE })
    expect(done.action).toBe('created')
    const [row] = await t.db
      .select()
      .from(users)
      .where(eq(users.email, `cli-rider-${process.pid}@example.com`))
    expect(row).toMatchObject({ role: 'RIDER', storeId: SEEDED_DEFAULT_STORE })
  })
})

describe("the rider's calls", () => {
  beforeEach(() => emptyStores(t))

  it('are a rider’s only, and a rider gets none of the order desk', async () => {
    const rider = await createRider(t, SEEDED_DEFAULT_STORE)
    const shopper = await createShopper(t)
    for (const who of [shopper, staff, admin]) {
      expect((await t.call('rider/me', { token: who.token })).status).toBe(403)
      expect((await shift(who, true)).status).toBe(403)
    }
    expect((await t.call('rider/me')).status).toBe(401)
    const order = await place()
    expect((await pack(order._id, rider)).status).toBe(403)
    expect((await t.call('order/admin-list', { method: 'POST', json: {}, token: rider.token })).status).toBe(403)
    expect((await t.call('dispatch/board', { token: rider.token })).status).toBe(403)
    expect(
      (await t.call('dispatch/assign', { method: 'POST', json: { orderId: order._id, riderId: null }, token: rider.token })).status,
    ).toBe(403)
  })

  it('a rider without a store cannot go on shift', async () => {
    const rider = await createRider(t, SEEDED_DEFAULT_STORE)
    await t.db.update(users).set({ storeId: null }).where(eq(users.id, rider.user.id))
    const res = await shift(rider, true)
    expect(res.status).toBe(409)
    expect(res.body.message).toBe(RIDER_MESSAGES.noStore)
  })

  it('validate their bodies', async () => {
    const rider = await createRider(t, SEEDED_DEFAULT_STORE)
    expect((await t.call('rider/shift', { method: 'POST', json: { onShift: 'yes' }, token: rider.token })).status).toBe(400)
    for (const cash of [-1, 1.5, 'abc', 1e12]) {
      const res = await t.call('rider/delivered', { method: 'POST', json: { orderId: 'x1', cashCollectedPaise: cash }, token: rider.token })
      expect(res.status).toBe(400)
    }
    for (const body of [{ reason: '' }, { reason: 'Nobody home' }, { reason: 'other' }, { reason: 'other', note: 'x'.repeat(121) }]) {
      const res = await t.call('rider/could-not-deliver', { method: 'POST', json: { orderId: 'x1', ...body }, token: rider.token })
      expect(res.status).toBe(400)
    }
    expect((await t.call('rider/picked-up', { method: 'POST', json: {}, token: rider.token })).status).toBe(400)
  })

  it('act only on the orders given to the rider: another’s is a 404', async () => {
    const mine = await createRider(t, SEEDED_DEFAULT_STORE)
    const other = await createRider(t, SEEDED_DEFAULT_STORE)
    await shift(mine, true)
    const order = await place()
    await pack(order._id)
    expect(await riderOf(order._id)).toBe(mine.user.id)
    for (const [path, json] of [
      ['rider/picked-up', { orderId: order._id }],
      ['rider/delivered', { orderId: order._id, cashCollectedPaise: 100 }],
      ['rider/could-not-deliver', { orderId: order._id, reason: 'other', note: 'Locked gate' }],
    ] as const) {
      expect((await t.call(path, { method: 'POST', json, token: other.token })).status).toBe(404)
    }
    expect((await me(other)).orders).toEqual([])
  })
})

describe('shift and dispatch', () => {
  beforeEach(() => emptyStores(t))

  it('the journey: given on packing, picked up, delivered with the cash (audited); the rider is free again', async () => {
    const rider = await createRider(t, SEEDED_DEFAULT_STORE)
    const on = await shift(rider, true)
    expect(on.status).toBe(200)
    expect(on.body.data).toMatchObject({ onShift: true, store: { _id: SEEDED_DEFAULT_STORE }, orders: [] })
    const order = await place()
    // The shopper's delivery instructions (as a placement with them writes them) reach the rider.
    await t.db
      .update(orders)
      .set({ deliveryInstructions: { chips: ['leave_at_door'], note: 'Gate code 4521' } })
      .where(eq(orders.id, order._id))
    expect((await pack(order._id)).status).toBe(200)
    const state = await me(rider)
    expect(state.orders).toHaveLength(1)
    expect(state.orders[0].deliveryInstructions).toEqual({ chips: ['leave_at_door'], note: 'Gate code 4521' })
    expect(state.orders[0]).toMatchObject({
      _id: order._id,
      status: 'packed',
      customerFirstName: 'Asha',
      address: { line: '12, Old Airport Road', city: 'Bengaluru', pincode: '560008', floor: null, landmark: null },
    })
    const collect = state.orders[0].collectPaise as number
    expect(collect).toBeGreaterThan(0)
    // Delivered before picked up: refused.
    expect(
      (await t.call('rider/delivered', { method: 'POST', json: { orderId: order._id, cashCollectedPaise: collect }, token: rider.token }))
        .status,
    ).toBe(409)
    expect((await t.call('rider/picked-up', { method: 'POST', json: { orderId: order._id }, token: rider.token })).status).toBe(200)
    // Going off shift with the order in hand: refused.
    expect((await shift(rider, false)).status).toBe(409)
    const noCash = await t.call('rider/delivered', { method: 'POST', json: { orderId: order._id }, token: rider.token })
    expect(noCash.status).toBe(400)
    expect(noCash.body.message).toBe(RIDER_MESSAGES.cashRequired)
    const done = await t.call('rider/delivered', {
      method: 'POST',
      json: { orderId: order._id, cashCollectedPaise: collect },
      token: rider.token,
    })
    expect(done.status).toBe(200)
    expect(done.body.data.orders).toEqual([])
    const [row] = await t.db.select().from(orders).where(eq(orders.id, order._id))
    expect(row).toMatchObject({ status: 'delivered', cashCollectedPaise: collect, riderId: rider.user.id })
    const audit = await t.db.select().from(auditLog).where(eq(auditLog.entityId, order._id))
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(['dispatch', 'status']))
    expect(audit.some((a) => a.actorId === rider.user.id && JSON.stringify(a.after).includes(String(collect)))).toBe(true)
    expect((await shift(rider, false)).status).toBe(200)
  })

  it('the free rider who has waited longest gets the oldest waiting order; with none free, orders wait', async () => {
    const first = await createRider(t, SEEDED_DEFAULT_STORE)
    const second = await createRider(t, SEEDED_DEFAULT_STORE)
    const elsewhere = await createRider(t, KORAMANGALA)
    await shift(second, true)
    await shift(first, true)
    await shift(elsewhere, true)
    await waitedSince(first, '2026-01-01T08:00:00Z')
    await waitedSince(second, '2026-01-01T09:00:00Z')
    const a = await place()
    const b = await place()
    const c = await place()
    await pack(a._id)
    expect(await riderOf(a._id)).toBe(first.user.id)
    await pack(b._id)
    expect(await riderOf(b._id)).toBe(second.user.id)
    await pack(c._id)
    expect(await riderOf(c._id)).toBeNull()
    // The first rider delivers: free again, it gets the waiting order.
    await t.call('rider/picked-up', { method: 'POST', json: { orderId: a._id }, token: first.token })
    const collect = (await me(first)).orders[0].collectPaise as number
    await t.call('rider/delivered', { method: 'POST', json: { orderId: a._id, cashCollectedPaise: collect }, token: first.token })
    expect(await riderOf(c._id)).toBe(first.user.id)
    expect((await me(elsewhere)).orders).toEqual([])
  })

  it('a rider going on shift takes the oldest waiting order of its store', async () => {
    const a = await place()
    const b = await place()
    await pack(b._id)
    await pack(a._id)
    const rider = await createRider(t, SEEDED_DEFAULT_STORE)
    await shift(rider, true)
    expect(await riderOf(a._id)).toBe(rider.user.id)
    expect(await riderOf(b._id)).toBeNull()
  })

  it('going off shift hands orders not picked up to another rider', async () => {
    const leaving = await createRider(t, SEEDED_DEFAULT_STORE)
    await shift(leaving, true)
    const order = await place()
    await pack(order._id)
    expect(await riderOf(order._id)).toBe(leaving.user.id)
    const staying = await createRider(t, SEEDED_DEFAULT_STORE)
    await shift(staying, true)
    const off = await shift(leaving, false)
    expect(off.status).toBe(200)
    expect(off.body.data).toMatchObject({ onShift: false, orders: [] })
    expect(await riderOf(order._id)).toBe(staying.user.id)
  })

  it('"Could not deliver" ends the order delivery_failed with the reason: the rider is free and gets the next waiting order', async () => {
    const rider = await createRider(t, SEEDED_DEFAULT_STORE)
    await shift(rider, true)
    const order = await place()
    await pack(order._id)
    const early = await t.call('rider/could-not-deliver', {
      method: 'POST',
      json: { orderId: order._id, reason: 'not_reachable' },
      token: rider.token,
    })
    expect(early.status).toBe(409)
    expect(early.body.message).toBe(RIDER_MESSAGES.notOutForDelivery)
    await t.call('rider/picked-up', { method: 'POST', json: { orderId: order._id }, token: rider.token })
    // Another order waits meanwhile (the rider holds one at batch size 1).
    const next = await place()
    await pack(next._id)
    expect(await riderOf(next._id)).toBeNull()
    const failed = await t.call('rider/could-not-deliver', {
      method: 'POST',
      json: { orderId: order._id, reason: 'other', note: 'Nobody home' },
      token: rider.token,
    })
    expect(failed.status).toBe(200)
    const [row] = await t.db.select().from(orders).where(eq(orders.id, order._id))
    expect(row).toMatchObject({ status: 'delivery_failed', deliveryFailureReason: 'other', deliveryFailureNote: 'Nobody home' })
    // The rider is free again: the waiting order is given to it.
    expect(failed.body.data.orders.map((o: { _id: string }) => o._id)).toEqual([next._id])
    // Not on the board any more: it has ended.
    const board = await t.call('dispatch/board', { token: admin.token })
    const store = (board.body.data as { store: { _id: string }; waiting: { _id: string }[] }[]).find(
      (s) => s.store._id === SEEDED_DEFAULT_STORE,
    )!
    expect(store.waiting.find((o) => o._id === order._id)).toBeUndefined()
  })

  it('an order handed back before delivery_failed existed (`delivery_issue` set) waits for an admin, who reassigns it', async () => {
    const rider = await createRider(t, SEEDED_DEFAULT_STORE)
    const order = await place()
    await pack(order._id)
    await t.db.update(orders).set({ deliveryIssue: 'Nobody home' }).where(eq(orders.id, order._id))
    await shift(rider, true)
    expect(await riderOf(order._id)).toBeNull()
    const given = await t.call('dispatch/assign', {
      method: 'POST',
      json: { orderId: order._id, riderId: rider.user.id },
      token: admin.token,
    })
    expect(given.status).toBe(200)
    const [after] = await t.db.select().from(orders).where(eq(orders.id, order._id))
    expect(after).toMatchObject({ riderId: rider.user.id, deliveryIssue: null })
  })

  it('an admin reassigns a packed order; refusals for another store’s rider, an off-shift or full rider, an order out', async () => {
    const one = await createRider(t, SEEDED_DEFAULT_STORE)
    const two = await createRider(t, SEEDED_DEFAULT_STORE)
    const off = await createRider(t, SEEDED_DEFAULT_STORE)
    const far = await createRider(t, KORAMANGALA)
    await shift(one, true)
    await shift(two, true)
    await shift(far, true)
    await waitedSince(one, '2026-01-01T08:00:00Z')
    const a = await place()
    const b = await place()
    await pack(a._id)
    await pack(b._id)
    expect(await riderOf(a._id)).toBe(one.user.id)
    expect(await riderOf(b._id)).toBe(two.user.id)
    const assign = (orderId: string, riderId: string | null, by = admin) =>
      t.call('dispatch/assign', { method: 'POST', json: { orderId, riderId }, token: by.token })
    expect((await assign(a._id, two.user.id, staff)).status).toBe(403)
    expect((await assign(a._id, far.user.id)).status).toBe(404)
    expect((await assign(a._id, off.user.id)).body.message).toBe(RIDER_MESSAGES.riderOffShift)
    expect((await assign(a._id, two.user.id)).body.message).toBe(RIDER_MESSAGES.riderFull)
    // Back to the queue: the rule gives it out again, to the only free rider (none: it waits).
    const queued = await assign(a._id, null)
    expect(queued.status).toBe(200)
    // `one` is free again and waited longest: the rule gives the order straight back.
    expect(queued.body.data.riderId).toBe(one.user.id)
    await t.call('rider/picked-up', { method: 'POST', json: { orderId: b._id }, token: two.token })
    const out = await assign(b._id, one.user.id)
    expect(out.status).toBe(409)
    expect(out.body.message).toBe(RIDER_MESSAGES.notPacked)
    const audit = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, a._id), eq(auditLog.action, 'assign')))
    expect(audit).toHaveLength(1)
  })
})

describe('paid orders and the board’s scope', () => {
  beforeEach(() => emptyStores(t))

  it('a paid order has nothing to collect: cash is refused, a delivery without it records none', async () => {
    const rider = await createRider(t, SEEDED_DEFAULT_STORE)
    await shift(rider, true)
    const order = await place()
    // Paid online as far as the rider's rules go (the payment flow itself: api/modules/payment).
    await t.db.update(orders).set({ paymentState: 'paid' }).where(eq(orders.id, order._id))
    await pack(order._id)
    expect((await me(rider)).orders[0].collectPaise).toBe(0)
    await t.call('rider/picked-up', { method: 'POST', json: { orderId: order._id }, token: rider.token })
    const withCash = await t.call('rider/delivered', {
      method: 'POST',
      json: { orderId: order._id, cashCollectedPaise: 100 },
      token: rider.token,
    })
    expect(withCash.status).toBe(400)
    expect(withCash.body.message).toBe(RIDER_MESSAGES.nothingToCollect)
    expect((await t.call('rider/delivered', { method: 'POST', json: { orderId: order._id }, token: rider.token })).status).toBe(200)
    const [row] = await t.db.select().from(orders).where(eq(orders.id, order._id))
    expect(row).toMatchObject({ status: 'delivered', cashCollectedPaise: null })
  })

  it('staff see their own store on the board; an admin every store', async () => {
    const far = await createStaff(t)
    await t.db.update(users).set({ storeId: KORAMANGALA }).where(eq(users.id, far.user.id))
    const stores = async (who: SignedIn) =>
      ((await t.call('dispatch/board', { token: who.token })).body.data as { store: { _id: string } }[]).map((s) => s.store._id)
    expect(await stores(far)).toEqual([KORAMANGALA])
    expect(await stores(admin)).toEqual(expect.arrayContaining([KORAMANGALA, SEEDED_DEFAULT_STORE]))
  })
})

describe('the dispatch.sweep job', () => {
  beforeEach(() => emptyStores(t))

  it('gives a waiting order whose dispatch never ran to the free rider', async () => {
    const rider = await createRider(t, SEEDED_DEFAULT_STORE)
    await shift(rider, true)
    const order = await place()
    // Packed behind the app's back, as if the process stopped between the commit and the dispatch.
    await t.db.update(orders).set({ status: 'packed' }).where(eq(orders.id, order._id))
    expect(await riderOf(order._id)).toBeNull()
    await t.deps.jobs.send('dispatch.sweep', {})
    await t.deps.jobs.drain()
    expect(await riderOf(order._id)).toBe(rider.user.id)
  })
})

describe('a rider leaving its rounds', () => {
  beforeEach(() => emptyStores(t))

  it('deactivated: its packed order goes to another rider; refused while one is out for delivery', async () => {
    const leaving = await createRider(t, SEEDED_DEFAULT_STORE)
    await shift(leaving, true)
    const a = await place()
    const b = await place()
    await pack(a._id)
    await pack(b._id)
    expect(await riderOf(a._id)).toBe(leaving.user.id)
    expect(await riderOf(b._id)).toBeNull()
    await t.call('rider/picked-up', { method: 'POST', json: { orderId: a._id }, token: leaving.token })
    const deactivate = () =>
      t.call('staff/update', { method: 'PUT', json: { _id: leaving.user.id, status: 'Inactive' }, token: admin.token })
    const refused = await deactivate()
    expect(refused.status).toBe(409)
    expect(refused.body.message).toBe(STAFF_MESSAGES.riderInHand)
    const collect = (await me(leaving)).orders[0].collectPaise as number
    await t.call('rider/delivered', { method: 'POST', json: { orderId: a._id, cashCollectedPaise: collect }, token: leaving.token })
    expect(await riderOf(b._id)).toBe(leaving.user.id)
    const staying = await createRider(t, SEEDED_DEFAULT_STORE)
    await shift(staying, true)
    expect((await deactivate()).status).toBe(200)
    expect(await riderOf(b._id)).toBe(staying.user.id)
    const [row] = await t.db.select().from(riderShifts).where(eq(riderShifts.userId, leaving.user.id))
    expect(row!.onShift).toBe(false)
  })
})

describe('races', () => {
  beforeEach(() => emptyStores(t))

  it('two packers at once, one free rider: exactly one order gets the rider', async () => {
    const packer = await createStaff(t)
    await t.db.update(users).set({ storeId: SEEDED_DEFAULT_STORE }).where(eq(users.id, packer.user.id))
    for (let round = 0; round < 3; round++) {
      await emptyStores(t)
      const rider = await createRider(t, SEEDED_DEFAULT_STORE)
      await shift(rider, true)
      const a = await place()
      const b = await place()
      const answers = await Promise.all([pack(a._id, admin), pack(b._id, packer)])
      expect(answers.map((r) => r.status)).toEqual([200, 200])
      const held = await t.db.select({ id: orders.id }).from(orders).where(eq(orders.riderId, rider.user.id))
      expect(held).toHaveLength(1)
      const waiting = [a._id, b._id].filter((id) => id !== held[0]!.id)
      expect(await riderOf(waiting[0]!)).toBeNull()
    }
  })

  it('"Delivered" and "Go off shift" at once: no error, the order delivered, the shift as the winner left it', async () => {
    for (let round = 0; round < 3; round++) {
      await emptyStores(t)
      const rider = await createRider(t, SEEDED_DEFAULT_STORE)
      await shift(rider, true)
      const order = await place()
      await pack(order._id)
      await t.call('rider/picked-up', { method: 'POST', json: { orderId: order._id }, token: rider.token })
      const collect = (await me(rider)).orders[0].collectPaise as number
      const [done, off] = await Promise.all([
        t.call('rider/delivered', { method: 'POST', json: { orderId: order._id, cashCollectedPaise: collect }, token: rider.token }),
        shift(rider, false),
      ])
      expect(done.status).toBe(200)
      // Off shift is refused while the order is still out, or done once it is delivered.
      expect([200, 409]).toContain(off.status)
      const [row] = await t.db.select({ status: orders.status }).from(orders).where(eq(orders.id, order._id))
      expect(row!.status).toBe('delivered')
    }
  })

  it('two riders going on shift at once, one waiting order: exactly one gets it', async () => {
    for (let round = 0; round < 3; round++) {
      await emptyStores(t)
      const order = await place()
      await pack(order._id)
      const one = await createRider(t, SEEDED_DEFAULT_STORE)
      const two = await createRider(t, SEEDED_DEFAULT_STORE)
      const answers = await Promise.all([shift(one, true), shift(two, true)])
      expect(answers.map((r) => r.status)).toEqual([200, 200])
      const holders = answers.filter((r) => r.body.data.orders.length > 0)
      // The answer of the one that lost the race may have been read before the other committed: the row decides.
      expect([one.user.id, two.user.id]).toContain(await riderOf(order._id))
      expect(holders.length).toBeLessThanOrEqual(1)
    }
  })
})

describe('batch size 2', () => {
  let t2: TestApp
  let admin2: SignedIn
  beforeAll(async () => {
    t2 = await createTestApp({ commerce: { ...DEFAULT_COMMERCE, dispatchBatchSize: 2 } })
    admin2 = await createAdmin(t2)
  }, 180_000)
  afterAll(() => t2?.close())

  it('a rider holds two orders at once, never three, even packed at once', async () => {
    const rider = await createRider(t2, SEEDED_DEFAULT_STORE)
    await shift(rider, true, t2)
    const placed = [await place(t2), await place(t2), await place(t2)]
    const answers = await Promise.all(placed.map((o) => pack(o._id, admin2, t2)))
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200])
    const [row] = await t2.db
      .select({ n: sql<number>`count(*)::int` })
      .from(orders)
      .where(eq(orders.riderId, rider.user.id))
    expect(row!.n).toBe(2)
    expect((await me(rider, t2)).batchSize).toBe(2)
  })
})

describe('the delivery code', () => {
  beforeEach(() => emptyStores(t))

  /** An order of `t` at or above the code's threshold (₹100 here, the test order ₹150), given to a rider on shift and picked up. */
  async function outForDelivery() {
    t.deps.commerce.deliveryCodeAbovePaise = 10_000
    const rider = await createRider(t, SEEDED_DEFAULT_STORE)
    await shift(rider, true)
    const { who, order } = await placeTestOrder(t)
    expect((await pack(order._id)).status).toBe(200)
    // Packed: no code yet; the code is made when the order leaves the store.
    expect((await me(rider)).orders[0]).toMatchObject({ _id: order._id, needsCode: false })
    expect((await t.call('rider/picked-up', { method: 'POST', json: { orderId: order._id }, token: rider.token })).status).toBe(200)
    const [row] = await t.db.select({ code: orders.deliveryCode }).from(orders).where(eq(orders.id, order._id))
    return { rider, who, order, code: row!.code! }
  }
  afterAll(() => {
    t.deps.commerce.deliveryCodeAbovePaise = undefined
  })

  it('is shown to the shopper only, asked by "Delivered", and a wrong one counts a try', async () => {
    const { rider, who, order, code } = await outForDelivery()
    expect(code).toMatch(/^\d{4}$/)
    // The shopper's own answer has it; the admin's and the rider's do not.
    expect((await t.call('order/details', { method: 'POST', json: { orderId: order._id }, token: who.token })).body.data.deliveryCode).toBe(
      code,
    )
    expect(
      (await t.call('order/details', { method: 'POST', json: { orderId: order._id }, token: admin.token })).body.data,
    ).not.toHaveProperty('deliveryCode')
    const state = await me(rider)
    expect(state.orders[0]).toMatchObject({ needsCode: true })
    expect(state.orders[0]).not.toHaveProperty('deliveryCode')
    const collect = state.orders[0].collectPaise as number
    const deliver = (json: Record<string, unknown>) =>
      t.call('rider/delivered', { method: 'POST', json: { orderId: order._id, cashCollectedPaise: collect, ...json }, token: rider.token })
    const none = await deliver({})
    expect(none.status).toBe(400)
    expect(none.body.message).toBe(RIDER_MESSAGES.codeRequired)
    expect((await deliver({ deliveryCode: '12a4' })).status).toBe(400)
    const wrong = await deliver({ deliveryCode: code === '0000' ? '0001' : '0000' })
    expect(wrong.status).toBe(400)
    expect(wrong.body.message).toBe(wrongCodeMessage(DELIVERY_CODE_MAX_ATTEMPTS - 1))
    expect(wrong.body.issues).toEqual([{ path: 'deliveryCode', message: wrongCodeMessage(DELIVERY_CODE_MAX_ATTEMPTS - 1) }])
    const right = await deliver({ deliveryCode: ` ${code} ` })
    expect(right.status).toBe(200)
    const [row] = await t.db.select().from(orders).where(eq(orders.id, order._id))
    expect(row).toMatchObject({ status: 'delivered', deliveryCodeAttempts: 1 })
    // Delivered: the shopper's answer no longer shows it.
    expect(
      (await t.call('order/details', { method: 'POST', json: { orderId: order._id }, token: who.token })).body.data,
    ).not.toHaveProperty('deliveryCode')
  })

  it('wrong codes sent at once never pass the limit; then only the store hands the order over', async () => {
    const { rider, order, code } = await outForDelivery()
    const wrongCode = code === '9999' ? '9998' : '9999'
    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        t.call('rider/delivered', {
          method: 'POST',
          json: { orderId: order._id, cashCollectedPaise: 0, deliveryCode: wrongCode },
          token: rider.token,
        }),
      ),
    )
    expect(answers.every((a) => a.status === 400 || a.status === 409)).toBe(true)
    // Tries left 4, 3, 2, 1 each said once; every other answer is the lock.
    const left = answers.filter((a) => a.status === 400).map((a) => a.body.message)
    expect(left.sort()).toEqual([1, 2, 3, 4].map(wrongCodeMessage).sort())
    const [row] = await t.db.select({ attempts: orders.deliveryCodeAttempts }).from(orders).where(eq(orders.id, order._id))
    expect(row!.attempts).toBe(DELIVERY_CODE_MAX_ATTEMPTS)
    const locked = await t.call('rider/delivered', {
      method: 'POST',
      json: { orderId: order._id, cashCollectedPaise: 0, deliveryCode: code },
      token: rider.token,
    })
    expect(locked.status).toBe(409)
    expect(locked.body.message).toBe(RIDER_MESSAGES.codeLocked)
    // The order desk hands it over.
    expect(
      (await t.call('order/update-status', { method: 'PUT', json: { orderId: order._id, status: 'delivered' }, token: admin.token }))
        .status,
    ).toBe(200)
  })

  it('an order below the threshold (₹1,000 by default) gets none', async () => {
    t.deps.commerce.deliveryCodeAbovePaise = undefined
    const rider = await createRider(t, SEEDED_DEFAULT_STORE)
    await shift(rider, true)
    const { order } = await placeTestOrder(t)
    await pack(order._id)
    await t.call('rider/picked-up', { method: 'POST', json: { orderId: order._id }, token: rider.token })
    expect((await me(rider)).orders[0]).toMatchObject({ needsCode: false })
    const [row] = await t.db.select({ code: orders.deliveryCode }).from(orders).where(eq(orders.id, order._id))
    expect(row!.code).toBeNull()
  })
})
