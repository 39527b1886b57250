/**
 * What a page rendered for the page cache shows of the catalogue (app/.server/page-cache.ts;
 * docs/decisions/0019-stock-changes-and-the-caches.md): the ids of the products its loaders read, and
 * whether one of its lists is ordered by availability (a search ranks in-stock products first). The
 * page cache renders inside `recordPageShows`; every upstream answer read during that render adds its
 * products (app/.server/upstream.ts calls `notePageProducts`), so a product that runs out refreshes
 * exactly the pages that show it, whatever route read it.
 *
 * Stock is per dark store (docs/stores.md): the root loader notes the store the page was rendered for
 * (`notePageStore`), so the page's products are the stock keys `stockKey(store, id)`
 * (contract/availability.ts) and only a change in that store refreshes it (`showsStockKey`).
 *
 * The store lives in an AsyncLocalStorage kept in the global registry, because server.ts (run by
 * tsx) and the built server bundle each load their own copy of this module (as
 * app/.server/page-cache.ts does for its render token).
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import { productIdsIn } from '../../contract/availability.ts'

/** What one render showed. */
export interface PageShows {
  /** Ids of every product in the upstream answers the render read. */
  products: Set<string>
  /** A list on the page is ordered by availability: any product crossing 0 may change it. */
  availabilityOrdered: boolean
  /** The store whose stock the page shows; null when unknown (then a change in any store counts). */
  store: string | null
}

const STORAGE_KEY = Symbol.for('grocery.page-cache.shows')

function storage(): AsyncLocalStorage<PageShows> {
  const registry = globalThis as Record<symbol, unknown>
  registry[STORAGE_KEY] ??= new AsyncLocalStorage<PageShows>()
  return registry[STORAGE_KEY] as AsyncLocalStorage<PageShows>
}

/** Runs `render` recording what it shows; answers its result and the record. */
export async function recordPageShows<T>(render: () => Promise<T>): Promise<{ result: T; shows: PageShows }> {
  const shows: PageShows = { products: new Set(), availabilityOrdered: false, store: null }
  const result = await storage().run(shows, render)
  return { result, shows }
}

/** Adds the products in an upstream answer's `data` to the render under way; nothing outside one. */
export function notePageProducts(data: unknown): void {
  const shows = storage().getStore()
  if (shows) productIdsIn(data, shows.products)
}

/** Marks the render under way as showing a list ordered by availability; nothing outside one. */
export function notePageAvailabilityOrdered(): void {
  const shows = storage().getStore()
  if (shows) shows.availabilityOrdered = true
}

/** Notes the store whose stock the render under way shows (the root loader, app/.server/location.server.ts); nothing outside one. */
export function notePageStore(storeId: string): void {
  const shows = storage().getStore()
  if (shows) shows.store = storeId
}

/**
 * The store and product of a stock key (`store/product`, contract/availability.ts `stockKey`); a
 * bare product id (no "/") names no store.
 */
function splitStockKey(key: string): { store: string | null; product: string } {
  const slash = key.indexOf('/')
  return slash < 0 ? { store: null, product: key } : { store: key.slice(0, slash), product: key.slice(slash + 1) }
}

/**
 * True when a page that showed `shows` is stale once the stock key `key` crossed between in stock and
 * out of stock (or within "Only N left"): the key's store is the page's (or either is unknown) and
 * the page shows the product, or, when the product came back in stock (`restocked`), orders a list by
 * availability. Such a list is the first products of a ranking with in-stock products first: one it
 * does not show that runs out only moves further back, so the shown prefix cannot change, while one
 * coming back may move into it (docs/decisions/0019-stock-changes-and-the-caches.md).
 */
export function showsStockKey(shows: PageShows, key: string, restocked = true): boolean {
  const { store, product } = splitStockKey(key)
  if (store !== null && shows.store !== null && store !== shows.store) return false
  return (restocked && shows.availabilityOrdered) || shows.products.has(product)
}
