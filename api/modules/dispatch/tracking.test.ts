/**
 * Live tracking (docs/delivery.md, "Live tracking"), on a fresh database (PGlite, or PostgreSQL with
 * TEST_DATABASE_URL, where the duplicate reports run truly concurrently):
 *
 * - POST /api/rider/position: the rider's own order only, only while out for delivery, the body
 *   validated (400, never 500), one position kept per order every 5 s (others `stored: false`),
 *   each kept one announced on the order's live events;
 * - POST /api/tracking/order: the shopper's own order (and admins'), the rider's first name only, the
 *   estimate recomputed from the last position; null in any other status;
 * - the `tracking.purge` job deletes positions 24 h after the order ended, and not before.
 */
import { eq, inArray } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { orders, riderPositions, riderShifts, users } from '../../db/schema.ts'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { createAdmin, createRider, createShopper, createStaff, type SignedIn } from '../../testing/auth.ts'
import { SEEDED_DEFAULT_STORE } from '../../testing/fixtures.ts'
import { placeTestOrder } from '../../testing/orders.ts'
import { parseOrderEvent, type OrderStatusEvent } from '../../lib/order-events.ts'
import { etaMinutes, haversineMetres, POSITION_MIN_INTERVAL_MS } from '../../../contract/tracking.ts'
import { NOT_OUT_FOR_DELIVERY } from './tracking.ts'

/** The app's clock runs `offsetMs` ahead of the real one (the 5 s window, the 24 h retention). */
let offsetMs = 0
let t: TestApp
let admin: SignedIn

beforeAll(async () => {
  t = await createTestApp({ clock: () => new Date(Date.now() + offsetMs) })
  admin = await createAdmin(t)
}, 180_000)
afterAll(() => t?.close())

beforeEach(async () => {
  offsetMs = 0
  await t.db.update(riderShifts).set({ onShift: false })
  await t.db
    .update(orders)
    .set({ status: 'cancelled', riderId: null })
    .where(inArray(orders.status, ['placed', 'packed', 'out_for_delivery']))
})

const INDIRANAGAR_100FT = { lat: 12.9719, lng: 77.6412 }

/** A shopper's order given to a fresh rider named "Ravi Kumar" and, unless `pickUp` is false, out for delivery. */
async function orderWithRider(pickUp = true) {
  // Alone on shift: the packed order is this rider's.
  await t.db.update(riderShifts).set({ onShift: false })
  const rider = await createRider(t, SEEDED_DEFAULT_STORE, { name: 'Ravi Kumar' })
  await t.call('rider/shift', { method: 'POST', json: { onShift: true }, token: rider.token })
  const { who, order } = await placeTestOrder(t)
  const packed = await t.call('order/update-status', { method: 'PUT', json: { orderId: order._id, status: 'packed' }, token: admin.token })
  expect(packed.status).toBe(200)
  if (pickUp)
    expect((await t.call('rider/picked-up', { method: 'POST', json: { orderId: order._id }, token: rider.token })).status).toBe(200)
  return { rider, shopper: who, order }
}

const report = (who: SignedIn, json: unknown) => t.call('rider/position', { method: 'POST', json, token: who.token })
const tracking = (who: SignedIn, orderId: string) => t.call('tracking/order', { method: 'POST', json: { orderId }, token: who.token })

