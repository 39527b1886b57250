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
 *
 * `catalog-drawn-pictures-2026-11`: see `fixCatalogPictures`.
 */
import fs from 'node:fs/promises'
import { sql } from 'drizzle-orm'
import type { Db } from '../client.ts'
import { queryRows } from '../query.ts'
import { DRAWN_PICTURES_FIX, parseCatalogCsv, readArtwork, skuFor } from './import-catalog.ts'
import { artworkForProduct } from './artwork.ts'
import { mainImageKey } from '../../lib/images.ts'
import { illustrationName, packFormFor, type IllustrationSubject } from '../../lib/illustrations.ts'

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

/**
 * `catalog-drawn-pictures-2026-11` (docs/decisions/0030-drawn-product-pictures.md): a catalogue
 * imported before products got drawn pictures shows one of 166 shared artwork files per product.
 * Every imported product (matched by SKU) whose image list is still exactly the artwork the import
 * gave it gets its own drawn picture instead, recorded in `illustrations` like the import does; a
 * product whose pictures an admin changed keeps them. The artwork files no longer used are left to
 * the image sweep (api/lib/image-sweep.ts). Runs once, recorded in `data_fixes`.
 * @param urlFor the storage's url of a key (the same one the import used)
 * @returns the number of products given a drawn picture, or null when the fix had already run
 */
export async function fixCatalogPictures(db: Db, csvPath: string, urlFor: (key: string) => string): Promise<number | null> {
  const [done] = await queryRows(db, sql`select 1 from data_fixes where name = ${DRAWN_PICTURES_FIX}`)
  if (done) return null
  const rows = parseCatalogCsv(await fs.readFile(csvPath))
  const choices = rows.map((r) => artworkForProduct({ name: r.name, subCategory: r.subCategory, category: r.category }))
  const art = await readArtwork(choices.map((c) => c.file))
  const source = rows.map((r, i) => {
    const subject: IllustrationSubject = { brand: r.brand, name: r.name, unit: r.unit, form: packFormFor(r), seed: skuFor(r.productId) }
    const id = illustrationName(subject)
    return { sku: skuFor(r.productId), old: urlFor(mainImageKey(art.get(choices[i]!.file)!)), id, url: urlFor(`${id}.webp`), subject }
  })
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${FIX_LOCK_KEY})`)
    const again = await queryRows(tx, sql`select 1 from data_fixes where name = ${DRAWN_PICTURES_FIX}`)
    if (again.length > 0) return null
    const json = JSON.stringify(source)
    const updated = await queryRows<{ id: string }>(
      tx,
      sql`
      update products p set image = array[src.url], updated_at = now()
      from jsonb_to_recordset(${json}::jsonb) as src(sku text, old text, url text)
      where p.sku = src.sku and p.image = array[src.old]
      returning p.id`,
    )
    await tx.execute(sql`
      insert into illustrations (id, subject)
      select src.id, src.subject from jsonb_to_recordset(${json}::jsonb) as src(id text, subject jsonb)
      on conflict do nothing`)
    await tx.execute(sql`insert into data_fixes (name, rows) values (${DRAWN_PICTURES_FIX}, ${updated.length})`)
    return updated.length
  })
}
