/**
 * The product CSV import (docs/product-csv.md; docs/decisions/0023-catalogue-import.md): a dry run
 * that checks every row against the database and lists every error (line, column, message) and what
 * each row would do (created, updated, unchanged) before anything is written; then, named by the
 * SHA-256 of the checked file, the apply: the same check again inside ONE transaction (the catalogue
 * may have changed in between) and, only when it finds no error, every write, or none.
 *
 * Upsert by SKU: a row whose SKU a product has updates that product, a new SKU creates one; a row
 * without SKU may name a product without one by its `id` (the export writes both), so a file
 * exported from the store imports back unchanged. Writes go in a handful of statements whatever the
 * row count (the rows travel as one JSON parameter: `jsonb_to_recordset`), which is what keeps
 * 10,000 rows within seconds (bench/import.ts).
 */
import { createHash } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { queryRows, textList } from '../../db/query.ts'
import { categories, productImports, subCategories, subCategoryCategories } from '../../db/schema.ts'
import { BadRequest, NotFound } from '../../lib/errors.ts'
import { decodeCsv } from '../../lib/csv-cells.ts'
import { discountFromPrices, fromPaise, toPaise } from '../../lib/money.ts'
import { newId } from '../../lib/ids.ts'
import { IMPORT_ERRORS_MAX, type ImportAnswer, type ImportCounts, type ImportError } from '../../../contract/product-import.ts'
import { MoreDetailsSchema } from '../../../contract/product.ts'
import { withoutIllustrationsBesidePhotos } from '../../../contract/images.ts'
import type { CatalogWriteDeps } from '../category/service.ts'
import { releaseImages, storedImagesAmong } from '../file/service.ts'
import {
  BRAND_KEY,
  checkRecords,
  firstLinesOf,
  readProductCsvNow,
  type CsvColumn,
  type FirstLines,
  type ParsedRow,
  type RowFields,
} from './csv.ts'
import { defaultStoreId, stockOf, writeStock } from './stock.ts'
import { bulkStockWrites, setStockBitsOf } from '../inventory/stock-bits.ts'
import { recordAudit, type ActorDeps } from '../../lib/audit.ts'
import { productAuditEntries, productAuditValues } from './audit.ts'

export const IMPORT_CHECKED = 'File checked'
export const IMPORT_APPLIED = 'Products imported'
export const IMPORT_NOT_FOUND = 'This upload is not waiting to be applied (applied already, or older than a day): upload the file again'
/** How long a checked upload waits for its apply: one day. */
export const IMPORT_UPLOAD_TTL_MS = 24 * 60 * 60 * 1000

type Tx = Pick<Db, 'execute' | 'select'>

/** A product as stored, with its links in the admin's order. Prices in rupees as numeric text or numbers. */
interface Current {
  id: string
  sku: string | null
  name: string
  unit: string
  mrp: string | number
  sellingPrice: string | number
  stock: number
  publish: boolean
  image: string[]
  description: string
  moreDetails: Record<string, string>
  hsn: string | null
  categoryIds: string[]
  subCategoryIds: string[]
}

/** What one row makes of its product: every field, prices in rupees (exact to the paisa). */
interface Target {
  id: string
  sku: string | null
  name: string
  unit: string
  mrp: number
  sellingPrice: number
  discount: number
  stock: number
  publish: boolean
  image: string[]
  description: string
  moreDetails: Record<string, string>
  hsn: string | null
  categoryIds: string[]
  subCategoryIds: string[]
}

interface Planned {
  kind: 'created' | 'updated' | 'unchanged'
  target: Target
  current?: Current
  fieldsChanged: boolean
  linksChanged: boolean
  stockChanged: boolean
}

/** The dry run's findings: counts, every error (line order), and each good row's plan. */
export interface ImportPlan {
  counts: ImportCounts
  errors: ImportError[]
  planned: Planned[]
}

