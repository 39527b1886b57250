/**
 * The one place the catalogue's bulk paths (CSV import and export, the grid's bulk edit;
 * docs/product-csv.md) read and write a product's stock. Today that is the `products.stock` column,
 * exactly as the product update writes it (./writes.ts, `updateProduct`); when stock moves to a
 * per-store `inventory` table these are what to redirect (to the default store's
 * row; new products: `STOCK_COLUMN`), and nothing else in the import, export or bulk edit changes
 * (docs/decisions/0023-catalogue-import.md, "Decision").
 */
import { sql, type SQL } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'

/**
 * The column a new product's stock is inserted into (the import creates products with their stock in
 * the insert: a second update of every new row cost more than the insert itself). When stock moves
 * to `inventory`, new products get 0 here and `writeStock` is called for them too.
 */
export const STOCK_COLUMN = sql.identifier('stock')

/** The stock of the product aliased `p`, as a SQL expression (whole units). */
export const stockOf = (p: SQL = sql`p`): SQL => sql`${p}.stock`

/**
 * Sets the stock of each product given, 500 products a statement (each batch travels as one JSON
 * parameter), and marks each as changed (`updated_at`). `db` is normally the caller's
 * transaction.
 * @param changes `{ productId, stock }` with stock a whole number 0..STOCK_MAX (contract/product.ts), checked by the caller
 */
export async function writeStock(db: Pick<Db, 'execute'>, changes: { productId: string; stock: number }[]): Promise<void> {
  // 500 a statement: the search's statement triggers on products compare a statement's old and new
  // rows pairwise (api/modules/product/import.ts, IMPORT_BATCH).
  for (let i = 0; i < changes.length; i += 500) {
    await db.execute(
      sql`update products p set stock = v.stock, updated_at = now()
          from jsonb_to_recordset(${JSON.stringify(changes.slice(i, i + 500))}::jsonb) as v("productId" text, stock integer)
          where p.id = v."productId"`,
    )
  }
}
