import { describe, expect, it } from 'vitest'
import { generateOtp, hashOtp, isSameOtp, isSameResetToken, newResetToken, OTP_PATTERN, RESET_TOKEN_PATTERN } from './otp.ts'
import { hashToken } from './tokens.ts'

const secret = 'unit-test-secret-0123456789abcdef'
const userId = '0123456789abcdef01234567'

describe('generateOtp', () => {
  it('gives six ASCII digits, leading zeros kept, and is not constant', () => {
    const codes = Array.from({ length: 2000 }, generateOtp)
    for (const code of codes) expect(code).toMatch(OTP_PATTERN)
    // 2000 draws from a million values: a handful of repeats at most, never a constant stream.
    expect(new Set(codes).size).toBeGreaterThan(1990)
    // Every digit position takes many values (a padding or range bug would pin the first digit).
    for (let i = 0; i < 6; i++) expect(new Set(codes.map((c) => c[i])).size).toBe(10)
  })
})

describe('hashOtp / isSameOtp', () => {
  it('matches only the same code, for the same user, under the same secret', () => {
    const stored = hashOtp('042917', userId, secret)
    expect(stored).toMatch(/^[0-9a-f]{64}$/)
    expect(stored).not.toContain('042917')
    expect(isSameOtp(stored, '042917', userId, secret)).toBe(true)
    expect(isSameOtp(stored, '042918', userId, secret)).toBe(false)
    expect(isSameOtp(stored, '042917', 'fedcba9876543210fedcba98', secret)).toBe(false)
    expect(isSameOtp(stored, '042917', userId, 'another-secret-0123456789abcdef')).toBe(false)
  })

  it('never matches a used (emptied) hash', () => {
    expect(isSameOtp('', '042917', userId, secret)).toBe(false)
  })
})

describe('reset tokens', () => {
  it('are 32 random bytes in base64url, stored as their SHA-256', () => {
    const a = newResetToken()
    const b = newResetToken()
    expect(a.token).toMatch(RESET_TOKEN_PATTERN)
    expect(Buffer.from(a.token, 'base64url')).toHaveLength(32)
    expect(a.token).not.toBe(b.token)
    expect(a.tokenHash).toBe(hashToken(a.token))
    expect(isSameResetToken(a.tokenHash, a.token)).toBe(true)
    expect(isSameResetToken(a.tokenHash, b.token)).toBe(false)
    expect(isSameResetToken(null, a.token)).toBe(false)
    expect(isSameResetToken(a.tokenHash, `${a.token}x`)).toBe(false)
  })
})
