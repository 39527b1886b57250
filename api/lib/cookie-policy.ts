/**
 * The SameSite attribute of the API's own cookies (the access and refresh token cookies, the reset
 * token cookie): docs/api-contract.md, "Cross-origin clients".
 *
 * `Lax` by default: the cookies travel only with requests from the API's own site (and top-level
 * navigations). A client hosted on another site (the original single-page client on its own host,
 * listed in `API_ALLOWED_ORIGINS`) that keeps no token of its own needs them on its cross-site
 * `fetch` calls, which only `SameSite=None` allows, and browsers accept `None` only with `Secure`
 * (RFC 6265bis, "The SameSite attribute"; MDN, "Set-Cookie: SameSite=None"). So the answer is `None`
 * when the cookies are Secure and a listed origin is another site than the request's host; cookie-
 * authenticated writes from such a page still pass the Origin check (api/lib/csrf.ts), which refuses
 * every site not listed. Such a cookie is also `Partitioned` (CHIPS, api/lib/auth.ts
 * `apiCookieOptions`), so browsers that block third-party cookies keep it for the client's site.
 *
 * "Site" is the scheme-less registrable domain (the Public Suffix List through `tldts`:
 * `shop.example.co.in` and `api.example.co.in` are one site), or the host itself for an IP address
 * or a single-label name such as `localhost`.
 */
import { getDomain } from 'tldts'
import type { AppDeps } from '../deps.ts'

/** The cookies' SameSite value, in Hono's `setCookie` spelling. */
export type CookieSameSite = 'Lax' | 'None'

/** The registrable domain of `hostname` (no port), or the hostname itself when it has none. */
export function siteOf(hostname: string): string {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '')
  return getDomain(host, { allowPrivateDomains: true }) ?? host
}

/**
 * `None` when `deps.secureCookies` and one of `deps.allowedOrigins` (full origins) is on another
 * site than `requestHost` (the `Host` header, port allowed); else `Lax`.
 */
export function apiCookieSameSite(deps: Pick<AppDeps, 'secureCookies' | 'allowedOrigins'>, requestHost: string): CookieSameSite {
  if (!deps.secureCookies || deps.allowedOrigins.length === 0) return 'Lax'
  const own = siteOf(requestHost.replace(/:\d+$/, ''))
  return deps.allowedOrigins.some((origin) => siteOf(new URL(origin).hostname) !== own) ? 'None' : 'Lax'
}
