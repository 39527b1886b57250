/**
 * Request bodies of /api/user (contract, "Endpoints"; spec section 5). Every body goes through one of
 * these, so a number or a query object such as `{"$ne": null}` where a string belongs is a 400
 * (contract, "Defects").
 */
import { z } from 'zod'

/** Email: trimmed and lower-cased before the format check, at most 254 characters (RFC 5321 §4.5.3.1.3). */
export const EmailSchema = z
  .string({ error: 'Email is required' })
  .trim()
  .toLowerCase()
  .max(254, { error: 'Email is too long' })
  .pipe(z.email({ error: 'Provide a valid email' }))

/** New password: 8 to 128 characters (OWASP Authentication Cheat Sheet, "Password Strength Controls"). */
export const NewPasswordSchema = z
  .string({ error: 'Password is required' })
  .min(8, { error: 'Password must be at least 8 characters' })
  .max(128, { error: 'Password must be at most 128 characters' })

export const NameSchema = z
  .string({ error: 'Name is required' })
  .trim()
  .min(1, { error: 'Name is required' })
  .max(100, { error: 'Name must be at most 100 characters' })

/**
 * POST /api/user/register. That confirmPassword equals password is a rule of the service (its message
 * is the spec's, verbatim), not of this shape.
 */
export const RegisterSchema = z.object({
  name: NameSchema,
  email: EmailSchema,
  password: NewPasswordSchema,
  confirmPassword: z.string({ error: 'Confirm password is required' }).max(128),
})
export type RegisterInput = z.output<typeof RegisterSchema>

/** POST /api/user/login. Any non-empty password is checked against the hash; the length cap bounds the work. */
export const LoginSchema = z.object({
  email: EmailSchema,
  password: z.string({ error: 'Password is required' }).min(1, { error: 'Password is required' }).max(128),
})
export type LoginInput = z.output<typeof LoginSchema>

/** Optional body of POST /api/user/logout: the refresh token whose family to revoke. */
export const LogoutSchema = z.object({ refreshToken: z.string().max(256).optional() })

/** Input of `createUser` (register and the admin CLI). */
export const NewUserSchema = z.object({
  name: NameSchema,
  email: EmailSchema,
  password: NewPasswordSchema,
  role: z.enum(['ADMIN', 'USER']).default('USER'),
})
export type NewUserInput = z.input<typeof NewUserSchema>
