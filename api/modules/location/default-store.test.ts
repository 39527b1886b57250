/**
 * GET /api/location/default-store (docs/stores.md, "Location (BFF)"): the store a shopper without a
 * location browses is the first active store by position, answered as a StoreSummary to anyone;
 * when it is deactivated the next active store takes its place.
 */
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { stores } from '../../db/schema.ts'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { StoreSummarySchema } from '../../../contract/location.ts'

let t: TestApp

beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t?.close())

describe('GET /api/location/default-store', () => {
  it('answers the seeded default store (Indiranagar) to a visitor', async () => {
    const res = await t.call('location/default-store')
    expect(res.status).toBe(200)
    const store = StoreSummarySchema.parse(res.body.data)
    expect(store).toMatchObject({ _id: 'storeBlrIndiranagar', area: 'Indiranagar', city: 'Bengaluru', pincode: '560038', open: true })
  })

  it('moves to the next active store when the default one is deactivated', async () => {
    await t.db.update(stores).set({ active: false }).where(eq(stores.id, 'storeBlrIndiranagar'))
    t.deps.cache.invalidate()
    try {
      const res = await t.call('location/default-store')
      expect(res.status).toBe(200)
      expect(res.body.data._id).not.toBe('storeBlrIndiranagar')
      const [next] = await t.db.select({ id: stores.id }).from(stores).where(eq(stores.active, true)).orderBy(stores.position).limit(1)
      expect(res.body.data._id).toBe(next!.id)
    } finally {
      await t.db.update(stores).set({ active: true }).where(eq(stores.id, 'storeBlrIndiranagar'))
      t.deps.cache.invalidate()
    }
  })
})
