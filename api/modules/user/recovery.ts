/**
 * Password recovery by one-time code (docs/product.md, "Password recovery"; docs/api-contract.md,
 * "Users" and "Differences from the original contract"; docs/decisions/0010-password-recovery.md;
 * OWASP Forgot Password Cheat Sheet). Three steps, one `password_resets` row per user:
 *
 * 1. `requestPasswordReset`: a fresh 6-digit code (CSPRNG), stored as an HMAC, valid 10 minutes,
 *    mailed to the account. A new request replaces the row, so only the latest code lives.
 * 2. `verifyPasswordResetOtp`: at most 5 wrong tries per code; the right code is spent at once
 *    (its hash emptied) and exchanged for a reset token (256 bits, stored hashed, 15 minutes).
 * 3. `resetPassword`: the reset token is required; in one transaction the password changes, the row
 *    is deleted (the token is single use) and every refresh token of the user is revoked.
 *
 * Knows nothing of HTTP: it throws the typed errors of lib/errors.ts.
 */
import { and, eq, isNull, sql } from 'drizzle-orm'
import type { AppDeps } from '../../deps.ts'
import { passwordResets, refreshTokens, users } from '../../db/schema.ts'
import { BadRequest } from '../../lib/errors.ts'
import { describeFault } from '../../lib/faults.ts'
import { escapeHtml, type MailMessage } from '../../lib/mail.ts'
import {
  generateOtp,
  hashOtp,
  isSameOtp,
  isSameResetToken,
  newResetToken,
  OTP_MAX_ATTEMPTS,
  OTP_TTL_SECONDS,
  RESET_TOKEN_TTL_SECONDS,
} from '../../lib/otp.ts'
import { hashPassword } from '../../lib/passwords.ts'
import type { ResetPasswordInput, VerifyOtpInput } from '../../../contract/user.ts'
import { findUserByEmail } from './service.ts'

/** The one answer of forgot-password, whether or not the email has an account (no enumeration). */
export const OTP_SENT = 'If the email is registered, an OTP has been sent to it. Check your email.'
/** A wrong code, and also an unknown email or an account with no code (the same 400). */
export const INVALID_OTP = 'Invalid OTP'
/** The code is past its 10 minutes, or was already used. */
export const OTP_EXPIRED = 'OTP expired, request a new one'
/** The code took OTP_MAX_ATTEMPTS wrong tries; even the right code fails now. */
export const OTP_TOO_MANY_TRIES = 'Too many wrong tries, request a new OTP'
export const OTP_VERIFIED = 'OTP verified successfully'
/** docs/product.md, "Reset password", verbatim (with its trailing space). */
export const RESET_PASSWORD_MISMATCH = 'New password and confirm password must be same. '
/**
 * No token, a wrong, expired or used one, or a token of another email. 400 rather than 401: a 401
 * makes the BFF's upstream client spend a refresh-and-retry on a request that has no session.
 */
export const INVALID_RESET_TOKEN = 'Reset token is invalid or expired'
export const PASSWORD_UPDATED = 'Password updated successfully'

/** What recovery needs of the app's dependencies. */
export type RecoveryDeps = Pick<AppDeps, 'db' | 'jwtSecret' | 'clock' | 'mailer' | 'logger'>

/** Stands in for a user id when the email is unknown, so that both paths compute one HMAC. */
const NO_USER_ID = '000000000000000000000000'

/**
 * Step 1, forgot-password: for an Active account, stores a new code (replacing any earlier code and
 * reset token) and mails it; for an unknown email or an account that is not Active, does nothing.
 * The caller answers OTP_SENT either way.
 *
 * Timing: the code and its HMAC are computed on both paths, and the mail is handed to the mailer
 * without waiting for SMTP (a failure is logged, never shown: showing it would reveal the account).
 * What differs is one indexed upsert, about a millisecond, behind the per-IP and per-email limits.
 */
export async function requestPasswordReset(deps: RecoveryDeps, email: string): Promise<void> {
  const user = await findUserByEmail(deps.db, email)
  const otp = generateOtp()
  const otpHash = hashOtp(otp, user?.id ?? NO_USER_ID, deps.jwtSecret)
  // A blocked account gets no code: it could not sign in with the new password anyway (login: 403).
  if (!user || user.status !== 'Active') return
  const now = deps.clock()
  const row = {
    otpHash,
    expiresAt: new Date(now.getTime() + OTP_TTL_SECONDS * 1000),
    attempts: 0,
    resetTokenHash: null,
    resetTokenExpiresAt: null,
    createdAt: now,
  }
  await deps.db
    .insert(passwordResets)
    .values({ userId: user.id, ...row })
    .onConflictDoUpdate({ target: passwordResets.userId, set: row })
  deps.mailer.send(otpMail({ name: user.name, email }, otp)).catch((err: unknown) => {
    // The class and code only: an SMTP error's message may quote the recipient's address.
    deps.logger.error(
      { ...describeFault(err), code: (err as { code?: unknown })?.code, userId: user.id },
      'password reset mail could not be sent',
    )
  })
}

/**
 * Step 2, verify-forgot-password-otp: checks the code in a transaction with the row locked, so two
 * concurrent guesses both count.
 * @returns the reset token (single use, valid RESET_TOKEN_TTL_SECONDS)
 * @throws 400 INVALID_OTP for a wrong code (the try is counted), an unknown email or no code;
 *   400 OTP_EXPIRED past the 10 minutes or when the code was used; 400 OTP_TOO_MANY_TRIES after
 *   OTP_MAX_ATTEMPTS wrong tries
 */
