import { decodeJwt, SignJWT } from 'jose'
import { describe, expect, it } from 'vitest'
import {
  ACCESS_TOKEN_TTL_SECONDS,
  hashToken,
  newRefreshToken,
  refreshTokenId,
  sameHash,
  signAccessToken,
  verifyAccessToken,
} from './tokens.ts'

const secret = 'unit-test-secret-0123456789abcdef'
const now = new Date('2025-01-01T10:00:00Z')
const claims = { userId: '0123456789abcdef01234567', role: 'USER' as const, sessionId: 'fedcba9876543210fedcba98' }

describe('access tokens', () => {
  it('carry sub, role, typ and a 15-minute lifetime taken from the given clock', async () => {
    const token = await signAccessToken(claims, secret, now)
    const payload = decodeJwt(token)
    expect(payload).toMatchObject({ sub: claims.userId, role: 'USER', typ: 'access', sid: claims.sessionId })
    expect(payload.iat).toBe(now.getTime() / 1000)
    expect(payload.exp! - payload.iat!).toBe(ACCESS_TOKEN_TTL_SECONDS)
  })

  it('verify until expiry and not after', async () => {
    const token = await signAccessToken(claims, secret, now)
    expect(await verifyAccessToken(token, secret, new Date(now.getTime() + 14 * 60_000))).toEqual(claims)
    expect(await verifyAccessToken(token, secret, new Date(now.getTime() + 16 * 60_000))).toBeNull()
  })

  it('reject another secret, junk, and tokens that are not access tokens', async () => {
    const token = await signAccessToken(claims, secret, now)
    expect(await verifyAccessToken(token, 'another-secret-0123456789abcdef', now)).toBeNull()
    expect(await verifyAccessToken('junk', secret, now)).toBeNull()
    const iat = now.getTime() / 1000
    const notAccess = await new SignJWT({ role: 'USER', typ: 'refresh' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(claims.userId)
      .setIssuedAt(iat)
      .setExpirationTime(iat + 60)
      .sign(new TextEncoder().encode(secret))
    expect(await verifyAccessToken(notAccess, secret, now)).toBeNull()
  })

  it('reject an unsigned token (alg none)', async () => {
    const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url')
    const exp = now.getTime() / 1000 + 60
    const unsigned = `${enc({ alg: 'none', typ: 'JWT' })}.${enc({ sub: claims.userId, role: 'ADMIN', typ: 'access', exp })}.`
    expect(await verifyAccessToken(unsigned, secret, now)).toBeNull()
  })
})

describe('refresh tokens', () => {
  it('are "<id>.<43 base64url chars>" and stored only as their SHA-256', () => {
    const a = newRefreshToken()
    expect(a.token).toMatch(/^[0-9a-f]{24}\.[A-Za-z0-9_-]{43}$/)
    expect(refreshTokenId(a.token)).toBe(a.id)
    expect(a.tokenHash).toBe(hashToken(a.token))
    expect(a.tokenHash).toMatch(/^[0-9a-f]{64}$/)
    expect(newRefreshToken().token).not.toBe(a.token)
  })

  it('refuse other shapes', () => {
    expect(refreshTokenId('')).toBeNull()
    expect(refreshTokenId('abc.def')).toBeNull()
    expect(refreshTokenId(`${'a'.repeat(24)}.${'b'.repeat(42)}`)).toBeNull()
  })

  it('compare hashes in constant time, equal only when equal', () => {
    const h = hashToken('x')
    expect(sameHash(h, hashToken('x'))).toBe(true)
    expect(sameHash(h, hashToken('y'))).toBe(false)
    expect(sameHash(h, 'abcd')).toBe(false)
  })
})
