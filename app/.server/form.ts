/**
 * The BFF's one form pipeline, used by every action (docs/decisions/0015-one-form-pipeline.md, "One
 * pipeline"): read the body within its limits (`readForm` / `tryReadForm`, app/lib/form-body.ts;
 * OWASP Input Validation Cheat Sheet), check it with the page's zod schema (`invalidFormReply`: 400
 * and the messages), and answer an API refusal with the page's messages (`failedFormReply`).
 *
 * `readForm` throws a failure as a React Router `data()` response, so it reaches the route's error
 * boundary with its status and is not logged as a fault. Replies are `{ result, toast }` (plus a
 * page's own keys): `result` is Conform's reply, so the page refills the form and shows the messages
 * with JavaScript off as well as on. Secret fields (passwords, the code boxes) are named in
 * `hideFields` and never echoed back into the page (OWASP ASVS 8.3). A success redirects with a flash
 * toast instead (app/.server/toast.ts).
 */
import type { Submission, SubmissionResult } from '@conform-to/react'
import { data } from 'react-router'
import { failureInit, failureMessage, type UpstreamFailure } from './failure.ts'
import { FormReadError, readFormOrFail } from '../lib/form-body.ts'
import { MULTIPART_OVERHEAD_BYTES } from '../../contract/file.ts'
import type { FieldIssue } from '../../contract/envelope.ts'
import { env } from './env.ts'
import type { ToastMessage } from '../lib/toast.ts'

/**
 * Limits of one form's body: its multipart cap in bytes (default: one upload of the configured
 * `UPLOAD_MAX_BYTES` plus overhead, `defaultMultipartMaxBytes`) and the 413's message.
 */
export interface FormLimits {
  multipartMaxBytes?: number
  /** Shown for a 413 instead of the generic "The form is too large to send". */
  tooLargeMessage?: string
}

/** A body read, or why not: 405 another method, 415 not a web form, 413 too large, 400 unreadable. */
export type FormRead = { ok: true; formData: FormData } | { ok: false; status: FormReadError['status']; message: string }

/**
 * The multipart cap of a form that names none: one upload of the configured cap (`UPLOAD_MAX_BYTES`,
 * read at start by app/.server/env.ts, the variable the API's upload checks too) plus the other
 * fields. Read from `env` on each call, so every form follows the configured cap, never the
 * compile-time default of contract/file.ts.
 */
export function defaultMultipartMaxBytes(): number {
  return env.uploadMaxBytes + MULTIPART_OVERHEAD_BYTES
}

/** Reads the form of `request` within `limits`; a failure is answered as a value (see the module comment). */
export async function tryReadForm(request: Request, limits: FormLimits = {}): Promise<FormRead> {
  try {
    return {
      ok: true,
      formData: await readFormOrFail(request, { multipartMaxBytes: limits.multipartMaxBytes ?? defaultMultipartMaxBytes() }),
    }
  } catch (err) {
    if (!(err instanceof FormReadError)) throw err
    return { ok: false, status: err.status, message: err.status === 413 && limits.tooLargeMessage ? limits.tooLargeMessage : err.message }
  }
}

/** A failed read as the error response a route throws (405 names the methods allowed, RFC 9110 §15.5.6). */
export function formReadFailure(read: Extract<FormRead, { ok: false }>) {
  return data(read.message, {
    status: read.status,
    statusText: read.message,
    headers: read.status === 405 ? { Allow: 'GET, HEAD, POST' } : undefined,
  })
}

/** Reads the form of `request` within `limits`; a failure is thrown as a `data()` response with its status. */
export async function readForm(request: Request, limits: FormLimits = {}): Promise<FormData> {
  const read = await tryReadForm(request, limits)
  if (read.ok) return read.formData
  throw formReadFailure(read)
}

/** A text field of the form, trimmed, or '' (a File or a missing field gives ''). */
export function readText(formData: FormData, name: string): string {
  const value = formData.get(name)
  return typeof value === 'string' ? value.trim() : ''
}

