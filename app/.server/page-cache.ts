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
 *
 * Stale if error (RFC 5861, section 4, `stale-if-error`, applied by this server-side cache): a page
 * past `ttlMs` is rendered again, and when that render fails for want of the API (a 502, 503 or 504
 * answer, or a throw), the page kept is sent instead, with `X-Page-Cache: stale` and its `Age`, for
 * up to `staleIfErrorMs` past its freshness. So an API restart behind a BFF apart (`API_URL`) leaves
 * the pages already kept answering 200 (docs/scale-out.md, "While PostgreSQL or the API is away").
 */
import { createHash, randomBytes } from 'node:crypto'
import { promisify } from 'node:util'
import { brotliCompress, constants as zlibConstants, crc32, deflateRawSync, gzip } from 'node:zlib'
import type { NextFunction, Request as ExpressRequest, RequestHandler, Response as ExpressResponse } from 'express'
import { LRUCache } from 'lru-cache'
import { personalScriptJson, PERSONAL_DATA_ID, type Personal } from '../lib/personal.ts'
import {
  fillSlotTemplate,
  parseSlotTemplate,
  SLOT_CLOSE,
  SLOT_MID,
  SLOT_OPEN,
  type PersonalSlotDescriptor,
  type SlotTemplate,
} from '../lib/personal-slots.ts'
import { recordPageShows, showsStockKey, type PageShows } from './page-shows.ts'
import { RequestSession, sessionStorage, type SessionLocation } from './session.ts'
import { getCartForLoaders, getCartSummary, getOffers, summaryOfCart, WHOLE_CART_PAGES } from './api/cart.ts'
import { sessionApi, type ApiWiring } from './api-context.ts'
import { clientIp } from './request.ts'
import { buyAgainProducts, missedCards } from './api/recommend.ts'
import { BUY_AGAIN_HOME_CARDS } from '../../contract/recommend.ts'
import { toCardData } from '../lib/catalog-cards.ts'

const gzipAsync = promisify(gzip)
const brotliAsync = promisify(brotliCompress)

/** The request header that marks a render for the cache (see `isPageCacheRender`). */
export const PAGE_CACHE_RENDER_HEADER = 'x-page-cache-render'
/** The response header that says whether the page came from the cache (`hit`) or was just stored (`miss`). */
export const PAGE_CACHE_STATUS_HEADER = 'X-Page-Cache'
/** The Cache-Control of every page the cache sends: only the visitor's own browser keeps it, and revalidates it. */
export const CACHED_PAGE_CACHE_CONTROL = 'private, no-cache'
/**
 * The response header with which app/entry.server.tsx says that a page rendered for the cache differs
 * between visitors only in its personal slots (app/lib/personal-slots.ts); never sent to a visitor.
 */
export const PERSONAL_SLOTS_HEADER = 'x-personal-slots'
/**
 * A spliceable render's root `location` (JSON, URI-encoded), which the page cache keeps with the
 * page and hands to `renderPersonalSlots`: a slot that shows the store renders as the page does.
 */
export const PAGE_LOCATION_HEADER = 'x-page-location'
/** The session keys a visitor may hold and still get a spliced page; anything else (a flash message, a password recovery) gets a full render. */
const SPLICEABLE_SESSION_KEYS = new Set(['accessToken', 'refreshToken', 'user', 'guestCartId', 'location'])
/** The session cookie's name (app/.server/session.ts). */
const SESSION_COOKIE = '__session'
/** Answers of a render that failed for want of the API (app/.server/failure.ts), after which a stale page may be sent. */
const UNAVAILABLE_STATUSES = new Set([502, 503, 504])
/** Longest URL (path and query) kept; longer ones are rendered per request. */
const MAX_KEY_LENGTH = 2048
/** Response headers not stored with a page: per-connection, or set again when it is sent. */
const DROPPED_HEADERS = new Set([
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'content-encoding',
  'etag',
  PERSONAL_SLOTS_HEADER,
  PAGE_LOCATION_HEADER,
])

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
  if (keys.length !== 1) return null
  return locationProfile(session.get('location'))
}