async function currentProducts(db: Tx, skus: string[], ids: string[]): Promise<Current[]> {
  if (skus.length === 0 && ids.length === 0) return []
  // raw SQL: each product with its ordered category and sub category ids (correlated array_agg), matched by SKU or id
  return queryRows<Current>(
    db,
    sql`select p.id, p.sku, p.name, p.unit, p.price as mrp, p.selling_price as "sellingPrice", ${stockOf()} as stock, p.publish,
               p.image, p.description, p.more_details as "moreDetails", p.hsn,
               coalesce((select array_agg(l.category_id order by l.position, l.category_id) from product_categories l where l.product_id = p.id), '{}') as "categoryIds",
               coalesce((select array_agg(l.sub_category_id order by l.position, l.sub_category_id) from product_sub_categories l where l.product_id = p.id), '{}') as "subCategoryIds"
        from products p
        where p.sku = any(${textList(skus)}) or p.id = any(${textList(ids)})`,
  )
}

/** Category names → id (exact first, then without regard to case when that is unambiguous). */
async function categoryLookup(db: Tx): Promise<(name: string) => string | undefined> {
  const rows = await db.select({ id: categories.id, name: categories.name }).from(categories)
  return nameLookup(rows)
}

function nameLookup(rows: { id: string; name: string }[]): (name: string) => string | undefined {
  const exact = new Map(rows.map((r) => [r.name, r.id]))
  const folded = new Map<string, string | null>()
  for (const r of rows) {
    const key = r.name.toLowerCase()
    folded.set(key, folded.has(key) ? null : r.id)
  }
  return (name) => exact.get(name) ?? folded.get(name.toLowerCase()) ?? undefined
}

/** Sub categories by name, each with the categories it is listed under. */
async function subCategoryLookup(db: Tx): Promise<Map<string, { id: string; name: string; categoryIds: string[] }[]>> {
  // A key left join grouped by sub category, its category ids gathered by `array_agg … filter`.
  const rows = await db
    .select({
      id: subCategories.id,
      name: subCategories.name,
      categoryIds: sql<
        string[]
      >`coalesce(array_agg(${subCategoryCategories.categoryId}) filter (where ${subCategoryCategories.categoryId} is not null), '{}')`,
    })
    .from(subCategories)
    .leftJoin(subCategoryCategories, eq(subCategoryCategories.subCategoryId, subCategories.id))
    .groupBy(subCategories.id, subCategories.name)
  const byName = new Map<string, { id: string; name: string; categoryIds: string[] }[]>()
  for (const r of rows) {
    const key = r.name.toLowerCase()
    byName.set(key, [...(byName.get(key) ?? []), r])
  }
  return byName
}

/** Which of `urls` are not the store's stored images (file/service.ts `storedImagesAmong`). */
async function missingImages(deps: Pick<CatalogWriteDeps, 'storage'>, urls: string[], db: Tx): Promise<Set<string>> {
  const stored = await storedImagesAmong(deps.storage, urls, db)
  return new Set(urls.filter((url) => !stored.has(url)))
}

const sameList = (a: string[], b: string[]) => a.length === b.length && a.every((v, i) => v === b[i])
const sortedJson = (o: Record<string, string>) =>
  JSON.stringify(
    Object.keys(o)
      .sort()
      .map((k) => [k, o[k]]),
  )

/** The fields a new product needs, by column (docs/product-csv.md, "Columns"). */
const REQUIRED_FOR_NEW: [keyof RowFields, CsvColumn][] = [
  ['name', 'name'],
  ['unit', 'unit'],
  ['mrp', 'mrp'],
  ['categories', 'categories'],
  ['image', 'images'],
  ['description', 'description'],
]

/**
 * Checks every row of `text` against the catalogue as `db` sees it (a transaction, for the apply)
 * and plans its write. Never throws on bad content: each problem is an error with line and column.
 */
