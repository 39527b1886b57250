/**
 * Phone sign-in and mobile verification by SMS code (docs/api-contract.md, "Phone sign-in";
 * docs/decisions/0052-phone-sign-in-and-one-time-codes.md). One `sms_codes` row per purpose and
 * subject: `signin` codes are keyed by the number, `link` codes by the signed-in user verifying a
 * number, so the two never replace each other.
 *
 * - A code: 6 digits from the CSPRNG, stored as an HMAC bound to its purpose, subject and number
 *   (api/lib/otp.ts), valid 10 minutes, at most 5 wrong tries; a new send replaces the live code, but
 *   not within 30 s of the last send (one conditional upsert decides, so two concurrent sends cannot
 *   both pass).
 * - Sign-in: the right code signs in the account whose verified mobile it is, or makes one on the
 *   spot (role USER, no email, no password, no name). Staff accounts are refused (they sign in with
 *   email and password), so are accounts that are not Active (as login refuses them).
 * - Verification: the right code sets the signed-in user's mobile and marks it verified; a number
 *   verified on another account is refused, and the unique index `users_verified_mobile_key` makes
 *   the refusal hold under concurrency.
 *
 * Logs carry the last 4 digits of a number at most and never a code. Knows nothing of HTTP: it
 * throws the typed errors of lib/errors.ts.
 */
import { and, eq, lt, lte, sql } from 'drizzle-orm'
import type { AppDeps } from '../../deps.ts'
import type { Tx } from '../../db/db.ts'
import { smsCodes, users, type User } from '../../db/schema.ts'
import { BadRequest, Conflict, Forbidden, HttpError, TooManyRequests } from '../../lib/errors.ts'
import { describeFault } from '../../lib/faults.ts'
import { consume } from '../../lib/rate-limit.ts'
import type { RateLimiterAbstract } from 'rate-limiter-flexible'
import { generateOtp, hashOtp, isSameOtp, OTP_MAX_ATTEMPTS } from '../../lib/otp.ts'
import { maskMobile, otpSmsText, webOtpHost } from '../../lib/sms.ts'
import { OTP_RESEND_SECONDS, SMS_OTP_TTL_SECONDS, type OtpSent, type VerifySmsOtpInput } from '../../../contract/phone.ts'
import type { Tokens } from '../../../contract/user.ts'
import { CONTACT_ADMIN, isUniqueViolation, startSession } from './service.ts'

export const OTP_SMS_SENT = 'OTP sent to your mobile number'
export const INCORRECT_OTP = 'Incorrect OTP'
export const SMS_OTP_EXPIRED = 'OTP has expired'
export const SMS_OTP_TOO_MANY_TRIES = 'Too many attempts, request a new OTP'
export const STAFF_USE_PASSWORD = 'Admins sign in with email and password'
export const MOBILE_TAKEN = 'This mobile number is already linked to another account'
export const MOBILE_VERIFIED = 'Mobile number verified'
export const SIGNED_IN = 'Login successfully'
/** The provider refused or could not be reached: the code is withdrawn, so the shopper may ask again at once. */
export const SMS_NOT_SENT = 'Could not send the SMS, try again in a moment'

/** The purposes of a code: signing in, or verifying a number on a signed-in account. */
export type SmsPurpose = 'signin' | 'link'

/** What phone sign-in needs of the app's dependencies. */
export type PhoneDeps = Pick<AppDeps, 'db' | 'jwtSecret' | 'clock' | 'sms' | 'smsStoreName' | 'logger' | 'publicUrl'>

/** The 429 wording of every SMS limit: "Too many requests, try again in N seconds". */
export const tooManyRequests = (seconds: number) => {
  const wait = Math.max(1, Math.ceil(seconds))
  return TooManyRequests(wait, `Too many requests, try again in ${wait} seconds`)
}

/**
 * Spends one point of `limiter` for `key` (api/lib/rate-limit.ts `consume`), a refusal worded as
 * `tooManyRequests`.
 * @throws 429 with Retry-After when the budget is spent
 */
export async function spend(limiter: RateLimiterAbstract, key: string): Promise<void> {
  try {
    await consume(limiter, key)
  } catch (err) {
    if (err instanceof HttpError && err.status === 429) throw tooManyRequests(err.extra.retryAfterSeconds ?? 1)
    throw err
  }
}

/** The HMAC of `otp` for a code of `purpose` sent to `mobile` for `subject`. */
const codeHash = (deps: Pick<AppDeps, 'jwtSecret'>, purpose: SmsPurpose, subject: string, mobile: string, otp: string) =>
  hashOtp(otp, `${subject}\0${mobile}`, deps.jwtSecret, `sms-${purpose}`)