/** The profile of a session's stored location: `{ location }`, or null when it is not one we wrote. */
function locationProfile(location: SessionLocation | undefined): CacheProfile | null {
  if (!location || typeof location.pincode !== 'string') return null
  return { location: { pincode: location.pincode, storeId: typeof location.storeId === 'string' ? location.storeId : null } }
}

/**
 * The headers of an in-process request made for `req` (a render for the cache, the direct read of
 * a visitor's data): the visitor's own headers but the conditional ones (`If-*`) and those `leaveOut` names, with
 * the per-process render token.
 */
function internalRequestHeaders(req: ExpressRequest, leaveOut: (name: string) => boolean): Headers {
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name.startsWith('if-') || leaveOut(name)) continue
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v)
  }
  headers.set(PAGE_CACHE_RENDER_HEADER, renderToken())
  return headers
}

/**
 * The location of a visitor whose page may be spliced (docs/decisions/0032-personal-parts-spliced.md):
 * a session holding only tokens, a shopper's (not an admin's or staff's) user summary, a guest cart
 * and a location: `{ location }` (null location: none chosen). Null for anything else, e.g. a pending
 * flash toast, which a full render shows and takes.
 */
export async function spliceProfile(cookieHeader: string | undefined): Promise<CacheProfile | null> {
  if (!cookieHeader || !cookieHeader.includes(`${SESSION_COOKIE}=`)) return null
  const session = await sessionStorage.getSession(cookieHeader)
  const keys = Object.keys(session.data)
  if (keys.length === 0 || keys.some((key) => !SPLICEABLE_SESSION_KEYS.has(key))) return null
  const user = session.get('user')
  if (user && user.role !== 'USER') return null
  const location = session.get('location')
  return location ? locationProfile(location) : { location: null }
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
  /** The page cut at its personal slots, when it differs between visitors only there; else null. */
  splice: Splice | null
  /** When it was rendered (`Date.now()`, ms): its freshness and `Age` count from here. */
  storedAt: number
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

/** Renders the HTML of personal slots for a visitor (app/entry.server.tsx `renderPersonalSlots`). */
export type RenderPersonalSlots = (
  url: string,
  personal: Personal,
  slots: PersonalSlotDescriptor[],
  pageLocation?: string | null,
) => Promise<string[]>

/**
 * Raw deflate of `data` ending in a sync flush (RFC 1951 section 3.2.4: non-final blocks that any
 * other such run may follow), its back-references reaching into `dictionary` (the text just before
 * it in the page, at most the 32 KiB window).
 */
function deflatePiece(data: Buffer, level: number, before: Buffer[] = [], window = DEFLATE_WINDOW): Buffer {
  const dict = tailOf(before, window)
  return deflateRawSync(data, { level, finishFlush: zlibConstants.Z_SYNC_FLUSH, ...(dict.length > 0 ? { dictionary: dict } : {}) })
}

/** The last `size` bytes of `pieces` laid end to end (copying only those). */
function tailOf(pieces: Buffer[], size: number): Buffer {
  const taken: Buffer[] = []
  let need = size
  for (let i = pieces.length - 1; i >= 0 && need > 0; i--) {
    const piece = pieces[i]!
    taken.unshift(piece.length > need ? piece.subarray(piece.length - need) : piece)
    need -= Math.min(need, piece.length)
  }
  return taken.length === 1 ? taken[0]! : Buffer.concat(taken)
}

/**
 * The window of a piece compressed per request: a shorter dictionary than the stored units' costs
 * far less to load (zlib hashes all of it) for a few bytes more of output.
 */
const REQUEST_WINDOW = 4 * 1024

/** Deflate's window (RFC 1951 section 2): how far back a back-reference may reach, bytes. */
const DEFLATE_WINDOW = 32 * 1024
/** A gzip member's header (RFC 1952 section 2.3): deflate, no flags, no time, unknown OS. */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff])
/** An empty final deflate block (fixed Huffman codes, end of block only): ends the stream. */
const DEFLATE_END = Buffer.from([0x03, 0x00])

/** The page without its slot marks (each slot keeping its HTML for nobody), or null when the marks are malformed. */
export function stripSlotMarks(html: string): string | null {
  if (!html.includes(SLOT_OPEN) && !html.includes(SLOT_MID) && !html.includes(SLOT_CLOSE)) return html
  const template = parseSlotTemplate(html)
  return template ? fillSlotTemplate(template) : null
}