describe('POST /api/rider/position', () => {
  it('keeps the position of the rider’s order out for delivery and announces it on the live events', async () => {
    const { rider, order } = await orderWithRider()
    const seen: OrderStatusEvent[] = []
    const stop = t.deps.orderEvents.subscribe(order._id, (e) => seen.push(e))
    const res = await report(rider, { orderId: order._id, ...INDIRANAGAR_100FT, accuracyM: 12.4 })
    stop()
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ stored: true })
    const rows = await t.db.select().from(riderPositions).where(eq(riderPositions.orderId, order._id))
    expect(rows).toEqual([expect.objectContaining({ riderId: rider.user.id, lat: 12.9719, lng: 77.6412, accuracyM: 12 })])
    await expect.poll(() => seen.length).toBe(1)
    expect(seen[0]).toMatchObject({
      orderId: order._id,
      status: 'out_for_delivery',
      position: { lat: 12.9719, lng: 77.6412, accuracyM: 12, recordedAt: res.body.data.recordedAt },
    })
  })

  it('a position event survives the trip through a database notice (parseOrderEvent); a damaged position is dropped', () => {
    const position = { lat: 12.9719, lng: 77.6412, accuracyM: 9, recordedAt: '2026-11-29T10:00:00.000Z' }
    const event = { orderId: 'o1', status: 'out_for_delivery', version: 4, position }
    expect(parseOrderEvent(JSON.stringify(event))).toEqual(event)
    expect(parseOrderEvent(JSON.stringify({ ...event, position: { lat: 'x' } }))).toEqual({
      orderId: 'o1',
      status: 'out_for_delivery',
      version: 4,
    })
  })

  it('keeps one report per order every 5 s: the others are answered stored: false, even sent at once', async () => {
    const { rider, order } = await orderWithRider()
    const body = { orderId: order._id, ...INDIRANAGAR_100FT, accuracyM: 10 }
    const answers = await Promise.all(Array.from({ length: 6 }, () => report(rider, body)))
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200])
    expect(answers.filter((a) => a.body.data.stored)).toHaveLength(1)
    expect(await t.db.$count(riderPositions, eq(riderPositions.orderId, order._id))).toBe(1)
    offsetMs = POSITION_MIN_INTERVAL_MS + 1_000
    expect((await report(rider, { ...body, lat: 12.97 })).body.data.stored).toBe(true)
    expect(await t.db.$count(riderPositions, eq(riderPositions.orderId, order._id))).toBe(2)
  })

  it('is refused for an order not out for delivery (409), another rider’s order (404) and anyone but a rider (403)', async () => {
    const { rider, order } = await orderWithRider(false)
    const body = { orderId: order._id, ...INDIRANAGAR_100FT, accuracyM: 10 }
    const packed = await report(rider, body)
    expect(packed.status).toBe(409)
    expect(packed.body.message).toBe(NOT_OUT_FOR_DELIVERY)
    const other = await createRider(t, SEEDED_DEFAULT_STORE)
    expect((await report(other, body)).status).toBe(404)
    expect((await report(other, { ...body, orderId: 'no-such-order' })).status).toBe(404)
    for (const who of [await createShopper(t), await createStaff(t), admin]) expect((await report(who, body)).status).toBe(403)
    expect((await t.call('rider/position', { method: 'POST', json: body })).status).toBe(401)
    expect(await t.db.$count(riderPositions, eq(riderPositions.orderId, order._id))).toBe(0)
  })

  it('validates the body: 400 with the field, never a 500', async () => {
    const { rider, order } = await orderWithRider()
    const good = { orderId: order._id, ...INDIRANAGAR_100FT, accuracyM: 10 }
    const bad: Array<[unknown, string]> = [
      [{ ...good, lat: 91 }, 'lat'],
      [{ ...good, lat: -90.5 }, 'lat'],
      [{ ...good, lng: 181 }, 'lng'],
      [{ ...good, lng: '77.6' }, 'lng'],
      [{ ...good, accuracyM: -1 }, 'accuracyM'],
      [{ ...good, accuracyM: 10_001 }, 'accuracyM'],
      [{ ...good, lat: null }, 'lat'],
      [{ lat: 12, lng: 77, accuracyM: 5 }, 'orderId'],
    ]
    for (const [json, field] of bad) {
      const res = await report(rider, json)
      expect(res.status, JSON.stringify(json)).toBe(400)
      expect(JSON.stringify(res.body.errors ?? res.body)).toContain(field)
    }
    expect(
      (
        await t.call('rider/position', {
          method: 'POST',
          body: '{"lat":',
          headers: { 'Content-Type': 'application/json' },
          token: rider.token,
        })
      ).status,
    ).toBe(400)
    expect(await t.db.$count(riderPositions, eq(riderPositions.orderId, order._id))).toBe(0)
  })
})

