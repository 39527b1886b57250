/**
 * The account forms' rules (docs/product.md, "Validation rules"; docs/product.md, "Constants"),
 * shared by the browser (Conform validates as you type) and the BFF actions (the same schema
 * decides on the server, so every form
 * works with JavaScript off): forgot password, the one-time code, reset password and the profile.
 *
 * Form values arrive as strings; Conform turns an empty field into `undefined`, so a required field
 * answers the same message for "missing", "empty" and "only spaces".
 */
import { z } from 'zod'
import { EmailSchema, NAME_MAX_LENGTH } from './auth.ts'
import { newPasswordSchema } from '../../../contract/password.ts'

/** docs/product.md, "Constants": the code has 6 characters, one per box. */
export const OTP_LENGTH = 6
/** The boxes' field names, `otp0` … `otp5`; the BFF joins them in this order (docs/api-contract.md, "Endpoints"). */
export const OTP_FIELD_NAMES = ['otp0', 'otp1', 'otp2', 'otp3', 'otp4', 'otp5'] as const

/** docs/product.md, "Validation rules": the reset mismatch message, verbatim, trailing space included. */
export const RESET_PASSWORD_MISMATCH_MESSAGE = 'New password and confirm password must be same. '

/**
 * A mobile number has 7 to 15 digits: ITU-T E.164 allows at most 15 with the country code; the API
 * applies the same rule (contract/user.ts `AccountMobileSchema`), so no number one side accepts is
 * refused by the other (an Indian number is 10 digits, 12 with the 91 prefix).
 */
export const MOBILE_MIN_DIGITS = 7
export const MOBILE_MAX_DIGITS = 15

export const OTP_MISSING_MESSAGE = `Enter all ${OTP_LENGTH} digits of the code`
export const OTP_DIGITS_MESSAGE = 'Each box takes one digit (0-9)'
export const MOBILE_MESSAGE = `Enter a mobile number of ${MOBILE_MIN_DIGITS} to ${MOBILE_MAX_DIGITS} digits`

/** A required text field: trimmed; missing, empty and blank all give `message`. */
const requiredText = (message: string) => z.string({ error: message }).trim().min(1, message)

/** Forgot password (docs/product.md, "Validation rules"): email required. */
export const ForgotPasswordSchema = z.object({ email: EmailSchema })

const otpBox = z.string().trim().optional()

/**
 * A whole code in the first box and nothing in the others: what the browser's one-time-code
 * autofill or a paste leaves there when JavaScript is off (the first box takes up to six digits,
 * app/components/otp-input.tsx). Spread over the six boxes before the checks.
 */
function spreadWholeCode(raw: unknown): unknown {
  if (!raw || typeof raw !== 'object') return raw
  const boxes = raw as Record<string, unknown>
  const first = typeof boxes.otp0 === 'string' ? boxes.otp0.trim() : ''
  const othersEmpty = OTP_FIELD_NAMES.slice(1).every((name) => boxes[name] === undefined || boxes[name] === '')
  if (!othersEmpty || !new RegExp(`^[0-9]{${OTP_LENGTH}}$`).test(first)) return raw
  return { ...boxes, ...Object.fromEntries(OTP_FIELD_NAMES.map((name, i) => [name, first[i]])) }
}

/**
 * The one-time code (docs/product.md, "Validation rules" and "Constants"): all six boxes filled, one
 * digit per box, or the whole code in the first box (see `spreadWholeCode`). The boxes come as `otp0`
 * … `otp5`; the output is the joined `otp`. Problems are reported on the form as a whole (one
 * message, not six), so the errors sit under the row of boxes.
 */
export const OtpSchema = z.preprocess(
  spreadWholeCode,
  z
    .object({ otp0: otpBox, otp1: otpBox, otp2: otpBox, otp3: otpBox, otp4: otpBox, otp5: otpBox })
    .superRefine((boxes, ctx) => {
      const values = OTP_FIELD_NAMES.map((name) => boxes[name] ?? '')
      if (values.some((value) => value === '')) ctx.addIssue({ code: 'custom', message: OTP_MISSING_MESSAGE, path: [] })
      else if (values.some((value) => !/^[0-9]$/.test(value))) ctx.addIssue({ code: 'custom', message: OTP_DIGITS_MESSAGE, path: [] })
    })
    .transform((boxes) => ({ otp: OTP_FIELD_NAMES.map((name) => boxes[name]).join('') })),
)

/**
 * Reset password (docs/product.md, "Validation rules"): both fields required; a confirmPassword that
 * differs gives the mismatch message on confirmPassword. The new password follows the register rule
 * (8 to 128 characters, kept as typed). The email is not a field: it comes from the session
 * (docs/decisions/0010-password-recovery.md).
 */
export const ResetPasswordSchema = z
  .object({
    newPassword: newPasswordSchema('Enter a new password'),
    confirmPassword: z.string({ error: 'Confirm your new password' }).min(1, 'Confirm your new password'),
  })
  .refine((value) => value.newPassword === value.confirmPassword, {
    message: RESET_PASSWORD_MISMATCH_MESSAGE,
    path: ['confirmPassword'],
    // Show the mismatch as soon as both are typed, even while the new password is still too short.
    when: (payload) => {
      const value = payload.value as Partial<Record<'newPassword' | 'confirmPassword', unknown>> | undefined
      return typeof value?.newPassword === 'string' && typeof value.confirmPassword === 'string' && value.confirmPassword !== ''
    },
  })

/**
 * Profile (docs/product.md, "Validation rules"): name, email and mobile required; mobile numeric.
 * Spaces and dashes that people type between digit groups are dropped; what is left must be 7 to 15
 * digits (ITU-T E.164 allows at most 15), the same rule as the API's (contract/user.ts
 * `AccountMobileSchema`). It is looser than a delivery address's mobile (10 digits starting 6-9,
 * contract/address.ts) on purpose: an account's number may be from any country, a delivery is in
 * India.
 */
export const ProfileSchema = z.object({
  name: requiredText('Enter your name').max(NAME_MAX_LENGTH, `Name must be at most ${NAME_MAX_LENGTH} characters`),
  email: EmailSchema,
  mobile: requiredText('Enter your mobile number')
    .transform((mobile) => mobile.replace(/[\s-]/g, ''))
    .pipe(z.string().regex(new RegExp(`^[0-9]{${MOBILE_MIN_DIGITS},${MOBILE_MAX_DIGITS}}$`), MOBILE_MESSAGE)),
})

/**
 * The profile form of an account made by phone sign-in, which has no email until the shopper adds one
 * (docs/decisions/0052-phone-sign-in-and-one-time-codes.md): the same fields and messages, the email
 * optional (left empty it is not sent, and the API keeps the account without one).
 */
export const PhoneAccountProfileSchema = ProfileSchema.extend({ email: EmailSchema.optional() })

/** The profile form's schema for `user`: `PhoneAccountProfileSchema` while it has no email, else `ProfileSchema`. */
export function profileSchemaFor(user: { email: string }) {
  return user.email === '' ? PhoneAccountProfileSchema : ProfileSchema
}
