/**
 * One-off data corrections that need the bundled catalogue CSV (a SQL migration cannot read it).
 * Each runs once per database: its name is recorded in `data_fixes` in the same transaction as its
 * updates, so a restart (or a second instance starting at the same time, which waits on the
 * advisory lock) does not run it again.
 *
 * `catalog-selling-price-2026-11`: before migration 0003 the import stored the MRP and a discount
 * rounded to a whole percent, and the selling price was recomputed from them (Milky Mist Paneer 1 kg,
 * ₹440 in the source, came out at ₹441.80). Migration 0003 filled `selling_price` with that
 * recomputed value; this fix sets it to the source's DiscountPrice for every imported product
 * (matched by SKU) whose MRP and discount an admin has not changed since (still the imported MRP and
 * still equal to the recomputed value), so admin edits are never overwritten.
 */
import fs from 'node:fs/promises'
import { sql } from 'drizzle-orm'
import type { Db } from '../client.ts'
import { queryRows } from '../query.ts'
import { parseCatalogCsv, skuFor } from './import-catalog.ts'

export const SELLING_PRICE_FIX = 'catalog-selling-price-2026-11'
/** Advisory-lock key serialising data fixes across instances (arbitrary, distinct from the import's). */
const FIX_LOCK_KEY = 73_310_003

/**
 * Runs the selling-price fix unless already recorded. Returns the number of product rows corrected,
 * or null when the fix had already run.
 */
export async function fixCatalogSellingPrices(db: Db, csvPath: string): Promise<number | null> {
  const rows = parseCatalogCsv(await fs.readFile(csvPath))
  // One JSON parameter (a bound array would be spread into one parameter per value).
  const source = JSON.stringify(rows.map((r) => ({ sku: skuFor(r.productId), mrp: r.mrp, selling: r.sellingPrice })))
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${FIX_LOCK_KEY})`)
    const done = await queryRows(tx, sql`select 1 from data_fixes where name = ${SELLING_PRICE_FIX}`)
    if (done.length > 0) return null
    const updated = await queryRows<{ id: string }>(
      tx,
      sql`
      update products p set selling_price = src.selling
      from jsonb_to_recordset(${source}::jsonb) as src(sku text, mrp numeric, selling numeric)
      where p.sku = src.sku and p.price = src.mrp
        and p.selling_price = round(p.price * (100 - p.discount) / 100, 2)
        and p.selling_price <> src.selling
      returning p.id`,
    )
    const count = updated.length
    await tx.execute(sql`insert into data_fixes (name, rows) values (${SELLING_PRICE_FIX}, ${count})`)
    return count
  })
}
