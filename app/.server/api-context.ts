/**
 * How the BFF reaches the API, handed in by the server (docs/decisions/0034-wiring-configuration-and-boundaries.md).
 * server.ts builds one `ApiWiring` at start (the in-process Hono app's `fetch`, or the network's
 * with `API_URL`; the BFF configuration of app/.server/env.ts; the in-process order event hub) and
 * its `getLoadContext` puts it into every request's `RouterContextProvider` under `apiContext`
 * (React Router docs, "Middleware": `createContext`, `getLoadContext`). A loader reads it with
 * `context.get(apiContext)`.
 *
 * The typed calls of app/.server/api/* do not take the context: the session middleware
 * (app/.server/context.ts) runs each request inside `runWithApi(context.get(apiContext), …)`, and
 * app/.server/upstream.ts reads `currentApi()`. So the value always comes from getLoadContext, and
 * a call outside a request (or a test that did not wire one) fails loudly instead of reaching a
 * default.
 *
 * The context key and the AsyncLocalStorage sit in the global registry, as app/.server/store-scope.ts
 * does: server.ts (run by tsx) and the built server bundle (or Vite's runner) each load their own
 * copy of this module, and both copies must name the same key. Only the key is global, never the value.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import { createContext, RouterContextProvider, type RouterContext } from 'react-router'
import type { OrderEventHub } from './order-stream.ts'
import type { CartCache } from './cart-cache.ts'

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

const CONTEXT_KEY = Symbol.for('grocery.api-context')
const STORAGE_KEY = Symbol.for('grocery.api-context.storage')
const registry = globalThis as Record<symbol, unknown>

/** The router context key of the request's `ApiWiring`. */
export const apiContext = (registry[CONTEXT_KEY] ??= createContext<ApiWiring>()) as RouterContext<ApiWiring>

function storage(): AsyncLocalStorage<ApiWiring> {
  registry[STORAGE_KEY] ??= new AsyncLocalStorage<ApiWiring>()
  return registry[STORAGE_KEY] as AsyncLocalStorage<ApiWiring>
}

/** The load context server.ts's `getLoadContext` answers: a fresh provider holding `wiring`. */
export function apiLoadContext(wiring: ApiWiring): RouterContextProvider {
  const context = new RouterContextProvider()
  context.set(apiContext, wiring)
  return context
}

/** Runs `fn` with the upstream calls inside it (and everything they start) going through `wiring`. */
export function runWithApi<T>(wiring: ApiWiring, fn: () => T): T {
  return storage().run(wiring, fn)
}

/** The wiring of the request under way. Throws outside `runWithApi`: an unwired call is a bug, not an outage. */
export function currentApi(): ApiWiring {
  const wiring = storage().getStore()
  if (!wiring) throw new Error('No API wiring: upstream called outside a request (server.ts getLoadContext, app/.server/context.ts)')
  return wiring
}

/** A wiring to a separately deployed API (`API_URL`) over the network's `fetch`. */
export function networkWiring(settings: UpstreamSettings): ApiWiring {
  return { fetch: (request, init) => fetch(request, init), settings, orderHub: null, stats: { upstreamCalls: 0 } }
}

/**
 * A wiring to the API in this process through `fetch` (a Hono app's `app.fetch`): no `API_URL`,
 * no order hub unless given. Tests use it with `runWithApi`; server.ts builds its own from the configuration.
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
