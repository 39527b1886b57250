/**
 * Who is admin or staff (README.md, "Admins and mail"; docs/product.md, "Roles and permissions"):
 * grant a role to an existing account or create one with it, and the demo admin of the embedded
 * default. Every role change is an audit entry (docs/product.md, "Audit trail") by the operator's
 * command line (actor null), written in the change's transaction. Passwords made here come from a CSPRNG and are shown once to the operator,
 * never logged (OWASP Logging Cheat Sheet).
 */
import { randomBytes } from 'node:crypto'
import { eq } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { stores, users } from '../../db/schema.ts'
import { BadRequest } from '../../lib/errors.ts'
import { recordAudit } from '../../lib/audit.ts'
import type { Role } from '../../../contract/user.ts'
import { createUser, findUserByEmail } from './service.ts'

/** A random password of 16 URL-safe characters (96 bits). */
export function randomPassword(): string {
  return randomBytes(12).toString('base64url')
}

/** What `grantRole` did: changed an existing account's role, found it already had it, or created the account. */
export type GrantOutcome = {
  action: 'granted' | 'unchanged' | 'created'
  email: string
  role: Role
  previousRole?: Role
  generatedPassword?: string
}

/**
 * Gives `email` the `role` (ADMIN, STAFF, RIDER, or USER to take a role away) and, for STAFF, the dark
 * store `storeId` they work in (docs/product.md, "Staff"; omitted: every store), for RIDER the store
 * it delivers for (required; docs/delivery.md); any other role has none:
 * changes the existing account's role and store, or creates the account with `password` (or a random
 * one, returned once). The change and its audit entry (`role` on `user`, before/after role and store)
 * are one transaction. The account's tokens need no revoking: the API reads the role and store from
 * the row on every request (api/lib/auth.ts).
 * @throws 400 for a store that does not exist or a RIDER without one; 400/409 from createUser for an invalid email or password
 */
export async function grantRole(
  db: Db,
  input: { email: string; role: Role; name?: string; password?: string; storeId?: string },
): Promise<GrantOutcome> {
  const email = input.email.trim().toLowerCase()
  const { role } = input
  const storeId = role === 'STAFF' || role === 'RIDER' ? (input.storeId ?? null) : null
  // A rider delivers one store's orders (docs/delivery.md): the store is required.
  if (role === 'RIDER' && !storeId) throw BadRequest('A rider needs --store <storeId>', [{ path: 'storeId', message: 'Required' }])
  if (storeId) {
    const [store] = await db.select({ id: stores.id }).from(stores).where(eq(stores.id, storeId))
    if (!store) throw BadRequest(`No store with the id ${storeId}`, [{ path: 'storeId', message: 'Unknown store' }])
  }
  const existing = await findUserByEmail(db, email)
  if (existing) {
    if (existing.role === role && existing.storeId === storeId) return { action: 'unchanged', email, role }
    await db.transaction(async (tx) => {
      await tx.update(users).set({ role, storeId }).where(eq(users.id, existing.id))
      const entry = { actor: null, action: 'role', entity: 'user', entityId: existing.id } as const
      // The store is named only where there is one, so a plain role change reads as before.
      const before = existing.storeId ? { role: existing.role, storeId: existing.storeId } : { role: existing.role }
      await recordAudit(tx, { ...entry, before, after: storeId ? { role, storeId } : { role } })
    })
    return { action: 'granted', email, role, previousRole: existing.role }
  }
  const generatedPassword = input.password ? undefined : randomPassword()
  const password = input.password ?? generatedPassword!
  const name = input.name ?? (role === 'ADMIN' ? 'Admin' : role === 'STAFF' ? 'Staff' : role === 'RIDER' ? 'Rider' : 'Shopper')
  await db.transaction(async (tx) => {
    const user = await createUser(tx, { name, email, password, role })
    if (storeId) await tx.update(users).set({ storeId }).where(eq(users.id, user.id))
    await recordAudit(tx, {
      actor: null,
      action: 'role',
      entity: 'user',
      entityId: user.id,
      before: null,
      after: storeId ? { email, role, storeId } : { email, role },
    })
  })
  return { action: 'created', email, role, generatedPassword }
}

/**
 * Makes `email` an ADMIN (`grantRole` with ADMIN), answered in the words of the admin CLI's first version.
 * @throws 400/409 from createUser for an invalid email or password
 */
export async function promoteOrCreateAdmin(
  db: Db,
  input: { email: string; name?: string; password?: string },
): Promise<{ action: 'promoted' | 'already-admin' | 'created'; email: string; generatedPassword?: string }> {
  const outcome = await grantRole(db, { ...input, role: 'ADMIN' })
  const action = outcome.action === 'granted' ? 'promoted' : outcome.action === 'unchanged' ? 'already-admin' : 'created'
  return { action, email: outcome.email, generatedPassword: outcome.generatedPassword }
}

export const DEMO_ADMIN_EMAIL = 'admin@example.com'

/**
 * On the embedded default only (no DATABASE_URL): when no ADMIN exists yet, creates the demo admin
 * `admin@example.com` with `ADMIN_PASSWORD` or a random password, and returns the credentials for the
 * caller to print once. Returns null when nothing was created (a real database never gets one).
 */
export async function ensureDemoAdmin(
  db: Db,
  opts: { isEmbedded: boolean; password?: string },
): Promise<{ email: string; password: string; generated: boolean } | null> {
  if (!opts.isEmbedded) return null
  const [admin] = await db.select({ id: users.id }).from(users).where(eq(users.role, 'ADMIN')).limit(1)
  if (admin) return null
  const password = opts.password || randomPassword()
  await createUser(db, { name: 'Demo Admin', email: DEMO_ADMIN_EMAIL, password, role: 'ADMIN' })
  return { email: DEMO_ADMIN_EMAIL, password, generated: !opts.password }
}
