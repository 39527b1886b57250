/**
 * Who is admin (README.md, "Admins and mail"): promote or create an ADMIN account, and the demo admin
 * of the embedded default. Passwords made here come from a CSPRNG and are shown once to the operator,
 * never logged (OWASP Logging Cheat Sheet).
 */
import { randomBytes } from 'node:crypto'
import { eq } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { users } from '../../db/schema.ts'
import { createUser, findUserByEmail } from './service.ts'

/** A random password of 16 URL-safe characters (96 bits). */
export function randomPassword(): string {
  return randomBytes(12).toString('base64url')
}

/**
 * Makes `email` an ADMIN: promotes the existing account, or creates one with `password` (or a random
 * one). Returns what happened and, for a new account without a given password, the generated one.
 * @throws 400/409 from createUser for an invalid email or password
 */
export async function promoteOrCreateAdmin(
  db: Db,
  input: { email: string; name?: string; password?: string },
): Promise<{ action: 'promoted' | 'already-admin' | 'created'; email: string; generatedPassword?: string }> {
  const email = input.email.trim().toLowerCase()
  const existing = await findUserByEmail(db, email)
  if (existing) {
    if (existing.role === 'ADMIN') return { action: 'already-admin', email }
    await db.update(users).set({ role: 'ADMIN' }).where(eq(users.id, existing.id))
    return { action: 'promoted', email }
  }
  const generatedPassword = input.password ? undefined : randomPassword()
  await createUser(db, { name: input.name ?? 'Admin', email, password: input.password ?? generatedPassword!, role: 'ADMIN' })
  return { action: 'created', email, generatedPassword }
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
