/**
 * In-process cache for catalogue reads (docs/decisions/0005-catalogue-cache.md; README.md,
 * "Performance"). Keys are strings such as
 * `product:get:1:12:milk`; values are the finished answer objects. Any catalogue write calls
 * `invalidate()`, which drops everything: writes are rare (admins) and reads are many (shoppers), so a
 * coarse, always-correct invalidation beats fine-grained bookkeeping. Per process: with several app
 * containers, each keeps its own cache; a write on one clears the others through PostgreSQL
 * LISTEN/NOTIFY (api/lib/cache-bus.ts), and `ttlMs` stays as the backstop should a notice be lost.
 */
import { LRUCache } from 'lru-cache'

export interface CatalogCache {
  /** Returns the cached value for `key`, or computes, stores and returns it. Concurrent misses share one computation. */
  get<T>(key: string, compute: () => Promise<T>): Promise<T>
  /** Drops every entry and tells the other instances (`onInvalidate` listeners); call after any catalogue write. */
  invalidate(): void
  /** Drops every entry of this process only (another instance's write, api/lib/cache-bus.ts). */
  clearLocal(): void
  /** Registers `listener`, called on every `invalidate()` (not on `clearLocal()`). */
  onInvalidate(listener: () => void): void
  /**
   * Registers `listener`, called whenever the entries are dropped: by `invalidate()` and by
   * `clearLocal()` (another instance's write, a reconnected cache bus). Caches built from catalogue
   * reads (the page cache, app/.server/page-cache.ts) follow this one through it.
   */
  onClear(listener: () => void): void
  readonly stats: { hits: number; misses: number }
}

/** Creates a cache of at most `max` entries, each living at most `ttlMs` milliseconds. */
export function createCatalogCache({ max = 2000, ttlMs = 60_000 } = {}): CatalogCache {
  const lru = new LRUCache<string, { value: Promise<unknown> }>({ max, ttl: ttlMs })
  let generation = 0
  const stats = { hits: 0, misses: 0 }
  const listeners: Array<() => void> = []
  const clearListeners: Array<() => void> = []
  const clearLocal = () => {
    generation++
    lru.clear()
    for (const listener of clearListeners) listener()
  }
  return {
    stats,
    async get<T>(key: string, compute: () => Promise<T>): Promise<T> {
      const hit = lru.get(key)
      if (hit) {
        stats.hits++
        return hit.value as Promise<T>
      }
      stats.misses++
      const startedAt = generation
      const value = compute()
      const entry = { value }
      lru.set(key, entry)
      value.then(
        () => {
          // A write landed while computing: the answer may predate it, so do not keep it.
          if (generation !== startedAt && lru.get(key) === entry) lru.delete(key)
        },
        () => {
          if (lru.get(key) === entry) lru.delete(key)
        },
      )
      return value
    },
    invalidate() {
      clearLocal()
      for (const listener of listeners) listener()
    },
    clearLocal,
    onInvalidate(listener) {
      listeners.push(listener)
    },
    onClear(listener) {
      clearListeners.push(listener)
    },
  }
}
