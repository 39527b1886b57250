/**
 * Phone sign-in and mobile verification by SMS code (docs/api-contract.md, "Phone sign-in";
 * docs/decisions/0052-phone-sign-in-and-one-time-codes.md): the bodies and answers of
 * `POST /api/user/otp/send|verify` and `POST /api/user/mobile/send|verify`, shared by the API and
 * the BFF so both accept the same numbers with the same message.
 */
import { z } from 'zod'
import { OTP_LENGTH, OTP_PATTERN, LoginAnswerSchema } from './user.ts'

/** The one message of a number that is not an Indian mobile number. */
export const MOBILE_MESSAGE = 'Enter a valid 10-digit mobile number'

/**
 * A 10-digit Indian mobile number starting 6-9 (TRAI National Numbering Plan: mobile numbers begin
 * with 6, 7, 8 or 9). Spaces, dashes, dots and brackets are tolerated; a leading `+91`, a `91` when
 * 12 digits are given, or a trunk `0` when 11 are, is dropped.
 * @returns the 10 digits, or null when `raw` is not such a number
 */
export function normaliseMobile(raw: string): string | null {
  const compact = raw.trim().replace(/[\s\-.()]/g, '')
  let digits: string
  if (/^\+91[0-9]{10}$/.test(compact)) digits = compact.slice(3)
  else if (/^91[0-9]{10}$/.test(compact)) digits = compact.slice(2)
  else if (/^0[0-9]{10}$/.test(compact)) digits = compact.slice(1)
  else digits = compact
  return /^[6-9][0-9]{9}$/.test(digits) ? digits : null
}

/**
 * The mobile number of phone sign-in and verification: any spelling `normaliseMobile` accepts, as its
 * 10 digits; anything else (a number of another country, a landline, letters) fails with
 * MOBILE_MESSAGE. At most 32 characters before normalising.
 */
export const MobileSchema = z
  .string({ error: MOBILE_MESSAGE })
  .max(32, { error: MOBILE_MESSAGE })
  .transform((value, ctx) => {
    const mobile = normaliseMobile(value)
    if (mobile === null) {
      ctx.addIssue({ code: 'custom', message: MOBILE_MESSAGE })
      return z.NEVER
    }
    return mobile
  })
  // The document states the plain spellings (the spaces and dashes also accepted are in the words).
  .meta({
    type: 'string',
    pattern: '^(\\+91|91|0)?[6-9][0-9]{9}$',
    description: 'An Indian mobile number: 10 digits starting 6-9, optionally after +91, 91 or 0; spaces and dashes are ignored',
  })

/** The six digits of an SMS code, as typed (a string: a JSON number would lose leading zeros). */
export const SmsOtpSchema = z
  .string({ error: 'OTP is required' })
  .trim()
  .regex(OTP_PATTERN, { error: `OTP must be ${OTP_LENGTH} digits` })

/** POST /api/user/otp/send and /api/user/mobile/send. */
export const SendOtpSchema = z.object({ mobile: MobileSchema })
export type SendOtpInput = z.output<typeof SendOtpSchema>

/** POST /api/user/otp/verify and /api/user/mobile/verify. */
export const VerifySmsOtpSchema = z.object({ mobile: MobileSchema, otp: SmsOtpSchema })
export type VerifySmsOtpInput = z.output<typeof VerifySmsOtpSchema>

/** Seconds before another code may be sent to the same number. */
export const OTP_RESEND_SECONDS = 30
/** Seconds a code stays valid (10 minutes). */
export const SMS_OTP_TTL_SECONDS = 600

/** The answer of a send: when a new code may be asked for and how long this one lives, in seconds. */
export const OtpSentSchema = z.object({ resendAfterSeconds: z.number().int(), expiresInSeconds: z.number().int() })
export type OtpSent = z.output<typeof OtpSentSchema>

/**
 * The answer of a phone sign-in: login's answer (the token pair, `accesstoken` too) plus whether the
 * account was made by this sign-in and whether it has no name yet (the BFF asks for one later).
 */
export const PhoneLoginAnswerSchema = LoginAnswerSchema.extend({ isNewUser: z.boolean(), needsName: z.boolean() })
export type PhoneLoginAnswer = z.output<typeof PhoneLoginAnswerSchema>

/** The answer of a mobile verification: the verified number (10 digits). */
export const MobileVerifiedSchema = z.object({ mobile: z.string(), mobile_verified: z.literal(true) })
