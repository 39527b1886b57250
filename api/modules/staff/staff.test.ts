/**
 * The team at /api/staff (docs/product.md, "Staff"), on a fresh database (PGlite, or PostgreSQL with
 * TEST_DATABASE_URL):
 *
 * - only an admin lists, invites and changes members (401 signed out, 403 staff and shoppers);
 * - an invite makes an account with the role and store and mails how to set a password, or gives an
 *   existing account the role; a staff invite needs a known store;
 * - a change of role, store or status is one audit entry each; deactivating ends the member's
 *   sessions at once (401 on the next call, refresh tokens revoked; 403 to a new sign-in);
 * - no admin can lock the shop out: not their own account, not the last active admin, not even two
 *   admins demoting each other at the same moment.
 */
import { and, eq, isNull } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auditLog, refreshTokens, users } from '../../db/schema.ts'
import type { MailMessage } from '../../lib/mail.ts'
import { CONTACT_ADMIN, SESSION_ENDED } from '../../lib/auth.ts'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { createAdmin, createShopper, createStaff, TEST_PASSWORD, type SignedIn } from '../../testing/auth.ts'
import { SEEDED_DEFAULT_STORE } from '../../testing/fixtures.ts'
import { STAFF_MESSAGES } from '../../../contract/staff.ts'

const mails: MailMessage[] = []
let t: TestApp
let admin: SignedIn

beforeAll(async () => {
  t = await createTestApp({
    mailer: { send: async (m) => void mails.push(m) },
    publicUrl: 'https://shop.example',
  })
  admin = await createAdmin(t, { email: 'owner@example.com', name: 'Owner' })
}, 180_000)
afterAll(() => t?.close())

let seq = 0
const newEmail = () => `member-${process.pid}-${++seq}@example.com`
const invite = (json: unknown, token = admin.token) => t.call('staff/invite', { json, token })
const update = (json: unknown, token = admin.token) => t.call('staff/update', { method: 'PUT', json, token })
const entriesOf = (entityId: string) =>
  t.db
    .select({ action: auditLog.action, actor: auditLog.actorId, before: auditLog.before, after: auditLog.after })
    .from(auditLog)
    .where(eq(auditLog.entityId, entityId))
    .orderBy(auditLog.at, auditLog.id)

describe('who may manage the team', () => {
  it('only an admin: signed out 401, staff and shoppers 403, on every endpoint', async () => {
    const staff = await createStaff(t)
    const shopper = await createShopper(t)
    const body = { email: newEmail(), role: 'ADMIN' }
    expect((await t.call('staff/list')).status).toBe(401)
    for (const who of [staff, shopper]) {
      expect((await t.call('staff/list', { token: who.token })).status).toBe(403)
      expect((await invite(body, who.token)).status).toBe(403)
      expect((await update({ _id: who.user.id, role: 'ADMIN' }, who.token)).status).toBe(403)
    }
    const [made] = await t.db.select().from(users).where(eq(users.email, body.email))
    expect(made).toBeUndefined()
  })
})

