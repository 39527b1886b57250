/**
 * The server half of the two SMS-code steps (docs/decisions/0054-phone-sign-in-pages.md), shared by
 * phone sign-in (/login/phone) and the profile's mobile verification: step 1 sends a code to a number
 * and remembers it in the session (app/.server/session.ts `PendingCode`, never in the URL), step 2
 * checks the code, "Resend OTP" asks for another. Which step a page shows is in its URL (`?step=code`
 * or the page's own parameter); nothing is kept in the server process.
 *
 * Replies follow the form pipeline (app/.server/form.ts): a refused number or code comes back with
 * the API's message on the form and the API's status (a 429 with its `Retry-After`).
 */
import { parseWithZod } from '@conform-to/zod/v4'
import { data, redirect } from 'react-router'
import { failureInit, failureMessage, type UpstreamFailure } from './failure.ts'
import { failedFormReply, invalidFormReply } from './form.ts'
import type { CodePurpose, PendingCode, RequestSession } from './session.ts'
import type { UpstreamResult } from './upstream.ts'
import {
  formatIndianMobile,
  PhoneNumberSchema,
  RESEND_INTENT,
  secondsUntil,
  SEND_INTENT,
  SmsCodeSchema,
  VERIFY_INTENT,
} from '../lib/schemas/phone.ts'
import type { OtpSent } from '../../contract/phone.ts'

/** The code field never comes back filled from the server: a refused code is typed again. */
const HIDDEN_FIELDS = ['otp']

/** The code step as a page shows it (app/components/phone-code.tsx `CodeStep`), or null without a pending code. */
export function codeStepOf(session: RequestSession, purpose: CodePurpose, now = Date.now()) {
  const pending = session.pendingCode(purpose)
  if (!pending) return null
  return { mobileLabel: formatIndianMobile(pending.mobile), resendInSeconds: secondsUntil(pending.resendAt, now) }
}

/** How one page runs the steps: its calls to the API and where each step is. */
export interface CodeSteps<T, R> {
  purpose: CodePurpose
  /** Sends a code to `mobile` (10 digits). */
  send: (mobile: string) => Promise<UpstreamResult<OtpSent>>
  /** Checks `otp` for `mobile`. */
  verify: (mobile: string, otp: string) => Promise<UpstreamResult<T>>
  /** The page's step-1 URL (path and query), where step 2 goes back to without a pending code. */
  numberStep: string
  /** The page's step-2 URL, where a sent code leads. */
  codeStep: string
  /**
   * What a code the API accepted leads to (the pending code is already forgotten); `refuse` answers a
   * later step's failure on the code form.
   */
  onVerified: (answer: { data: T; message: string }, refuse: (failure: UpstreamFailure) => RefusedCode) => Promise<R> | R
}

/** The code form's answer to a refusal (app/.server/form.ts `failedFormReply`). */
type RefusedCode = ReturnType<typeof failedFormReply<{ readonly intent: typeof VERIFY_INTENT }>>

/** Records a code sent to `mobile` now: another may be asked for after the API's `resendAfterSeconds`. */
function remember(session: RequestSession, purpose: CodePurpose, mobile: string, sent: OtpSent, now: number) {
  const pending: PendingCode = { mobile, resendAt: now + sent.resendAfterSeconds * 1000 }
  session.setPendingCode(purpose, pending)
}

/**
 * Runs the step `formData`'s `intent` names: `send` (step 1: the number form), `resend` or `verify`
 * (step 2, for the session's pending number; without one, a redirect to step 1). Answers the reply of
 * the form that was sent (`intent` says which) or a redirect.
 */
export async function runCodeStep<T, R>(session: RequestSession, formData: FormData, steps: CodeSteps<T, R>, now = Date.now()) {
  const intent = formData.get('intent')
  if (intent !== RESEND_INTENT && intent !== VERIFY_INTENT) {
    const extra = { intent: SEND_INTENT } as const
    const submission = parseWithZod(formData, { schema: PhoneNumberSchema })
    if (submission.status !== 'success') return invalidFormReply(submission, { extra })
    const { mobile } = submission.value
    const sent = await steps.send(mobile)
    // A 409 (the number is another account's) is said on the number field.
    if (!sent.ok) return failedFormReply(submission, sent, { fields: ['mobile'], conflictField: 'mobile', extra })
    remember(session, steps.purpose, mobile, sent.data, now)
    throw redirect(steps.codeStep)
  }

  const pending = session.pendingCode(steps.purpose)
  if (!pending) throw redirect(steps.numberStep)

  if (intent === RESEND_INTENT) {
    const sent = await steps.send(pending.mobile)
    if (!sent.ok) {
      // Too early, or over budget: the wait is said beside the button (the API's 429 and Retry-After).
      return data(
        {
          intent: RESEND_INTENT as typeof RESEND_INTENT,
          result: undefined,
          toast: { type: 'error' as const, message: failureMessage(sent) },
        },
        failureInit(sent),
      )
    }
    remember(session, steps.purpose, pending.mobile, sent.data, now)
    const message = sent.message || 'A new code is on its way'
    return { intent: RESEND_INTENT as typeof RESEND_INTENT, result: undefined, toast: { type: 'success' as const, message } }
  }

  const extra = { intent: VERIFY_INTENT } as const
  const submission = parseWithZod(formData, { schema: SmsCodeSchema })
  if (submission.status !== 'success') return invalidFormReply(submission, { hideFields: HIDDEN_FIELDS, extra })
  const verified = await steps.verify(pending.mobile, submission.value.otp)
  const refuse = (failure: UpstreamFailure) => failedFormReply(submission, failure, { fields: ['otp'], hideFields: HIDDEN_FIELDS, extra })
  if (!verified.ok) return refuse(verified)
  session.clearPendingCode(steps.purpose)
  return steps.onVerified({ data: verified.data, message: verified.message }, refuse)
}
