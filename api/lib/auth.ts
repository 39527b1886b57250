/**
 * Guards and token cookies (docs/api-contract.md, "Authentication"). The access token comes as
 * `Authorization: Bearer <token>` or as the `accessToken` cookie. The guards load the user row and
 * the token's session on every request, so a deleted user, a deactivated account, a demoted admin
 * or a session ended by sign-out or a password reset is refused at once, whatever the token still
 * says; the role checked is the row's, not the token's.
 */
import type { Context } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import { createMiddleware } from 'hono/factory'
import type { AccountLookup, AppDeps } from '../deps.ts'

export type { AccountLookup }
import type { User } from '../db/schema.ts'
import type { Tokens } from '../../contract/user.ts'
import { Forbidden, Unauthorized } from './errors.ts'
import { assertSameOrigin } from './csrf.ts'
import { apiCookieSameSite } from './cookie-policy.ts'
import { ACCESS_TOKEN_TTL_SECONDS, REFRESH_TOKEN_TTL_SECONDS, verifyAccessToken } from './tokens.ts'

export const ACCESS_COOKIE = 'accessToken'
/** 401 message of a valid access token whose session was ended (sign-out, password reset). */
export const SESSION_ENDED = 'Your session has ended: sign in again'
export const REFRESH_COOKIE = 'refreshToken'

/** Hono env of guarded routes: `c.get('user')` is the signed-in user's row. */
export type AuthEnv = { Variables: { user: User } }

/** 403 message of an account that is not Active (the original API's words). */
export const CONTACT_ADMIN = 'Contact to Admin'

type GuardDeps = Pick<AppDeps, 'jwtSecret' | 'clock' | 'accounts'> & Partial<Pick<AppDeps, 'allowedOrigins'>>

/** True when the request carries an access token (Bearer header or cookie), valid or not. */
export function hasAccessToken(c: Context): boolean {
  return Boolean(bearerToken(c) ?? getCookie(c, ACCESS_COOKIE))
}

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
export function bearerToken(c: Context): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '')
  return match?.[1]
}

/**
 * The signed-in user of a request (Bearer token or `accessToken` cookie), with every check of the
 * guards below. For routes that also serve visitors (the cart): call it only when a token is present.
 * @throws 401 without a valid token or session; 403 for an account not Active or a cross-site write
 */
export async function authenticate(c: Context, deps: GuardDeps): Promise<User> {
  const bearer = bearerToken(c)
  const token = bearer ?? getCookie(c, ACCESS_COOKIE)
  if (!token) throw Unauthorized()
  const now = deps.clock()
  const claims = await verifyAccessToken(token, deps.jwtSecret, now)
  if (!claims) throw Unauthorized()
  const found = await deps.accounts.findSessionUser(claims.userId, claims.sessionId, now)
  if (!found) throw Unauthorized()
  const { user, live } = found
  // Signed out, password reset, or a stolen refresh token detected: the session is over.
  if (!live) throw Unauthorized(SESSION_ENDED)
  if (user.status !== 'Active') throw Forbidden(CONTACT_ADMIN)
  // Signed in by the cookie a browser sends by itself: a write must come from this site (CSRF).
  if (!bearer) assertSameOrigin(c, deps.allowedOrigins ?? [])
  return user
}

/** Middleware: 401 without a valid, unexpired access token of an existing user; 403 for an account not Active. */
export function requireUser(deps: GuardDeps) {
  return createMiddleware<AuthEnv>(async (c, next) => {
    c.set('user', await authenticate(c, deps))
    await next()
  })
}

/**
 * Middleware for a route that also serves visitors: with a token, the user as requireUser sets it (401
 * or 403 for a bad one); without, none. Read it with `signedInUser`.
 */
export function optionalUser(deps: GuardDeps) {
  return createMiddleware<AuthEnv>(async (c, next) => {
    if (hasAccessToken(c)) c.set('user', await authenticate(c, deps))
    await next()
  })
}

/** The user set by optionalUser (or another guard), undefined for a visitor. */
export function signedInUser(c: Context): User | undefined {
  return (c as Context<AuthEnv>).get('user')
}

/**
 * Middleware: as requireUser, then 403 unless the user's role is ADMIN (docs/product.md, "Roles and
 * permissions"; docs/api-contract.md, "Differences from the original contract").
 */
