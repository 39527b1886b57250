/**
 * What the pages show of a product's stock, and so when a stock change must refresh a cached answer
 * or page (docs/decisions/0019-stock-changes-and-the-caches.md). Shared by the API, which tells the
 * caches which products changed, and the BFF, which records which products a cached page shows. No
 * zod here: the page bundle may import it.
 *
 * A card, a product page and its structured data show "Out of stock" (and no ADD) at 0 or less,
 * "Only N left" from 1 to LOW_STOCK_SHOWN units, nothing about the number above
 * (app/components/add-to-cart.tsx, app/routes/product/$product.tsx, app/lib/seo.ts).
 *
 * Stock is per dark store (docs/stores.md): a stock change names `stockKey(store, product)`, and a
 * cached answer or page records the keys of the store it was rendered for.
 */

/** At most this many units left, a page says "Only N left". */
export const LOW_STOCK_SHOWN = 5

/** The availability a page shows for a product with `stock` units. */
export type ShownAvailability = 'in-stock' | 'out-of-stock' | `only-${number}`

/** The availability a page shows for `stock` units: out of stock at 0 or less, "only N" when low. */
export function shownAvailability(stock: number): ShownAvailability {
  if (stock <= 0) return 'out-of-stock'
  return stock <= LOW_STOCK_SHOWN ? `only-${stock}` : 'in-stock'
}

/** The key a stock change and a cache use for one product's stock in one store. */
export function stockKey(storeId: string, productId: string): string {
  return `${storeId}/${productId}`
}

/** The store of a `stockKey`. */
export function storeOfStockKey(key: string): string {
  return key.slice(0, key.indexOf('/'))
}

/** The product of a `stockKey`. */
export function productOfStockKey(key: string): string {
  return key.slice(key.indexOf('/') + 1)
}

/** True when a stock change from `before` to `after` units changes what a page shows (it crossed 0). */
export function shownAvailabilityChanged(before: number, after: number): boolean {
  return shownAvailability(before) !== shownAvailability(after)
}

/**
 * The ids of the products in a catalogue answer (any JSON value): every object with a string `_id`
 * and a numeric `stock` (contract/product.ts `ProductSchema`), however deeply nested (the home
 * page's rows, a page's `data`). Categories and sub categories have no stock and are not counted.
 */
export function productIdsIn(value: unknown, into: Set<string> = new Set()): Set<string> {
  if (Array.isArray(value)) {
    for (const item of value) productIdsIn(item, into)
  } else if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>
    if (typeof record._id === 'string' && typeof record.stock === 'number') into.add(record._id)
    for (const key in record) {
      const child = record[key]
      if (child !== null && typeof child === 'object') productIdsIn(child, into)
    }
  }
  return into
}

/** True when a catalogue answer is one product (a product page's details): it shows its exact stock. */
export function isOneProduct(value: unknown): value is { _id: string; stock: number } {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false
  const record = value as Record<string, unknown>
  return typeof record._id === 'string' && typeof record.stock === 'number'
}