/**
 * Stores a new code for (`purpose`, `subject`) to `mobile`, replacing the live one, and sends it.
 * @returns the seconds before another send and of the code's life
 * @throws 429 (Retry-After: the rest of the 30 s) within OTP_RESEND_SECONDS of the last send;
 *   503 SMS_NOT_SENT when the provider fails (the code is withdrawn)
 */
export async function sendSmsCode(deps: PhoneDeps, purpose: SmsPurpose, subject: string, mobile: string): Promise<OtpSent> {
  const now = deps.clock()
  const otp = generateOtp()
  const otpHash = codeHash(deps, purpose, subject, mobile, otp)
  const row = { mobile, otpHash, attempts: 0, expiresAt: new Date(now.getTime() + SMS_OTP_TTL_SECONDS * 1000), sentAt: now }
  // One statement: a row sent 30 s ago or more is replaced, a younger one is left (and nothing is returned).
  const [written] = await deps.db
    .insert(smsCodes)
    .values({ purpose, subject, ...row })
    .onConflictDoUpdate({
      target: [smsCodes.purpose, smsCodes.subject],
      set: row,
      setWhere: lte(smsCodes.sentAt, new Date(now.getTime() - OTP_RESEND_SECONDS * 1000)),
    })
    .returning({ sentAt: smsCodes.sentAt })
  if (!written) {
    const [live] = await deps.db
      .select({ sentAt: smsCodes.sentAt })
      .from(smsCodes)
      .where(and(eq(smsCodes.purpose, purpose), eq(smsCodes.subject, subject)))
    const waitMs = live ? live.sentAt.getTime() + OTP_RESEND_SECONDS * 1000 - now.getTime() : 1000
    throw tooManyRequests(waitMs / 1000)
  }
  try {
    await deps.sms.send({ to: mobile, text: otpSmsText(otp, deps.smsStoreName, webOtpHost(deps.publicUrl)) })
  } catch (err) {
    deps.logger.error({ ...describeFault(err), to: maskMobile(mobile), purpose }, 'SMS code could not be sent')
    await deps.db.delete(smsCodes).where(and(eq(smsCodes.purpose, purpose), eq(smsCodes.subject, subject), eq(smsCodes.otpHash, otpHash)))
    throw new HttpError(503, SMS_NOT_SENT)
  }
  // Housekeeping on the way: codes dead for a day go (an index on expires_at keeps it cheap), so the
  // table holds about a day of numbers; until then an old code still answers "OTP has expired".
  await deps.db.delete(smsCodes).where(lt(smsCodes.expiresAt, new Date(now.getTime() - EXPIRED_KEPT_MS)))
  return { resendAfterSeconds: OTP_RESEND_SECONDS, expiresInSeconds: SMS_OTP_TTL_SECONDS }
}

/** How long a dead code's row is kept (ms): a day. */
const EXPIRED_KEPT_MS = 24 * 60 * 60 * 1000

/**
 * Checks `otp` against the live code of (`purpose`, `subject`) for `mobile`, inside `tx` with the row
 * locked (two concurrent guesses both count). The right code is spent (its row deleted).
 * @returns null when right, else the failure to answer (a wrong try is counted first)
 */
async function checkCode(
  tx: Tx,
  deps: Pick<AppDeps, 'jwtSecret'>,
  key: { purpose: SmsPurpose; subject: string; mobile: string; otp: string; now: Date },
): Promise<HttpError | null> {
  const where = and(eq(smsCodes.purpose, key.purpose), eq(smsCodes.subject, key.subject))
  const [row] = await tx.select().from(smsCodes).where(where).for('update')
  if (!row || row.mobile !== key.mobile) return BadRequest(INCORRECT_OTP)
  if (row.expiresAt.getTime() <= key.now.getTime()) return BadRequest(SMS_OTP_EXPIRED)
  if (row.attempts >= OTP_MAX_ATTEMPTS) return BadRequest(SMS_OTP_TOO_MANY_TRIES)
  if (!isSameOtp(row.otpHash, key.otp, `${key.subject}\0${key.mobile}`, deps.jwtSecret, `sms-${key.purpose}`)) {
    await tx
      .update(smsCodes)
      .set({ attempts: sql`${smsCodes.attempts} + 1` })
      .where(where)
    const left = OTP_MAX_ATTEMPTS - row.attempts - 1
    if (left <= 0) return BadRequest(SMS_OTP_TOO_MANY_TRIES)
    return BadRequest(INCORRECT_OTP, [{ path: 'otp', message: `Incorrect OTP: ${left} ${left === 1 ? 'try' : 'tries'} left` }])
  }
  await tx.delete(smsCodes).where(where)
  return null
}

/** Outcome of a transaction that must commit a counted try before failing. */
type Outcome<T> = { ok: true; value: T } | { ok: false; error: HttpError }

