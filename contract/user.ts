/**
 * The user endpoints' bodies and answers (docs/api-contract.md, "Endpoints" and "Authentication";
 * docs/product.md, "Validation rules"). Every body goes through one of these, so a number or a query
 * object such as `{"$ne": null}` where a string belongs is a 400 (docs/api-contract.md, "Differences
 * from the original contract").
 */
import { z } from 'zod'
import { NOT_BLANK_PATTERN, TimestampSchema } from './fields.ts'
import { newPasswordSchema, PASSWORD_MAX_LENGTH, typedPasswordSchema } from './password.ts'

/** Digits of a password-reset code (docs/product.md, "Forgot password": six boxes). */
export const OTP_LENGTH = 6
/** Exactly OTP_LENGTH ASCII digits. */
export const OTP_PATTERN = /^[0-9]{6}$/

const MOBILE_RULE = 'Mobile must be 7 to 15 digits'

/** Email: trimmed and lower-cased before the format check, at most 254 characters (RFC 5321 §4.5.3.1.3). */
export const EmailSchema = z
  .string({ error: 'Email is required' })
  .trim()
  .toLowerCase()
  .max(254, { error: 'Email is too long' })
  .pipe(z.email({ error: 'Provide a valid email' }))
  // The document says what z.email() checks (a fuzzer's own idea of `format: email` is wider).
  .meta({ format: 'email', pattern: z.regexes.email.source })

/**
 * New password: 8 to 128 characters, counted as Unicode code points (contract/password.ts; OWASP
 * Authentication Cheat Sheet, "Password Strength Controls").
 */
export const NewPasswordSchema = newPasswordSchema('Password is required')

export const NameSchema = z
  .string({ error: 'Name is required' })
  .trim()
  .min(1, { error: 'Name is required' })
  .max(100, { error: 'Name must be at most 100 characters' })
  .meta({ pattern: NOT_BLANK_PATTERN })

/**
 * POST /api/user/register. That confirmPassword equals password is a rule of the service (its message
 * is verbatim from docs/product.md, "Register"), not of this shape.
 */
export const RegisterSchema = z.object({
  name: NameSchema,
  email: EmailSchema,
  password: NewPasswordSchema,
  confirmPassword: typedPasswordSchema('Confirm password is required'),
})
export type RegisterInput = z.output<typeof RegisterSchema>

/** POST /api/user/login. Any non-empty password is checked against the hash; the length cap bounds the work. */
export const LoginSchema = z.object({
  email: EmailSchema,
  password: typedPasswordSchema('Password is required')
    .refine((value) => value.length > 0, { error: 'Password is required' })
    .meta({ minLength: 1, maxLength: PASSWORD_MAX_LENGTH }),
})
export type LoginInput = z.output<typeof LoginSchema>

/** Optional body of POST /api/user/logout: the refresh token whose family to revoke. */
export const LogoutSchema = z.object({ refreshToken: z.string().max(256).optional() })

/** Input of `createUser` (register and the admin CLI). */
export const NewUserSchema = z.object({
  name: NameSchema,
  email: EmailSchema,
  password: NewPasswordSchema,
  role: z.enum(['ADMIN', 'STAFF', 'RIDER', 'USER']).default('USER'),
})
export type NewUserInput = z.input<typeof NewUserSchema>

/** PUT /api/user/forgot-password (docs/product.md, "Validation rules": email required). */
export const ForgotPasswordSchema = z.object({ email: EmailSchema })
export type ForgotPasswordInput = z.output<typeof ForgotPasswordSchema>

/**
 * PUT /api/user/verify-forgot-password-otp: the six boxes joined (docs/product.md, "One-time code";
 * docs/api-contract.md, "Users"). A string only: a JSON number would lose a code's leading zeros.
 */
export const VerifyOtpSchema = z.object({
  email: EmailSchema,
  otp: z
    .string({ error: 'OTP is required' })
    .trim()
    .regex(OTP_PATTERN, { error: `OTP must be ${OTP_LENGTH} digits` }),
})
export type VerifyOtpInput = z.output<typeof VerifyOtpSchema>

/**
 * PUT /api/user/reset-password. The new password follows the register rules; that the two passwords
 * match is a rule of the service (its message is verbatim from docs/product.md, "Reset password").
 * `resetToken` may come in the body or as the cookie the verify call set, so it is optional here.
 */
export const ResetPasswordSchema = z.object({
  email: EmailSchema,
  newPassword: NewPasswordSchema,
  confirmPassword: typedPasswordSchema('Confirm password is required'),
  resetToken: z.string().max(256).optional(),
})
export type ResetPasswordInput = z.output<typeof ResetPasswordSchema>

