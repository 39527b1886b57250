/**
 * Small helpers about the incoming request.
 */
import { env } from './env.ts'

/**
 * The site's public origin (`https://shop.example`) for absolute URLs in pages and sitemaps:
 * `PUBLIC_URL` when set (production should set it: the request's Host header is the client's to
 * choose), else the origin the request was made to (local starts, tests).
 */
export function publicOrigin(request: Request): string {
  return env.publicUrl ?? new URL(request.url).origin
}

/**
 * The shopper's address for per-IP rate limits: what server.ts put in `X-Client-Ip` for this request
 * (api/lib/client-ip.ts decides it once, from the socket or past the `TRUST_PROXY` hops, and
 * overwrites anything the client sent).
 */
export function clientIp(request: Request): string | undefined {
  return request.headers.get('X-Client-Ip') ?? undefined
}

const SAFE_REDIRECT_BASE = 'http://redirect-check.invalid'
// C0 controls, DEL and C1 controls; a tab or line break in a path is dropped by URL parsers, which
// turns `/%09/evil.example` (decoded `/\t/evil.example`) into `//evil.example`.
// eslint-disable-next-line no-control-regex -- these are exactly the characters refused
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/

/**
 * Only same-site paths are followed after sign-in and cart posts (OWASP Unvalidated Redirects and
 * Forwards Cheat Sheet): `to` is accepted only when it is a path (one leading `/`), has no control
 * characters or backslashes (raw or percent-encoded) and, resolved against the site's own origin
 * (WHATWG URL), stays on that origin. The answer is the normalised path, query and fragment of that
 * parse, checked again as the browser will read it: dot segments can collapse `/.//evil.example`
 * into `//evil.example`, a network-path reference to another host (RFC 3986 §4.2). Anything else
 * becomes `fallback`.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = '/'): string {
  if (typeof to !== 'string' || !to.startsWith('/') || CONTROL_CHARACTERS.test(to) || to.includes('\\')) return fallback
  let decoded: string
  try {
    decoded = decodeURIComponent(to)
  } catch {
    return fallback
  }
  // A percent-encoded control character or backslash is refused too: some servers and proxies
  // decode the path once before a browser sees it.
  if (CONTROL_CHARACTERS.test(decoded) || decoded.includes('\\') || decoded.startsWith('//')) return fallback
  let url: URL
  try {
    url = new URL(to, SAFE_REDIRECT_BASE)
  } catch {
    return fallback
  }
  if (url.origin !== SAFE_REDIRECT_BASE) return fallback
  const target = `${url.pathname}${url.search}${url.hash}`
  // What is answered is what the browser resolves, so it must itself be a path of this site.
  if (!target.startsWith('/') || target.startsWith('//') || new URL(target, SAFE_REDIRECT_BASE).origin !== SAFE_REDIRECT_BASE)
    return fallback
  return target
}

/**
 * The path and query of the request's `Referer` when it names this site (the request's own origin),
 * else null. Browsers send it with same-origin form posts under `strict-origin-when-cross-origin`
 * (app/.server/security-headers.ts); it is only a hint of where to go back to, checked again by
 * `safeRedirect`.
 */
export function sameOriginReferer(request: Request): string | null {
  const referer = request.headers.get('referer')
  if (!referer) return null
  try {
    const from = new URL(referer)
    const own = new URL(request.url)
    if (from.host !== own.host) return null
    return `${from.pathname}${from.search}`
  } catch {
    return null
  }
}
