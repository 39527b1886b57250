/**
 * The rules of users and sessions (docs/product.md, "States and transitions", "Validation rules" and
 * "Roles and permissions"; docs/api-contract.md, "Authentication") and their queries.
 * Knows nothing of HTTP: it throws the typed errors of lib/errors.ts.
 *
 * Sessions: login opens a refresh-token family; each refresh marks the presented token used and issues
 * the next one in the same family; a used or revoked token presented again revokes the whole family
 * (OAuth 2.0 Security BCP, RFC 9700 §4.14.2, "refresh token rotation").
 */
import { hasSqlState } from '../../lib/faults.ts'
import { CONTACT_ADMIN, type AccountLookup } from '../../lib/auth.ts'
import { and, eq, exists, gt, isNull, sql } from 'drizzle-orm'
import type { AppDeps } from '../../deps.ts'
import type { Db } from '../../db/client.ts'
import { refreshTokens, users, type User } from '../../db/schema.ts'
import { BadRequest, Conflict, Forbidden, HttpError, Unauthorized } from '../../lib/errors.ts'
import { newId } from '../../lib/ids.ts'
import { hashPassword, verifyDummyPassword, verifyPassword } from '../../lib/passwords.ts'
import { hashToken, newRefreshToken, REFRESH_TOKEN_TTL_SECONDS, refreshTokenId, sameHash, signAccessToken } from '../../lib/tokens.ts'
import {
  NewUserSchema,
  type LoginInput,
  type NewUserInput,
  type RegisterInput,
  type Tokens,
  type User as PublicUser,
} from '../../../contract/user.ts'

/** docs/product.md, "Register", verbatim. */
export const PASSWORD_MISMATCH = 'password and confirm password must be same'
export const EMAIL_TAKEN = 'Email already registered'
/** One message for an unknown email and a wrong password (OWASP Authentication Cheat Sheet: no user enumeration). */
export const WRONG_CREDENTIALS = 'Check your email or password'
/** The original server's answer for an account whose status is not Active. */
export { CONTACT_ADMIN }
export const INVALID_REFRESH_TOKEN = 'Provide a valid refresh token'
export const REFRESH_TOKEN_RACE = 'Refresh token was just used by another request'
/** How long after its use a refresh token's reuse counts as a concurrent request, not theft. */
export const REFRESH_REUSE_GRACE_MS = 10_000

/** What the session functions need of the app's dependencies. */
export type SessionDeps = Pick<AppDeps, 'db' | 'jwtSecret' | 'clock'>

/**
 * Maps a users row to its public shape (contract/user.ts `UserSchema`; docs/api-contract.md, "Users"):
 * never the password hash; the cart, address and order lists empty (only `GET /user-details` fills
 * them). The only way a user leaves the API.
 */
export function toPublicUser(row: User): PublicUser {
  return {
    _id: row.id,
    name: row.name,
    // '' for an account made by phone sign-in: the original client reads a string.
    email: row.email ?? '',
    avatar: row.avatar,
    mobile: row.mobile,
    mobile_verified: row.mobileVerified,
    sms_order_updates: row.smsOrderUpdates,
    verify_email: row.verifyEmail,
    last_login_date: row.lastLoginDate?.toISOString() ?? null,
    status: row.status,
    address_details: [],
    shopping_cart: [],
    orderHistory: [],
    role: row.role,
    storeId: row.role === 'STAFF' ? row.storeId : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  }
}

/** The users row with `id`, or undefined. */
/** The guards' account lookup (api/lib/auth.ts) on `db`: one statement per signed-in request. */
export function accountLookup(db: Db): AccountLookup {
  return { findSessionUser: (userId, sessionId, now) => findSessionUser(db, userId, sessionId, now) }
}

/**
 * The users row of `userId` with whether its session `sessionId` (a refresh-token family) is live at
 * `now`: a token of that family neither revoked nor expired, which an access token needs besides its
 * signature (signing out, a password reset or a detected reuse revoke the family, and its access
 * tokens stop at once). One statement: the user by primary key and an indexed EXISTS on
 * refresh_tokens_family_idx. Undefined when there is no such user.
 */
