/**
 * Cross-site request forgery defence by the browser's own headers (OWASP CSRF Prevention Cheat
 * Sheet, "Verifying Origin With Standard Headers" and "Fetch Metadata headers"), shared by the API
 * (its cookie sign-in) and the BFF (app/.server/csrf.ts, every form post). The rule (`isFromOwnPage`,
 * server-shared/own-page.ts, which both sides import) and where each side applies it: docs/security.md, "Sign-in and sessions".
 *
 * Why a request with none of `Origin`, `Referer` and `Sec-Fetch-Site` is refused: every current
 * browser sends `Origin` with a form post and `Sec-Fetch-Site` with every request, so only a client
 * that is no browser sends none, and such a client signs its API calls with a Bearer token, which a
 * cross-site page cannot make a browser send. Why the API checks at all when its cookies are
 * SameSite=Lax: Lax leaves same-site subdomains, old browsers and a top-level GET open (see
 * `assertFromOwnPage`). JSON and multipart content types are required by the body readers (a
 * cross-site form cannot send JSON without a CORS preflight).
 */
import type { Context } from 'hono'
import { Forbidden } from './errors.ts'
import { isFromOwnPage, originOf } from '../../server-shared/own-page.ts'

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/** The message of a refused cross-site write. */
export const CROSS_SITE_REFUSED = 'Cross-site request refused: send it from this site, or sign it with a Bearer token'

/**
 * Throws 403 unless the request comes from a page of this host or of one of `allowedOrigins` (full
 * origins such as `https://shop.example`), whatever its method. For the rare read that changes
 * state (the original client's `GET /user/logout`) when a cookie authenticated it: SameSite=Lax
 * sends the cookie with a top-level navigation from another site.
 */
export function assertFromOwnPage(c: Context, allowedOrigins: readonly string[]): void {
  const host = c.req.header('host') ?? new URL(c.req.url).host
  const isOwn = (origin: string) => new URL(origin).host === host || allowedOrigins.some((o) => originOf(o) === origin)
  if (!isFromOwnPage((name) => c.req.header(name), isOwn)) throw Forbidden(CROSS_SITE_REFUSED)
}

/**
 * Throws 403 unless a write that is authenticated by one of the API's cookies comes from a page of
 * this host or of one of `allowedOrigins` (`assertFromOwnPage`). Call it where a cookie, not a Bearer
 * header, authenticated the request (api/lib/auth.ts, the refresh and reset endpoints); reads (GET,
 * HEAD) pass.
 */
export function assertSameOrigin(c: Context, allowedOrigins: readonly string[]): void {
  if (UNSAFE.has(c.req.method)) assertFromOwnPage(c, allowedOrigins)
}
