/**
 * Cross-origin use of the API by separately hosted clients (`API_ALLOWED_ORIGINS`; docs/api-contract.md,
 * "Cross-origin clients"), with Hono's own `cors` middleware (hono.dev, "CORS Middleware"). A
 * request whose `Origin` is one of the listed origins gets the Fetch standard's CORS answer: a
 * preflight `OPTIONS` is a 204 naming the methods, the request headers the API reads
 * (`Authorization`, `Content-Type`, `Idempotency-Key`, `Prefer`, `X-Guest-Cart`, `X-Refresh-Token`,
 * `X-Store-Id`) and how long to keep it; every answer echoes the origin and allows credentials (the API's cookies, for a client
 * that prefers them to Bearer tokens). Any other origin, or none, gets no `Access-Control-*` header at
 * all: the browser then keeps the answer from the calling page (Fetch standard, "CORS check").
 *
 * Cookie-authenticated writes from a listed origin are still checked by api/lib/csrf.ts, which
 * accepts the same list.
 */
import type { MiddlewareHandler } from 'hono'
import { cors } from 'hono/cors'
import { isBareOrigin } from '../../server-shared/env.ts'
import { STORE_HEADER } from '../../contract/store-header.ts'

/**
 * Request headers a cross-origin client may send: every one the API reads besides the CORS-safelisted
 * ones (`Prefer: return=minimal` of the cart writes, api/lib/prefer.ts; the store of contract/store-header.ts).
 */
export const CORS_ALLOW_HEADERS = [
  'Authorization',
  'Content-Type',
  'Idempotency-Key',
  'Prefer',
  'X-Guest-Cart',
  'X-Refresh-Token',
  STORE_HEADER,
] as const
/** Answer headers a cross-origin page may read besides the safelisted ones. */
export const CORS_EXPOSE_HEADERS = ['Retry-After', 'Idempotent-Replayed', 'Allow'] as const
/** Methods the API's routes use (api/lib/openapi.ts `Endpoint`), HEAD with GET. */
export const CORS_ALLOW_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'] as const
/** How long a browser may keep a preflight's answer, in seconds (Chromium caps it at 7200). */
export const CORS_MAX_AGE_SECONDS = 600

/**
 * `value` as an origin (`https://shop.example/` → `https://shop.example`). Throws on anything that is
 * not an absolute http(s) URL without path, query or credentials, so a typo in `API_ALLOWED_ORIGINS`
 * stops the start instead of silently allowing nothing.
 */
export function parseOrigin(value: string, name = 'API_ALLOWED_ORIGINS'): string {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new Error(`${name}: "${value}" is not an origin such as https://shop.example`)
  }
  if (!isBareOrigin(url))
    throw new Error(`${name}: "${value}" is not an origin such as https://shop.example (no path, query or credentials)`)
  return url.origin
}

/**
 * Middleware answering CORS for `origins` only (full origins, `https://shop.example`). Mount it before
 * the routes: a preflight is answered here, before any guard.
 */
export function corsForListedOrigins(origins: readonly string[]): MiddlewareHandler {
  const listed = new Set(origins.map((o) => parseOrigin(o)))
  const answer = cors({
    origin: (origin) => (listed.has(origin) ? origin : null),
    credentials: true,
    allowHeaders: [...CORS_ALLOW_HEADERS],
    allowMethods: [...CORS_ALLOW_METHODS],
    exposeHeaders: [...CORS_EXPOSE_HEADERS],
    maxAge: CORS_MAX_AGE_SECONDS,
  })
  return async (c, next) => {
    const origin = c.req.header('origin')
    if (origin && listed.has(origin)) return answer(c, next)
    await next()
    // The answer differs by Origin once any origin is listed: a shared cache must keep them apart.
    if (listed.size > 0) c.header('Vary', 'Origin', { append: true })
  }
}