export function requireAdmin(deps: GuardDeps) {
  return createMiddleware<AuthEnv>(async (c, next) => {
    const user = await authenticate(c, deps)
    if (user.role !== 'ADMIN') throw Forbidden()
    c.set('user', user)
    await next()
  })
}

/**
 * Middleware: as requireUser, then 403 unless the user's role is ADMIN or STAFF: the order desk and
 * the stores' stock, which staff handle (docs/product.md, "Roles and permissions"). Everything else
 * an admin does (catalogue, prices, stores' settings, users) stays behind requireAdmin.
 */
export function requireStaff(deps: GuardDeps) {
  return createMiddleware<AuthEnv>(async (c, next) => {
    const user = await authenticate(c, deps)
    if (!isStaffRole(user.role)) throw Forbidden('Permission denied: admin or staff only')
    c.set('user', user)
    await next()
  })
}

/**
 * Middleware: as requireUser, then 403 unless the user's role is RIDER: the rider's own calls
 * (docs/delivery.md). An admin or staff member cannot act as a rider: the order given is the rider's.
 */
export function requireRider(deps: GuardDeps) {
  return createMiddleware<AuthEnv>(async (c, next) => {
    const user = await authenticate(c, deps)
    if (user.role !== 'RIDER') throw Forbidden('Permission denied: riders only')
    c.set('user', user)
    await next()
  })
}

/** True for the roles that run the order desk and stock: ADMIN and STAFF (docs/product.md, "Roles and permissions"). */
export function isStaffRole(role: string): boolean {
  return role === 'ADMIN' || role === 'STAFF'
}

/** 403 message of a staff member acting on a store that is not theirs. */
export const OTHER_STORE = 'Staff work in their own store only'

/**
 * The one dark store a staff member works in (docs/product.md, "Staff"), or null for an admin and for
 * a staff account with no store (made before stores were assigned), who run every store.
 */
export function staffStoreOf(user: Pick<User, 'role' | 'storeId'>): string | null {
  return user.role === 'STAFF' ? user.storeId : null
}

/**
 * A staff member's write to `storeId` (its stock, its orders), allowed only in their own store.
 * @throws 403 OTHER_STORE for another store
 */
export function assertOwnStore(user: Pick<User, 'role' | 'storeId'>, storeId: string): void {
  const own = staffStoreOf(user)
  if (own !== null && own !== storeId) throw Forbidden(OTHER_STORE)
}

/** The user set by requireUser/requireAdmin/requireStaff; throws 401 when the route has no guard (a wiring mistake). */
export function currentUser(c: Context): User {
  const user = (c as Context<AuthEnv>).get('user')
  if (!user) throw Unauthorized()
  return user
}

/** The deps the API's cookie attributes depend on. */
export type CookieDeps = Pick<AppDeps, 'secureCookies' | 'allowedOrigins'>

/**
 * The attributes of an API cookie on `path`: httpOnly, Secure in production, SameSite from
 * api/lib/cookie-policy.ts (Lax, or None for a listed client on another site).
 */
export function apiCookieOptions(c: Context, deps: CookieDeps, path = '/') {
  const host = c.req.header('host') ?? new URL(c.req.url).host
  const sameSite = apiCookieSameSite(deps, host)
  // A cross-site cookie is Partitioned (CHIPS): kept per top-level site, so browsers that block
  // third-party cookies (Chromium's default here, Firefox, Safari) still keep it for the client's pages.
  return { httpOnly: true, sameSite, path, secure: deps.secureCookies, partitioned: sameSite === 'None' } as const
}

/** Sets both token cookies: httpOnly, Path=/, Secure in production, SameSite per `apiCookieOptions`; lifetimes match the tokens. */
export function setTokenCookies(c: Context, deps: CookieDeps, tokens: Tokens): void {
  setCookie(c, ACCESS_COOKIE, tokens.accessToken, { ...apiCookieOptions(c, deps), maxAge: ACCESS_TOKEN_TTL_SECONDS })
  setCookie(c, REFRESH_COOKIE, tokens.refreshToken, { ...apiCookieOptions(c, deps), maxAge: REFRESH_TOKEN_TTL_SECONDS })
}

/** Expires both token cookies (logout). */
export function clearTokenCookies(c: Context, deps: CookieDeps): void {
  deleteCookie(c, ACCESS_COOKIE, apiCookieOptions(c, deps))
  deleteCookie(c, REFRESH_COOKIE, apiCookieOptions(c, deps))
}