export async function planImport(deps: Pick<CatalogWriteDeps, 'storage'>, db: Tx, text: string): Promise<ImportPlan> {
  const file = readProductCsvNow(text)
  if (file.errors.length > 0) return { counts: { rows: 0, created: 0, updated: 0, unchanged: 0 }, errors: file.errors, planned: [] }
  const checked = checkRecords(file, file.records)
  const plan = await planRows(deps, db, checked.rows, firstLinesOf(file))
  const errors = [...checked.errors, ...plan.errors].sort((a, b) => a.line - b.line)
  return { counts: { ...plan.counts, rows: file.records.length }, errors, planned: plan.planned }
}

/**
 * Checks `rows` (cells already checked: csv.ts `checkRecords`) against the catalogue as `db` sees it
 * and plans each one's write: the whole file at once (`planImport`) or one slice of it (the import
 * jobs, ./import-jobs.ts). `firstLines` is where each SKU and id first appears in the whole file, so
 * a key repeated across slices is an error on its later line all the same.
 * @returns counts of the planned rows (`rows` is `rows.length`), their errors (line order) and plans
 */
export async function planRows(
  deps: Pick<CatalogWriteDeps, 'storage'>,
  db: Tx,
  rows: ParsedRow[],
  firstLines: FirstLines,
): Promise<ImportPlan> {
  const errors: ImportError[] = []
  const counts: ImportCounts = { rows: rows.length, created: 0, updated: 0, unchanged: 0 }
  if (rows.length === 0) return { counts, errors, planned: [] }
  const skus = rows.map((r) => r.fields.sku).filter((s): s is string => !!s)
  const ids = rows.map((r) => r.fields.id).filter((s): s is string => !!s)
  // One after another: `db` may be a transaction, which is one connection.
  const current = await currentProducts(db, skus, ids)
  const categoryId = await categoryLookup(db)
  const subsByName = await subCategoryLookup(db)
  const bySku = new Map(current.filter((c) => c.sku).map((c) => [c.sku!, c]))
  const byId = new Map(current.map((c) => [c.id, c]))
  const allUrls = [...new Set(rows.flatMap((r) => r.fields.image ?? []))]
  const knownUrls = new Set(current.flatMap((c) => c.image))
  const subCategoryParents = new Map([...subsByName.values()].flat().map((s) => [s.id, s.categoryIds]))
  const missing = await missingImages(
    deps,
    allUrls.filter((u) => !knownUrls.has(u)),
    db,
  )

  const planned: Planned[] = []
  for (const row of rows) {
    const rowErrors: ImportError[] = []
    const fail = (column: CsvColumn | '', message: string) => rowErrors.push({ line: row.line, column, message })
    const f = row.fields
    const sku = f.sku || null

    // Which product the row is.
    let match: Current | undefined
    if (sku) {
      const first = firstLines.skus.get(sku)
      if (first !== undefined && first < row.line) fail('sku', `SKU "${sku}" is also on line ${first}`)
      match = bySku.get(sku)
      if (!match && f.id) {
        const other = byId.get(f.id)
        if (other?.sku) fail('id', `This id is the product with SKU "${other.sku}"`)
        else match = other
      }
    } else if (f.id) {
      match = byId.get(f.id)
      if (!match) fail('sku', 'SKU is required for a new product')
      else if (match.sku) fail('sku', `SKU is required (this product's SKU is "${match.sku}")`)
    } else fail('sku', 'SKU is required')
    if (match && !sku) {
      const first = firstLines.ids.get(match.id)
      if (first !== undefined && first < row.line) fail('id', `This product is also on line ${first}`)
    }
    if (!match)
      for (const [field, column] of REQUIRED_FOR_NEW) if (f[field] === undefined) fail(column, `${column} is required for a new product`)

    // Prices: a given selling price wins; a new product without one sells at its MRP.
    const mrp = f.mrp ?? (match ? Number(match.mrp) : 0)
    const selling = f.sellingPrice ?? (match ? Number(match.sellingPrice) : mrp)
    const mrpPaise = toPaise(mrp)
    const sellingPaise = toPaise(selling)
    if (sellingPaise > mrpPaise) fail(f.sellingPrice !== undefined ? 'selling_price' : 'mrp', 'Selling price cannot be above the MRP')

    // Links by name.
    const categoryIds: string[] = []
    for (const name of f.categories ?? []) {
      const id = categoryId(name)
      if (!id) fail('categories', `Unknown category "${name}"`)
      else if (!categoryIds.includes(id)) categoryIds.push(id)
    }
    const linkedCategories = f.categories ? categoryIds : (match?.categoryIds ?? [])
    const subCategoryIds: string[] = []
    for (const name of f.subCategories ?? []) {
      const named = subsByName.get(name.toLowerCase()) ?? []
      const fitting = named.filter((s) => s.categoryIds.some((c) => linkedCategories.includes(c)))
      if (named.length === 0) fail('sub_categories', `Unknown sub category "${name}"`)
      else if (fitting.length === 0) fail('sub_categories', `Sub category "${name}" is not under any of the row's categories`)
      else if (fitting.length > 1) fail('sub_categories', `Two sub categories named "${name}" are under the row's categories`)
      else if (!subCategoryIds.includes(fitting[0]!.id)) subCategoryIds.push(fitting[0]!.id)
    }
    if (f.categories && !f.subCategories && match) {
      // Kept sub categories must still fit the new categories.
      const unfit = match.subCategoryIds.filter((s) => !subCategoryParents.get(s)?.some((c) => categoryIds.includes(c)))
      if (unfit.length > 0) fail('categories', 'The product has sub categories outside these categories: give sub_categories too')
    }
    for (const url of f.image ?? []) if (missing.has(url)) fail('images', `Not one of the store's images: ${url}`)

    // Extra fields: the brand column is the `brand` entry.
    let moreDetails = match?.moreDetails ?? {}
    if (f.brand !== undefined || f.otherDetails !== undefined) {
      const other = f.otherDetails ?? Object.fromEntries(Object.entries(moreDetails).filter(([k]) => k !== BRAND_KEY))
      const brand = f.brand !== undefined ? f.brand : moreDetails[BRAND_KEY]
      const checked = MoreDetailsSchema.safeParse({ ...other, ...(brand ? { [BRAND_KEY]: brand } : {}) })
      if (checked.success) moreDetails = checked.data
      else fail(f.otherDetails !== undefined ? 'more_details' : 'brand', checked.error.issues[0]?.message ?? 'Invalid extra fields')
    }

    if (rowErrors.length > 0) {
      errors.push(...rowErrors)
      continue
    }
    const target: Target = {
      id: match?.id ?? newId(),
      sku: sku ?? match?.sku ?? null,
      name: f.name ?? match!.name,
      unit: f.unit ?? match!.unit,
      mrp: fromPaise(mrpPaise),
      sellingPrice: fromPaise(sellingPaise),
      discount: discountFromPrices(mrpPaise, sellingPaise),
      stock: f.stock ?? match?.stock ?? 0,
      publish: f.publish ?? match?.publish ?? true,
      // An uploaded image beside drawn pictures replaces them (docs/product.md, "Pictures").
      image: f.image ? withoutIllustrationsBesidePhotos(f.image) : match!.image,
      description: f.description ?? match!.description,
      moreDetails,
      hsn: f.hsn !== undefined ? f.hsn : (match?.hsn ?? null),
      categoryIds: f.categories ? categoryIds : match!.categoryIds,
      subCategoryIds: f.subCategories ? subCategoryIds : (match?.subCategoryIds ?? []),
    }
    if (!match) {
      planned.push({ kind: 'created', target, fieldsChanged: true, linksChanged: true, stockChanged: true })
      continue
    }
    const fieldsChanged =
      target.sku !== match.sku ||
      target.name !== match.name ||
      target.unit !== match.unit ||
      mrpPaise !== toPaise(match.mrp) ||
      sellingPaise !== toPaise(match.sellingPrice) ||
      target.publish !== match.publish ||
      !sameList(target.image, match.image) ||
      target.description !== match.description ||
      sortedJson(target.moreDetails) !== sortedJson(match.moreDetails) ||
      target.hsn !== match.hsn
    const linksChanged = !sameList(target.categoryIds, match.categoryIds) || !sameList(target.subCategoryIds, match.subCategoryIds)
    const stockChanged = target.stock !== match.stock
    const kind = fieldsChanged || linksChanged || stockChanged ? 'updated' : 'unchanged'
    planned.push({ kind, target, current: match, fieldsChanged, linksChanged, stockChanged })
  }
  for (const p of planned) counts[p.kind] += 1
  errors.sort((a, b) => a.line - b.line)
  return { counts, errors, planned }
}

