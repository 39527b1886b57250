/**
 * What a page answers when an API call failed (`{ ok: false }` of app/.server/upstream.ts): the one
 * mapping of an API failure to the BFF's own status, message and headers, used by every loader and
 * action (docs/product.md, "Error catalogue").
 *
 * - Status: the API's 4xx as it answered (400, 401, 403, 404, 409, 413, 415, 429); 503 Service
 *   Unavailable when the API said 503 (its database away or busy) or could not be reached or did not
 *   answer in time (app/.server/upstream.ts, UNAVAILABLE): a temporary outage, worth a retry
 *   (RFC 9110 §15.6.4); and 502 Bad Gateway for anything else (a 500, an answer that did not parse):
 *   the fault is upstream, not the shopper's (RFC 9110 §15.6.3).
 * - Message: the API's, and for a 429 with the wait it named in `Retry-After` (RFC 9110 §10.2.3).
 * - Headers: `Retry-After` with a 429 and a 503, the API's wait or UNAVAILABLE_RETRY_AFTER_S, so a
 *   client (or a crawler) comes back when it is worth it.
 *
 * React Router builds a page's (and a `.data` request's) headers from the routes' `headers` exports
 * only, so a `Retry-After` set on an action's or loader's answer would be dropped on the way out
 * (only cookies pass). `failureInit` therefore also notes the wait for the request, and
 * `retryAfterMiddleware` (root.tsx) puts it on the final 429 or 503 answer (RFC 6585 §4: a 429 MAY
 * say how long to wait, RFC 9110 §10.2.3).
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import { data, type MiddlewareFunction } from 'react-router'
import { UNAVAILABLE_RETRY_AFTER_S, type UpstreamResult } from './upstream.ts'

/** A failed API call: its status, message and field issues. */
export type UpstreamFailure = Extract<UpstreamResult<unknown>, { ok: false }>

/** The longest wait (whole seconds) a failure of this request named, for `retryAfterMiddleware`. */
const retryAfterNote = new AsyncLocalStorage<{ seconds?: number }>()

/** The status a page answers for `failure`: the API's 4xx and 503 as they are, else 502. */
export function failureStatus(failure: Pick<UpstreamFailure, 'status'>): number {
  return (failure.status >= 400 && failure.status < 500) || failure.status === 503 ? failure.status : 502
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

/**
 * The status (failureStatus) and headers of a page answering `failure`: `Retry-After` of a 429 as the
 * API named it, and of a 503 as the API named it or UNAVAILABLE_RETRY_AFTER_S.
 */
export function failureInit(failure: UpstreamFailure): ResponseInit & { status: number } {
  const status = failureStatus(failure)
  const headers = new Headers()
  let seconds: number | undefined
  if (status === 429 && failure.retryAfter) seconds = Math.ceil(failure.retryAfter)
  if (status === 503) seconds = Math.ceil(failure.retryAfter ?? UNAVAILABLE_RETRY_AFTER_S)
  if (seconds !== undefined) {
    headers.set('Retry-After', String(seconds))
    const note = retryAfterNote.getStore()
    if (note) note.seconds = Math.max(note.seconds ?? 0, seconds)
  }
  return { status, headers }
}

/** Throws `failure` as the error response of a loader or action (the route's error boundary shows it). */
export function throwFailure(failure: UpstreamFailure): never {
  throw data(failureMessage(failure), failureInit(failure))
}

/**
 * Root middleware: every 429 and 503 the BFF answers carries `Retry-After` (RFC 9110 §10.2.3): the
 * longest wait failureInit chose for this request, else, for a 503, UNAVAILABLE_RETRY_AFTER_S. A route's `headers`
 * export decides a document's headers and may drop the ones a thrown 503 carried (React Router docs,
 * "headers"); this puts the wait back whatever the route.
 */
export const retryAfterMiddleware: MiddlewareFunction<Response> = async (_args, next) => {
  const note: { seconds?: number } = {}
  let response = await retryAfterNote.run(note, next)
  if ((response.status !== 429 && response.status !== 503) || response.headers.has('Retry-After')) return response
  const seconds = note.seconds ?? (response.status === 503 ? UNAVAILABLE_RETRY_AFTER_S : undefined)
  if (seconds === undefined) return response
  // Some responses have immutable headers: copy before adding one.
  response = new Response(response.body, response)
  response.headers.set('Retry-After', String(seconds))
  return response
}
