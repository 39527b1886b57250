/**
 * Test helpers for signed-in callers: a shopper (role USER), a staff member (STAFF), a rider (RIDER) or an admin (role ADMIN) with an access
 * token, as the authorization tests (api/authz.test.ts) need them (visitor = no token, shopper, admin).
 *
 * The user row is made with the real `createUser` (argon2 hash, so the account can also log in with
 * TEST_PASSWORD) and the token is signed with the app's own secret and clock, exactly as login
 * signs it, without going through login's rate limits.
 */
import { eq } from 'drizzle-orm'
import type { AppDeps } from '../deps.ts'
import { users, type User } from '../db/schema.ts'
import { createUser, startSession } from '../modules/user/service.ts'

/** The password of every user these helpers create. */
export const TEST_PASSWORD = 'Basmati-Rice-2024'

/** A user and an access token (send as `Authorization: Bearer <token>`). */
export interface SignedIn {
  user: User
  token: string
}

let seq = 0

/**
 * Creates a user with `role` and a fresh access token for it.
 * @param t the test app (its db, and deps for the JWT secret and clock)
 * @param opts.email defaults to a new unique address; opts.name to a plain name
 */
export async function signedInAs(
  t: { db: AppDeps['db']; deps: Pick<AppDeps, 'jwtSecret' | 'clock'> },
  role: 'USER' | 'ADMIN' | 'STAFF' | 'RIDER',
  opts: { name?: string; email?: string } = {},
): Promise<SignedIn> {
  const tag = role === 'ADMIN' ? 'admin' : role === 'STAFF' ? 'staff' : role === 'RIDER' ? 'rider' : 'shopper'
  const email = opts.email ?? `${tag}-${process.pid}-${++seq}@example.com`
  const user = await createUser(t.db, {
    name: opts.name ?? (role === 'ADMIN' ? 'Store Admin' : role === 'STAFF' ? 'Store Staff' : role === 'RIDER' ? 'Ravi Rider' : 'Asha Rao'),
    email,
    password: TEST_PASSWORD,
    role,
  })
  // A real session (refresh-token family), as login starts one: the guards check it is live.
  const { accessToken: token } = await startSession(
    t.db,
    { db: t.db, jwtSecret: t.deps.jwtSecret, clock: t.deps.clock },
    user,
    t.deps.clock(),
  )
  return { user, token }
}

/** A shopper (role USER) with an access token. */
export const createShopper = (t: Parameters<typeof signedInAs>[0], opts?: { name?: string; email?: string }) => signedInAs(t, 'USER', opts)

/** An admin (role ADMIN) with an access token. */
export const createAdmin = (t: Parameters<typeof signedInAs>[0], opts?: { name?: string; email?: string }) => signedInAs(t, 'ADMIN', opts)

/** A staff member (role STAFF: orders and stock only) with an access token. */
export const createStaff = (t: Parameters<typeof signedInAs>[0], opts?: { name?: string; email?: string }) => signedInAs(t, 'STAFF', opts)

/** A rider (role RIDER) delivering for `storeId`, with an access token (docs/delivery.md). */
export async function createRider(t: Parameters<typeof signedInAs>[0], storeId: string, opts?: { name?: string; email?: string }) {
  const who = await signedInAs(t, 'RIDER', opts)
  await t.db.update(users).set({ storeId }).where(eq(users.id, who.user.id))
  return { ...who, user: { ...who.user, storeId } }
}
