/**
 * In-process cache for catalogue reads (docs/decisions/0005-catalogue-cache.md; README.md,
 * "Performance"). Keys are strings such as `product:get:1:12:milk`; values are the finished answer
 * objects. Per process: with several app containers, each keeps its own cache; a change on one
 * reaches the others through PostgreSQL LISTEN/NOTIFY (api/lib/cache-bus.ts), and `ttlMs` stays as
 * the backstop should a notice be lost.
 *
 * Two kinds of change (docs/decisions/0019-stock-changes-and-the-caches.md):
 * - a catalogue write (an admin's create, edit or delete) calls `invalidate()`, which drops
 *   everything: writes are rare and reads are many, so a coarse, always-correct invalidation beats
 *   fine-grained bookkeeping;
 * - an order moves stock, many times a second, and calls `stockChanged()` with the products whose
 *   stock moved and those whose shown availability changed (contract/availability.ts). It drops only
 *   the answers that are one of the moved products (a product page's details: its stepper and the
 *   admin's edit form read the exact stock), the answers that show a crossed product, and the answers
 *   ordered by availability when a product of their store came back in stock. Such an answer is
 *   the first products of a ranking that puts in-stock products first (a search, a listing, the
 *   similar rows); a product it does not show that runs out only moves further back, so it cannot
 *   change that prefix, while one coming back in stock may move into it. A list that shows a moved product that did not cross keeps its `stock` numbers, which may
 *   then lag by up to `ttlMs`: what a list shows does not change, and the cart and the order read
 *   stock fresh from the database (api/modules/cart/service.ts), so nothing is sold on a stale number.
 */
import { LRUCache } from 'lru-cache'
import { isOneProduct, productIdsIn, stockKey, storeOfStockKey } from '../../contract/availability.ts'

/**
 * Products whose stock moved (`moved`), those of them whose shown availability changed (`crossed`),
 * and those of these that came back in stock from 0 or less (`restocked`), each as
 * `stockKey(store, product)`: stock is per dark store (docs/stores.md).
 */
export interface StockChange {
  moved: string[]
  crossed: string[]
  restocked: string[]
}

/** A change the cache followed: everything (`all`), or the stock of some products. */
export type CatalogChange = { kind: 'all' } | ({ kind: 'stock' } & StockChange)

/** How an answer depends on stock besides the products it shows (see `CatalogCache.get`). */
export interface CacheEntryOptions {
  /** The answer is ordered by availability (in-stock first): any product crossing may reorder it. */
  availabilityOrdered?: boolean
  /**
   * The dark store whose stock the answer shows: only that store's stock changes make it stale.
   * Absent: an answer without stock (categories), or stale on any store's change.
   */
  store?: string
}

export interface CatalogCache {
  /**
   * Returns the cached value for `key`, or computes, stores and returns it. Concurrent misses share
   * one computation. The products the value shows are read from it (contract/availability.ts
   * `productIdsIn`) when it is computed.
   */
  get<T>(key: string, compute: () => Promise<T>, options?: CacheEntryOptions): Promise<T>
  /** Drops every entry and tells the other instances (`onInvalidate` listeners); call after any catalogue write. */
  invalidate(): void
  /**
   * Drops the entries a stock change makes stale (see the module comment) and tells the other
   * instances; call after an order moved stock. Nothing to do when nothing moved.
   */
  stockChanged(change: StockChange): void
  /** Drops every entry of this process only (another instance's write, api/lib/cache-bus.ts). */
  clearLocal(): void
  /** Follows another instance's change in this process only (api/lib/cache-bus.ts). */
  applyLocal(change: CatalogChange): void
  /** Registers `listener`, called on every `invalidate()` and `stockChanged()` (not on the local ones). */
  onInvalidate(listener: (change: CatalogChange) => void): void
  /**
   * Registers `listener`, called whenever entries are dropped, with the change: by `invalidate()`
   * and `clearLocal()` (`all`), by `stockChanged()` and `applyLocal()`. Caches built from catalogue
   * reads (the page cache, app/.server/page-cache.ts) follow this one through it.
   */
  onClear(listener: (change: CatalogChange) => void): void
  readonly stats: { hits: number; misses: number }
}

