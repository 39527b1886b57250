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
 * The shopper's address for per-IP rate limits: the first X-Forwarded-For hop when the app runs
 * behind a trusted proxy (`TRUST_PROXY=1`), else the socket address server.ts put in `X-Client-Ip`.
 */
export function clientIp(request: Request): string | undefined {
  if (process.env.TRUST_PROXY === '1') {
    const forwarded = request.headers.get('X-Forwarded-For')?.split(',')[0]?.trim()
    if (forwarded) return forwarded
  }
  return request.headers.get('X-Client-Ip') ?? undefined
}

/**
 * Only same-site paths are followed after sign-in (OWASP Unvalidated Redirects): a value that is
 * not a single-slash absolute path becomes `fallback`.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = '/'): string {
  if (typeof to !== 'string' || !to.startsWith('/') || to.startsWith('//') || to.startsWith('/\\')) return fallback
  return to
}
