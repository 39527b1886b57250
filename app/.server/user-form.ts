/**
 * The data answers of the account forms (/login, /register, /forgot-password, /reset-password; spec
 * section 2 "Auth screens", sections 5 and 8): a Conform reply, so the page refills the form and shows
 * the messages with JavaScript off as well as on, and a toast (null, or the error). Successes redirect
 * with a flash toast instead (app/.server/toast.ts).
 *
 * Secret fields (passwords) are named in `hideFields` and never echoed back into the page (OWASP ASVS
 * 8.3: no credentials in responses).
 */
import type { Submission } from '@conform-to/react'
import { data } from 'react-router'
import * as userApi from './api/user.ts'

/** Any Conform submission: only its `reply` is used. */
type AnySubmission = Pick<Submission<unknown>, 'reply'>

/** 400 for a form that did not pass its schema: Conform's messages (with `hideFields` emptied), no toast. */
export function invalidFormReply(submission: AnySubmission, hideFields?: string[]) {
  return data({ result: submission.reply({ hideFields }), toast: null }, { status: 400 })
}

/**
 * The answer to a call the API refused (`failure`): its message (userApi.failureMessage, which names
 * the wait of a 429) above the button and as an error toast, with the API's status (4xx as answered,
 * 502 for a fault) and Retry-After (userApi.failureInit). `fieldErrors` puts messages under fields;
 * `formErrors` replaces the message above the button (e.g. [] when it already stands under a field).
 */
export function failedFormReply(
  submission: AnySubmission,
  failure: userApi.Failure,
  options: { hideFields?: string[]; fieldErrors?: Record<string, string[]>; formErrors?: string[] } = {},
) {
  const message = userApi.failureMessage(failure)
  const { hideFields, fieldErrors, formErrors = [message] } = options
  return data(
    {
      result: submission.reply({ formErrors, fieldErrors, hideFields }),
      toast: { type: 'error' as const, message },
    },
    userApi.failureInit(failure),
  )
}

/** The API's field issues whose path is one of `fields`, as Conform field errors (others are left out). */
export function issuesOnFields(
  issues: ReadonlyArray<{ path: string; message: string }>,
  fields: Iterable<string>,
): Record<string, string[]> {
  const names = new Set(fields)
  const fieldErrors: Record<string, string[]> = {}
  for (const issue of issues) {
    if (names.has(issue.path)) (fieldErrors[issue.path] ??= []).push(issue.message)
  }
  return fieldErrors
}