/** One cached answer: its promise, and once it resolved, the products it shows. */
interface Entry {
  value: Promise<unknown>
  availabilityOrdered: boolean
  store: string | undefined
  /** Set when the value resolved; until then the entry is a computation under way. */
  shown?: { products: Set<string>; oneProduct: string | null }
}

/** True when a stock change makes `entry` stale (see the module comment). */
function isStale(entry: Entry, moved: Set<string>, crossed: Set<string>, restockedStores: Set<string>): boolean {
  // Still computing: it may have read the stock before the change.
  if (!entry.shown) return true
  if (entry.availabilityOrdered && (entry.store === undefined ? restockedStores.size > 0 : restockedStores.has(entry.store))) return true
  if (entry.shown.oneProduct !== null && moved.has(entry.shown.oneProduct)) return true
  for (const id of crossed) if (entry.shown.products.has(id)) return true
  return false
}

/** Creates a cache of at most `max` entries, each living at most `ttlMs` milliseconds. */
export function createCatalogCache({ max = 2000, ttlMs = 60_000 } = {}): CatalogCache {
  const lru = new LRUCache<string, Entry>({ max, ttl: ttlMs })
  let generation = 0
  const stats = { hits: 0, misses: 0 }
  const listeners: Array<(change: CatalogChange) => void> = []
  const clearListeners: Array<(change: CatalogChange) => void> = []
  const ALL: CatalogChange = { kind: 'all' }
  const clearLocal = () => {
    generation++
    lru.clear()
    for (const listener of clearListeners) listener(ALL)
  }
  const stockLocal = (change: StockChange) => {
    const moved = new Set(change.moved)
    const crossed = new Set(change.crossed)
    for (const id of crossed) moved.add(id)
    const restocked = change.restocked.filter((key) => crossed.has(key))
    const restockedStores = new Set(restocked.map(storeOfStockKey))
    const stale: string[] = []
    for (const [key, entry] of lru.entries()) if (isStale(entry, moved, crossed, restockedStores)) stale.push(key)
    for (const key of stale) lru.delete(key)
    const notice: CatalogChange = { kind: 'stock', moved: [...moved], crossed: [...crossed], restocked }
    for (const listener of clearListeners) listener(notice)
  }
  const applyLocal = (change: CatalogChange) => {
    if (change.kind === 'all') clearLocal()
    else stockLocal(change)
  }
  return {
    stats,
    async get<T>(key: string, compute: () => Promise<T>, options: CacheEntryOptions = {}): Promise<T> {
      const hit = lru.get(key)
      if (hit) {
        stats.hits++
        return hit.value as Promise<T>
      }
      stats.misses++
      const startedAt = generation
      const value = compute()
      const entry: Entry = { value, availabilityOrdered: options.availabilityOrdered ?? false, store: options.store }
      lru.set(key, entry)
      value.then(
        (resolved) => {
          // Keyed like the changes: the store's key of each product (any store's when unscoped).
          const keyOf = (id: string) => (options.store === undefined ? id : stockKey(options.store, id))
          const ids = productIdsIn(resolved)
          entry.shown = {
            products: new Set([...ids].map(keyOf)),
            oneProduct: isOneProduct(resolved) ? keyOf(resolved._id) : null,
          }
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
      for (const listener of listeners) listener(ALL)
    },
    stockChanged(change) {
      if (change.moved.length === 0 && change.crossed.length === 0) return
      stockLocal(change)
      const notice: CatalogChange = { kind: 'stock', moved: change.moved, crossed: change.crossed, restocked: change.restocked }
      for (const listener of listeners) listener(notice)
    },
    clearLocal,
    applyLocal,
    onInvalidate(listener) {
      listeners.push(listener)
    },
    onClear(listener) {
      clearListeners.push(listener)
    },
  }
}
