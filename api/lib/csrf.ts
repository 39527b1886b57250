/**
 * Cross-site request forgery defence for the API's cookie sign-in (OWASP CSRF Prevention Cheat
 * Sheet, "Verifying origin with standard headers"). A write (POST, PUT, PATCH, DELETE) that is
 * authenticated by the API's own cookies rather than an `Authorization: Bearer` header must come
 * from a page of this site: its `Origin` (or, without one, its `Referer`) must name this host or
 * one of the configured origins (`API_ALLOWED_ORIGINS`, for a separately hosted client). The cookies
 * are SameSite=Lax already; this closes what Lax leaves open (same-site subdomains, old browsers).
 * JSON and multipart content types are required by the body readers (a cross-site form cannot send
 * JSON without a CORS preflight the API never grants).
 */
import type { Context } from 'hono'
import { Forbidden } from './errors.ts'

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/** The message of a refused cross-site write. */
export const CROSS_SITE_REFUSED = 'Cross-site request refused: send it from this site, or sign it with a Bearer token'

function originOf(value: string | undefined): string | null {
  if (!value || value === 'null') return null
  try {
    return new URL(value).origin
  } catch {
    return null
  }
}

/**
 * Throws 403 unless a write that is authenticated by one of the API's cookies comes from this host or
 * one of `allowedOrigins` (full origins such as `https://shop.example`), as its Origin, or without
 * one its Referer, says. Call it where a cookie, not a Bearer header, authenticated the request
 * (api/lib/auth.ts, the refresh and reset endpoints); reads (GET, HEAD) always pass.
 */
export function assertSameOrigin(c: Context, allowedOrigins: readonly string[]): void {
  if (!UNSAFE.has(c.req.method)) return
  const from = originOf(c.req.header('origin')) ?? originOf(c.req.header('referer'))
  const host = c.req.header('host') ?? new URL(c.req.url).host
  if (from && (new URL(from).host === host || allowedOrigins.some((o) => originOf(o) === from))) return
  throw Forbidden(CROSS_SITE_REFUSED)
}
