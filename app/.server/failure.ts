/**
 * What a page answers when an API call failed (`{ ok: false }` of app/.server/upstream.ts): the one
 * mapping of an API failure to the BFF's own status, message and headers, used by every loader and
 * action (docs/product.md, "Error catalogue").
 *
 * - Status: the API's 4xx as it answered (400, 401, 403, 404, 409, 413, 415, 429), and 502 Bad
 *   Gateway for anything else (a 5xx, an unreachable API, an answer that did not parse): the fault is
 *   upstream, not the shopper's (RFC 9110 §15.6.3).
 * - Message: the API's, and for a 429 with the wait it named in `Retry-After` (RFC 9110 §10.2.3).
 * - Headers: `Retry-After` passed on with a 429, so a client can wait as long as the API asked.
 *
 * React Router builds a page's (and a `.data` request's) headers from the routes' `headers` exports
 * only, so a `Retry-After` set on an action's or loader's answer would be dropped on the way out
 * (only cookies pass). `failureInit` therefore also notes the wait for the request, and
 * `retryAfterMiddleware` (root.tsx) puts it on the final 429 answer (RFC 6585 §4: a 429 MAY say how
 * long to wait, RFC 9110 §10.2.3).
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import { data, type MiddlewareFunction } from 'react-router'
import type { UpstreamResult } from './upstream.ts'

/** The longest wait (whole seconds) a failure of this request named, for `retryAfterMiddleware`. */
const retryAfterNote = new AsyncLocalStorage<{ seconds?: number }>()

/** A failed API call: its status, message and field issues. */
export type UpstreamFailure = Extract<UpstreamResult<unknown>, { ok: false }>

/** The status a page answers for `failure`: the API's 4xx as is, else 502. */
export function failureStatus(failure: Pick<UpstreamFailure, 'status'>): number {
  return failure.status >= 400 && failure.status < 500 ? failure.status : 502
}

/**
 * `failure` as one readable line: the API's message; a 429 names the wait from `Retry-After`
 * ("… Please wait 30 seconds.").
 */
export function failureMessage(failure: UpstreamFailure): string {
  if (failure.status !== 429 || !failure.retryAfter) return failure.message
  const seconds = Math.ceil(failure.retryAfter)
  const minutes = Math.ceil(seconds / 60)
  const wait = seconds < 60 ? `${seconds} second${seconds === 1 ? '' : 's'}` : `${minutes} minute${minutes === 1 ? '' : 's'}`
  return `${failure.message.replace(/[.\s]+$/, '')}. Please wait ${wait}.`
}

/** The status (failureStatus) and headers (`Retry-After` of a 429) of a page answering `failure`. */
export function failureInit(failure: UpstreamFailure): ResponseInit & { status: number } {
  const status = failureStatus(failure)
  const headers = new Headers()
  if (status === 429 && failure.retryAfter) {
    const seconds = Math.ceil(failure.retryAfter)
    headers.set('Retry-After', String(seconds))
    const note = retryAfterNote.getStore()
    if (note) note.seconds = Math.max(note.seconds ?? 0, seconds)
  }
  return { status, headers }
}

/**
 * Root middleware: a page or `.data` answer with status 429 gets the `Retry-After` its failed API
 * call named (`failureInit`), since React Router keeps only the routes' `headers` exports.
 */
export const retryAfterMiddleware: MiddlewareFunction<Response> = async (_args, next) => {
  const note: { seconds?: number } = {}
  let response = await retryAfterNote.run(note, next)
  if (response.status === 429 && note.seconds && !response.headers.has('Retry-After')) {
    // Some responses have immutable headers: copy before adding one.
    response = new Response(response.body, response)
    response.headers.set('Retry-After', String(note.seconds))
  }
  return response
}

/** Throws `failure` as the error response of a loader or action (the route's error boundary shows it). */
export function throwFailure(failure: UpstreamFailure): never {
  throw data(failureMessage(failure), failureInit(failure))
}
