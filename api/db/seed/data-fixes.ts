/**
 * One-off data corrections that need the bundled catalogue CSV (a SQL migration cannot read it), run
 * at start-up by ./ensure.ts (docs/decisions/0040-data-fixes-skip-edited-rows.md):
 *
 * - Each runs once per database: its name is recorded in `data_fixes` in the same transaction as its
 *   updates, under an advisory lock, so a restart (or a second instance starting at the same time)
 *   does not run it again. A fresh import records every fix as done (./import-catalog.ts
 *   `CATALOG_DATA_FIXES`): its rows are already right.
 * - A fix changes only rows no person changed: `products.edited_at` is null (set by the product edit,
 *   the bulk edit and the CSV import; migration 0024_product_edited_marker). A formula over the row's
 *   own values cannot tell an admin's edit from the import's value (the discount is derived from the
 *   prices, so an admin's price that keeps the MRP matched the old guard).
 * - Every row a fix changes gets an audit entry (api/lib/audit.ts) with actor `system`, action
 *   `data_fix`, the fields changed and the fix's name (`dataFix`), in the fix's transaction.
 *
 * `catalog-selling-price-2026-11`: before migration 0003 the import stored the MRP and a discount
 * rounded to a whole percent, and the selling price was recomputed from them (Milky Mist Paneer 1 kg,
 * ₹440 in the source, came out at ₹441.80). Migration 0003 filled `selling_price` with that
 * recomputed value; this fix sets it to the source's DiscountPrice for every imported product
 * (matched by SKU) no person changed, still at the imported MRP and the recomputed value.
 *
 * `catalog-drawn-pictures-2026-11`: see `fixCatalogPictures`.
 */
import fs from 'node:fs/promises'
import { eq, sql } from 'drizzle-orm'
import type { Db } from '../client.ts'
import { queryRows } from '../query.ts'
import { dataFixes } from '../schema.ts'
import { DRAWN_PICTURES_FIX, SELLING_PRICE_FIX, parseCatalogCsv, readArtwork, skuFor, type CatalogDataFix } from './import-catalog.ts'
import { artworkForProduct } from './artwork.ts'
import { mainImageKey } from '../../lib/images.ts'
import { illustrationName, packFormFor, type IllustrationSubject } from '../../lib/illustrations.ts'
import { recordAudit, SYSTEM_ACTOR, type AuditValues } from '../../lib/audit.ts'
import type { Logger } from '../../../server-shared/logger.ts'

export { SELLING_PRICE_FIX, DRAWN_PICTURES_FIX }
/** Advisory-lock key serialising data fixes across instances (arbitrary, distinct from the import's). */
const FIX_LOCK_KEY = 73_310_003

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]

/** One product row a fix changes: its id and the changed fields before and after. */
interface FixedRow {
  id: string
  before: AuditValues
  after: AuditValues
}

/**
 * Runs `fix` in one transaction under the data fixes' lock unless `name` is recorded in
 * `data_fixes`; records the name with the number of rows changed and one audit entry per row
 * (actor SYSTEM_ACTOR, action `data_fix`, `dataFix: name` beside the changed fields).
 * @returns the rows changed, or null when the fix had already run
 */