describe('POST /api/staff/invite', () => {
  it('makes a staff account in a store, mails how to set a password, and audits it', async () => {
    const email = newEmail()
    mails.length = 0
    const res = await invite({ email: `  ${email.toUpperCase()} `, role: 'STAFF', storeId: SEEDED_DEFAULT_STORE, name: 'Ravi Kumar' })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    expect(res.body.message).toBe('Invited')
    const { member, created } = res.body.data
    expect(created).toBe(true)
    expect(member).toMatchObject({ name: 'Ravi Kumar', email, role: 'STAFF', status: 'Active', storeId: SEEDED_DEFAULT_STORE })
    expect(member.storeName).toEqual(expect.any(String))
    expect(mails).toHaveLength(1)
    expect(mails[0]!.to).toBe(email)
    expect(mails[0]!.text).toContain('as staff')
    expect(mails[0]!.text).toContain('https://shop.example/forgot-password')
    expect(await entriesOf(member._id)).toEqual([
      { action: 'invite', actor: admin.user.id, before: null, after: { email, role: 'STAFF', storeId: SEEDED_DEFAULT_STORE } },
    ])
    // The new member can set a password by the reset flow (the invite's password is shown to nobody).
    expect((await t.call('user/forgot-password', { method: 'PUT', json: { email } })).status).toBe(200)
    const list = await t.call('staff/list', { token: admin.token })
    expect(list.body.data.map((m: { _id: string }) => m._id)).toContain(member._id)
  })

  it('gives an existing shopper the role, keeps their password, and says so by mail', async () => {
    const shopper = await createShopper(t, { email: newEmail() })
    mails.length = 0
    const res = await invite({ email: shopper.user.email, role: 'ADMIN', storeId: SEEDED_DEFAULT_STORE })
    expect(res.status).toBe(201)
    expect(res.body.message).toBe('Role granted')
    expect(res.body.data).toMatchObject({ created: false, member: { _id: shopper.user.id, role: 'ADMIN', storeId: null } })
    expect(mails[0]!.text).toContain('https://shop.example/login')
    expect(mails[0]!.text).not.toContain('forgot-password')
    const [row] = await t.db.select().from(users).where(eq(users.id, shopper.user.id))
    expect(row!.passwordHash).toBe(shopper.user.passwordHash)
    expect(await entriesOf(shopper.user.id)).toEqual([
      { action: 'role', actor: admin.user.id, before: { role: 'USER', storeId: null }, after: { role: 'ADMIN', storeId: null } },
    ])
  })

  it("refuses a staff member without a store or with an unknown one, a bad email, and the admin's own email", async () => {
    const missing = await invite({ email: newEmail(), role: 'STAFF' })
    expect(missing.status).toBe(400)
    expect(missing.body.issues).toEqual([{ path: 'storeId', message: STAFF_MESSAGES.storeRequired }])
    const unknown = await invite({ email: newEmail(), role: 'STAFF', storeId: 'no-such-store' })
    expect(unknown.status).toBe(400)
    expect(unknown.body.message).toBe(STAFF_MESSAGES.unknownStore)
    expect((await invite({ email: 'not an email', role: 'STAFF', storeId: SEEDED_DEFAULT_STORE })).status).toBe(400)
    expect((await invite({ email: newEmail(), role: 'OWNER' })).status).toBe(400)
    const self = await invite({ email: 'owner@example.com', role: 'STAFF', storeId: SEEDED_DEFAULT_STORE })
    expect(self.status).toBe(409)
    expect(self.body.message).toBe(STAFF_MESSAGES.self)
  })
})

