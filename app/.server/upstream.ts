/**
 * The one fetch wrapper between the BFF and the upstream `/api` (README.md, "How the pieces fit";
 * docs/decisions/0001-one-process-bff-and-api.md). It adds the session's access token as a Bearer
 * header; on a 401 it refreshes once (with the refresh token, single-flight per request), stores the
 * rotated tokens in the session, and retries once; if the refresh fails the session is signed out
 * cleanly. This is the behaviour the original app intended but never ran (docs/product.md,
 * "Differences from the original app").
 *
 * How the API is reached comes with each call, as its first argument: the request's `Api`
 * (app/.server/api-context.ts), which a loader or action takes from its router context. By default
 * the API runs in this same process and server.ts hands its `fetch` in through `getLoadContext`, so
 * calls skip the network. With `API_URL` set, calls go over HTTP to that base
 * URL, each bounded by `API_TIMEOUT_MS` (the answer read in full).
 * An API that cannot be reached or does not answer in time is a failure like any other: status 503
 * with `Retry-After` (UNAVAILABLE), which pages show as "back in a moment" (app/.server/failure.ts).
 *
 * Every call names the shopper's dark store in `X-Store-Id` (the `Api`'s `storeId()`; docs/stores.md,
 * "Location (BFF)"): catalogue, cart, order and admin answers are that store's stock.
 */
import { cartOwnerKey } from '../../server-shared/cart-owner-key.ts'
import type { CartCache } from './cart-cache.ts'
import type { z } from 'zod'
import type { FieldIssue } from '../../contract/envelope.ts'
import type { Api, ApiWiring } from './api-context.ts'
import { notePageProducts } from './page-shows.ts'
import type { RequestSession, Tokens } from './session.ts'
import { STORE_HEADER } from '../../contract/store-header.ts'

/**
 * Sends one upstream request through the request's wiring, counting it (server.ts serves the count
 * at `/metrics.json` for `npm run bench`): to the in-process API, or over HTTP with `API_URL`.
 */
function send(api: ApiWiring, request: UpstreamCall): Promise<Response> {
  api.stats.upstreamCalls++
  if (!api.settings.apiUrl) return api.fetch(new Request(request.url, request.init))
  // The signal also bounds reading the body (WHATWG Fetch: an aborted fetch errors its body stream),
  // so an API that sends headers and then stalls cannot hold a page either.
  const signal = AbortSignal.timeout(api.settings.apiTimeoutMs)
  if (api.fetchUrl) return api.fetchUrl(request.url, { ...request.init, signal })
  return api.fetch(new Request(request.url, request.init), { signal })
}

/** Seconds a client is asked to wait (`Retry-After`) when the API is away or overloaded. */
export const UNAVAILABLE_RETRY_AFTER_S = 5

/**
 * The failure of a call that got no answer: the API refused the connection, cut it, or did not
 * answer within `API_TIMEOUT_MS`. 503 with `Retry-After` (RFC 9110 §15.6.4): the outage is
 * temporary and nothing the shopper did.
 */
export const UNAVAILABLE = {
  ok: false,
  status: 503,
  message: 'The store is unavailable for a moment, please try again shortly',
  issues: [],
  retryAfter: UNAVAILABLE_RETRY_AFTER_S,
} as const

/**
 * `send(request)` then `parse`, with an unreachable or silent API as the UNAVAILABLE failure. The
 * products of a success are noted for the page cache when a render for it is under way.
 */
async function call<T>(api: ApiWiring, request: UpstreamCall): Promise<UpstreamResult<T>> {
  try {
    const result = await parse<T>(await send(api, request))
    // A render for the page cache records the products it read (app/.server/page-shows.ts).
    if (result.ok) notePageProducts(result.data)
    return result
  } catch {
    return { ...UNAVAILABLE, issues: [] }
  }
}

/** The parsed envelope: `ok` with data and the extra keys (paging), or a failure with its status. */
export type UpstreamResult<T> =
  | { ok: true; status: number; message: string; data: T; extra: Record<string, unknown> }
  | { ok: false; status: number; message: string; issues: FieldIssue[]; retryAfter?: number; extra?: Record<string, unknown> }

