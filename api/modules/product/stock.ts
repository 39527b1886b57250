/**
 * The one place the catalogue's bulk paths (CSV import and export, the grid's bulk edit;
 * docs/product-csv.md) read and write a product's stock: the stock of the default store (the first
 * active store by position; docs/stores.md, "Stock"), as the original client's product `stock` is.
 * Other stores' stock is edited per store (docs/stores.md, "Admin API").
 */
import { asc, desc, sql, type SQL } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { stores } from '../../db/schema.ts'

/** The default store's id, as SQL (the first active store by position; the first store when none is active). */
const DEFAULT_STORE = sql`(select s.id from stores s order by s.active desc, s.position, s.created_at, s.id limit 1)`

/** The default store's stock of the product aliased `p`, as a SQL expression (whole units; 0 without a row). */
export const stockOf = (p: SQL = sql`p`): SQL =>
  sql`coalesce((select i.stock from inventory i where i.product_id = ${p}.id and i.store_id = ${DEFAULT_STORE}), 0)`

/**
 * Sets the default store's stock of each product given, 500 products a statement (each batch
 * travels as one JSON parameter). `db` is normally the caller's transaction.
 * @param changes `{ productId, stock }` with stock a whole number 0..STOCK_MAX (contract/product.ts), checked by the caller
 */
export async function writeStock(db: Pick<Db, 'execute'>, changes: { productId: string; stock: number }[]): Promise<void> {
  for (let i = 0; i < changes.length; i += 500) {
    await db.execute(
      sql`insert into inventory (store_id, product_id, stock)
          select ${DEFAULT_STORE}, v."productId", v.stock
          from jsonb_to_recordset(${JSON.stringify(changes.slice(i, i + 500))}::jsonb) as v("productId" text, stock integer)
          on conflict (store_id, product_id) do update set stock = excluded.stock, updated_at = now()`,
    )
  }
}

/**
 * The default store's id (the store `writeStock` writes), in the order of DEFAULT_STORE; null when
 * there is no store at all.
 */
export async function defaultStoreId(db: Pick<Db, 'select'>): Promise<string | null> {
  const [store] = await db
    .select({ id: stores.id })
    .from(stores)
    .orderBy(desc(stores.active), asc(stores.position), asc(stores.createdAt), asc(stores.id))
    .limit(1)
  return store?.id ?? null
}
