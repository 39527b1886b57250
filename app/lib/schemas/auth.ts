/**
 * The sign-in forms' rules (docs/product.md, "Validation rules"), shared by the browser (Conform
 * validates as you type) and the BFF action (the same schema decides on the server, so forms work
 * with JavaScript off).
 *
 * Form values arrive as strings; Conform turns an empty field into `undefined`, so every required
 * field answers the same message for "missing" and for "only spaces".
 */
import { z } from 'zod'
import { newPasswordSchema } from '../../../contract/password.ts'

/** docs/product.md, "Validation rules": the register mismatch message, verbatim. */
export const PASSWORD_MISMATCH_MESSAGE = 'password and confirm password must be same'

/** RFC 5321 §4.5.3.1: a path (and so an address) is at most 254 octets usable. */
export const EMAIL_MAX_LENGTH = 254
export const NAME_MAX_LENGTH = 100

/** A required text field: trimmed; missing, empty and blank all give `message`. */
const requiredText = (message: string) => z.string({ error: message }).trim().min(1, message)

/** Email: trimmed and lower-cased (addresses are compared case-insensitively), at most 254 chars. */
export const EmailSchema = requiredText('Enter your email')
  .max(EMAIL_MAX_LENGTH, `Email must be at most ${EMAIL_MAX_LENGTH} characters`)
  .pipe(z.email('Enter a valid email address'))
  .transform((email) => email.toLowerCase())

/**
 * Login (docs/product.md, "Auth screens" and "Validation rules"): email and password are required.
 * The password is sent as typed (never trimmed: spaces are legal password characters) and has no
 * length rule here, so accounts made under any earlier policy can still sign in.
 */
export const LoginSchema = z.object({
  email: EmailSchema,
  password: z.string({ error: 'Enter your password' }).min(1, 'Enter your password'),
})

/** A new password: required, 8 to 128 characters (Unicode code points, contract/password.ts), kept as typed. */
const NewPasswordSchema = newPasswordSchema('Enter a password')

/**
 * Register (docs/product.md, "Auth screens" and "Validation rules"): all four fields required; a
 * confirmPassword that differs from password fails on confirmPassword with the mismatch message.
 */
export const RegisterSchema = z
  .object({
    name: requiredText('Enter your name').max(NAME_MAX_LENGTH, `Name must be at most ${NAME_MAX_LENGTH} characters`),
    email: EmailSchema,
    password: NewPasswordSchema,
    confirmPassword: z.string({ error: 'Confirm your password' }).min(1, 'Confirm your password'),
  })
  .refine((value) => value.password === value.confirmPassword, {
    message: PASSWORD_MISMATCH_MESSAGE,
    path: ['confirmPassword'],
    // Show the mismatch as soon as both passwords are present, even while another field is wrong.
    when: (payload) => {
      const value = payload.value as Partial<Record<'password' | 'confirmPassword', unknown>> | undefined
      return typeof value?.password === 'string' && typeof value.confirmPassword === 'string' && value.confirmPassword !== ''
    },
  })