/** The first IMPORT_ERRORS_MAX errors and how many there were. */
const listed = (errors: ImportError[]) => ({ errors: errors.slice(0, IMPORT_ERRORS_MAX), errorCount: errors.length })

/** SHA-256 (hex) of the file's bytes: the upload's id. */
export const uploadId = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

/**
 * The dry run (POST /api/product/import): checks the file and, when no row has an error, keeps it
 * (table `product_imports`, id the SHA-256 of its bytes) for the apply. Nothing of the catalogue is
 * written. Uploads older than a day are dropped first.
 * @param userId the admin uploading (recorded with the upload)
 * @throws 400 when the bytes are not UTF-8
 */
export async function dryRunImport(deps: CatalogWriteDeps, bytes: Uint8Array, userId: string): Promise<ImportAnswer> {
  const text = decodeCsv(bytes)
  const upload = uploadId(bytes)
  const plan = await planImport(deps, deps.db, text)
  await deps.db.execute(sql`delete from product_imports where created_at < ${new Date(Date.now() - IMPORT_UPLOAD_TTL_MS)}`)
  if (plan.errors.length === 0) {
    await deps.db.execute(
      sql`insert into product_imports (id, user_id, content) values (${upload}, ${userId}, ${text})
          on conflict (id) do update set created_at = now(), user_id = excluded.user_id`,
    )
  }
  return { upload, applied: false, counts: plan.counts, ...listed(plan.errors) }
}