export async function verifyPasswordResetOtp(deps: RecoveryDeps, input: VerifyOtpInput): Promise<{ resetToken: string }> {
  const user = await findUserByEmail(deps.db, input.email)
  if (!user || user.status !== 'Active') {
    hashOtp(input.otp, NO_USER_ID, deps.jwtSecret)
    throw BadRequest(INVALID_OTP)
  }
  const now = deps.clock()
  // The transaction returns the outcome instead of throwing, so that a counted try commits.
  const outcome = await deps.db.transaction(async (tx) => {
    const [row] = await tx.select().from(passwordResets).where(eq(passwordResets.userId, user.id)).for('update')
    if (!row) return INVALID_OTP
    if (row.otpHash === '' || row.expiresAt.getTime() <= now.getTime()) return OTP_EXPIRED
    if (row.attempts >= OTP_MAX_ATTEMPTS) return OTP_TOO_MANY_TRIES
    if (!isSameOtp(row.otpHash, input.otp, user.id, deps.jwtSecret)) {
      await tx
        .update(passwordResets)
        .set({ attempts: sql`${passwordResets.attempts} + 1` })
        .where(eq(passwordResets.userId, user.id))
      return INVALID_OTP
    }
    const reset = newResetToken()
    await tx
      .update(passwordResets)
      .set({
        otpHash: '', // spent: a second use of the same code fails
        resetTokenHash: reset.tokenHash,
        resetTokenExpiresAt: new Date(now.getTime() + RESET_TOKEN_TTL_SECONDS * 1000),
      })
      .where(eq(passwordResets.userId, user.id))
    return { resetToken: reset.token }
  })
  if (typeof outcome === 'string') throw BadRequest(outcome)
  return outcome
}

/**
 * Step 3, reset-password: sets a new argon2id password for `email`, given the reset token that
 * verify issued. In one transaction (row locked, so one token serves one reset): the password
 * changes, the recovery row is deleted, and every refresh token of the user is revoked, which signs
 * out every device (OWASP Forgot Password Cheat Sheet, "invalidate existing sessions").
 * @param resetToken from the body or the `resetToken` cookie
 * @throws 400 RESET_PASSWORD_MISMATCH (docs/product.md, "Validation rules"); 400 INVALID_RESET_TOKEN
 * when the token is
 *   missing, wrong, expired, already used, or not this email's
 */
export async function resetPassword(deps: RecoveryDeps, input: ResetPasswordInput): Promise<void> {
  if (input.newPassword !== input.confirmPassword) {
    throw BadRequest(RESET_PASSWORD_MISMATCH, [{ path: 'confirmPassword', message: RESET_PASSWORD_MISMATCH }])
  }
  const token = input.resetToken
  if (!token) throw BadRequest(INVALID_RESET_TOKEN)
  const user = await findUserByEmail(deps.db, input.email)
  if (!user) throw BadRequest(INVALID_RESET_TOKEN)
  const now = deps.clock()
  const isLive = (row: typeof passwordResets.$inferSelect | undefined) =>
    !!row && !!row.resetTokenExpiresAt && row.resetTokenExpiresAt.getTime() > now.getTime() && isSameResetToken(row.resetTokenHash, token)

  // Checked once before hashing, so that a bad token costs no argon2 work, and again under the lock.
  const [pending] = await deps.db.select().from(passwordResets).where(eq(passwordResets.userId, user.id))
  if (!isLive(pending)) throw BadRequest(INVALID_RESET_TOKEN)
  const passwordHash = await hashPassword(input.newPassword)
  const isDone = await deps.db.transaction(async (tx) => {
    const [row] = await tx.select().from(passwordResets).where(eq(passwordResets.userId, user.id)).for('update')
    if (!isLive(row)) return false
    await tx.update(users).set({ passwordHash }).where(eq(users.id, user.id))
    await tx.delete(passwordResets).where(eq(passwordResets.userId, user.id))
    await tx
      .update(refreshTokens)
      .set({ revokedAt: now })
      .where(and(eq(refreshTokens.userId, user.id), isNull(refreshTokens.revokedAt)))
    return true
  })
  if (!isDone) throw BadRequest(INVALID_RESET_TOKEN)
}

/** The code mail: plain text and HTML with the same content; the name is escaped in the HTML. */
export function otpMail(user: { name: string; email: string }, otp: string): MailMessage {
  const minutes = OTP_TTL_SECONDS / 60
  const text = [
    `Hi ${user.name},`,
    '',
    `Your code to reset your password is ${otp}`,
    '',
    `It is valid for ${minutes} minutes. Enter it on the verification page; do not share it with anyone.`,
    '',
    'If you did not ask to reset your password, ignore this email: your password stays the same.',
  ].join('\n')
  const html = `<!doctype html>
<html><body style="font-family: system-ui, sans-serif; color: #1f2937">
<p>Hi ${escapeHtml(user.name)},</p>
<p>Your code to reset your password is</p>
<p style="font-size: 28px; font-weight: 700; letter-spacing: 6px">${otp}</p>
<p>It is valid for ${minutes} minutes. Enter it on the verification page; do not share it with anyone.</p>
<p>If you did not ask to reset your password, ignore this email: your password stays the same.</p>
</body></html>`
  return { to: user.email, subject: 'Your password reset code', text, html }
}