export interface UpstreamOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE'
  /** JSON body. */
  json?: unknown
  /** Multipart body (uploads). */
  formData?: FormData
  /** The request's session: adds the Bearer token and enables refresh-and-retry on 401. */
  session?: RequestSession
  /** Forwarded client address, so the API's per-IP rate limits see the shopper, not the BFF. */
  clientIp?: string
  /** Use this bearer instead of the access token (the refresh call). */
  bearer?: string
  /** Extra request headers (the guest cart id, an idempotency key). */
  headers?: Record<string, string>
}

/** One upstream request before it is sent: its URL and init, made into a Request once, where it is sent (`send`). */
interface UpstreamCall {
  url: string
  init: RequestInit
}

function buildRequest(api: Api, path: string, opts: UpstreamOptions, token: string | undefined): UpstreamCall {
  const { apiUrl, apiInternalToken } = api.wiring.settings
  const headers = new Headers({ Accept: 'application/json' })
  if (token) headers.set('Authorization', `Bearer ${token}`)
  if (opts.clientIp) headers.set('X-Client-Ip', opts.clientIp)
  // The one place the shopper's store is named: every call of the request speaks for it.
  const storeId = api.storeId()
  if (storeId) headers.set(STORE_HEADER, storeId)
  for (const [name, value] of Object.entries(opts.headers ?? {})) headers.set(name, value)
  // A separate API host trusts the forwarded address only with the shared secret (api/lib/client-ip.ts).
  if (apiUrl && apiInternalToken) headers.set('X-Internal-Token', apiInternalToken)
  let body: BodyInit | undefined
  if (opts.formData) body = opts.formData
  else if (opts.json !== undefined) {
    headers.set('Content-Type', 'application/json')
    body = JSON.stringify(opts.json)
  }
  return {
    url: `${apiUrl?.replace(/\/$/, '') ?? 'http://in-process'}/api/${path.replace(/^\//, '')}`,
    init: { method: methodOf(opts), headers, body },
  }
}

async function parse<T>(response: Response): Promise<UpstreamResult<T>> {
  let body: Record<string, unknown> = {}
  try {
    body = (await response.json()) as Record<string, unknown>
  } catch {
    // A proxy error page or an empty body: keep the status, give a readable message.
  }
  const message = typeof body.message === 'string' ? body.message : response.statusText || 'Request failed'
  if (response.ok && body.success !== false) {
    const { data, message: _m, error: _e, success: _s, ...extra } = body
    return { ok: true, status: response.status, message, data: data as T, extra }
  }
  const retryAfter = Number(response.headers.get('Retry-After')) || undefined
  const { message: _m, error: _e, success: _s, issues, ...extra } = body
  return {
    ok: false,
    status: response.status,
    message,
    issues: Array.isArray(issues) ? (issues as FieldIssue[]) : [],
    retryAfter,
    ...(Object.keys(extra).length ? { extra } : {}),
  }
}

/** Calls the refresh endpoint once per request; true when new tokens were stored. */
async function refreshOnce(api: Api, session: RequestSession): Promise<boolean> {
  session.refreshing ??= (async () => {
    const tokens = session.tokens
    if (!tokens) return false
    const result = await call<Tokens>(api.wiring, buildRequest(api, 'user/refresh-token', { method: 'POST' }, tokens.refreshToken))
    if (result.ok && result.data?.accessToken && result.data?.refreshToken) {
      session.setTokens({ accessToken: result.data.accessToken, refreshToken: result.data.refreshToken })
      return true
    }
    // 409: another request of this browser rotated the token a moment ago; its response carries
    // the new cookie, so this one must not overwrite it with a signed-out session. A 503 (the API
    // away) proves nothing about the tokens either: keep the shopper signed in for when it is back.
    if (result.status !== 409 && result.status !== 503) session.signOut()
    return false
  })()
  return session.refreshing
}

/**
 * Calls `path` (relative to `/api/`) through the request's `api` and parses the envelope. Never
 * throws: HTTP failures come back as `{ ok: false }` with the API's status, and an API that cannot be
 * reached or does not answer in time as UNAVAILABLE (503).
 */
