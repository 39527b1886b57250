/**
 * How the BFF reaches the API, handed in by the server (docs/decisions/0034-wiring-configuration-and-boundaries.md).
 * server.ts builds one `ApiWiring` at start (the in-process Hono app's `fetch`, or the network's
 * with `API_URL`; the BFF configuration of app/.server/env.ts; the in-process order event hub) and
 * its `getLoadContext` puts it into every request's `RouterContextProvider` under `apiContext`
 * (React Router docs, "Middleware": `createContext`, `getLoadContext`). A loader reads it with
 * `context.get(apiContext)`.
 *
 * The typed calls of app/.server/api/* take the request's `Api` as their first argument: the wiring
 * and the dark store the calls speak for. The root middleware (app/.server/location.server.ts
 * `apiMiddleware`) builds it from `apiContext` and the session and puts it under `apiClientContext`;
 * a loader or action reads it with `apiOf(context)` and hands it to each call. So a reader follows a
 * request from the route to the API by its arguments alone, and a call can only be made with an `Api`
 * in hand (a test builds one with `apiFor`).
 *
 * The `apiContext` key sits in the global registry: server.ts (run by tsx) and the built server
 * bundle (or Vite's runner) each load their own copy of this module, and server.ts's getLoadContext
 * must set the key the bundle's middleware reads. Only the key is global, never the value.
 */
import { createContext, RouterContextProvider, type RouterContext } from 'react-router'
import type { OrderEventHub } from './order-stream.ts'
import type { CartCache } from './cart-cache.ts'
import type { RequestSession } from './session.ts'
import { httpFetch } from './http-fetch.ts'

/** Sends one request to the API; `init.signal` bounds a call over the network. */
export type ApiFetch = (request: Request, init?: { signal?: AbortSignal }) => Promise<Response>

/** What the BFF needs to call the API (README.md, "Configuration": `API_URL`, `API_TIMEOUT_MS`, `API_INTERNAL_TOKEN`). */
export interface UpstreamSettings {
  /** Base URL of a separately deployed API; undefined = the API in this process. */
  apiUrl: string | undefined
  /** With `apiUrl`: longest wait in ms for an answer. */
  apiTimeoutMs: number
  /** With `apiUrl`: the shared secret sent with the shopper's forwarded address. */
  apiInternalToken: string | undefined
}

/** The API as one request of the BFF sees it. */
export interface ApiWiring {
  /** The in-process Hono app's `fetch` (`app.fetch`), or the global `fetch` with `apiUrl`. */
  fetch: ApiFetch
  /**
   * With `apiUrl`: a call by URL and init, no Request built first (WHATWG Fetch: `fetch(request, init)`
   * builds a second Request from the first), over Node's HTTP client (app/.server/http-fetch.ts).
   * Undefined: calls go through `fetch` with a Request.
   */
  fetchUrl?: (url: string, init: RequestInit) => Promise<Response>
  /** The BFF configuration the upstream calls read (app/.server/env.ts). */
  settings: UpstreamSettings
  /** The in-process API's order event hub (api/lib/order-events.ts), or null with the API apart. */
  orderHub: OrderEventHub | null
  /** Upstream calls made, counted for `/metrics.json` (server.ts, `EXPOSE_METRICS`). */
  stats: { upstreamCalls: number }
  /**
   * Cart summaries kept in memory (app/.server/cart-cache.ts), with the API in this process;
   * undefined or null: read each time.
   */
  cartCache?: CartCache | null
}

/**
 * The API as the typed calls of one request reach it (the first argument of every app/.server/api/*
 * call): through `wiring`, naming the store `storeId()` answers in `X-Store-Id` (contract/store-header.ts;
 * docs/stores.md, "Location (BFF)").
 */
export interface Api {
  wiring: ApiWiring
  /**
   * The shopper's dark store, read at each call (an action that changes the location applies to the
   * calls after it); null names none, and the API serves its default store.
   */
  storeId: () => string | null
}

const CONTEXT_KEY = Symbol.for('grocery.api-context')
const CLIENT_CONTEXT_KEY = Symbol.for('grocery.api-client-context')
const registry = globalThis as Record<symbol, unknown>

/** The router context key of the request's `ApiWiring` (set by server.ts's getLoadContext). */
export const apiContext = (registry[CONTEXT_KEY] ??= createContext<ApiWiring>()) as RouterContext<ApiWiring>

/**
 * The router context key of the request's `Api` (set by the root middleware), in the global registry
 * as `apiContext` is: a test that reloads modules, or Vite's runner, may hold another copy of this module.
 */
export const apiClientContext = (registry[CLIENT_CONTEXT_KEY] ??= createContext<Api>()) as RouterContext<Api>

/** The request's `Api`, for a loader or action to hand to its typed calls; throws before the root middleware ran. */
export function apiOf(context: Readonly<RouterContextProvider>): Api {
  return context.get(apiClientContext)
}

/** An `Api` through `wiring` speaking for the store `storeId()` answers (none by default: the API's default store). */
export function apiFor(wiring: ApiWiring, storeId: () => string | null = () => null): Api {
  return { wiring, storeId }
}

/**
 * The `Api` of a request with `session` (the root middleware's, and the page cache's for a spliced
 * page): through `wiring`, speaking for the session's store (docs/stores.md, "Location (BFF)"), read at
 * each call so a location changed by an action applies to the calls after it.
 */
export function sessionApi(wiring: ApiWiring, session: RequestSession): Api {
  return apiFor(wiring, () => session.location?.storeId ?? null)
}

/** The load context server.ts's `getLoadContext` answers: a fresh provider holding `wiring`. */
export function apiLoadContext(wiring: ApiWiring): RouterContextProvider {
  const context = new RouterContextProvider()
  context.set(apiContext, wiring)
  return context
}

/** A wiring to a separately deployed API (`API_URL`) over the network's `fetch`. */
export function networkWiring(settings: UpstreamSettings): ApiWiring {
  return {
    fetch: (request, init) => fetch(request, init),
    fetchUrl: httpFetch,
    settings,
    orderHub: null,
    stats: { upstreamCalls: 0 },
  }
}

/**
 * A wiring to the API in this process through `fetch` (a Hono app's `app.fetch`): no `API_URL`,
 * no order hub unless given. Tests use it with `apiFor`; server.ts builds its own from the configuration.
 */
export function inProcessWiring(fetch: ApiFetch, extra: Partial<Omit<ApiWiring, 'fetch'>> = {}): ApiWiring {
  return {
    fetch,
    settings: { apiUrl: undefined, apiTimeoutMs: 5000, apiInternalToken: undefined },
    orderHub: null,
    stats: { upstreamCalls: 0 },
    ...extra,
  }
}