/**
 * A page ready for splicing (docs/decisions/0032-personal-parts-spliced.md): its parts `P0..Pn+1` and
 * slots `S0..Sn` as bytes, the last slot being where the visitor's `Personal` script goes (before
 * `</body>`), and the page compressed in raw deflate runs whose back-references never reach past a
 * slot: each part after the first is cut into its head `Hi` (its first `HEAD_BYTES`) and the rest
 * `Ri`; `heads[i]` is `S(i-1) + Hi` compressed with `P(i-1)` as its window, `rests[i]` is `Ri` with
 * `Hi` as its window. A visitor's gzip body is those runs, except that a changed slot `Sj` and the
 * head after it are compressed anew (`splicePage`): a little work per changed slot, whatever the
 * length of the parts around it.
 */
interface Splice {
  slots: PersonalSlotDescriptor[]
  parts: Buffer[]
  /** Each slot's HTML for nobody (the last, the script's place, empty). */
  nobody: Buffer[]
  /** `heads[0]` is the whole first part; `heads[i]` for i ≥ 1 as above. */
  heads: Buffer[]
  /** `rests[0]` is empty; `rests[i]` for i ≥ 1 as above. */
  rests: Buffer[]
  /** The render's root `location` as PAGE_LOCATION_HEADER carried it, or null. */
  location: string | null
}

/** The bytes of a part compressed again after a changed slot (its head). */
const HEAD_BYTES = 4096

/** The splice of a template, or null when its page has no `</body>` after its last slot. */
function toSplice(template: SlotTemplate, location: string | null = null): Splice | null {
  const last = template.parts.at(-1)!
  const at = last.lastIndexOf('</body>')
  if (at === -1) return null
  const parts = [...template.parts.slice(0, -1), last.slice(0, at), last.slice(at)].map((text) => Buffer.from(text, 'utf8'))
  const nobody = [...template.slots.map(({ html }) => Buffer.from(html, 'utf8')), Buffer.alloc(0)]
  const heads: Buffer[] = [deflatePiece(parts[0]!, 9)]
  const rests: Buffer[] = [Buffer.alloc(0)]
  for (let i = 1; i < parts.length; i++) {
    const head = parts[i]!.subarray(0, HEAD_BYTES)
    heads.push(deflatePiece(Buffer.concat([nobody[i - 1]!, head]), 9, [parts[i - 1]!]))
    rests.push(parts[i]!.length > HEAD_BYTES ? deflatePiece(parts[i]!.subarray(HEAD_BYTES), 9, [head]) : Buffer.alloc(0))
  }
  return { slots: template.slots.map(({ slot }) => slot), parts, nobody, heads, rests, location }
}

/** The script element holding a visitor's `Personal` (app/lib/personal.ts reads it before hydrating). */
function personalScript(personal: Personal): string {
  return `<script type="application/json" id="${PERSONAL_DATA_ID}">${personalScriptJson(personal)}</script>`
}

/**
 * A visitor's page from a splice: `changed` holds the HTML of the slots their data changes (every
 * other slot keeps its HTML for nobody), and the `Personal` script goes before `</body>`. Answers the
 * body when `encoding` is identity, else its gzip (RFC 1952) from the stored units and the changed
 * pieces compressed now; the CRC-32 runs over the page's bytes without building them.
 */