const chunk = <T>(items: T[], size: number) =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, i * size + size))
/**
 * Rows per statement (each batch is one JSON parameter). Small on purpose: the search's statement
 * triggers compare a statement's old and new rows pairwise (migrations 0006_search and
 * 0007_search_shelves), so their cost grows with the square of the rows of one statement: 10,000
 * rows in one update did not finish in ten minutes, in batches of 500 they take seconds.
 */
export const IMPORT_BATCH = 500

/** New products in one write beyond which the table's statistics are refreshed before their stock is written. */
const ANALYZE_AFTER_ROWS = 1000

/** `actor`: who applies the import (user id; null: the command line), kept as the rows' `edited_by`. */
async function insertProducts(tx: Tx, targets: Target[], actor: string | null, batchRows: number): Promise<void> {
  for (const batch of chunk(targets, batchRows)) {
    const rows = batch.map((t) => ({
      ...t,
      // The search's copies of the links, as the link tables' triggers would write them (migration
      // 0007_search_shelves; api/db/seed/import-catalog.ts does the same): the triggers then find
      // nothing to change.
      searchCategoryIds: [...new Set(t.categoryIds)].sort(),
      searchSubCategoryIds: [...new Set(t.subCategoryIds)].sort(),
    }))
    await tx.execute(
      sql`insert into products (id, sku, name, unit, price, selling_price, discount, publish, image, description, more_details, hsn,
                                search_category_ids, search_sub_category_ids, edited_at, edited_by)
          select v.id, v.sku, v.name, v.unit, v.mrp, v."sellingPrice", v.discount, v.publish,
                 array(select jsonb_array_elements_text(v.image)), v.description, v."moreDetails", v.hsn,
                 array(select jsonb_array_elements_text(v."searchCategoryIds")), array(select jsonb_array_elements_text(v."searchSubCategoryIds")),
                 now(), ${actor}::text
          from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(id text, sku text, name text, unit text, stock integer, mrp numeric,
               "sellingPrice" numeric, discount numeric, publish boolean, image jsonb, description text, "moreDetails" jsonb, hsn text,
               "searchCategoryIds" jsonb, "searchSubCategoryIds" jsonb)`,
    )
  }
  // Fresh statistics, so the statements that follow join the new rows by index: with the counts
  // of before the insert the planner took a scan of products per row (measured: 1,000 new rows'
  // stock took 7.8 s before, 0.18 s after; ANALYZE counts this transaction's own new rows).
  // Not for a small batch (an import job's slice): ANALYZE reads a sample of the whole table (about
  // 0.1 s at 10,000 products on PGlite) and a few hundred rows do not mislead the planner.
  if (targets.length > ANALYZE_AFTER_ROWS) await tx.execute(sql`analyze products`)
  // The default store's stock of the new products (./stock.ts).
  await writeStock(
    tx,
    targets.map((t) => ({ productId: t.id, stock: t.stock })),
  )
}

