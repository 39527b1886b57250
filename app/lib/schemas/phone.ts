/**
 * The phone sign-in and mobile-linking forms' rules (docs/decisions/0054-phone-sign-in-pages.md),
 * shared by the browser (Conform validates as you type) and the BFF actions (the same schema decides
 * on the server, so the forms work with JavaScript off).
 *
 * The number is a 10-digit Indian mobile: the shared rule of contract/phone.ts (`MobileSchema`;
 * a leading +91, 91 or 0 and spaces or dashes are accepted and dropped), the same rule and message the
 * API applies. The code is the 6 digits of the SMS, in one field (`autocomplete="one-time-code"`).
 */
import { z } from 'zod'
import { NAME_MAX_LENGTH } from './auth.ts'
import { MobileSchema, OTP_RESEND_SECONDS } from '../../../contract/phone.ts'

/** Digits of an SMS code (the API's `otp/send` and `mobile/send` codes). */
export const SMS_CODE_LENGTH = 6
/** The code field's HTML pattern, the same rule as `SmsCodeSchema`. */
export const SMS_CODE_PATTERN = '[0-9]{6}'
export const SMS_CODE_MISSING_MESSAGE = 'Enter the 6-digit code'
export const SMS_CODE_DIGITS_MESSAGE = 'The code is 6 digits (0-9)'

/** The wait before "Resend OTP" is offered, in seconds (the API's `resendAfterSeconds`). */
export const RESEND_AFTER_SECONDS = OTP_RESEND_SECONDS

/** The intent of the number form (step 1): send a code. */
export const SEND_INTENT = 'send'
/** The intent of the code form (step 2): check the code. */
export const VERIFY_INTENT = 'verify'
/** The intent of "Resend OTP": a new code to the same number. */
export const RESEND_INTENT = 'resend'

/** The "Add your name" prompt's intents: save the name, or close the prompt. */
export const ADD_NAME_INTENT = 'add-name'
export const DISMISS_NAME_INTENT = 'dismiss-name'

/** The "Add your name" prompt: the name, required, at most 100 characters (as on the profile). */
export const NameSchema = z.object({
  name: z
    .string({ error: 'Enter your name' })
    .trim()
    .min(1, 'Enter your name')
    .max(NAME_MAX_LENGTH, `Name must be at most ${NAME_MAX_LENGTH} characters`),
})

/** Step 1: the number to send a code to. */
export const PhoneNumberSchema = z.object({
  mobile: z.string({ error: 'Enter your mobile number' }).pipe(MobileSchema),
})

/** Step 2: the code from the SMS: required, exactly 6 ASCII digits (spaces around it dropped). */
export const SmsCodeSchema = z.object({
  otp: z
    .string({ error: SMS_CODE_MISSING_MESSAGE })
    .trim()
    .min(1, SMS_CODE_MISSING_MESSAGE)
    .regex(new RegExp(`^${SMS_CODE_PATTERN}$`), SMS_CODE_DIGITS_MESSAGE),
})

/**
 * A 10-digit number as people read it: "+91 98765 43210" (5 + 5 digits, the grouping of Indian
 * mobile numbers); any other string is answered unchanged.
 */
export function formatIndianMobile(mobile: string): string {
  return /^[0-9]{10}$/.test(mobile) ? `+91 ${mobile.slice(0, 5)} ${mobile.slice(5)}` : mobile
}

/**
 * Whole seconds from `now` until `resendAt` (both ms since the epoch), rounded up; 0 once it has
 * passed, never more than `RESEND_AFTER_SECONDS` (a clock that jumped cannot make the wait longer).
 */
export function secondsUntil(resendAt: number, now: number): number {
  return Math.min(RESEND_AFTER_SECONDS, Math.max(0, Math.ceil((resendAt - now) / 1000)))
}