/** Any Conform submission: only its `reply` is used. */
export type AnySubmission = Pick<Submission<unknown>, 'reply'>

/** Messages per field name (`name`, `image`, `category`, …). */
export type FieldErrors = Record<string, string[]>

/** The body every form reply carries: Conform's reply and a toast (null, or the error). */
export interface FormReply {
  result: SubmissionResult<string[]>
  toast: ToastMessage | null
}

/**
 * 400 for a form that did not pass its schema: Conform's messages (with `hideFields` emptied), the
 * page's own keys (`extra`) and `toast` (none by default: the messages stand beside the fields).
 */
export function invalidFormReply<E extends object = object>(
  submission: AnySubmission,
  options: { hideFields?: string[]; toast?: ToastMessage | null; extra?: E } = {},
) {
  const body: FormReply = { result: submission.reply({ hideFields: options.hideFields }), toast: options.toast ?? null }
  return data({ ...(options.extra as E), ...body }, { status: 400 })
}

/**
 * The API's field issues (`{ path: 'category.0', message }`) as messages on the form's `fields`: the
 * first path segment names the field, each message once; issues of other fields are left out.
 */
export function issuesToFieldErrors(issues: readonly FieldIssue[], fields: Iterable<string>): FieldErrors {
  const names = new Set(fields)
  const fieldErrors: FieldErrors = {}
  for (const issue of issues) {
    const field = issue.path.split('.')[0] ?? ''
    if (!names.has(field)) continue
    const list = (fieldErrors[field] ??= [])
    if (!list.includes(issue.message)) list.push(issue.message)
  }
  return fieldErrors
}

/** How a refusal lands on a form (see `failedFormReply`). */
export interface FailedFormOptions<E> {
  /** The form's field names: the API's issues on them go under them (the rest are said above the button). */
  fields?: Iterable<string>
  /** The field a 409 Conflict is about (a taken email, a duplicate name): its message goes there. */
  conflictField?: string
  /** More field messages the page knows of (added to the API's issues). */
  fieldErrors?: FieldErrors
  hideFields?: string[]
  /** The page's own keys of the reply (an intent, the edited id, …). */
  extra?: E
}

/**
 * The answer to a submission the API refused (`failure`), with the API's status and `Retry-After`
 * (app/.server/failure.ts): its field issues under `fields`, a 409 under `conflictField`, its message
 * (failureMessage: a 429 names the wait) above the button unless a field already says it, and that
 * message as an error toast. Also used for a refused upload (`{ status, message }` only).
 */
export function failedFormReply<E extends object = object>(
  submission: AnySubmission,
  failure: Pick<UpstreamFailure, 'status' | 'message'> & Partial<Pick<UpstreamFailure, 'issues' | 'retryAfter'>>,
  options: FailedFormOptions<E> = {},
) {
  const full: UpstreamFailure = { issues: [], ...failure, ok: false }
  const message = failureMessage(full)
  const fieldErrors: FieldErrors = { ...issuesToFieldErrors(full.issues, options.fields ?? []) }
  for (const [name, messages] of Object.entries(options.fieldErrors ?? {})) {
    fieldErrors[name] = [...new Set([...(fieldErrors[name] ?? []), ...messages])]
  }
  if (full.status === 409 && options.conflictField && !fieldErrors[options.conflictField]) fieldErrors[options.conflictField] = [message]
  // The API's message of a 400 repeats its first field issue as `path: message` (api/lib/validate.ts).
  const shown = new Set(Object.values(fieldErrors).flat())
  const isOnField =
    shown.has(message) || full.issues.some((issue) => shown.has(issue.message) && message === `${issue.path}: ${issue.message}`)
  const body: FormReply = {
    result: submission.reply({ formErrors: isOnField ? [] : [message], fieldErrors, hideFields: options.hideFields }),
    toast: { type: 'error', message },
  }
  return data({ ...(options.extra as E), ...body }, failureInit(full))
}
