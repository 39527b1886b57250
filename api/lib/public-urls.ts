/**
 * Image urls on the site's public origin (`PUBLIC_URL`; docs/api-contract.md, "Cross-origin
 * clients"). Rows store an image as the site-relative `/uploads/<key>` the storage hands out; a
 * client hosted on another origin would resolve that against its own origin and show nothing. With
 * `PUBLIC_URL` set, every answer names its images absolutely (`https://shop.example/uploads/<key>`),
 * and a body may send such a url back (the original client's product edit does): it is turned into the
 * stored path before validation, so rows never depend on the origin.
 */
import type { MiddlewareHandler } from 'hono'

declare module 'hono' {
  interface ContextVariableMap {
    /** The site's public origin (`PUBLIC_URL`), set by the app (api/app.ts), or undefined. */
    publicUrl: string | undefined
  }
}

/** A storage key as it appears in a served url (contract/images.ts names; test fixtures' readable names). */
const KEY = '[A-Za-z0-9._-]+'
/**
 * A JSON string whose whole text is `/uploads/<key>`, opening after `[`, `:` or `,`. A quote inside a
 * string is always escaped (`\"`), so a quote right after one of those characters opens a string; an
 * object key (followed by `:`) is captured to be left alone.
 */
const STORED_PATH_IN_JSON = new RegExp(`([[:,]\\s*)"(/uploads/${KEY})"(\\s*:)?`, 'g')

/** `json` (JSON text) with every string value that is exactly `/uploads/<key>` made absolute on `publicUrl`. */
export function absolutizeImagePaths(json: string, publicUrl: string): string {
  if (!json.includes('"/uploads/')) return json
  return json.replace(STORED_PATH_IN_JSON, (whole, before: string, path: string, key?: string) =>
    key ? whole : `${before}"${publicUrl}${path}"`,
  )
}

/**
 * Middleware: JSON answers name their images on `publicUrl` (see the module comment). Mount it
 * before the routes; answers that are not JSON pass untouched.
 */
export function absoluteImageUrls(publicUrl: string): MiddlewareHandler {
  return async (c, next) => {
    await next()
    if (!(c.res.headers.get('content-type') ?? '').includes('application/json')) return
    const text = await c.res.clone().text()
    const rewritten = absolutizeImagePaths(text, publicUrl)
    if (rewritten === text) return
    const headers = new Headers(c.res.headers)
    headers.delete('content-length')
    // Assigned through `c.res = undefined` first: Hono's setter would otherwise copy the old headers back.
    const res = new Response(rewritten, { status: c.res.status, statusText: c.res.statusText, headers })
    c.res = undefined
    c.res = res
  }
}

/**
 * `value` (a parsed JSON body) with every string that is exactly `<publicUrl>/uploads/<key>` turned
 * into `/uploads/<key>`, the form rows store; other values unchanged. Returns `value` itself when
 * nothing matched.
 */
export function relativizeImageUrls(value: unknown, publicUrl: string): unknown {
  const absolute = new RegExp(`^${publicUrl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(/uploads/${KEY})$`)
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return absolute.exec(v)?.[1] ?? v
    if (Array.isArray(v)) return v.map(walk)
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, child]) => [k, walk(child)]))
    return v
  }
  return walk(value)
}
