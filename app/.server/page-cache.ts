/**
 * The rendered-page cache in front of the React Router handler. What is kept, for whom, how it is
 * rendered, sent and dropped, and its memory bound: docs/decisions/0018-page-cache.md, "The page
 * cache".
 *
 * Why it is safe: a page is kept only when rendered for a visitor with no session state, without the
 * visitor's cookie and without a nonce (its policy lists the hashes of its inline scripts,
 * app/.server/csp.ts, so no nonce is ever sent twice); it is sent `private, no-cache` with
 * `Vary: Cookie, Accept-Encoding` (RFC 9111 section 5.2.2.7), and a visitor with any session state
 * always gets a page rendered for that request. Why it stays fresh: server.ts calls `clear()` on
 * every clear of the catalogue cache (api/lib/cache.ts `onClear`, on every instance through
 * api/lib/cache-bus.ts). An order clears nothing whole: each page records the products it shows
 * (app/.server/page-shows.ts) and `availabilityChanged(ids)` drops only the pages showing a product
 * that crossed between in stock and out of stock, and, when one came back in stock, the pages
 * ordered by availability (a search) (docs/decisions/0019-stock-changes-and-the-caches.md). A render that began before a clear or such
 * a change is not stored, and `ttlMs` bounds the rest (the only freshness bound of a BFF whose API
 * runs elsewhere, `API_URL`, which sees no writes).
 */
import { createHash, randomBytes } from 'node:crypto'
import { promisify } from 'node:util'
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib'
import type { NextFunction, Request as ExpressRequest, RequestHandler, Response as ExpressResponse } from 'express'
import { LRUCache } from 'lru-cache'
import { recordPageShows, showsStockKey, type PageShows } from './page-shows.ts'
import { sessionStorage, type SessionLocation } from './session.ts'

const gzipAsync = promisify(gzip)
const brotliAsync = promisify(brotliCompress)

/** The request header that marks a render for the cache (see `isPageCacheRender`). */
export const PAGE_CACHE_RENDER_HEADER = 'x-page-cache-render'
/** The response header that says whether the page came from the cache (`hit`) or was just stored (`miss`). */
export const PAGE_CACHE_STATUS_HEADER = 'X-Page-Cache'
/** The Cache-Control of every page the cache sends: only the visitor's own browser keeps it, and revalidates it. */
export const CACHED_PAGE_CACHE_CONTROL = 'private, no-cache'
/** The session cookie's name (app/.server/session.ts). */
const SESSION_COOKIE = '__session'
/** Longest URL (path and query) kept; longer ones are rendered per request. */
const MAX_KEY_LENGTH = 2048
/** Response headers not stored with a page: per-connection, or set again when it is sent. */
const DROPPED_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding', 'etag'])

// One token per process, shared through the global registry because server.ts (run by tsx) and the
// built server bundle each load their own copy of this module. A client cannot guess it, so it
// cannot make the server render a page the cache's way.
const TOKEN_KEY = Symbol.for('grocery.page-cache.token')
function renderToken(): string {
  const registry = globalThis as Record<symbol, unknown>
  if (typeof registry[TOKEN_KEY] !== 'string') registry[TOKEN_KEY] = randomBytes(16).toString('hex')
  return registry[TOKEN_KEY] as string
}

/**
 * True when `request` is a render for the page cache (made by `createPageCache`): app/entry.server.tsx
 * then renders the whole page before answering, without a nonce, with a hash-based policy.
 */
export function isPageCacheRender(request: Request): boolean {
  return request.headers.get(PAGE_CACHE_RENDER_HEADER) === renderToken()
}

/**
 * True when the `Cookie` header carries no session state: no session cookie, or one whose signed
 * data is empty (a forged or stale cookie reads as empty, as it does for the pages themselves).
 */
export async function hasNoSessionState(cookieHeader: string | undefined): Promise<boolean> {
  return (await cacheProfile(cookieHeader))?.location === null
}

/** Whom a cacheable request's page is rendered for: nobody, or a shopper's location only. */
export interface CacheProfile {
  location: SessionLocation | null
}

