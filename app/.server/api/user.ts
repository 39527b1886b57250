/**
 * Typed calls to the upstream user endpoints (docs/api-contract.md, "Authentication", "Endpoints"
 * and "Users"). Every call goes through `upstream()` (app/.server/upstream.ts), which adds the Bearer
 * token and does the refresh-once-and-retry on 401; the refresh call itself lives there too.
 * Answers are parsed with zod, so a malformed upstream answer becomes a failure here instead of a
 * crash in a page.
 */
import { parseData, upstream, type UpstreamResult } from '../upstream.ts'
import type { z } from 'zod'
import {
  AvatarAnswerSchema,
  LoginAnswerSchema,
  ResetTokenAnswerSchema,
  UserSchema,
  type ForgotPasswordSchema,
  type LoginSchema,
  type RegisterSchema,
  type ResetPasswordSchema,
  type Tokens,
  type UpdateUserSchema,
  type User,
  type VerifyOtpSchema,
} from '../../../contract/user.ts'
import {
  OtpSentSchema,
  PhoneLoginAnswerSchema,
  type OtpSent,
  type SendOtpSchema,
  type VerifySmsOtpSchema,
} from '../../../contract/phone.ts'
import type { RequestSession, SessionUser } from '../session.ts'
import type { Api } from '../api-context.ts'

export { UserSchema, type User } from '../../../contract/user.ts'

/** The header's summary of a user (app/.server/session.ts `SessionUser`). */
export function toSessionUser(user: Pick<User, '_id' | 'name' | 'email' | 'mobile' | 'avatar' | 'role'>): SessionUser {
  return { _id: user._id, name: user.name, email: user.email, mobile: user.mobile, avatar: user.avatar, role: user.role }
}

/**
 * `POST /api/user/register` with the four fields of docs/product.md, "Validation rules". Answers the
 * new user; failures: 400 (with issues), 409 duplicate email, 429 rate limited. `clientIp` feeds the
 * API's per-IP limit.
 */
export async function register(
  api: Api,
  input: z.input<typeof RegisterSchema>,
  opts: { clientIp?: string } = {},
): Promise<UpstreamResult<User>> {
  const result = await upstream<unknown>(api, 'user/register', { method: 'POST', json: input, clientIp: opts.clientIp })
  return parseData(result, UserSchema)
}

/**
 * `POST /api/user/login`. Answers the access and refresh tokens (the caller stores them in the
 * session); failures: 400 bad input or wrong credentials, 429 rate limited (with `retryAfter`, s).
 */
export async function login(
  api: Api,
  input: z.input<typeof LoginSchema>,
  opts: { clientIp?: string } = {},
): Promise<UpstreamResult<Tokens>> {
  const result = parseData(
    await upstream<unknown>(api, 'user/login', { method: 'POST', json: input, clientIp: opts.clientIp }),
    LoginAnswerSchema,
  )
  if (!result.ok) return result
  return { ...result, data: { accessToken: result.data.accessToken, refreshToken: result.data.refreshToken } }
}

/**
 * `POST /api/user/logout` (GET or POST: docs/api-contract.md, "Aliases") with the session's Bearer
 * token and its refresh token in the body, so the API revokes this session's refresh-token family
 * only; without one it would end every session of the user.
 */
export function logout(api: Api, session: RequestSession): Promise<UpstreamResult<unknown>> {
  const refreshToken = session.tokens?.refreshToken
  return upstream<unknown>(api, 'user/logout', { method: 'POST', json: refreshToken ? { refreshToken } : {}, session })
}

/** `GET /api/user/user-details`: the signed-in user (401 after a failed refresh signs the session out). */
export async function userDetails(api: Api, session: RequestSession): Promise<UpstreamResult<User>> {
  const result = await upstream<unknown>(api, 'user/user-details', { method: 'GET', session })
  return parseData(result, UserSchema)
}

// Password recovery (docs/product.md, "Password recovery"; docs/api-contract.md, "Users";
// docs/decisions/0010-password-recovery.md: codes hashed, 10 minutes, 5 tries, rate limited, reset
// only with the token a successful verify issued).

