/**
 * Whether a request was made by a page of one of our origins, read from the browser's own headers
 * (OWASP CSRF Prevention Cheat Sheet, "Verifying Origin With Standard Headers" and "Fetch Metadata
 * headers"). One rule for both sides: the API's cookie-authenticated writes (api/lib/csrf.ts) and
 * the BFF's form posts (app/.server/csrf.ts); where each applies it: docs/security.md, "Sign-in and
 * sessions". A request with none of `Origin`, `Referer` and `Sec-Fetch-Site` is refused: every
 * current browser sends `Origin` with a form post and `Sec-Fetch-Site` with every request.
 */

/** The origin of a URL header value, or null when it is absent, `null` or not a URL. */
export function originOf(value: string | null | undefined): string | null {
  if (!value || value === 'null') return null
  try {
    return new URL(value).origin
  } catch {
    return null
  }
}

/**
 * Whether the browser says the request was made by a page of one of our origins (the rule above).
 * @param header reads one request header (`null` or `undefined` when absent)
 * @param isOwn whether a full origin (`https://shop.example`) is one of ours
 */
export function isFromOwnPage(header: (name: string) => string | null | undefined, isOwn: (origin: string) => boolean): boolean {
  const origin = header('origin')
  // `Origin: null` (a sandboxed frame, a cross-origin redirect, `Referrer-Policy: no-referrer`) names no page of ours.
  if (origin) return originOf(origin) !== null && isOwn(originOf(origin)!)
  const referer = header('referer')
  const fetchSite = header('sec-fetch-site')
  if (!referer && !fetchSite) return false
  if (referer) {
    const from = originOf(referer)
    if (!from || !isOwn(from)) return false
  }
  return !fetchSite || fetchSite === 'same-origin'
}