export async function findSessionUser(
  db: Db,
  userId: string,
  sessionId: string,
  now: Date,
): Promise<{ user: User; live: boolean } | undefined> {
  const liveToken = db
    .select({ one: sql`1` })
    .from(refreshTokens)
    .where(
      and(
        eq(refreshTokens.familyId, sessionId),
        eq(refreshTokens.userId, userId),
        isNull(refreshTokens.revokedAt),
        gt(refreshTokens.expiresAt, now),
      ),
    )
  const [row] = await db
    .select({ user: users, live: exists(liveToken) })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1)
  return row ? { user: row.user, live: Boolean(row.live) } : undefined
}

export async function findUserById(db: Db, id: string): Promise<User | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1)
  return row
}

/** The users row with `email` (already lower-cased), or undefined. */
export async function findUserByEmail(db: Db, email: string): Promise<User | undefined> {
  const [row] = await db.select().from(users).where(eq(users.email, email)).limit(1)
  return row
}

/**
 * Creates a user with an argon2id password hash (register, and the admin CLI).
 * @param input name, email (trimmed and lower-cased here), password (8-128 characters), role (default USER)
 * @returns the new users row
 * @throws 400 with issues for invalid input; 409 EMAIL_TAKEN when the email exists, including when a
 *   concurrent request wins the race (the unique index `users_email_key` decides)
 */
export async function createUser(db: Db, input: NewUserInput): Promise<User> {
  const parsed = NewUserSchema.safeParse(input)
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }))
    throw BadRequest(issues[0]?.message ?? 'Invalid user', issues)
  }
  const { name, email, password, role } = parsed.data
  // Checked first only to skip the argon2 work; the insert below is what guarantees uniqueness.
  if (await findUserByEmail(db, email)) throw Conflict(EMAIL_TAKEN)
  const passwordHash = await hashPassword(password)
  try {
    const [row] = await db.insert(users).values({ name, email, passwordHash, role }).returning()
    return row
  } catch (err) {
    if (isUniqueViolation(err)) throw Conflict(EMAIL_TAKEN)
    throw err
  }
}

/** Registers a shopper (docs/product.md, "Validation rules": the two passwords must match). Returns the public user. */
export async function register(db: Db, input: RegisterInput): Promise<PublicUser> {
  if (input.password !== input.confirmPassword) {
    throw BadRequest(PASSWORD_MISMATCH, [{ path: 'confirmPassword', message: PASSWORD_MISMATCH }])
  }
  return toPublicUser(await createUser(db, { name: input.name, email: input.email, password: input.password, role: 'USER' }))
}

/** True for the one answer of a wrong email or password (a 400 WRONG_CREDENTIALS), the failure sign-in protection counts. */
export function isWrongCredentials(err: unknown): boolean {
  return err instanceof HttpError && err.status === 400 && err.message === WRONG_CREDENTIALS
}

/**
 * Signs in: checks the password, records last_login_date and opens a new refresh-token family.
 * @throws 400 WRONG_CREDENTIALS for an unknown email, an account without a password (phone sign-in)
 *   or a wrong password (same message, similar time);
 *   403 CONTACT_ADMIN when the account is not Active (told only to whoever knows the password)
 */
export async function login(deps: SessionDeps, input: LoginInput): Promise<Tokens> {
  const user = await findUserByEmail(deps.db, input.email)
  // An account made by phone sign-in has no password: checked like an unknown email (same time, same answer).
  const isMatch = user?.passwordHash ? await verifyPassword(user.passwordHash, input.password) : await verifyDummyPassword(input.password)
  if (!user || !isMatch) throw BadRequest(WRONG_CREDENTIALS)
  if (user.status !== 'Active') throw Forbidden(CONTACT_ADMIN)
  const now = deps.clock()
  return deps.db.transaction(async (tx) => {
    await tx.update(users).set({ lastLoginDate: now }).where(eq(users.id, user.id))
    return issueTokens(tx, deps, user, newId(), now)
  })
}

