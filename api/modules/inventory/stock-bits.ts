/**
 * The stores' availability bits (migration 0020_store_stock_bits; docs/stores.md, "Availability
 * bits"): one bit string per store saying which products have stock > 0 there, so a search or
 * listing ranking in-stock products first reads the store's row once per statement instead of
 * probing `inventory` for every product it matches.
 *
 * Deferred triggers on `inventory` keep the bits equal to the stock at every commit. A writer of
 * thousands of rows at once (the catalogue import, the bench) switches them off for its transaction
 * with `bulkStockWrites` and, before it commits, rebuilds the stores' bits with `refreshStockBits` or
 * sets those of the products it wrote with `setStockBitsOf`.
 */
import { sql, type SQL } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { textList } from '../../db/query.ts'

/**
 * True (SQL boolean) when the product aliased `p` has stock > 0 in store `storeId` by the bits. The
 * store's bits are an uncorrelated subquery, read once per statement; `|| B'0'` makes the value a
 * copy in memory, so each product's bit is not read from the TOAST table again (a 100,000-product
 * store's bits are 12.5 KB, stored out of line).
 */
export const storeInStock = (storeId: string): SQL =>
  sql`stock_bit((select b.in_stock || B'0' from store_stock_bits b where b.store_id = ${storeId}), p.stock_seq)`

/** Switches the bit triggers off until the end of the transaction `tx`, which must then call `refreshStockBits` or `setStockBitsOf`. */
export async function bulkStockWrites(tx: Pick<Db, 'execute'>): Promise<void> {
  await tx.execute(sql`select set_config('grocery.stock_bits_bulk', 'on', true)`)
}

/**
 * Rebuilds the bits of `storeIds` (every store when not given) from `inventory`: about 50 ms per
 * store of 100,000 products. `db` may be a transaction.
 */
export async function refreshStockBits(db: Pick<Db, 'execute'>, storeIds?: string[]): Promise<void> {
  if (storeIds) for (const storeId of storeIds) await db.execute(sql`select refresh_store_stock_bits(${storeId})`)
  else await db.execute(sql`select refresh_store_stock_bits(s.id) from stores s`)
}

/**
 * Sets the bits of `productIds` in `storeId` from their stock there as `db` sees it
 * (api/db/functions/set_store_stock_bits.sql): one locked read and one write of the store's row, so a
 * bulk write of a few hundred products (an import's slice) does not rebuild the whole string, which
 * on the embedded database took about 60 ms per call for 18,000 products against about 2 ms.
 * Products not named keep their bits. `db` may be a transaction.
 */
export async function setStockBitsOf(db: Pick<Db, 'execute'>, storeId: string, productIds: string[]): Promise<void> {
  if (productIds.length === 0) return
  await db.execute(sql`select set_store_stock_bits(${storeId}, ${textList(productIds)})`)
}