/**
 * The page-cache profile of a `Cookie` header: `{ location: null }` without session state (as
 * `hasNoSessionState`), `{ location }` when the session holds only the shopper's location, null when
 * it holds anything else (a user, a guest cart, a flash message): such a request is never cached.
 */
export async function cacheProfile(cookieHeader: string | undefined): Promise<CacheProfile | null> {
  if (!cookieHeader || !cookieHeader.includes(`${SESSION_COOKIE}=`)) return { location: null }
  const session = await sessionStorage.getSession(cookieHeader)
  const keys = Object.keys(session.data)
  if (keys.length === 0) return { location: null }
  const location = session.get('location')
  if (keys.length !== 1 || !location || typeof location.pincode !== 'string') return null
  return { location: { pincode: location.pincode, storeId: typeof location.storeId === 'string' ? location.storeId : null } }
}

/** The prefix of a profile's cache keys: none for a visitor without state, else its store and PIN code. */
export function profileKey(profile: CacheProfile): string {
  const location = profile.location
  return location ? `store=${location.storeId ?? '-'}&pincode=${location.pincode}|` : ''
}

/** The `Cookie` header a cache render sends for `profile`: none, or a fresh session holding only its location. */
async function renderCookie(profile: CacheProfile): Promise<string | null> {
  if (!profile.location) return null
  const session = await sessionStorage.getSession()
  session.set('location', profile.location)
  return (await sessionStorage.commitSession(session)).split(';')[0]!
}

/** One stored page: its headers and its body in each encoding. */
interface Entry {
  headers: Array<[string, string]>
  identity: Buffer
  gzip: Buffer
  br: Buffer
  etag: string
  /** What the page shows of the catalogue (which products, whether ordered by availability). */
  shows: PageShows
}

/** A finished render: what the React Router handler answered, with the whole body read, and what it showed. */
interface Rendered {
  status: number
  headers: Headers
  body: Buffer
  shows: PageShows
}

/** True when a page showing `shows` is stale once the stock keys `crossed` changed availability, `restocked` of them back in stock. */
function showsAny(shows: PageShows, crossed: Set<string>, restocked: Set<string> | null): boolean {
  for (const key of crossed) if (showsStockKey(shows, key, restocked === null || restocked.has(key))) return true
  return false
}

export interface PageCacheOptions {
  /** The React Router request handler (`createRequestHandler(build)` of `react-router`). */
  render: (request: Request) => Promise<Response>
  /** Memory cap in bytes (all encodings of all pages); 0 turns the cache off. */
  maxBytes: number
  /** Longest life of a page in ms; 0 = until the next clear. */
  ttlMs: number
  /** The fixed public origin (`PUBLIC_URL`), or null when pages name the origin each request came to. */
  publicUrl: string | null
}

export interface PageCache {
  /** Sends a stored page to a visitor without session state; anything else goes on (`next()`). Mount before the static files. */
  serve: RequestHandler
  /** Renders a cacheable request through the cache (stores the page and sends it); anything else goes on. Mount just before React Router. */
  fill: RequestHandler
  /** Drops every page; renders under way are not stored. */
  clear(): void
  /**
   * Drops the pages that show any of `stockKeys` (`stockKey(store, product)` of products whose shown
   * availability changed, contract/availability.ts; a bare product id counts in every store) and,
   * for those of them back in stock (`restocked`; all of them when not given), that store's pages
   * ordered by availability; renders under way that show one of them are not stored. Every other
   * page stays.
   */
  availabilityChanged(stockKeys: Iterable<string>, restocked?: Iterable<string>): void
  readonly stats: {
    hits: number
    misses: number
    stored: number
    clears: number
    /** Calls of `availabilityChanged`, and the pages they dropped. */
    availabilityChanges: number
    availabilityDropped: number
    bytes: number
    pages: number
  }
}

function origin(req: ExpressRequest): string {
  return `${req.protocol}://${req.get('host') ?? 'localhost'}`
}

/** The visitor asks for `etag` already (RFC 9110 section 13.1.2, weak comparison). */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false
  if (header.trim() === '*') return true
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)
}