/** As insertProducts; the rows are marked changed by a person, so no data fix touches them (api/db/seed/data-fixes.ts). */
async function updateProducts(tx: Tx, targets: Target[], actor: string | null, batchRows: number): Promise<void> {
  for (const batch of chunk(targets, batchRows)) {
    await tx.execute(
      sql`update products p set sku = v.sku, name = v.name, unit = v.unit, price = v.mrp, selling_price = v."sellingPrice",
                 discount = v.discount, publish = v.publish, image = array(select jsonb_array_elements_text(v.image)),
                 description = v.description, more_details = v."moreDetails", hsn = v.hsn, updated_at = now(),
                 edited_at = now(), edited_by = ${actor}::text
          from jsonb_to_recordset(${JSON.stringify(batch)}::jsonb) as v(id text, sku text, name text, unit text, mrp numeric,
               "sellingPrice" numeric, discount numeric, publish boolean, image jsonb, description text, "moreDetails" jsonb, hsn text)
          where p.id = v.id`,
    )
  }
}

async function replaceLinks(tx: Tx, targets: Target[], batchRows: number): Promise<void> {
  for (const batch of chunk(targets, batchRows)) {
    const ids = batch.map((t) => t.id)
    await tx.execute(sql`delete from product_categories where product_id = any(${textList(ids)})`)
    await tx.execute(sql`delete from product_sub_categories where product_id = any(${textList(ids)})`)
    const categoryLinks = batch.flatMap((t) => t.categoryIds.map((id, position) => ({ p: t.id, c: id, position })))
    const subLinks = batch.flatMap((t) => t.subCategoryIds.map((id, position) => ({ p: t.id, c: id, position })))
    if (categoryLinks.length > 0) {
      await tx.execute(
        sql`insert into product_categories (product_id, category_id, position)
            select v.p, v.c, v.position from jsonb_to_recordset(${JSON.stringify(categoryLinks)}::jsonb) as v(p text, c text, position integer)`,
      )
    }
    if (subLinks.length > 0) {
      await tx.execute(
        sql`insert into product_sub_categories (product_id, sub_category_id, position)
            select v.p, v.c, v.position from jsonb_to_recordset(${JSON.stringify(subLinks)}::jsonb) as v(p text, c text, position integer)`,
      )
    }
  }
}

/**
 * Writes `planned` rows in `tx`: the created products, the changed fields, links and stock, and one
 * audit entry per product as every import writes it (api/lib/audit.ts; action `import`). The whole
 * file at once (`applyImport`) or one slice of it (./import-jobs.ts), always inside the caller's
 * transaction.
 * @param actor who applies (user id; null: the command line), kept as the rows' `edited_by`
 * @param batchRows rows per statement (IMPORT_BATCH; an import job's slice writes smaller ones)
 * @returns the image urls the updated products no longer show (to release after the commit)
 */
