/**
 * Addresses on a fresh database: the shared field rules (contract/address.ts), a user's own
 * addresses only (another user's id is a 404 and untouched), removal (deleted, or hidden while an
 * order names the address), and the visitor's 401.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryRows } from '../../db/query.ts'
import { insertProduct } from '../../testing/fixtures.ts'
import { ADDRESS_LABEL_MESSAGE, PINCODE_MESSAGE, STATE_MESSAGE } from '../../../contract/address.ts'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { createShopper, type SignedIn } from '../../testing/auth.ts'

let t: TestApp
let asha: SignedIn
let ravi: SignedIn

beforeAll(async () => {
  t = await createTestApp()
  asha = await createShopper(t)
  ravi = await createShopper(t)
})
afterAll(() => t?.close())

const home = { address_line: '12, MG Road, Indiranagar', city: 'Bengaluru', state: 'Karnataka', pincode: '560038', mobile: '98450 12345' }
const create = (who: SignedIn, json: unknown) => t.call('address/create', { method: 'POST', json, token: who.token })
const list = async (who: SignedIn) => (await t.call('address/get', { token: who.token })).body.data as { _id: string; city: string }[]

describe('addresses', () => {
  it('a visitor is refused (401)', async () => {
    expect((await t.call('address/get')).status).toBe(401)
    expect((await t.call('address/create', { method: 'POST', json: home })).status).toBe(401)
  })

  it('creates an address with normalised fields and lists it', async () => {
    const res = await create(asha, home)
    expect(res.status).toBe(201)
    expect(res.body.data).toMatchObject({ ...home, mobile: '9845012345', country: 'India', status: true, userId: asha.user.id })
    expect((await list(asha)).map((a) => a._id)).toEqual([res.body.data._id])
  })

  it('refuses bad fields with the messages the form shows', async () => {
    const res = await create(asha, { ...home, state: 'Atlantis', pincode: '012345', mobile: '12345', country: 'Nepal' })
    expect(res.status).toBe(400)
    const byPath = Object.fromEntries(res.body.issues.map((i: { path: string; message: string }) => [i.path, i.message]))
    expect(byPath.state).toBe(STATE_MESSAGE)
    expect(byPath.pincode).toBe(PINCODE_MESSAGE)
    expect(Object.keys(byPath).sort()).toEqual(['country', 'mobile', 'pincode', 'state'])
  })

  it("updates and removes only the user's own address; another user's id is a 404", async () => {
    const mine = (await create(asha, { ...home, city: 'Mysuru', pincode: '570001' })).body.data
    const foreign = await t.call('address/update', { method: 'PUT', json: { ...home, _id: mine._id, city: 'Hijacked' }, token: ravi.token })
    expect(foreign.status).toBe(404)
    expect((await t.call('address/disable', { method: 'DELETE', json: { _id: mine._id }, token: ravi.token })).status).toBe(404)
    expect((await list(asha)).find((a) => a._id === mine._id)?.city).toBe('Mysuru')

    const updated = await t.call('address/update', {
      method: 'PUT',
      json: { ...home, _id: mine._id, city: 'Mangaluru', pincode: '575001' },
      token: asha.token,
    })
    expect(updated.status).toBe(200)
    expect(updated.body.data.city).toBe('Mangaluru')

    expect((await t.call('address/disable', { method: 'DELETE', json: { _id: mine._id }, token: asha.token })).status).toBe(200)
    expect((await list(asha)).some((a) => a._id === mine._id)).toBe(false)
    // A removed address cannot be edited or removed again.
    expect((await t.call('address/disable', { method: 'DELETE', json: { _id: mine._id }, token: asha.token })).status).toBe(404)
    const details = await t.call('user/user-details', { token: asha.token })
    expect(details.body.data.address_details).toEqual((await list(asha)).map((a) => a._id))
  })

  it('a label, floor and landmark are optional: defaults on create, kept on an update that leaves them out', async () => {
    // The original client's body (no extras) still works: Home, no floor, no landmark.
    const plain = await create(asha, home)
    expect(plain.status).toBe(201)
    expect(plain.body.data).toMatchObject({ label: 'Home', floor: '', landmark: '' })

    const work = await create(asha, { ...home, label: 'Work', floor: ' 3rd floor, flat 302 ', landmark: 'Opposite the metro station' })
    expect(work.status).toBe(201)
    expect(work.body.data).toMatchObject({ label: 'Work', floor: '3rd floor, flat 302', landmark: 'Opposite the metro station' })

    // An update without the extras (the original client's) keeps them; one with them replaces them.
    const kept = await t.call('address/update', {
      method: 'PUT',
      json: { ...home, _id: work.body.data._id, city: 'Pune' },
      token: asha.token,
    })
    expect(kept.status).toBe(200)
    expect(kept.body.data).toMatchObject({
      city: 'Pune',
      label: 'Work',
      floor: '3rd floor, flat 302',
      landmark: 'Opposite the metro station',
    })
    const cleared = await t.call('address/update', {
      method: 'PUT',
      json: { ...home, _id: work.body.data._id, label: 'Other', floor: '', landmark: '' },
      token: asha.token,
    })
    expect(cleared.body.data).toMatchObject({ label: 'Other', floor: '', landmark: '' })
    expect((await list(asha)).find((a) => a._id === work.body.data._id)).toMatchObject({ label: 'Other', floor: '', landmark: '' })
  })

  it('refuses an unknown label and an over-long floor or landmark (400 with the field named)', async () => {
    const res = await create(asha, { ...home, label: 'Office', floor: 'x'.repeat(41), landmark: 'y'.repeat(121) })
    expect(res.status).toBe(400)
    const byPath = Object.fromEntries(res.body.issues.map((i: { path: string; message: string }) => [i.path, i.message]))
    expect(byPath.label).toBe(ADDRESS_LABEL_MESSAGE)
    expect(Object.keys(byPath).sort()).toEqual(['floor', 'label', 'landmark'])
  })

  it('keeps at most 20 live addresses', async () => {
    const who = await createShopper(t)
    for (let i = 0; i < 20; i++) expect((await create(who, home)).status).toBe(201)
    const res = await create(who, home)
    expect(res.status).toBe(409)
    expect(res.body.message).toMatch(/at most 20 addresses/)
  })

  it('removing leaves no row behind: adding and removing 30 times in a row keeps nothing', async () => {
    const who = await createShopper(t)
    for (let i = 0; i < 30; i++) {
      const made = await create(who, home)
      expect(made.status).toBe(201)
      expect((await t.call('address/disable', { method: 'DELETE', json: { _id: made.body.data._id }, token: who.token })).status).toBe(200)
    }
    expect(await rowsOf(who)).toEqual([])
  })

  it('an address an order names is kept hidden after removal; the order still shows it', async () => {
    const who = await createShopper(t)
    const used = (await create(who, { ...home, city: 'Mysuru', label: 'Work', floor: '2', landmark: 'Near the temple' })).body.data
      ._id as string
    const spare = (await create(who, home)).body.data._id as string
    const rice = await insertProduct(t.db, { name: 'Sona Masoori Rice', price: 80, stock: 10 })
    expect((await t.call('cart/create', { method: 'POST', json: { productId: rice.id }, token: who.token })).status).toBe(200)
    const order = await t.call('order/cash-on-delivery', {
      method: 'POST',
      json: { addressId: used },
      token: who.token,
      headers: { 'Idempotency-Key': `address-test-${process.pid}` },
    })
    expect(order.status).toBe(201)
    for (const _id of [used, spare]) {
      expect((await t.call('address/disable', { method: 'DELETE', json: { _id }, token: who.token })).status).toBe(200)
    }
    expect(await rowsOf(who)).toEqual([{ id: used, status: false }])
    expect(await list(who)).toEqual([])
    const mine = (await t.call('order/order-list', { token: who.token })).body.data
    // The snapshot keeps the label, floor and landmark too.
    expect(mine[0].delivery_address).toMatchObject({ city: 'Mysuru', label: 'Work', floor: '2', landmark: 'Near the temple' })
  })
})

/** Every address row of a user, hidden ones included. */
const rowsOf = (who: SignedIn) =>
  queryRows<{ id: string; status: boolean }>(t.db, sql`select id, status from addresses where user_id = ${who.user.id} order by created_at`)