function splicePage(splice: Splice, changed: Map<number, string>, personal: Personal, encoding: 'gzip' | 'identity'): Buffer {
  const { parts, nobody, heads, rests } = splice
  const scriptAt = nobody.length - 1
  const slotBytes = (i: number): Buffer => {
    if (i === scriptAt) return Buffer.from(personalScript(personal), 'utf8')
    const html = changed.get(i)
    return html === undefined ? nobody[i]! : Buffer.from(html, 'utf8')
  }
  if (encoding === 'identity') {
    const pieces: Buffer[] = [parts[0]!]
    for (let i = 0; i < nobody.length; i++) pieces.push(slotBytes(i), parts[i + 1]!)
    return Buffer.concat(pieces)
  }
  const pieces: Buffer[] = [GZIP_HEADER, heads[0]!]
  let crc = crc32(parts[0]!)
  let length = parts[0]!.length
  for (let i = 0; i < nobody.length; i++) {
    const slot = slotBytes(i)
    const part = parts[i + 1]!
    crc = crc32(part, crc32(slot, crc))
    length += slot.length + part.length
    if (slot === nobody[i]) pieces.push(heads[i + 1]!)
    else {
      const head = part.subarray(0, HEAD_BYTES)
      pieces.push(deflatePiece(slot, 1, [parts[i]!], REQUEST_WINDOW), deflatePiece(head, 1, [parts[i]!, slot], REQUEST_WINDOW))
    }
    pieces.push(rests[i + 1]!)
  }
  const trailer = Buffer.alloc(8)
  trailer.writeUInt32LE(crc >>> 0, 0)
  trailer.writeUInt32LE(length >>> 0, 4)
  pieces.push(DEFLATE_END, trailer)
  return Buffer.concat(pieces)
}

/** Whether `personal` makes a slot's HTML differ from nobody's (the slot's data is only the cart and the user). */
function slotChanges(slot: PersonalSlotDescriptor, personal: Personal): boolean {
  switch (slot.kind) {
    case 'account':
      return personal.user !== null || personal.cart.count > 0
    case 'cart-bar':
      return personal.cart.count > 0
    case 'add':
      return personal.cart.lines[slot.productId] !== undefined
    case 'cart-page':
      return personal.wholeCart !== undefined
    case 'buy-again':
      return (personal.buyAgain?.length ?? 0) > 0
  }
}