/** Creates the cache (see the module comment). */
export function createPageCache(options: PageCacheOptions): PageCache {
  const enabled = options.maxBytes > 0
  // How many stored pages each URL has (under any profile), so `serve` reads no cookie for a URL
  // that has none. Counted on set and dispose (which LRUCache calls on delete, eviction, overwrite and clear).
  const storedUrls = new Map<string, number>()
  const urlOfKey = (key: string) => (key.startsWith('store=') ? key.slice(key.indexOf('|') + 1) : key)
  const lru = new LRUCache<string, Entry>({
    maxSize: Math.max(1, options.maxBytes),
    dispose: (_entry, key) => {
      const url = urlOfKey(key)
      const n = (storedUrls.get(url) ?? 1) - 1
      if (n > 0) storedUrls.set(url, n)
      else storedUrls.delete(url)
    },
    sizeCalculation: (entry, key) => entry.identity.length + entry.gzip.length + entry.br.length + key.length + 512,
    ...(options.ttlMs > 0 ? { ttl: options.ttlMs } : {}),
  })
  const pending = new Map<string, Promise<Entry | null>>()
  // The renders under way, each with the products that changed availability since it began.
  const rendering = new Set<Set<string>>()
  let generation = 0
  const counters = { hits: 0, misses: 0, stored: 0, clears: 0, availabilityChanges: 0, availabilityDropped: 0 }

  const keyOf = (req: ExpressRequest, profile: CacheProfile): string | null => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return null
    const url = req.originalUrl
    // React Router's data requests (`/x.data`) answer the client router, not a document.
    if (url.length > MAX_KEY_LENGTH || url.split('?')[0]!.endsWith('.data')) return null
    return `${profileKey(profile)}${options.publicUrl ? url : `${origin(req)}${url}`}`
  }

  const send = (req: ExpressRequest, res: ExpressResponse, entry: Entry, status: 'hit' | 'miss') => {
    res.status(200)
    for (const [name, value] of entry.headers) res.setHeader(name, value)
    res.setHeader('Cache-Control', CACHED_PAGE_CACHE_CONTROL)
    res.setHeader('Vary', 'Cookie, Accept-Encoding')
    res.setHeader('ETag', entry.etag)
    res.setHeader(PAGE_CACHE_STATUS_HEADER, status)
    if (matchesEtag(req.get('if-none-match'), entry.etag)) {
      res.status(304).end()
      return
    }
    const encoding = req.acceptsEncodings('br', 'gzip', 'identity')
    const body = encoding === 'br' ? entry.br : encoding === 'gzip' ? entry.gzip : entry.identity
    if (encoding === 'br' || encoding === 'gzip') res.setHeader('Content-Encoding', encoding)
    res.setHeader('Content-Length', body.length)
    if (req.method === 'HEAD') res.end()
    else res.end(body)
  }

  /** Renders `req`'s URL as a visitor whose session holds only the profile's location (or nothing) would see it. */
  const renderFresh = async (req: ExpressRequest, profile: CacheProfile): Promise<Rendered> => {
    const headers = new Headers()
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined || name === 'cookie' || name.startsWith('if-')) continue
      for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v)
    }
    const cookie = await renderCookie(profile)
    if (cookie) headers.set('cookie', cookie)
    headers.set(PAGE_CACHE_RENDER_HEADER, renderToken())
    const { result, shows } = await recordPageShows(async () => {
      const response = await options.render(new Request(`${origin(req)}${req.originalUrl}`, { method: 'GET', headers }))
      // The body is read inside the record too: a streamed page may load data while it streams.
      return { response, body: Buffer.from(await response.arrayBuffer()) }
    })
    return { status: result.response.status, headers: result.response.headers, body: result.body, shows }
  }

  const toEntry = async (rendered: Rendered): Promise<Entry | null> => {
    const { status, headers, body, shows } = rendered
    if (status !== 200 || headers.has('set-cookie') || !(headers.get('content-type') ?? '').startsWith('text/html')) return null
    // Only a page rendered the cache's way (no nonce, hashes in its policy) may be sent twice.
    if ((headers.get('content-security-policy') ?? '').includes("'nonce-")) return null
    const [gz, br] = await Promise.all([
      gzipAsync(body, { level: 9 }),
      brotliAsync(body, {
        params: {
          [zlibConstants.BROTLI_PARAM_QUALITY]: 9,
          [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.length,
          [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
        },
      }),
    ])
    const kept: Array<[string, string]> = []
    headers.forEach((value, name) => {
      if (!DROPPED_HEADERS.has(name)) kept.push([name, value])
    })
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`
    return { headers: kept, identity: body, gzip: gz, br, etag, shows }
  }

  const sendRendered = (res: ExpressResponse, rendered: Rendered, isHead: boolean) => {
    res.status(rendered.status)
    rendered.headers.forEach((value, name) => {
      if (name === 'set-cookie' || name === 'content-length' || name === 'transfer-encoding') return
      res.setHeader(name, value)
    })
    const cookies = rendered.headers.getSetCookie()
    if (cookies.length > 0) res.setHeader('Set-Cookie', cookies)
    res.setHeader('Content-Length', rendered.body.length)
    if (isHead) res.end()
    else res.end(rendered.body)
  }

  const serve: RequestHandler = (req, res, next) => {
    if (!enabled) return next()
    // Most requests (the static files) have no stored page under any profile: no cookie to read.
    const anyKey = keyOf(req, { location: null })
    if (anyKey === null || !storedUrls.has(anyKey)) return next()
    cacheProfile(req.headers.cookie).then((profile) => {
      const key = profile === null ? null : keyOf(req, profile)
      const entry = key === null ? undefined : lru.get(key)
      if (!entry) return next()
      counters.hits++
      send(req, res, entry, 'hit')
    }, next)
  }

  const fill: RequestHandler = (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    if (!enabled || req.method !== 'GET') return next()
    void (async () => {
      const profile = await cacheProfile(req.headers.cookie)
      const key = profile === null ? null : keyOf(req, profile)
      if (profile === null || key === null) return next()
      const stored = lru.get(key)
      if (stored) {
        counters.hits++
        return send(req, res, stored, 'hit')
      }
      // Visitors asking for the same page at once share one render.
      const shared = pending.get(key)
      if (shared) {
        const entry = await shared
        return entry ? send(req, res, entry, 'hit') : next()
      }
      counters.misses++
      const startedAt = generation
      const changedSince = new Set<string>()
      rendering.add(changedSince)
      let settle: (entry: Entry | null) => void = () => undefined
      const mine = new Promise<Entry | null>((resolve) => (settle = resolve))
      pending.set(key, mine)
      try {
        const rendered = await renderFresh(req, profile)
        const entry = await toEntry(rendered)
        settle(entry)
        // A catalogue write, or a change of availability of a product it shows, landed while
        // rendering: this page may predate it, so it is sent, not kept.
        if (entry && generation === startedAt && !showsAny(entry.shows, changedSince, null)) {
          lru.set(key, entry)
          const url = urlOfKey(key)
          storedUrls.set(url, (storedUrls.get(url) ?? 0) + 1)
          counters.stored++
        }
        if (entry) send(req, res, entry, 'miss')
        else sendRendered(res, rendered, false)
      } catch (err) {
        settle(null)
        next(err)
      } finally {
        rendering.delete(changedSince)
        // After a clear, a newer render of this page may be the one under way.
        if (pending.get(key) === mine) pending.delete(key)
      }
    })().catch(next)
  }

  return {
    serve,
    fill,
    clear() {
      generation++
      counters.clears++
      lru.clear()
      pending.clear()
    },
    availabilityChanged(stockKeys, restockedKeys) {
      const crossed = new Set(stockKeys)
      if (crossed.size === 0) return
      const restocked = restockedKeys === undefined ? null : new Set(restockedKeys)
      counters.availabilityChanges++
      const stale: string[] = []
      for (const [key, entry] of lru.entries()) if (showsAny(entry.shows, crossed, restocked)) stale.push(key)
      for (const key of stale) lru.delete(key)
      counters.availabilityDropped += stale.length
      for (const changedSince of rendering) for (const id of crossed) changedSince.add(id)
      // A visitor arriving now must not share a render that may have read the old availability.
      pending.clear()
    },
    get stats() {
      return { ...counters, bytes: lru.calculatedSize ?? 0, pages: lru.size }
    },
  }
}
