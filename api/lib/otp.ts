/**
 * One-time codes and reset tokens of password recovery (docs/product.md, "Password recovery" and
 * "Constants"; docs/api-contract.md, "Differences from the original contract": the original used
 * `Math.random`, stored the code in clear, never expired it and allowed unlimited tries).
 *
 * - The code: 6 decimal digits from the CSPRNG (`crypto.randomInt`, uniform, no modulo bias). Only
 *   an HMAC-SHA256 of it is stored, keyed with the server secret and bound to the user id: with a
 *   million possible codes a plain or salted hash would fall to brute force from a database dump
 *   alone; the key (a pepper kept outside the database) stops that (OWASP Forgot Password Cheat
 *   Sheet, "tokens ... stored securely"; OWASP Password Storage Cheat Sheet, "Peppering").
 * - The reset token: 32 random bytes (256 bits) as base64url; stored as SHA-256, which is enough
 *   for a value that cannot be guessed.
 */
import { createHmac, randomBytes, randomInt } from 'node:crypto'
import { hashToken, sameHash } from './tokens.ts'
import { OTP_LENGTH, OTP_PATTERN } from '../../contract/user.ts'

/** Digits of a code and their pattern (docs/product.md, "Forgot password"), shared with the request schema. */
export { OTP_LENGTH, OTP_PATTERN }

/** Lifetime of a code: 10 minutes (docs/api-contract.md, "Differences from the original contract"). */
export const OTP_TTL_SECONDS = 10 * 60
/**
 * Wrong tries a code survives; the next try fails even with the right code (docs/api-contract.md,
 * "Differences from the original contract").
 */
export const OTP_MAX_ATTEMPTS = 5
/** Lifetime of a reset token: 15 minutes, single use (docs/api-contract.md, "Differences from the original contract": short-lived). */
export const RESET_TOKEN_TTL_SECONDS = 15 * 60

/** A reset token as `newResetToken` makes it: 43 base64url characters (32 bytes). */
export const RESET_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/

/** A new code: 6 digits, leading zeros kept ("000042"), uniform over 000000-999999. */
export function generateOtp(): string {
  return randomInt(0, 10 ** OTP_LENGTH)
    .toString()
    .padStart(OTP_LENGTH, '0')
}

/**
 * HMAC-SHA256 (hex) of `otp` for `userId`, keyed with `secret` (deps.jwtSecret). Binding the user id
 * means one user's stored hash never matches another user's code; `purpose` separates the kinds of
 * code (a password-reset code is never an SMS sign-in code; api/modules/user/phone.ts passes
 * `sms-signin` or `sms-link` and the number as part of `userId`).
 */
export function hashOtp(otp: string, userId: string, secret: string, purpose = 'password-reset-otp'): string {
  return createHmac('sha256', secret).update(`${purpose}\0${userId}\0${otp}`).digest('hex')
}

/** True when `otp` is the code whose hash is `otpHash` (constant-time). An empty hash never matches. */
export function isSameOtp(otpHash: string, otp: string, userId: string, secret: string, purpose?: string): boolean {
  return sameHash(otpHash, hashOtp(otp, userId, secret, purpose))
}

/** A new reset token: hand out `token`, store `tokenHash` (SHA-256 hex). */
export function newResetToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString('base64url')
  return { token, tokenHash: hashToken(token) }
}

/** True when `token` matches the stored `tokenHash` (constant-time); false for a malformed token. */
export function isSameResetToken(tokenHash: string | null, token: string): boolean {
  if (!tokenHash || !RESET_TOKEN_PATTERN.test(token)) return false
  return sameHash(tokenHash, hashToken(token))
}