export interface PageCacheOptions {
  /** The React Router request handler (`createRequestHandler(build)` of `react-router`). */
  render: (request: Request) => Promise<Response>
  /**
   * Renders personal slots (docs/decisions/0032-personal-parts-spliced.md). Without it, a visitor
   * with a cart or an account always gets a page rendered for that request.
   */
  renderPersonalSlots?: RenderPersonalSlots
  /** Memory cap in bytes (all encodings of all pages); 0 turns the cache off. */
  maxBytes: number
  /** Longest life of a page in ms; 0 = until the next clear. */
  ttlMs: number
  /**
   * How long past `ttlMs` a page may still be sent when its new render fails for want of the API
   * (RFC 5861 `stale-if-error`), ms; 0 or unset = never. Only with `ttlMs` > 0.
   */
  staleIfErrorMs?: number
  /** The fixed public origin (`PUBLIC_URL`), or null when pages name the origin each request came to. */
  publicUrl: string | null
  /**
   * The BFF's API wiring (app/.server/api-context.ts), through which a spliced page reads its
   * visitor's cart summary. Without it (or without `renderPersonalSlots`), a visitor with a cart or
   * an account always gets a page rendered for that request.
   */
  wiring?: ApiWiring
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
    /** Pages answered to a visitor with a cart or an account by splicing their slots into a stored page. */
    spliced: number
    /** Pages sent past their freshness because the new render failed for want of the API (stale-if-error). */
    staleServed: number
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
  const staleIfErrorMs = options.ttlMs > 0 ? Math.max(0, options.staleIfErrorMs ?? 0) : 0
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
    // A splice holds the page's text again (as parts and slots) and its compressed pieces.
    sizeCalculation: (entry, key) =>
      entry.identity.length * (entry.splice ? 2 : 1) +
      entry.gzip.length * (entry.splice ? 2 : 1) +
      (entry.splice?.slots.length ?? 0) * 160 +
      entry.br.length +
      key.length +
      512,
    // Kept past freshness for the stale-if-error window; `isFresh` tells the two apart.
    ...(options.ttlMs > 0 ? { ttl: options.ttlMs + staleIfErrorMs } : {}),
  })
  const isFresh = (entry: Entry) => options.ttlMs <= 0 || Date.now() - entry.storedAt < options.ttlMs
  const pending = new Map<string, Promise<Entry | null>>()
  // Keys whose page was not stored or cannot be spliced (a redirect, the cart page): a visitor with a
  // cart gets those rendered for them at once, without a shared render first.
  const unspliceable = new LRUCache<string, true>({ max: 10_000, ttl: options.ttlMs > 0 ? options.ttlMs : 60_000 })
  // The renders under way, each with the products that changed availability since it began.
  const rendering = new Set<Set<string>>()
  let generation = 0
  const counters = {
    hits: 0,
    misses: 0,
    stored: 0,
    clears: 0,
    spliced: 0,
    staleServed: 0,
    availabilityChanges: 0,
    availabilityDropped: 0,
  }

  const keyOf = (req: ExpressRequest, profile: CacheProfile): string | null => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return null
    const url = req.originalUrl
    // React Router's data requests (`/x.data`) answer the client router, not a document.
    if (url.length > MAX_KEY_LENGTH || url.split('?')[0]!.endsWith('.data')) return null
    return `${profileKey(profile)}${options.publicUrl ? url : `${origin(req)}${url}`}`
  }

  const send = (req: ExpressRequest, res: ExpressResponse, entry: Entry, status: 'hit' | 'miss' | 'stale') => {
    res.status(200)
    for (const [name, value] of entry.headers) res.setHeader(name, value)
    res.setHeader('Cache-Control', CACHED_PAGE_CACHE_CONTROL)
    res.setHeader('Vary', 'Cookie, Accept-Encoding')
    res.setHeader('ETag', entry.etag)
    res.setHeader(PAGE_CACHE_STATUS_HEADER, status)
    // A page sent past its freshness says how old it is (RFC 9111 section 5.1).
    if (status === 'stale') res.setHeader('Age', String(Math.floor((Date.now() - entry.storedAt) / 1000)))
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
    const headers = internalRequestHeaders(req, (name) => name === 'cookie')
    const cookie = await renderCookie(profile)
    if (cookie) headers.set('cookie', cookie)
    const { result, shows } = await recordPageShows(async () => {
      const response = await options.render(new Request(`${origin(req)}${req.originalUrl}`, { method: 'GET', headers }))
      // The body is read inside the record too: a streamed page may load data while it streams.
      return { response, body: Buffer.from(await response.arrayBuffer()) }
    })
    return { status: result.response.status, headers: result.response.headers, body: result.body, shows }
  }

  const toEntry = async (rendered: Rendered): Promise<Entry | null> => {
    const { status, headers, shows } = rendered
    if (status !== 200 || headers.has('set-cookie') || !(headers.get('content-type') ?? '').startsWith('text/html')) return null
    // Only a page rendered the cache's way (no nonce, hashes in its policy) may be sent twice.
    if ((headers.get('content-security-policy') ?? '').includes("'nonce-")) return null
    // The render marks its personal slots: nobody's page is the template with each slot's own HTML.
    const template = parseSlotTemplate(rendered.body.toString('utf8'))
    if (!template) return null
    const body = Buffer.from(fillSlotTemplate(template), 'utf8')
    const splice = headers.get(PERSONAL_SLOTS_HEADER) === '1' ? toSplice(template, headers.get(PAGE_LOCATION_HEADER)) : null
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
    return { headers: kept, identity: body, gzip: gz, br, etag, shows, splice, storedAt: Date.now() }
  }

  const sendRendered = (res: ExpressResponse, rendered: Rendered, isHead: boolean) => {
    // A page not kept (it set a cookie) still carries the render's slot marks: never sent.
    let body = rendered.body
    if ((rendered.headers.get('content-type') ?? '').startsWith('text/html')) {
      const stripped = stripSlotMarks(body.toString('utf8'))
      body = Buffer.from(stripped ?? body.toString('utf8').replace(/[\uE000-\uE002]/g, ''), 'utf8')
    }
    res.status(rendered.status)
    rendered.headers.forEach((value, name) => {
      if (
        name === 'set-cookie' ||
        name === 'content-length' ||
        name === 'transfer-encoding' ||
        name === PERSONAL_SLOTS_HEADER ||
        name === PAGE_LOCATION_HEADER
      )
        return
      res.setHeader(name, value)
    })
    const cookies = rendered.headers.getSetCookie()
    if (cookies.length > 0) res.setHeader('Set-Cookie', cookies)
    res.setHeader('Content-Length', body.length)
    if (isHead) res.end()
    else res.end(body)
  }

  const serve: RequestHandler = (req, res, next) => {
    if (!enabled) return next()
    // Most requests (the static files) have no stored page under any profile: no cookie to read.
    const anyKey = keyOf(req, { location: null })
    if (anyKey === null || !storedUrls.has(anyKey)) return next()
    cacheProfile(req.headers.cookie).then((profile) => {
      const key = profile === null ? null : keyOf(req, profile)
      const entry = key === null ? undefined : lru.get(key)
      // Past its freshness: rendered again (`fill`), this copy sent only if that render fails.
      if (!entry || !isFresh(entry)) return next()
      counters.hits++
      send(req, res, entry, 'hit')
    }, next)
  }

  /**
   * The stored page of `key`, or a new render of it (stored when it may be): `entry` null when the
   * render may not be sent twice (then `rendered` is that render).
   */
  const obtain = async (
    req: ExpressRequest,
    key: string,
    profile: CacheProfile,
  ): Promise<{ entry: Entry | null; rendered?: Rendered; fresh: boolean; waited?: boolean; stale?: boolean }> => {
    const stored = lru.get(key)
    if (stored && isFresh(stored)) return { entry: stored, fresh: false }
    // Past freshness but within the stale-if-error window: the fallback if the new render fails.
    const fallback = stored ?? null
    const staleAnswer = () => {
      counters.staleServed++
      return { entry: fallback, fresh: false, stale: true }
    }
    // Visitors asking for the same page at once share one render.
    const shared = pending.get(key)
    if (shared) {
      const entry = await shared
      return entry === fallback && fallback ? staleAnswer() : { entry, fresh: false, waited: true }
    }
    counters.misses++
    const startedAt = generation
    const changedSince = new Set<string>()
    rendering.add(changedSince)
    let settle: (entry: Entry | null) => void = () => undefined
    const mine = new Promise<Entry | null>((resolve) => (settle = resolve))
    pending.set(key, mine)
    try {
      let rendered: Rendered
      try {
        rendered = await renderFresh(req, profile)
      } catch (err) {
        if (!fallback) throw err
        settle(fallback)
        return staleAnswer()
      }
      if (fallback && UNAVAILABLE_STATUSES.has(rendered.status)) {
        settle(fallback)
        return staleAnswer()
      }
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
      return { entry, rendered, fresh: true }
    } catch (err) {
      settle(null)
      throw err
    } finally {
      rendering.delete(changedSince)
      // After a clear, a newer render of this page may be the one under way.
      if (pending.get(key) === mine) pending.delete(key)
    }
  }

  /**
   * A visitor's `Personal`: the one call the root loader makes for it (`getCartSummary`, through the
   * API wiring, speaking for the session's store, refreshing an expired access token as any upstream
   * call does) without a React Router request around it, and the session committed as the session
   * middleware would (app/.server/context.ts: a Set-Cookie only when the read changed it: a rotated
   * token, an expired guest cart dropped). Null for a user who is no shopper.
   */
  const personalOf = async (req: ExpressRequest, wiring: ApiWiring): Promise<{ personal: Personal; setCookies: string[] } | null> => {
    const request = new Request(`${origin(req)}${req.originalUrl}`, { headers: internalRequestHeaders(req, () => false) })
    const session = await RequestSession.fromRequest(request)
    // The cart page lists the whole cart; its summary then comes from that read, as the root loader's does.
    const wholeCartPage = WHOLE_CART_PAGES.has(req.path)
    const api = sessionApi(wiring, session)
    const read = await (async () => {
      // The home page's "Buy again" row: the signed-in shopper's products, read beside the summary.
      if (req.path === '/' && session.user) {
        const [cart, buyAgain] = await Promise.all([
          getCartSummary(api, session, { clientIp: clientIp(request) }),
          buyAgainProducts(api, session, { clientIp: clientIp(request) }),
        ])
        return buyAgain && buyAgain.length > 0
          ? { cart, buyAgain: buyAgain.slice(0, BUY_AGAIN_HOME_CARDS).map(({ packSizes: _sizes, ...product }) => toCardData(product)) }
          : { cart }
      }
      if (!wholeCartPage) return { cart: await getCartSummary(api, session, { clientIp: clientIp(request) }) }
      const cartPage = req.path === '/cart'
      // The cart page's offers (a signed-in shopper's) are read beside the cart, as its loader reads them.
      const [whole, offers] = await Promise.all([
        getCartForLoaders(api, session, { clientIp: clientIp(request) }),
        cartPage && session.user ? getOffers(api, session, { clientIp: clientIp(request) }) : null,
      ])
      if (!whole.ok) return null
      if (!cartPage) return { cart: summaryOfCart(whole.data), wholeCart: whole.data }
      // The cart page's "You might have missed" row, for the products the cart holds.
      const missed = await missedCards(api, whole.data, { clientIp: clientIp(request) })
      return { cart: summaryOfCart(whole.data), wholeCart: whole.data, missed, ...(offers?.ok ? { offers: offers.data } : {}) }
    })()
    // A failed whole-cart read: the full render shows its error page.
    if (!read) return null
    const personal: Personal = { user: session.user, ...read }
    // spliceProfile let through shoppers only; a refresh never changes a role, but the check is cheap.
    if (personal.user && personal.user.role !== 'USER') return null
    return { personal, setCookies: session.dirty ? [await session.commit()] : [] }
  }

  /** Answers a visitor with a cart or an account from `entry`'s splice (docs/decisions/0032-personal-parts-spliced.md). */
  const sendSpliced = async (
    req: ExpressRequest,
    res: ExpressResponse,
    entry: Entry,
    splice: Splice,
    personal: Personal,
    setCookies: string[],
  ) => {
    const changing: number[] = []
    splice.slots.forEach((slot, i) => {
      if (slotChanges(slot, personal)) changing.push(i)
    })
    const changed = new Map<number, string>()
    if (changing.length > 0 && options.renderPersonalSlots) {
      const url = `${origin(req)}${req.originalUrl}`
      const html = await options.renderPersonalSlots(
        url,
        personal,
        changing.map((i) => splice.slots[i]!),
        splice.location,
      )
      changing.forEach((slotIndex, i) => changed.set(slotIndex, html[i] ?? ''))
    }
    const encoding = req.acceptsEncodings('gzip', 'identity') === 'gzip' ? 'gzip' : 'identity'
    const body = splicePage(splice, changed, personal, encoding)
    counters.spliced++
    res.status(200)
    for (const [name, value] of entry.headers) res.setHeader(name, value)
    res.setHeader('Cache-Control', CACHED_PAGE_CACHE_CONTROL)
    res.setHeader('Vary', 'Cookie, Accept-Encoding')
    res.setHeader(PAGE_CACHE_STATUS_HEADER, 'spliced')
    if (setCookies.length > 0) res.setHeader('Set-Cookie', setCookies)
    if (encoding === 'gzip') res.setHeader('Content-Encoding', 'gzip')
    res.setHeader('Content-Length', body.length)
    res.end(body)
  }

  const fill: RequestHandler = (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    if (!enabled || req.method !== 'GET') return next()
    void (async () => {
      const profile = await cacheProfile(req.headers.cookie)
      if (profile === null) return fillSpliced(req, res, next)
      const key = keyOf(req, profile)
      if (key === null) return next()
      const { entry, rendered, fresh, waited, stale } = await obtain(req, key, profile)
      if (entry) {
        if (stale) return send(req, res, entry, 'stale')
        // A visitor who waited for another's render was not answered from a stored page.
        if (!fresh && !waited) counters.hits++
        return send(req, res, entry, fresh ? 'miss' : 'hit')
      }
      if (rendered) sendRendered(res, rendered, false)
      else next()
    })().catch(next)
  }

  /** A visitor with a cart or an account: the shared page with their slots, or (`next()`) a full render. */
  const fillSpliced = async (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    if (!options.renderPersonalSlots || !options.wiring) return next()
    const profile = await spliceProfile(req.headers.cookie)
    const key = profile === null ? null : keyOf(req, profile)
    if (profile === null || key === null || unspliceable.has(key)) return next()
    const { entry } = await obtain(req, key, profile)
    if (!entry?.splice) {
      unspliceable.set(key, true)
      return next()
    }
    const read = await personalOf(req, options.wiring)
    if (!read) return next()
    await sendSpliced(req, res, entry, entry.splice, read.personal, read.setCookies)
  }

  return {
    serve,
    fill,
    clear() {
      generation++
      counters.clears++
      lru.clear()
      pending.clear()
      unspliceable.clear()
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