export async function upstream<T>(api: Api, path: string, opts: UpstreamOptions = {}): Promise<UpstreamResult<T>> {
  const { wiring } = api
  const session = opts.session
  const token = opts.bearer ?? session?.tokens?.accessToken
  try {
    const first = await call<T>(wiring, buildRequest(api, path, opts, token))
    if (first.ok || first.status !== 401 || !session?.tokens || opts.bearer) return first
    if (!(await refreshOnce(api, session))) return first
    return call<T>(wiring, buildRequest(api, path, opts, session.tokens?.accessToken))
  } finally {
    if (wiring.cartCache && methodOf(opts) !== 'GET' && CART_WRITING_PATH.test(path)) forgetOwnCart(wiring.cartCache, opts)
  }
}

/** The request's method: the one given, else POST with a body and GET without. */
function methodOf(opts: UpstreamOptions): string {
  return opts.method ?? (opts.formData || opts.json !== undefined ? 'POST' : 'GET')
}

/** The API paths whose writes may change the caller's cart or end their session. */
const CART_WRITING_PATH = /^\/?(cart|order|payment|user)\//

/**
 * Drops what this instance keeps of a write's caller's cart (its summary, its whole carts) at once:
 * on PostgreSQL the database's notice (app/.server/cart-cache.ts) arrives a little later, and the
 * caller's next page must show the write.
 */
function forgetOwnCart(cache: CartCache, opts: UpstreamOptions): void {
  const userId = opts.session?.user?._id
  if (userId) cache.forget(cartOwnerKey({ userId }))
  const guestCartId = opts.headers?.['X-Guest-Cart'] ?? opts.session?.guestCartId
  if (guestCartId) cache.forget(cartOwnerKey({ guestCartId }))
}

/**
 * Calls `path` (relative to `/api/`) and answers the API's Response itself, its body unread, for a
 * body that is not the JSON envelope and may be long (the orders CSV export, streamed). Refreshes
 * and retries once on a 401 as `upstream` does. With `API_URL` only the wait for the answer's
 * headers is bounded by `API_TIMEOUT_MS`, not the reading of a long body. Never throws: an API that
 * cannot be reached answers null.
 */
export async function upstreamResponse(api: Api, path: string, opts: UpstreamOptions = {}): Promise<Response | null> {
  const { wiring } = api
  const session = opts.session
  const sendBounded = async ({ url, init }: UpstreamCall): Promise<Response | null> => {
    wiring.stats.upstreamCalls++
    const request = new Request(url, init)
    try {
      if (!wiring.settings.apiUrl) return await wiring.fetch(request)
      const abort = new AbortController()
      const timer = setTimeout(() => abort.abort(), wiring.settings.apiTimeoutMs)
      try {
        return await wiring.fetch(request, { signal: abort.signal })
      } finally {
        clearTimeout(timer)
      }
    } catch {
      return null
    }
  }
  const first = await sendBounded(buildRequest(api, path, opts, opts.bearer ?? session?.tokens?.accessToken))
  if (!first || first.status !== 401 || !session?.tokens || opts.bearer) return first
  await first.body?.cancel()
  if (!(await refreshOnce(api, session))) return new Response(null, { status: 401 })
  return sendBounded(buildRequest(api, path, opts, session.tokens?.accessToken))
}

/** The failure an answer off contract/ becomes: a 502, since the BFF itself did not fail. */
export const UNEXPECTED_ANSWER = {
  ok: false,
  status: 502,
  message: 'Unexpected answer from the server, please try again',
  issues: [],
} as const

/**
 * Parses a success's `data` with `schema` (a contract schema, contract/*.ts); an answer that does not
 * match becomes a 502 failure.
 */
export function parseData<S extends z.ZodType>(result: UpstreamResult<unknown>, schema: S): UpstreamResult<z.output<S>> {
  if (!result.ok) return result
  const parsed = schema.safeParse(result.data)
  if (parsed.success) return { ...result, data: parsed.data }
  return { ...UNEXPECTED_ANSWER, issues: [] }
}

/**
 * Parses a success's `data` and the keys beside it (paging, `bill`…) with one contract schema of
 * the whole envelope (contract/envelope.ts `successOf`); a mismatch becomes a 502 failure.
 */
export function parseAnswer<S extends z.ZodType>(result: UpstreamResult<unknown>, schema: S): UpstreamResult<z.output<S>> {
  if (!result.ok) return result
  const parsed = schema.safeParse({ message: result.message, error: false, success: true, data: result.data, ...result.extra })
  if (parsed.success) return { ...result, data: parsed.data }
  return { ...UNEXPECTED_ANSWER, issues: [] }
}