describe('POST /api/tracking/order', () => {
  it('shows the shopper the rider’s first name, the points and the estimate from the last position', async () => {
    const { rider, shopper, order } = await orderWithRider()
    const before = await tracking(shopper, order._id)
    expect(before.status).toBe(200)
    const view = before.body.data.tracking
    expect(view).toMatchObject({ riderFirstName: 'Ravi', position: null, riderKmph: 20 })
    // Before any report: from the store to the address.
    expect(view.distanceM).toBe(Math.round(haversineMetres(view.store, view.address)))
    await report(rider, { orderId: order._id, ...INDIRANAGAR_100FT, accuracyM: 8 })
    const after = (await tracking(shopper, order._id)).body.data.tracking
    const distanceM = Math.round(haversineMetres(INDIRANAGAR_100FT, view.address))
    expect(after).toMatchObject({ position: { ...INDIRANAGAR_100FT, accuracyM: 8 }, distanceM, etaMinutes: etaMinutes(distanceM, 20) })
    // Nothing of the rider but the first name: no phone, no email, no id, no other order.
    const text = JSON.stringify(after)
    const [riderRow] = await t.db.select().from(users).where(eq(users.id, rider.user.id))
    expect(text).not.toContain(rider.user.id)
    expect(text).not.toContain(riderRow!.email)
    if (riderRow!.mobile) expect(text).not.toContain(riderRow!.mobile)
    expect(text).not.toContain('Kumar')
  })

  it('is the shopper’s own (and an admin’s): another shopper, staff or the rider get a 404', async () => {
    const { rider, order } = await orderWithRider()
    expect((await tracking(admin, order._id)).status).toBe(200)
    for (const who of [await createShopper(t), await createStaff(t), rider]) expect((await tracking(who, order._id)).status).toBe(404)
    expect((await t.call('tracking/order', { method: 'POST', json: { orderId: order._id } })).status).toBe(401)
  })

  it('is null before the order is out and after it is delivered', async () => {
    const { rider, shopper, order } = await orderWithRider(false)
    expect((await tracking(shopper, order._id)).body.data).toMatchObject({ status: 'packed', tracking: null })
    await t.call('rider/picked-up', { method: 'POST', json: { orderId: order._id }, token: rider.token })
    await report(rider, { orderId: order._id, ...INDIRANAGAR_100FT, accuracyM: 8 })
    await t.call('order/update-status', { method: 'PUT', json: { orderId: order._id, status: 'delivered' }, token: admin.token })
    expect((await tracking(shopper, order._id)).body.data).toMatchObject({ status: 'delivered', tracking: null })
  })
})

describe('the tracking.purge job', () => {
  it('deletes positions 24 h after the order was delivered or cancelled, and keeps those of live orders', async () => {
    const delivered = await orderWithRider()
    await report(delivered.rider, { orderId: delivered.order._id, ...INDIRANAGAR_100FT, accuracyM: 8 })
    await t.call('order/update-status', { method: 'PUT', json: { orderId: delivered.order._id, status: 'delivered' }, token: admin.token })
    const cancelled = await orderWithRider()
    await report(cancelled.rider, { orderId: cancelled.order._id, ...INDIRANAGAR_100FT, accuracyM: 8 })
    await t.db.update(orders).set({ status: 'cancelled', updatedAt: new Date() }).where(eq(orders.id, cancelled.order._id))
    const live = await orderWithRider()
    await report(live.rider, { orderId: live.order._id, ...INDIRANAGAR_100FT, accuracyM: 8 })
    const count = (orderId: string) => t.db.$count(riderPositions, eq(riderPositions.orderId, orderId))

    // 23 h later: everything kept.
    offsetMs = 23 * 3600_000
    await t.deps.jobs.send('tracking.purge', {})
    await t.deps.jobs.drain()
    expect([await count(delivered.order._id), await count(cancelled.order._id), await count(live.order._id)]).toEqual([1, 1, 1])

    // 24 h and a minute later: the ended orders' positions are gone, the live one's kept.
    offsetMs = 24 * 3600_000 + 60_000
    await t.deps.jobs.send('tracking.purge', {})
    await t.deps.jobs.drain()
    expect([await count(delivered.order._id), await count(cancelled.order._id), await count(live.order._id)]).toEqual([0, 0, 1])
  })
})