describe('PUT /api/staff/update', () => {
  it('moves a member to another role and store, one audit entry per change; a shopper role takes them off the team', async () => {
    const staff = await createStaff(t, { email: newEmail() })
    const stored = await update({ _id: staff.user.id, storeId: SEEDED_DEFAULT_STORE })
    expect(stored.status, JSON.stringify(stored.body)).toBe(200)
    expect(stored.body.data).toMatchObject({ role: 'STAFF', storeId: SEEDED_DEFAULT_STORE })
    const promoted = await update({ _id: staff.user.id, role: 'ADMIN' })
    // An admin runs every store: the store goes.
    expect(promoted.body.data).toMatchObject({ role: 'ADMIN', storeId: null })
    const removed = await update({ _id: staff.user.id, role: 'USER' })
    expect(removed.body.data.role).toBe('USER')
    const list = await t.call('staff/list', { token: admin.token })
    expect(list.body.data.map((m: { _id: string }) => m._id)).not.toContain(staff.user.id)
    // Entries of one transaction share its time: compared in any order.
    const entries = (await entriesOf(staff.user.id)).map((e) => [e.action, e.before, e.after])
    expect(entries).toHaveLength(4)
    expect(entries).toEqual(
      expect.arrayContaining([
        ['update', { storeId: null }, { storeId: SEEDED_DEFAULT_STORE }],
        ['role', { role: 'STAFF' }, { role: 'ADMIN' }],
        ['update', { storeId: SEEDED_DEFAULT_STORE }, { storeId: null }],
        ['role', { role: 'ADMIN' }, { role: 'USER' }],
      ]),
    )
    // Off the team, the account is no longer the staff page's to change.
    expect((await update({ _id: staff.user.id, role: 'STAFF' })).status).toBe(404)
  })

  it('deactivating ends the sessions at once; reactivating lets them sign in again', async () => {
    const staff = await createStaff(t, { email: newEmail() })
    expect((await t.call('store/list', { token: staff.token })).status).toBe(200)
    const off = await update({ _id: staff.user.id, status: 'Inactive' })
    expect(off.body.data.status).toBe('Inactive')
    // Their access token's session is revoked (401); a fresh sign-in is refused while inactive (403).
    const refused = await t.call('store/list', { token: staff.token })
    expect(refused.status).toBe(401)
    expect(refused.body.message).toBe(SESSION_ENDED)
    const login = await t.call('user/login', { json: { email: staff.user.email, password: TEST_PASSWORD } })
    expect(login.status).toBe(403)
    expect(login.body.message).toBe(CONTACT_ADMIN)
    const live = await t.db
      .select()
      .from(refreshTokens)
      .where(and(eq(refreshTokens.userId, staff.user.id), isNull(refreshTokens.revokedAt)))
    expect(live).toEqual([])
    const on = await update({ _id: staff.user.id, status: 'Active' })
    expect(on.body.data.status).toBe('Active')
    expect((await t.call('user/login', { json: { email: staff.user.email, password: TEST_PASSWORD } })).status).toBe(200)
    expect((await entriesOf(staff.user.id)).map((e) => e.after)).toEqual([{ status: 'Inactive' }, { status: 'Active' }])
  })

  it("refuses the admin's own role or status, an unknown member, an unknown store and an empty change", async () => {
    for (const change of [{ role: 'STAFF' }, { status: 'Inactive' }]) {
      const res = await update({ _id: admin.user.id, ...change })
      expect(res.status).toBe(409)
      expect(res.body.message).toBe(STAFF_MESSAGES.self)
    }
    expect((await update({ _id: 'nobody', role: 'STAFF' })).status).toBe(404)
    const shopper = await createShopper(t)
    expect((await update({ _id: shopper.user.id, role: 'ADMIN' })).status).toBe(404)
    const staff = await createStaff(t)
    expect((await update({ _id: staff.user.id, storeId: 'no-such-store' })).status).toBe(400)
    const empty = await update({ _id: staff.user.id })
    expect(empty.status).toBe(400)
    expect(empty.body.message).toContain(STAFF_MESSAGES.nothingToChange)
  })
})

describe('the last active admin', () => {
  it('two admins demoting each other at the same moment leave one admin, never none', async () => {
    const app = await createTestApp()
    try {
      const a = await createAdmin(app)
      const b = await createAdmin(app)
      const put = (who: SignedIn, target: SignedIn) =>
        app.call('staff/update', { method: 'PUT', json: { _id: target.user.id, role: 'STAFF' }, token: who.token })
      const results = await Promise.all([put(a, b), put(b, a)])
      // One wins; the other is refused by the lock and count (409), or, when the winner committed
      // before it was authenticated, as no longer an admin (403).
      expect(results.filter((r) => r.status === 200)).toHaveLength(1)
      const loser = results.find((r) => r.status !== 200)!
      expect([403, 409]).toContain(loser.status)
      if (loser.status === 409) expect(loser.body.message).toBe(STAFF_MESSAGES.lastAdmin)
      const admins = await app.db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.role, 'ADMIN'), eq(users.status, 'Active')))
      expect(admins).toHaveLength(1)
    } finally {
      await app.close()
    }
  }, 180_000)
})