/**
 * `PUT /api/user/forgot-password` with `{ email }`: asks the API to mail a 6-digit code. The API
 * answers the same 200 whether or not the email has an account (no account enumeration, OWASP
 * Forgot Password cheat sheet); failures: 400 bad email, 429 rate limited (with `retryAfter`, s).
 */
export function forgotPassword(
  api: Api,
  input: z.input<typeof ForgotPasswordSchema>,
  opts: { clientIp?: string } = {},
): Promise<UpstreamResult<unknown>> {
  return upstream<unknown>(api, 'user/forgot-password', { method: 'PUT', json: input, clientIp: opts.clientIp })
}

/**
 * `PUT /api/user/verify-forgot-password-otp` with `{ email, otp }` (otp: the six boxes joined,
 * docs/api-contract.md, "Users"). Answers `{ resetToken }` (single use, short-lived; the caller keeps
 * it in the session); failures: 400 "Invalid OTP" or an expired or used-up code, 429 rate limited.
 */
export async function verifyForgotPasswordOtp(
  api: Api,
  input: z.input<typeof VerifyOtpSchema>,
  opts: { clientIp?: string } = {},
): Promise<UpstreamResult<{ resetToken: string }>> {
  const result = await upstream<unknown>(api, 'user/verify-forgot-password-otp', { method: 'PUT', json: input, clientIp: opts.clientIp })
  return parseData(result, ResetTokenAnswerSchema)
}

/**
 * `PUT /api/user/reset-password` with the email, both new passwords and the reset token from verify.
 * Answers 200 (the API also revokes every refresh token of the user); failures: 400 with the message
 * "New password and confirm password must be same. ", a weak password, or an invalid or used token.
 */
export function resetPassword(
  api: Api,
  // The BFF has no reset cookie: it always sends the token from the session.
  input: z.input<typeof ResetPasswordSchema> & { resetToken: string },
  opts: { clientIp?: string } = {},
): Promise<UpstreamResult<unknown>> {
  return upstream<unknown>(api, 'user/reset-password', { method: 'PUT', json: input, clientIp: opts.clientIp })
}

// Profile (docs/product.md, "Profile" and "Validation rules"; docs/api-contract.md, "Users").

/**
 * `PUT /api/user/update-user` with `{ name, email, mobile }` (mobile as a string of digits) for the
 * session's user. Answers the updated user; failures: 400 (with issues), 409 email already taken.
 */
export async function updateUser(
  api: Api,
  session: RequestSession,
  input: z.input<typeof UpdateUserSchema>,
): Promise<UpstreamResult<User>> {
  const result = await upstream<unknown>(api, 'user/update-user', { method: 'PUT', json: input, session })
  return parseData(result, UserSchema)
}

/**
 * `PUT /api/user/upload-avatar`: forwards `file` as the multipart field `avatar`. Answers
 * `{ _id, avatar }` (the stored url); failures: 400 no file, 413 larger than the cap (5 MB), 415 not
 * an image (the API checks the bytes, not the name or the declared type).
 */
export async function uploadAvatar(
  api: Api,
  session: RequestSession,
  file: File,
): Promise<UpstreamResult<{ _id: string; avatar: string }>> {
  const formData = new FormData()
  formData.append('avatar', file, file.name || 'avatar')
  const result = await upstream<unknown>(api, 'user/upload-avatar', { method: 'PUT', formData, session })
  return parseData(result, AvatarAnswerSchema)
}

// Phone sign-in and mobile verification by SMS code (docs/decisions/0052-phone-sign-in-and-one-time-codes.md;
// the pages: docs/decisions/0054-phone-sign-in-pages.md). Numbers are the 10 digits of contract/phone.ts
// `MobileSchema`; codes are 6 digits, valid 10 minutes, a resend after 30 s.

/** The token pair of a phone sign-in and what it says about the account. */
export interface PhoneSignIn {
  tokens: Tokens
  /** The account was made by this sign-in. */
  isNewUser: boolean
  /** The account has no name yet (asked later, never blocking). */
  needsName: boolean
}

/**
 * `POST /api/user/otp/send` with `{ mobile }`: texts a sign-in code to the number. The same 200
 * whether or not the number has an account; failures: 400 "Enter a valid 10-digit mobile number",
 * 429 within 30 s of the last code or over budget (with `retryAfter`, s).
 */