/**
 * The profile's typed mobile number (update-user): 7 to 15 digits (ITU-T E.164 allows at most 15),
 * given as a string of digits or as a JSON number (the original app's form had a numeric input).
 * Stored as the string of digits. Looser than a delivery address's mobile (10 digits starting 6-9,
 * contract/address.ts) on purpose: an account's number may be from any country, a delivery is in
 * India. A number proven by an SMS code follows contract/phone.ts `MobileSchema` instead.
 */
export const AccountMobileSchema = z
  // A fraction, a sign or an exponent fails the digit check below once the number is a string.
  .union([z.string(), z.number()], {
    error: (iss) => (iss.input === undefined || iss.input === null ? 'Mobile is required' : MOBILE_RULE),
  })
  .transform((value) => String(value).trim())
  .pipe(z.string().regex(/^[0-9]{7,15}$/, { error: MOBILE_RULE }))
  .meta({
    anyOf: [
      { type: 'string', pattern: '^[0-9]{7,15}$' },
      { type: 'integer', minimum: 1_000_000, maximum: 999_999_999_999_999 },
    ],
  })

/**
 * PUT /api/user/update-user (docs/product.md, "Profile": name, email, mobile required). The service
 * requires the email of an account that has one and the mobile of an account without a verified
 * one (api/modules/user/profile.ts), so an account made by phone sign-in can set its name alone.
 * `sms_order_updates` switches order updates by SMS (needs a verified mobile).
 */
export const UpdateUserSchema = z.object({
  name: NameSchema,
  email: EmailSchema.optional(),
  mobile: AccountMobileSchema.optional(),
  sms_order_updates: z.boolean({ error: 'sms_order_updates must be true or false' }).optional(),
})
export type UpdateUserInput = z.output<typeof UpdateUserSchema>

// ---------------------------------------------------------------------------------------------
// Answers
// ---------------------------------------------------------------------------------------------

/**
 * The roles of an account (docs/product.md, "Roles and permissions"): ADMIN does everything; STAFF
 * handles orders and store stock only; RIDER delivers one store's orders (docs/delivery.md); USER shops.
 */
export const ROLES = ['ADMIN', 'STAFF', 'RIDER', 'USER'] as const
export type Role = (typeof ROLES)[number]
/** The states of an account: only `Active` may sign in. */
export const USER_STATUSES = ['Active', 'Inactive', 'Suspended'] as const

/**
 * A user as the API answers it (docs/api-contract.md, "Endpoints": register, user-details,
 * update-user). Never a password hash or a token. `email` is '' for an account made by phone
 * sign-in that has not added one (the original client reads a string). `address_details`, `shopping_cart` and
 * `orderHistory` are ids (filled by user-details only).
 */
export const UserSchema = z
  .object({
    _id: z.string(),
    name: z.string(),
    email: z.string(),
    avatar: z.string(),
    mobile: z.string().nullable(),
    /** The mobile was proven by an SMS code (phone sign-in or the profile's verification). */
    mobile_verified: z.boolean(),
    /** Order status updates also go by SMS to the verified mobile. */
    sms_order_updates: z.boolean(),
    verify_email: z.boolean(),
    last_login_date: z.string().nullable(),
    status: z.enum(USER_STATUSES),
    address_details: z.array(z.string()),
    shopping_cart: z.array(z.string()),
    orderHistory: z.array(z.string()),
    role: z.enum(ROLES),
    /** A STAFF account's dark store, where its order desk and stock edits are limited to (docs/product.md, "Staff"); null for everyone else (absent from an older API: null). */
    storeId: z.string().nullable().default(null),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  })
  .meta({ id: 'User' })
export type User = z.output<typeof UserSchema>

/** The token pair of a sign-in or a refresh (docs/decisions/0002-tokens-in-cookie-session.md). */
export const TokensSchema = z.object({ accessToken: z.string(), refreshToken: z.string() }).meta({ id: 'Tokens' })
export type Tokens = z.output<typeof TokensSchema>

/** Login's answer: the pair, and `accesstoken` too, the spelling the original client reads. */
export const LoginAnswerSchema = TokensSchema.extend({ accesstoken: z.string() })

/** The answer of the verify step: the reset token (also set as an httpOnly cookie). */
export const ResetTokenAnswerSchema = z.object({ resetToken: z.string() })

/** The answer of upload-avatar: the user's id and the stored avatar url. */
export const AvatarAnswerSchema = z.object({ _id: z.string(), avatar: z.string() })