export async function writePlanned(tx: Tx, planned: Planned[], actor: string | null, batchRows: number = IMPORT_BATCH): Promise<string[]> {
  const created = planned.filter((p) => p.kind === 'created')
  const changed = planned.filter((p) => p.kind === 'updated')
  const changedIds = changed.map((p) => p.target.id)
  const before = await productAuditValues(tx, changedIds)
  const stockIds = [...created, ...changed.filter((p) => p.stockChanged)].map((p) => p.target.id)
  const stockRows = stockIds.length
  if (stockRows > 0) await bulkStockWrites(tx)
  await insertProducts(
    tx,
    created.map((p) => p.target),
    actor,
    batchRows,
  )
  await updateProducts(
    tx,
    changed.filter((p) => p.fieldsChanged).map((p) => p.target),
    actor,
    batchRows,
  )
  await replaceLinks(
    tx,
    [...created, ...changed.filter((p) => p.linksChanged)].map((p) => p.target),
    batchRows,
  )
  await writeStock(
    tx,
    changed.filter((p) => p.stockChanged).map((p) => ({ productId: p.target.id, stock: p.target.stock })),
  )
  // The stores' availability bits once for the whole write instead of a deferred trigger per stock
  // row at commit (measured on PGlite: 100 new products' triggers held the commit 0.3 s), and only
  // the written products' bits (a rebuild of the store's whole string cost 60 ms a slice).
  // Only the default store's: the only one whose stock an import writes.
  if (stockRows > 0) {
    const storeId = await defaultStoreId(tx)
    if (storeId) await setStockBitsOf(tx, storeId, stockIds)
  }
  const ids = [...created.map((p) => p.target.id), ...changedIds]
  await recordAudit(tx, productAuditEntries(actor, 'import', ids, before, await productAuditValues(tx, ids)))
  return changed.flatMap((p) => (p.current ? p.current.image.filter((url) => !p.target.image.includes(url)) : []))
}

/**
 * The apply (POST /api/product/import/apply): in ONE transaction, takes the checked upload (locked,
 * so a second apply of it waits and then finds it gone), checks it again against the catalogue as it
 * is now, and writes every created and updated row (products, their links, their stock through
 * ./stock.ts), then forgets the upload. Any error leaves the catalogue as it was. After the commit
 * the caches are invalidated and images no product shows any more are released.
 * @throws 404 IMPORT_NOT_FOUND when no such upload waits; 400 with one issue per error
 *   (`path` "line 7, mrp") when the catalogue changed since the dry run so that a row no longer applies
 */
export async function applyImport(deps: CatalogWriteDeps & ActorDeps, upload: string): Promise<ImportAnswer> {
  const { plan, dropped } = await deps.db.transaction(async (tx) => {
    const [stored] = await tx
      .select({ content: productImports.content })
      .from(productImports)
      .where(eq(productImports.id, upload))
      .for('update')
    if (!stored) throw NotFound(IMPORT_NOT_FOUND)
    const plan = await planImport(deps, tx, stored.content)
    if (plan.errors.length > 0) {
      const issues = plan.errors
        .slice(0, IMPORT_ERRORS_MAX)
        .map((e) => ({ path: `line ${e.line}${e.column ? `, ${e.column}` : ''}`, message: e.message }))
      throw BadRequest(`The file no longer applies: ${plan.errors.length} error(s); check it again`, issues)
    }
    const dropped = await writePlanned(tx, plan.planned, deps.actor)
    await tx.execute(sql`delete from product_imports where id = ${upload}`)
    return { plan, dropped }
  })
  deps.cache.invalidate()
  await releaseImages(deps, dropped)
  return { upload, applied: true, counts: plan.counts, ...listed(plan.errors) }
}

export type { ParsedRow }
