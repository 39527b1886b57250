/**
 * Token primitives (docs/api-contract.md, "Authentication").
 * - Access token: a JWT signed with HS256, 15 minutes, claims `sub` (user id), `role`, `typ: 'access'`
 *   and `sid`, the session (the refresh-token family it was issued with), so that signing out or a
 *   password reset ends it at once: the guards refuse a token whose session is revoked
 *   (api/lib/auth.ts). The time comes from the caller (deps.clock) so tests can move it.
 * - Refresh token: opaque, `<row id>.<32 random bytes, base64url>`; only its SHA-256 hash is stored
 *   (OAuth 2.0 Security BCP, RFC 9700 §4.14: rotation with reuse detection lives in the user service).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import { jwtVerify, SignJWT } from 'jose'
import { newId } from './ids.ts'

/** Access token lifetime: 15 minutes (OWASP JWT Cheat Sheet: short-lived access tokens). */
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60
/** Refresh token lifetime: 30 days from issue. */
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60

export type Role = 'ADMIN' | 'STAFF' | 'RIDER' | 'USER'

export interface AccessClaims {
  userId: string
  role: Role
  /** The session: the refresh-token family the token was issued with. */
  sessionId: string
}

const keyOf = (secret: string) => new TextEncoder().encode(secret)

/** Signs an access token for `claims`, issued at `now`, expiring ACCESS_TOKEN_TTL_SECONDS later. */
export async function signAccessToken(claims: AccessClaims, secret: string, now: Date): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000)
  return new SignJWT({ role: claims.role, typ: 'access', sid: claims.sessionId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.userId)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ACCESS_TOKEN_TTL_SECONDS)
    .sign(keyOf(secret))
}

/**
 * Verifies an access token at time `now`. Returns its claims, or null for anything not a valid,
 * unexpired HS256 access token of ours (bad signature, other algorithm, expired, refresh token, junk).
 */
export async function verifyAccessToken(token: string, secret: string, now: Date): Promise<AccessClaims | null> {
  try {
    const { payload } = await jwtVerify(token, keyOf(secret), {
      algorithms: ['HS256'],
      currentDate: now,
      requiredClaims: ['sub', 'exp', 'sid'],
    })
    if (payload.typ !== 'access' || typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return null
    if (payload.role !== 'ADMIN' && payload.role !== 'STAFF' && payload.role !== 'RIDER' && payload.role !== 'USER') return null
    return { userId: payload.sub, role: payload.role, sessionId: payload.sid }
  } catch {
    return null
  }
}

/** SHA-256 (hex) of a token: what the database stores instead of the token. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex')
}

/** Constant-time comparison of two hex hashes of equal length. */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex')
  const y = Buffer.from(b, 'hex')
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y)
}

/** A new refresh token: `{ id, token, tokenHash }`; store `id` and `tokenHash`, hand out `token`. */
export function newRefreshToken(): { id: string; token: string; tokenHash: string } {
  const id = newId()
  const token = `${id}.${randomBytes(32).toString('base64url')}`
  return { id, token, tokenHash: hashToken(token) }
}

/** The row id of a refresh token, or null when the token does not have our shape. */
export function refreshTokenId(token: string): string | null {
  const match = /^([0-9a-f]{24})\.[A-Za-z0-9_-]{43}$/.exec(token)
  return match ? match[1] : null
}
