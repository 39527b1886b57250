/**
 * The password rule both sides apply (docs/product.md, "Validation rules"): 8 to 128 characters,
 * kept as typed. A character is a Unicode code point, as NIST SP 800-63B §5.1.1.2 counts them ("each
 * Unicode code point SHALL be counted as a single character"), so the messages say exactly what is
 * checked: zod's own `min`/`max` count UTF-16 units, which took four emoji for 8 characters and
 * refused 100 of them as more than 128. JSON Schema's `minLength`/`maxLength` count code points too,
 * so the OpenAPI document states the same rule.
 */
import { z } from 'zod'

/** NIST SP 800-63B §5.1.1.2: at least 8 characters for a chosen password. */
export const PASSWORD_MIN_LENGTH = 8
/** An upper bound keeps hashing cost bounded (OWASP Password Storage: cap long inputs). */
export const PASSWORD_MAX_LENGTH = 128

export const PASSWORD_TOO_SHORT = `Password must be at least ${PASSWORD_MIN_LENGTH} characters`
export const PASSWORD_TOO_LONG = `Password must be at most ${PASSWORD_MAX_LENGTH} characters`

/** The characters (Unicode code points) in `value`. */
export function passwordLength(value: string): number {
  let count = 0
  for (const _ of value) count += 1
  return count
}

/** A new password: a string of 8 to 128 characters (code points); `requiredMessage` when it is not a string. */
export function newPasswordSchema(requiredMessage: string) {
  return z
    .string({ error: requiredMessage })
    .refine((value) => passwordLength(value) >= PASSWORD_MIN_LENGTH, { error: PASSWORD_TOO_SHORT })
    .refine((value) => passwordLength(value) <= PASSWORD_MAX_LENGTH, { error: PASSWORD_TOO_LONG })
    .meta({ minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH })
}

/** A password typed to sign in or to confirm: at most 128 characters (bounds the hashing work). */
export function typedPasswordSchema(requiredMessage: string) {
  return z
    .string({ error: requiredMessage })
    .refine((value) => passwordLength(value) <= PASSWORD_MAX_LENGTH, { error: PASSWORD_TOO_LONG })
    .meta({ maxLength: PASSWORD_MAX_LENGTH })
}
