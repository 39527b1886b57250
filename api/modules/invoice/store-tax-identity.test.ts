/**
 * Each dark store's tax identity (docs/decisions/0042-invoice-and-credit-note-numbering.md) on a
 * fresh database (PGlite, or PostgreSQL with TEST_DATABASE_URL): the seeded stores carry their
 * state's GSTIN and an invoice code; an admin edits them through PUT /api/store/update, audited; a
 * GSTIN with a wrong check character or of another state, and an invoice code another store uses,
 * are refused with the field named.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isValidGstin } from '../../../contract/invoice.ts'
import { queryRows } from '../../db/query.ts'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { createAdmin, createStaff, type SignedIn } from '../../testing/auth.ts'

let t: TestApp
let admin: SignedIn

beforeAll(async () => {
  t = await createTestApp()
  admin = await createAdmin(t)
})
afterAll(() => t?.close())

const update = (json: Record<string, unknown>, token = admin.token) => t.call('store/update', { method: 'PUT', json, token })

describe('store tax identity', () => {
  it('seeds every store with its state’s GSTIN (29 Karnataka, 07 Delhi, 27 Maharashtra) and a code', async () => {
    const list = (await t.call('store/list', { token: admin.token })).body.data as Array<{
      _id: string
      gstin: string
      invoiceCode: string
    }>
    const byId = new Map(list.map((s) => [s._id, s]))
    expect(byId.get('storeBlrIndiranagar')).toMatchObject({ gstin: '29AAAAA0000A1ZY', invoiceCode: 'BLR1' })
    expect(byId.get('storeDelHauzKhas')).toMatchObject({ gstin: '07AAAAA0000A1Z4', invoiceCode: 'DEL2' })
    expect(byId.get('storeMumBandraWest')).toMatchObject({ gstin: '27AAAAA0000A1Z2', invoiceCode: 'MUM1' })
    for (const s of list) expect(isValidGstin(s.gstin)).toBe(true)
  })

  it('an admin changes GSTIN, registered address and code; the change is audited', async () => {
    const res = await update({
      _id: 'storeBlrHsrLayout',
      gstin: ' 29aaaaa0000a2zx ',
      registeredAddress: '27th Main Road, HSR Layout, Bengaluru 560102',
      invoiceCode: 'hsr',
    })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.data).toMatchObject({ gstin: '29AAAAA0000A2ZX', invoiceCode: 'HSR', registeredAddress: expect.stringContaining('HSR') })
    const [audit] = await queryRows<{ before: Record<string, unknown>; after: Record<string, unknown> }>(
      t.db,
      sql`select before, after from audit_log where entity = 'store' and entity_id = 'storeBlrHsrLayout' order by at desc limit 1`,
    )
    expect(audit).toMatchObject({
      before: { gstin: '29AAAAA0000A1ZY', invoiceCode: 'BLR3' },
      after: { gstin: '29AAAAA0000A2ZX', invoiceCode: 'HSR' },
    })
    // Emptied: back to the seller's GSTIN.
    const cleared = await update({ _id: 'storeBlrHsrLayout', gstin: null })
    expect(cleared.body.data.gstin).toBeNull()
  })

  it('refuses a wrong check character, another state’s GSTIN, a bad code and a code in use, naming the field', async () => {
    const typo = await update({ _id: 'storeBlrKoramangala', gstin: '29AAAAA0000A1ZX' })
    expect(typo.status).toBe(400)
    expect(JSON.stringify(typo.body)).toMatch(/gstin/)
    expect(JSON.stringify(typo.body)).toMatch(/typing mistake/)
    const shape = await update({ _id: 'storeBlrKoramangala', gstin: '29AAAAA0000' })
    expect(shape.status).toBe(400)
    const delhi = await update({ _id: 'storeBlrKoramangala', gstin: '07AAAAA0000A1Z4' })
    expect(delhi.status).toBe(400)
    expect(delhi.body.message).toMatch(/registered in Delhi.*Karnataka needs a GSTIN starting with 29/)
    // Moving a store to another state's pincode with its old GSTIN is refused as well.
    const moved = await update({ _id: 'storeBlrKoramangala', pincode: '110001' })
    expect(moved.status).toBe(400)
    expect((await update({ _id: 'storeBlrKoramangala', invoiceCode: 'BLR-2' })).status).toBe(400)
    const taken = await update({ _id: 'storeBlrKoramangala', invoiceCode: 'blr1' })
    expect(taken.status).toBe(409)
    expect(taken.body.message).toMatch(/BLR1 is Indiranagar's/)
    const staff = await createStaff(t)
    expect((await update({ _id: 'storeBlrKoramangala', invoiceCode: 'KOR' }, staff.token)).status).toBe(403)
    const list = (await t.call('store/list', { token: admin.token })).body.data as Array<{
      _id: string
      gstin: string
      invoiceCode: string
    }>
    expect(list.find((s) => s._id === 'storeBlrKoramangala')).toMatchObject({ gstin: '29AAAAA0000A1ZY', invoiceCode: 'BLR2' })
  })

  it('a new store without a code gets S and a number; with a GSTIN of its state it keeps it', async () => {
    const res = await t.call('store/create', {
      method: 'POST',
      json: {
        name: 'Powai',
        area: 'Powai',
        city: 'Mumbai',
        addressLine: 'Hiranandani Gardens',
        pincode: '400076',
        gstin: '27AAAAA0000A1Z2',
      },
      token: admin.token,
    })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    expect(res.body.data.invoiceCode).toMatch(/^S[0-9]{1,3}$/)
    expect(res.body.data.gstin).toBe('27AAAAA0000A1Z2')
  })
})
