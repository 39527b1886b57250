/**
 * One store's stock as CSV (GET /api/inventory/export?storeId=; docs/store-stock-csv.md): every
 * product, with or without a row in `inventory` (none is 0 units), by SKU (products without a SKU
 * first, by id), streamed STOCK_EXPORT_PAGE products at a time (keyset paging), so memory stays flat
 * whatever the catalogue's size, in the format ./import.ts reads back (./csv.ts).
 */
import { and, asc, eq, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { inventory, products, stores } from '../../db/schema.ts'
import { NotFound } from '../../lib/errors.ts'
import { stockCells, stockCsvText, type StockCsvProduct } from './csv.ts'

/** Products read per query while streaming. */
export const STOCK_EXPORT_PAGE = 1000

/** The sort key of a product in the file: its SKU, '' without one. */
const skuKey = sql<string>`coalesce(${products.sku}, '')`

/**
 * Every product with its stock in `storeId` (0 without a row), by SKU then id; only those after
 * `after` (keyset), at most `limit` (all when not given). `db` may be a transaction.
 */
export async function storeStockRows(
  db: Pick<Db, 'select'>,
  storeId: string,
  after?: { sku: string; id: string },
  limit?: number,
): Promise<StockCsvProduct[]> {
  const query = db
    .select({
      id: products.id,
      sku: products.sku,
      name: products.name,
      unit: products.unit,
      stock: sql<number>`coalesce(${inventory.stock}, 0)::int`,
    })
    .from(products)
    .leftJoin(inventory, and(eq(inventory.productId, products.id), eq(inventory.storeId, storeId)))
    .where(after ? sql`(${skuKey}, ${products.id}) > (${after.sku}, ${after.id})` : undefined)
    .orderBy(skuKey, asc(products.id))
  return limit === undefined ? query : query.limit(limit)
}

/** @throws 404 when no store has id `storeId` */
export async function requireStore(db: Pick<Db, 'select'>, storeId: string): Promise<{ id: string; name: string }> {
  const [store] = await db.select({ id: stores.id, name: stores.name }).from(stores).where(eq(stores.id, storeId))
  if (!store) throw NotFound('Store not found')
  return store
}

/**
 * The store's stock as a stream of CSV text (UTF-8 with the byte order mark, header first, CRLF
 * line ends). A database failure mid-way errors the stream (the download is cut off, never a file
 * that looks whole: its last line would lack its CRLF). The store must exist (`requireStore` first).
 */
export function exportStockCsv(db: Db, storeId: string): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  let after: { sku: string; id: string } | undefined
  let first = true
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const page = await storeStockRows(db, storeId, after, STOCK_EXPORT_PAGE)
      if (page.length > 0 || first) controller.enqueue(encoder.encode(stockCsvText(page.map(stockCells), first)))
      first = false
      const last = page[page.length - 1]
      if (page.length < STOCK_EXPORT_PAGE || !last) controller.close()
      else after = { sku: last.sku ?? '', id: last.id }
    },
  })
}