export async function sendSignInCode(
  api: Api,
  input: z.input<typeof SendOtpSchema>,
  opts: { clientIp?: string } = {},
): Promise<UpstreamResult<OtpSent>> {
  const result = await upstream<unknown>(api, 'user/otp/send', { method: 'POST', json: input, clientIp: opts.clientIp })
  return parseData(result, OtpSentSchema)
}

/**
 * `POST /api/user/otp/verify` with `{ mobile, otp }`: signs in with the code (an account is made for
 * a new number). Answers the token pair (the caller signs the session in with it, as after login) and
 * `isNewUser` / `needsName`; failures: 400 "Incorrect OTP", "OTP has expired" or "Too many attempts,
 * request a new OTP", 403 "Admins sign in with email and password", 429 rate limited.
 */
export async function verifySignInCode(
  api: Api,
  input: z.input<typeof VerifySmsOtpSchema>,
  opts: { clientIp?: string } = {},
): Promise<UpstreamResult<PhoneSignIn>> {
  const result = parseData(
    await upstream<unknown>(api, 'user/otp/verify', { method: 'POST', json: input, clientIp: opts.clientIp }),
    PhoneLoginAnswerSchema,
  )
  if (!result.ok) return result
  const { accessToken, refreshToken, isNewUser, needsName } = result.data
  return { ...result, data: { tokens: { accessToken, refreshToken }, isNewUser, needsName } }
}

/**
 * `POST /api/user/mobile/send` with `{ mobile }` for the session's user: texts a code that links the
 * number to the account. Failures as `sendSignInCode`, plus 409 "This mobile number is already linked
 * to another account".
 */
export async function sendMobileLinkCode(
  api: Api,
  session: RequestSession,
  input: z.input<typeof SendOtpSchema>,
): Promise<UpstreamResult<OtpSent>> {
  const result = await upstream<unknown>(api, 'user/mobile/send', { method: 'POST', json: input, session })
  return parseData(result, OtpSentSchema)
}

/**
 * `POST /api/user/mobile/verify` with `{ mobile, otp }` for the session's user: the number becomes the
 * account's, verified. Failures: the code's 400s as `verifySignInCode`, 409 the number is already
 * linked to another account.
 */
export async function verifyMobileLinkCode(
  api: Api,
  session: RequestSession,
  input: z.input<typeof VerifySmsOtpSchema>,
): Promise<UpstreamResult<unknown>> {
  return upstream<unknown>(api, 'user/mobile/verify', { method: 'POST', json: input, session })
}

/**
 * Switches order updates by SMS on or off for the session's user (`PUT /api/user/update-user` with
 * `sms_order_updates`). update-user replaces the profile, so `user`'s current name, email (when the
 * account has one) and mobile (when not verified: a verified one is left out, it changes only by
 * code) go along unchanged. Answers the updated user; failures: 400 "Verify your mobile number to get
 * order updates by SMS" without a verified mobile.
 */
export async function setSmsOrderUpdates(
  api: Api,
  session: RequestSession,
  user: Pick<User, 'name' | 'email' | 'mobile' | 'mobile_verified'>,
  on: boolean,
): Promise<UpstreamResult<User>> {
  const json = {
    name: user.name,
    ...(user.email ? { email: user.email } : {}),
    ...(!user.mobile_verified && user.mobile ? { mobile: user.mobile } : {}),
    sms_order_updates: on,
  }
  const result = await upstream<unknown>(api, 'user/update-user', { method: 'PUT', json, session })
  return parseData(result, UserSchema)
}

/**
 * Gives the session's user a name (`PUT /api/user/update-user` with `{ name }` alone): what an account
 * made by phone sign-in sends, having no email and a verified mobile (the API requires those only of
 * accounts that have them). Answers the updated user; failures: 400 a blank or too long name.
 */
export async function setName(api: Api, session: RequestSession, name: string): Promise<UpstreamResult<User>> {
  const result = await upstream<unknown>(api, 'user/update-user', { method: 'PUT', json: { name }, session })
  return parseData(result, UserSchema)
}