/** Runs `work` in a transaction and throws its failure only after the commit. */
async function committed<T>(deps: Pick<AppDeps, 'db'>, work: (tx: Tx) => Promise<Outcome<T>>): Promise<T> {
  const outcome = await deps.db.transaction(work)
  if (!outcome.ok) throw outcome.error
  return outcome.value
}

/** The account whose verified mobile is `mobile`, or undefined. */
async function findByVerifiedMobile(db: Tx | AppDeps['db'], mobile: string): Promise<User | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.mobile, mobile), eq(users.mobileVerified, true)))
    .limit(1)
  return row
}

/**
 * Phone sign-in, step 2: checks the code sent to `mobile` and signs in the account of that verified
 * number, making it first when there is none (`isNewUser`). Whatever the outcome of the account
 * checks, a right code is spent.
 * @returns the token pair (a new session), whether the account is new, and whether it has no name yet
 * @throws 400 INCORRECT_OTP (with the tries left as an issue of `otp`), SMS_OTP_EXPIRED or
 *   SMS_OTP_TOO_MANY_TRIES; 403 STAFF_USE_PASSWORD for an ADMIN or STAFF account; 403 CONTACT_ADMIN
 *   for an account that is not Active
 */
export async function verifySignInCode(
  deps: PhoneDeps,
  input: VerifySmsOtpInput,
): Promise<Tokens & { isNewUser: boolean; needsName: boolean }> {
  const now = deps.clock()
  const { mobile, otp } = input
  return committed(deps, async (tx) => {
    const failure = await checkCode(tx, deps, { purpose: 'signin', subject: mobile, mobile, otp, now })
    if (failure) return { ok: false, error: failure }
    let user = await findByVerifiedMobile(tx, mobile)
    let isNewUser = false
    if (!user) {
      // A concurrent sign-in of the same number may make the account first: the partial unique
      // index then skips this insert (it waits for the other to commit), and the read finds theirs.
      const [made] = await tx
        .insert(users)
        .values({ name: '', email: null, passwordHash: null, mobile, mobileVerified: true, role: 'USER', lastLoginDate: now })
        .onConflictDoNothing({ target: users.mobile, where: sql`${users.mobileVerified}` })
        .returning()
      user = made ?? (await findByVerifiedMobile(tx, mobile))
      isNewUser = Boolean(made)
      if (!user) return { ok: false, error: Conflict(MOBILE_TAKEN) }
      if (made) deps.logger.info({ userId: made.id, to: maskMobile(mobile) }, 'account made by phone sign-in')
    }
    if (user.role !== 'USER') return { ok: false, error: Forbidden(STAFF_USE_PASSWORD) }
    if (user.status !== 'Active') return { ok: false, error: Forbidden(CONTACT_ADMIN) }
    if (!isNewUser) await tx.update(users).set({ lastLoginDate: now }).where(eq(users.id, user.id))
    const tokens = await startSession(tx, deps, user, now)
    return { ok: true, value: { ...tokens, isNewUser, needsName: user.name.trim() === '' } }
  })
}

/**
 * Mobile verification, step 1: refuses a number verified on another account, then sends a `link`
 * code for `user`.
 * @throws 409 MOBILE_TAKEN; as sendSmsCode
 */
export async function sendLinkCode(deps: PhoneDeps, user: User, mobile: string): Promise<OtpSent> {
  const owner = await findByVerifiedMobile(deps.db, mobile)
  if (owner && owner.id !== user.id) throw Conflict(MOBILE_TAKEN)
  return sendSmsCode(deps, 'link', user.id, mobile)
}

/**
 * Mobile verification, step 2: checks the `link` code and sets `user`'s mobile to `mobile`, verified.
 * @returns the verified number
 * @throws 400 as verifySignInCode; 409 MOBILE_TAKEN when another account has verified the number,
 *   also when it does so at the same moment (the unique index decides; the code then stays live)
 */
export async function verifyLinkCode(
  deps: PhoneDeps,
  user: User,
  input: VerifySmsOtpInput,
): Promise<{ mobile: string; mobile_verified: true }> {
  const now = deps.clock()
  const { mobile, otp } = input
  try {
    return await committed(deps, async (tx) => {
      const failure = await checkCode(tx, deps, { purpose: 'link', subject: user.id, mobile, otp, now })
      if (failure) return { ok: false, error: failure }
      const owner = await findByVerifiedMobile(tx, mobile)
      if (owner && owner.id !== user.id) return { ok: false, error: Conflict(MOBILE_TAKEN) }
      await tx.update(users).set({ mobile, mobileVerified: true }).where(eq(users.id, user.id))
      return { ok: true, value: { mobile, mobile_verified: true as const } }
    })
  } catch (err) {
    if (isUniqueViolation(err)) throw Conflict(MOBILE_TAKEN)
    throw err
  }
}
