import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { users } from '../../db/schema.ts'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { DEMO_ADMIN_EMAIL, ensureDemoAdmin, grantRole, promoteOrCreateAdmin } from './admin-accounts.ts'
import { SEEDED_DEFAULT_STORE } from '../../testing/fixtures.ts'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => {
  await t.close()
})

const roleOf = async (email: string) => (await t.db.select().from(users).where(eq(users.email, email)))[0]?.role

describe('admin accounts (README.md, "Admins and mail")', () => {
  it('creates no demo admin on a real database', async () => {
    expect(await ensureDemoAdmin(t.db, { isEmbedded: false })).toBeNull()
    expect(await roleOf(DEMO_ADMIN_EMAIL)).toBeUndefined()
  })

  it('creates the demo admin once on the embedded default, with a random password that signs in', async () => {
    const created = await ensureDemoAdmin(t.db, { isEmbedded: true })
    expect(created).toMatchObject({ email: DEMO_ADMIN_EMAIL, generated: true })
    expect(created!.password.length).toBeGreaterThanOrEqual(16)
    expect(await roleOf(DEMO_ADMIN_EMAIL)).toBe('ADMIN')
    const login = await t.call('user/login', { json: { email: DEMO_ADMIN_EMAIL, password: created!.password } })
    expect(login.status).toBe(200)
    expect(await ensureDemoAdmin(t.db, { isEmbedded: true })).toBeNull()
  })

  it('promotes an existing shopper and creates a missing account', async () => {
    const reg = await t.call('user/register', {
      json: { name: 'Shopper', email: 'shopper-admin@example.com', password: 'password123', confirmPassword: 'password123' },
    })
    expect(reg.status).toBeLessThan(300)
    expect(await roleOf('shopper-admin@example.com')).toBe('USER')
    expect((await promoteOrCreateAdmin(t.db, { email: 'Shopper-Admin@example.com' })).action).toBe('promoted')
    expect(await roleOf('shopper-admin@example.com')).toBe('ADMIN')
    expect((await promoteOrCreateAdmin(t.db, { email: 'shopper-admin@example.com' })).action).toBe('already-admin')

    const created = await promoteOrCreateAdmin(t.db, { email: 'new-admin@example.com', password: 'chosen-password-1' })
    expect(created).toEqual({ action: 'created', email: 'new-admin@example.com', generatedPassword: undefined })
    expect(await roleOf('new-admin@example.com')).toBe('ADMIN')
  })

  it('makes staff of one store (--store), moves them to every store, and refuses an unknown store', async () => {
    const email = 'staff-cli@example.com'
    const rowOf = async () => (await t.db.select().from(users).where(eq(users.email, email)))[0]
    expect((await grantRole(t.db, { email, role: 'STAFF', storeId: SEEDED_DEFAULT_STORE, password: 'chosen-password-2' })).action).toBe(
      'created',
    )
    expect(await rowOf()).toMatchObject({ role: 'STAFF', storeId: SEEDED_DEFAULT_STORE })
    expect((await grantRole(t.db, { email, role: 'STAFF', storeId: SEEDED_DEFAULT_STORE })).action).toBe('unchanged')
    expect((await grantRole(t.db, { email, role: 'STAFF' })).action).toBe('granted')
    expect(await rowOf()).toMatchObject({ role: 'STAFF', storeId: null })
    await expect(grantRole(t.db, { email, role: 'STAFF', storeId: 'noSuchStore' })).rejects.toMatchObject({ status: 400 })
    expect((await grantRole(t.db, { email, role: 'ADMIN', storeId: SEEDED_DEFAULT_STORE })).action).toBe('granted')
    expect(await rowOf()).toMatchObject({ role: 'ADMIN', storeId: null })
  })
})
