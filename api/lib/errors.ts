/**
 * Typed domain errors. Services throw these; `errorHandler` in app.ts maps each to its status code
 * and failure envelope (docs/api-contract.md, "Errors" and "Envelope"). Anything else is a real
 * fault: 500.
 */
import type { FieldIssue } from '../../contract/envelope.ts'

export class HttpError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 503,
    message: string,
    readonly extra: { issues?: FieldIssue[]; retryAfterSeconds?: number } = {},
  ) {
    super(message)
  }
}

/** 400 bad input, optionally with field issues `{ path, message }`. */
export const BadRequest = (message: string, issues?: FieldIssue[]) => new HttpError(400, message, { issues })
/** 401: no token, or a bad or expired one. */
export const Unauthorized = (message = 'Provide a valid access token') => new HttpError(401, message)
/** 403: signed in but not allowed (not ADMIN). */
export const Forbidden = (message = 'Permission denied: admin only') => new HttpError(403, message)
/** 404: the thing named does not exist. */
export const NotFound = (message: string) => new HttpError(404, message)
/** 409: duplicate (email) or still referenced. */
export const Conflict = (message: string) => new HttpError(409, message)
/** 413: upload over the size cap. */
export const PayloadTooLarge = (message: string) => new HttpError(413, message)
/** 415: upload is not an accepted image. */
export const UnsupportedMediaType = (message: string) => new HttpError(415, message)
/** 429 with `Retry-After` seconds. */
export const TooManyRequests = (retryAfterSeconds: number, message = 'Too many attempts, try again later') =>
  new HttpError(429, message, { retryAfterSeconds: Math.max(1, Math.ceil(retryAfterSeconds)) })
