/**
 * Cross-site request forgery defence of the BFF's forms (OWASP CSRF Prevention Cheat Sheet,
 * "Verifying Origin With Standard Headers" and "Fetch Metadata headers"): a POST, PUT, PATCH or
 * DELETE runs only when the browser says a page of this site sent it (`isFromOwnPage` in
 * api/lib/csrf.ts: a same-origin `Origin`, or without one a same-origin `Referer` or
 * `Sec-Fetch-Site: same-origin`; none of them is refused). The session cookie's SameSite=Lax and the
 * CSP's `form-action 'self'` stay, but Lax lets same-site subdomains and old browsers through, and
 * React Router's own check passes a request that has no `Origin` at all.
 */
import { data, type MiddlewareFunction } from 'react-router'
import { isFromOwnPage } from '../../server-shared/own-page.ts'
import { env } from './env.ts'

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/** Where the payment provider's checkout posts its answer (app/routes/checkout/payment/callback.ts). */
export const PAYMENT_CALLBACK_PATH = '/checkout/payment/callback'

/** The message of a refused cross-site form post (403). */
export const CROSS_SITE_FORM_REFUSED = 'This form was sent from another site, so nothing was done: open the page on this site and try again'

/**
 * Whether `request` may change state: always for a read (GET, HEAD, OPTIONS), else only when it
 * comes from a page of the origin it was made to, or of `publicUrl` (`PUBLIC_URL`, the origin the
 * shopper sees behind a proxy).
 */
export function isAllowedWrite(request: Request, publicUrl: string | undefined = env.publicUrl): boolean {
  if (!UNSAFE.has(request.method)) return true
  // The payment provider's checkout posts its answer from its own site; the API accepts it only
  // with the provider's signature (docs/payments.md, "Callback"), and it changes nothing else.
  if (new URL(request.url).pathname === PAYMENT_CALLBACK_PATH) return true
  const own = new Set([new URL(request.url).origin])
  if (publicUrl) own.add(new URL(publicUrl).origin)
  return isFromOwnPage(
    (name) => request.headers.get(name),
    (origin) => own.has(origin),
  )
}

/** Root middleware: a cross-site write is answered 403 before any action (or body read) runs. */
export const sameSiteWrites: MiddlewareFunction<Response> = async ({ request }, next) => {
  if (!isAllowedWrite(request)) throw data(CROSS_SITE_FORM_REFUSED, { status: 403 })
  return next()
}
