/**
 * Which dark store the upstream calls of a request speak for (docs/stores.md, "Location (BFF)"):
 * the root middleware runs the request's loaders and actions inside `runInStoreScope`, with a
 * function that reads the shopper's store from the request's session at the moment of each call
 * (so a location changed by an action applies to the calls after it). app/.server/upstream.ts adds
 * `X-Store-Id` from `scopeStoreId()` to every call, in one place. No store (no location chosen, or
 * none serves it) sends no header: the API then serves its default store.
 *
 * The store lives in an AsyncLocalStorage kept in the global registry, as app/.server/page-shows.ts
 * does, because server.ts (run by tsx) and the built server bundle each load their own copy.
 */
import { AsyncLocalStorage } from 'node:async_hooks'

export { STORE_HEADER } from '../../contract/store-header.ts'

/** Reads the store id of the request under way, or null for the default store. */
type StoreOf = () => string | null

const STORAGE_KEY = Symbol.for('grocery.store-scope')

function storage(): AsyncLocalStorage<StoreOf> {
  const registry = globalThis as Record<symbol, unknown>
  registry[STORAGE_KEY] ??= new AsyncLocalStorage<StoreOf>()
  return registry[STORAGE_KEY] as AsyncLocalStorage<StoreOf>
}

/** Runs `fn` with the upstream calls inside it speaking for the store `storeOf()` answers at each call. */
export function runInStoreScope<T>(storeOf: StoreOf, fn: () => T): T {
  return storage().run(storeOf, fn)
}

/** The store id of the request under way, or null (none chosen, unserviceable, or outside a request). */
export function scopeStoreId(): string | null {
  return storage().getStore()?.() ?? null
}