async function runOnce(db: Db, name: CatalogDataFix, fix: (tx: Tx) => Promise<FixedRow[]>): Promise<number | null> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${FIX_LOCK_KEY})`)
    const done = await tx.select({ name: dataFixes.name }).from(dataFixes).where(eq(dataFixes.name, name))
    if (done.length > 0) return null
    const rows = await fix(tx)
    await recordAudit(
      tx,
      rows.map((r) => ({
        actor: SYSTEM_ACTOR,
        action: 'data_fix' as const,
        entity: 'product' as const,
        entityId: r.id,
        before: r.before,
        after: { ...r.after, dataFix: name },
      })),
    )
    await tx.execute(sql`insert into data_fixes (name, rows) values (${name}, ${rows.length})`)
    return rows.length
  })
}

/**
 * Runs the selling-price fix unless already recorded. Returns the number of product rows corrected,
 * or null when the fix had already run.
 */
export async function fixCatalogSellingPrices(db: Db, csvPath: string): Promise<number | null> {
  const rows = parseCatalogCsv(await fs.readFile(csvPath))
  // One JSON parameter (a bound array would be spread into one parameter per value).
  const source = JSON.stringify(rows.map((r) => ({ sku: skuFor(r.productId), mrp: r.mrp, selling: r.sellingPrice })))
  return runOnce(db, SELLING_PRICE_FIX, async (tx) => {
    // Read and locked first: an UPDATE's RETURNING gives only the new values, the audit wants both.
    // raw SQL: joins the source prices, given as one JSON recordset, and locks the rows it changes
    const found = await queryRows<{ id: string; was: number; now: number }>(
      tx,
      sql`
      select p.id, p.selling_price::float8 as was, src.selling::float8 as now
      from products p
      join jsonb_to_recordset(${source}::jsonb) as src(sku text, mrp numeric, selling numeric) on p.sku = src.sku
      where p.edited_at is null and p.price = src.mrp
        and p.selling_price = round(p.price * (100 - p.discount) / 100, 2)
        and p.selling_price <> src.selling
      order by p.id
      for update of p`,
    )
    if (found.length === 0) return []
    const json = JSON.stringify(found.map((f) => ({ id: f.id, selling: f.now })))
    await tx.execute(sql`
      update products p set selling_price = v.selling, updated_at = now()
      from jsonb_to_recordset(${json}::jsonb) as v(id text, selling numeric)
      where p.id = v.id`)
    return found.map((f) => ({ id: f.id, before: { sellingPrice: f.was }, after: { sellingPrice: f.now } }))
  })
}

/**
 * `catalog-drawn-pictures-2026-11` (docs/decisions/0030-drawn-product-pictures.md): a catalogue
 * imported before products got drawn pictures shows one of 166 shared artwork files per product.
 * Every imported product (matched by SKU) no person changed whose image list is still exactly the
 * artwork the import gave it gets its own drawn picture instead, recorded in `illustrations` like the
 * import does; a product an admin changed keeps its pictures. The artwork files no longer used are
 * left to the image sweep (api/lib/image-sweep.ts). Runs once, recorded in `data_fixes`; the audit
 * entry of a product holds its picture url before and after (`image`).
 * @param urlFor the storage's url of a key (the same one the import used)
 * @returns the number of products given a drawn picture, or null when the fix had already run
 */
export async function fixCatalogPictures(db: Db, csvPath: string, urlFor: (key: string) => string): Promise<number | null> {
  const [done] = await db.select({ name: dataFixes.name }).from(dataFixes).where(eq(dataFixes.name, DRAWN_PICTURES_FIX))
  if (done) return null
  const rows = parseCatalogCsv(await fs.readFile(csvPath))
  const choices = rows.map((r) => artworkForProduct({ name: r.name, subCategory: r.subCategory, category: r.category }))
  const art = await readArtwork(choices.map((c) => c.file))
  const source = rows.map((r, i) => {
    const subject: IllustrationSubject = { brand: r.brand, name: r.name, unit: r.unit, form: packFormFor(r), seed: skuFor(r.productId) }
    const id = illustrationName(subject)
    return { sku: skuFor(r.productId), old: urlFor(mainImageKey(art.get(choices[i]!.file)!)), id, url: urlFor(`${id}.webp`), subject }
  })
  return runOnce(db, DRAWN_PICTURES_FIX, async (tx) => {
    const json = JSON.stringify(source)
    // raw SQL: UPDATE … FROM one JSON recordset, returning the source's old and new urls beside each row
    const updated = await queryRows<{ id: string; old: string; url: string }>(
      tx,
      sql`
      update products p set image = array[src.url], updated_at = now()
      from jsonb_to_recordset(${json}::jsonb) as src(sku text, old text, url text)
      where p.sku = src.sku and p.edited_at is null and p.image = array[src.old]
      returning p.id, src.old, src.url`,
    )
    await tx.execute(sql`
      insert into illustrations (id, subject)
      select src.id, src.subject from jsonb_to_recordset(${json}::jsonb) as src(id text, subject jsonb)
      on conflict do nothing`)
    return updated.map((u) => ({ id: u.id, before: { image: [u.old] }, after: { image: [u.url] } }))
  })
}

/**
 * Each catalogue data fix's run, by name: the type makes a fix listed in CATALOG_DATA_FIXES (which the
 * import records as done) have a run here, and the other way round.
 */
const CATALOG_DATA_FIX_RUNS: Record<
  CatalogDataFix,
  { run: (db: Db, csvPath: string, urlFor: (key: string) => string) => Promise<number | null>; done: string }
> = {
  [SELLING_PRICE_FIX]: { run: (db, csv) => fixCatalogSellingPrices(db, csv), done: "corrected selling prices to the catalogue's own" },
  [DRAWN_PICTURES_FIX]: { run: fixCatalogPictures, done: 'gave imported products their own drawn pictures' },
}

/**
 * Runs every catalogue data fix not yet recorded (each once; see the module comment), logging what
 * each changed. Called on start-up for a catalogue already present (./ensure.ts).
 * @returns fix name → rows changed, for the fixes that ran now
 */
export async function runCatalogDataFixes(
  db: Db,
  csvPath: string,
  urlFor: (key: string) => string,
  logger: Pick<Logger, 'info'>,
): Promise<Partial<Record<CatalogDataFix, number>>> {
  const ran: Partial<Record<CatalogDataFix, number>> = {}
  // The fixes already recorded, in one read: on every start after the first none is left to run, and
  // none then reads the catalogue CSV (each fix checks again under its lock, `runOnce`).
  const recorded = new Set((await db.select({ name: dataFixes.name }).from(dataFixes)).map((r) => r.name))
  for (const [name, fix] of Object.entries(CATALOG_DATA_FIX_RUNS) as [CatalogDataFix, (typeof CATALOG_DATA_FIX_RUNS)[CatalogDataFix]][]) {
    if (recorded.has(name)) continue
    const rows = await fix.run(db, csvPath, urlFor)
    if (rows === null) continue
    ran[name] = rows
    logger.info({ fix: name, products: rows }, `${fix.done} (data fix, run once)`)
  }
  return ran
}