/**
 * Exchanges a refresh token for a new access token and the next refresh token of its family, in one
 * transaction with the token row locked (two concurrent uses of one token: the second is a reuse).
 * @throws 409 when the token was used less than REFRESH_REUSE_GRACE_MS ago (a concurrent refresh);
 *   401 for an unknown, malformed, expired, used or revoked token, or a user who is gone or not
 *   Active; a used (past the grace) or revoked token also revokes its whole family
 */
export async function rotateRefreshToken(deps: SessionDeps, token: string): Promise<Tokens> {
  const id = refreshTokenId(token)
  if (!id) throw Unauthorized(INVALID_REFRESH_TOKEN)
  const now = deps.clock()
  // The transaction returns instead of throwing so that a family revocation commits.
  const tokens = await deps.db.transaction(async (tx) => {
    const [row] = await tx.select().from(refreshTokens).where(eq(refreshTokens.id, id)).for('update')
    if (!row || !sameHash(row.tokenHash, hashToken(token))) return null
    // Two requests of one browser racing with the same token (both saw an expired access token):
    // within a few seconds of its use, a reuse is a race, not theft. Answer 409 without revoking, so
    // the winner's rotated tokens stay valid (the BFF keeps its session on 409).
    if (row.usedAt && !row.revokedAt && now.getTime() - row.usedAt.getTime() < REFRESH_REUSE_GRACE_MS) return 'race' as const
    if (row.usedAt || row.revokedAt) {
      await revokeFamily(tx, row.familyId, now)
      return null
    }
    if (row.expiresAt.getTime() <= now.getTime()) return null
    const user = await findUserById(tx, row.userId)
    if (!user || user.status !== 'Active') {
      await revokeFamily(tx, row.familyId, now)
      return null
    }
    await tx.update(refreshTokens).set({ usedAt: now }).where(eq(refreshTokens.id, row.id))
    return issueTokens(tx, deps, user, row.familyId, now)
  })
  if (tokens === 'race') throw Conflict(REFRESH_TOKEN_RACE)
  if (!tokens) throw Unauthorized(INVALID_REFRESH_TOKEN)
  return tokens
}

/**
 * Signs out server-side: revokes the family of `refreshToken` when it is one of this user's live
 * tokens; otherwise (none given, stale, someone else's) every refresh token of the user, because
 * the session to end cannot be told apart.
 */
export async function logout(deps: SessionDeps, userId: string, refreshToken?: string): Promise<void> {
  const now = deps.clock()
  const id = refreshToken ? refreshTokenId(refreshToken) : null
  if (id && refreshToken) {
    const [row] = await deps.db
      .select()
      .from(refreshTokens)
      .where(and(eq(refreshTokens.id, id), eq(refreshTokens.userId, userId)))
    if (row && sameHash(row.tokenHash, hashToken(refreshToken))) {
      await revokeFamily(deps.db, row.familyId, now)
      return
    }
  }
  await deps.db
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)))
}

/** Starts a new session for `user`: a new refresh-token family and an access token (login, tests). */
export function startSession(db: Db, deps: SessionDeps, user: User, now: Date): Promise<Tokens> {
  return issueTokens(db, deps, user, newId(), now)
}

/** Stores a new refresh token of `familyId` (30 days from `now`) and signs an access token. */
async function issueTokens(db: Db, deps: SessionDeps, user: User, familyId: string, now: Date): Promise<Tokens> {
  const refresh = newRefreshToken()
  await db.insert(refreshTokens).values({
    id: refresh.id,
    userId: user.id,
    familyId,
    tokenHash: refresh.tokenHash,
    expiresAt: new Date(now.getTime() + REFRESH_TOKEN_TTL_SECONDS * 1000),
    createdAt: now,
  })
  const accessToken = await signAccessToken({ userId: user.id, role: user.role, sessionId: familyId }, deps.jwtSecret, now)
  return { accessToken, refreshToken: refresh.token }
}

async function revokeFamily(db: Db, familyId: string, now: Date): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)))
}

/** PostgreSQL's unique_violation (SQLSTATE 23505), on pg or PGlite, possibly wrapped by Drizzle. */
export const isUniqueViolation = (err: unknown): boolean => hasSqlState(err, '23505')
