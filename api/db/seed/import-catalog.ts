/**
 * Imports the real catalogue (catalogue README: 8,208 BigBasket products, 11 categories, 334 sub
 * categories) into an empty database: categories, sub categories, products with price (MRP),
 * discount, unit, stock, description and more_details. Categories and sub categories get artwork
 * stored through the one image pipeline (api/lib/images.ts; docs/decisions/0004-images.md); each
 * product gets its own drawn picture (api/lib/illustrations.ts): the import records what it is drawn
 * from and names its url, and the files are drawn on their first request
 * (docs/decisions/0030-drawn-product-pictures.md). README.md, "The two commands".
 *
 * All rows go in ONE transaction in bulk batches, so a failure leaves nothing half-written; a
 * transaction-scoped advisory lock makes two processes starting at once import only once.
 * Idempotent: when any category exists nothing is imported.
 *
 * Sub categories: one per (category, sub category name) pair, linked to that category. In this data
 * every name belongs to exactly one category, so the 334 names are 334 sub categories; another file
 * that reuses a name under two categories gets two sub categories rather than one shared by both,
 * which keeps each sub category's products inside its own category (docs/decisions/0004-images.md).
 */
import fs from 'node:fs/promises'
import { performance } from 'node:perf_hooks'
import path from 'node:path'
import { parse } from 'csv-parse/sync'
import { count, sql } from 'drizzle-orm'
import type { Db } from '../client.ts'
import {
  categories,
  illustrations as illustrationsTable,
  images as imagesTable,
  productCategories,
  products,
  productSubCategories,
  subCategories,
  subCategoryCategories,
} from '../schema.ts'
import { newId } from '../../lib/ids.ts'
import type { Logger } from '../../../server-shared/logger.ts'
import { mainImageKey, processImage, type StoredImage } from '../../lib/images.ts'
import type { Storage } from '../../lib/storage.ts'
import { illustrationName, packFormFor, type IllustrationSubject } from '../../lib/illustrations.ts'
import { ART_DIR, artworkForCategory, artworkForSubCategory, type ArtChoice } from './artwork.ts'
import { describeProduct, stableHash } from './describe.ts'
import { bulkStockWrites, refreshStockBits } from '../../modules/inventory/stock-bits.ts'

/** One product row of the CSV, cleaned (whitespace collapsed and trimmed). Prices in rupees. */
export interface CatalogRow {
  productId: string
  name: string
  /** Trimmed (the source has trailing spaces). */
  brand: string
  /** MRP in rupees (the CSV's Price). */
  mrp: number
  /** Selling price in rupees (the CSV's DiscountPrice). */
  sellingPrice: number
  /** The unit as sold (the CSV's Quantity). */
  unit: string
  category: string
  subCategory: string
}

// Trailing spaces (brands) and a line break inside one quoted name occur in the source.
const clean = (value: string) => value.replace(/\s+/g, ' ').trim()

const COLUMNS = ['ProductID', 'ProductName', 'Brand', 'Price', 'DiscountPrice', 'Quantity', 'Category', 'SubCategory'] as const

/**
 * Parses the catalogue CSV (UTF-8, comma-separated, quoted where needed, CRLF or LF).
 * @throws Error naming the line when a column is missing, a price is not a non-negative number,
 *   or a required field is empty
 */
export function parseCatalogCsv(text: string | Buffer): CatalogRow[] {
  const records = parse(text, { columns: true, bom: true, skip_empty_lines: true }) as Record<string, string>[]
  if (records.length > 0) {
    const missing = COLUMNS.filter((c) => !(c in records[0]))
    if (missing.length) throw new Error(`Catalogue CSV lacks column(s): ${missing.join(', ')}`)
  }
  return records.map((r, i) => {
    const line = i + 2 // header is line 1
    const mrp = Number(r.Price)
    const sellingPrice = Number(r.DiscountPrice)
    if (!(r.Price.trim() && Number.isFinite(mrp) && mrp >= 0)) throw new Error(`Catalogue CSV line ${line}: bad Price "${r.Price}"`)
    if (!(r.DiscountPrice.trim() && Number.isFinite(sellingPrice) && sellingPrice >= 0)) {
      throw new Error(`Catalogue CSV line ${line}: bad DiscountPrice "${r.DiscountPrice}"`)
    }
    const row: CatalogRow = {
      productId: clean(r.ProductID),
      name: clean(r.ProductName),
      brand: clean(r.Brand),
      mrp,
      sellingPrice,
      unit: clean(r.Quantity),
      category: clean(r.Category),
      subCategory: clean(r.SubCategory),
    }
    for (const key of ['productId', 'name', 'category', 'subCategory'] as const) {
      if (!row[key]) throw new Error(`Catalogue CSV line ${line}: empty ${key}`)
    }
    return row
  })
}

/** Discount in percent for display (the selling price is stored, not derived from this), 0-100: round((MRP - selling price) / MRP × 100); 0 when the MRP is 0. */
export function discountPercent(mrp: number, sellingPrice: number): number {
  if (!(mrp > 0)) return 0
  return Math.min(100, Math.max(0, Math.round(((mrp - sellingPrice) / mrp) * 100)))
}

/** Demo stock: a pseudo-random 5..200 fixed by the source id, so every import gives the same numbers. */
export function stockFor(productId: string): number {
  return 5 + (stableHash(`stock:${productId}`) % 196)
}

/** Values as one bound SQL `text[]` parameter (PostgreSQL array literal syntax, quoted). */
function textArrayOf(values: string[]) {
  return sql`${`{${values.map((v) => `"${v.replace(/["\\]/g, (ch) => `\\${ch}`)}"`).join(',')}}`}::text[]`
}

/** The name under which `data_fixes` records the selling-price fix (api/db/seed/data-fixes.ts `fixCatalogSellingPrices`). */
export const SELLING_PRICE_FIX = 'catalog-selling-price-2026-11'
/** The name under which `data_fixes` records the drawn-pictures fix (api/db/seed/data-fixes.ts `fixCatalogPictures`). */
export const DRAWN_PICTURES_FIX = 'catalog-drawn-pictures-2026-11'
/**
 * Every one-off catalogue data fix (api/db/seed/data-fixes.ts `CATALOG_DATA_FIX_RUNS` has one run per
 * name, checked by its type). A fresh import records them all as done in its own transaction: the
 * rows it writes are already right, so no fix may ever run on them
 * (docs/decisions/0040-data-fixes-skip-edited-rows.md). A new fix is added here.
 */
export const CATALOG_DATA_FIXES = [SELLING_PRICE_FIX, DRAWN_PICTURES_FIX] as const
export type CatalogDataFix = (typeof CATALOG_DATA_FIXES)[number]

/** The SKU kept for provenance: `BB-<ProductID>`. */
export const skuFor = (productId: string) => `BB-${productId}`

export interface ImportOptions {
  db: Db
  storage: Storage
  csvPath: string
  logger: Logger
  /** Rows per INSERT statement (default 500; 500 products × 13 columns stays far below the 65,535 parameter limit). */
  batchSize?: number
}

export type ImportResult =
  | { imported: false }
  | {
      imported: true
      categories: number
      subCategories: number
      products: number
      /** Distinct artwork files processed (categories and sub categories). */
      images: number
      /** Drawn product pictures recorded (one per product; drawn on first request). */
      illustrations: number
      /**
       * Milliseconds: parsing; from parsing until the images were stored; the transaction (which
       * overlaps the image work); and in total.
       */
      timings: { parseMs: number; imagesMs: number; writeMs: number; totalMs: number }
    }

// Any 64-bit constant: it only has to be the same for every process importing into one database.
const IMPORT_LOCK_KEY = 7_264_110_208

async function hasAnyCategory(db: Db): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(categories)
  return Number(row.n) > 0
}

/** Runs `fn` over `items` with at most `limit` promises in flight; results keep the input order. */
async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const i = next++
      results[i] = await fn(items[i])
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  return results
}

function chunks<T>(rows: T[], size: number): T[][] {
  const out: T[][] = []
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size))
  return out
}

/** Reads artwork files from ART_DIR: file name → bytes. */
export async function readArtwork(files: Iterable<string>): Promise<Map<string, Buffer>> {
  const list = [...new Set(files)].sort()
  return new Map(await Promise.all(list.map(async (f) => [f, await fs.readFile(path.join(ART_DIR, f))] as const)))
}

/**
 * Stores each artwork file through the image pipeline (content-addressed, so a second run, or a
 * restore after the upload folder was lost, yields the same urls).
 * @returns file name → stored image
 */
export async function storeArtwork(storage: Storage, art: Map<string, Buffer>): Promise<Map<string, StoredImage>> {
  const stored = await mapLimit([...art], 4, async ([file, bytes]) => {
    return [file, await processImage(bytes, { storage, maxBytes: 5 * 1024 * 1024 })] as const
  })
  return new Map(stored)
}

/**
 * Imports the catalogue CSV at `csvPath` when the database has no category yet.
 * @returns `{ imported: false }` when a category already exists (nothing is read or written),
 *   otherwise the counts and timings
 * @throws on a malformed CSV (before anything is written) or a database error (the transaction is
 *   rolled back: no category, sub category or product of this run remains). Stored image files may
 *   remain; they are content-addressed and reused by the next run.
 */
export async function importCatalog(opts: ImportOptions): Promise<ImportResult> {
  const { db, storage, csvPath, logger } = opts
  const batchSize = opts.batchSize ?? 500
  const started = performance.now()
  if (await hasAnyCategory(db)) return { imported: false }

  const rows = parseCatalogCsv(await fs.readFile(csvPath))
  if (rows.length === 0) throw new Error(`Catalogue CSV ${csvPath} has no products`)
  const seenIds = new Set<string>()
  const unique = rows.filter((r) => (seenIds.has(r.productId) ? false : (seenIds.add(r.productId), true)))
  if (unique.length < rows.length) logger.warn({ duplicates: rows.length - unique.length }, 'catalogue: duplicate ProductIDs skipped')
  const parsed = performance.now()

  // Categories and (category, sub category) pairs in order of first appearance.
  const categoryIds = new Map<string, string>()
  const subCategoryIds = new Map<string, { id: string; name: string; category: string }>()
  const pairKey = (category: string, sub: string) => `${category}\u0000${sub}`
  for (const r of unique) {
    if (!categoryIds.has(r.category)) categoryIds.set(r.category, newId())
    const key = pairKey(r.category, r.subCategory)
    if (!subCategoryIds.has(key)) subCategoryIds.set(key, { id: newId(), name: r.subCategory, category: r.category })
  }

  const categoryArt = new Map([...categoryIds.keys()].map((c) => [c, artworkForCategory(c)]))
  const subArt = new Map([...subCategoryIds].map(([k, s]) => [k, artworkForSubCategory(s.name, s.category)]))
  const art = await readArtwork([...categoryArt.values(), ...subArt.values()].map((a) => a.file))
  // Each product's own picture: what it is drawn from, and the name its files will have.
  const pictures = unique.map((r) => {
    const subject: IllustrationSubject = {
      brand: r.brand,
      name: r.name,
      unit: r.unit,
      form: packFormFor(r),
      seed: skuFor(r.productId),
    }
    return { id: illustrationName(subject), subject }
  })
  // Urls are content-addressed, so rows can be built and written while sharp encodes the images on
  // its own threads; the transaction waits for the images before it commits.
  const urlOf = (a: ArtChoice) => storage.urlFor(mainImageKey(art.get(a.file)!))
  let imagesDone = 0
  const storing = storeArtwork(storage, art).then((stored) => ((imagesDone = performance.now()), stored))
  storing.catch(() => {}) // awaited below; this only keeps an early database failure from leaving it unhandled

  // Newest first equals file order: the first row gets the latest timestamp (listings sort by created_at desc).
  const base = Date.now()
  const at = (i: number) => new Date(base - i)
  const categoryRows = [...categoryIds].map(([name, id], i) => ({
    id,
    name,
    image: urlOf(categoryArt.get(name)!),
    createdAt: at(i),
    updatedAt: at(i),
  }))
  const subCategoryRows = [...subCategoryIds].map(([key, s], i) => ({
    id: s.id,
    name: s.name,
    image: urlOf(subArt.get(key)!),
    createdAt: at(i),
    updatedAt: at(i),
  }))
  const subCategoryLinks = [...subCategoryIds.values()].map((s) => ({
    subCategoryId: s.id,
    categoryId: categoryIds.get(s.category)!,
    position: 0,
  }))
  const productRows = unique.map((r, i) => {
    const sku = skuFor(r.productId)
    return {
      id: newId(),
      name: r.name,
      image: [storage.urlFor(`${pictures[i]!.id}.webp`)],
      unit: r.unit,
      price: r.mrp,
      // The selling price exactly as the source gives it; the discount is derived for display only
      // (docs/decisions/0011-commerce-orders-and-money.md).
      sellingPrice: r.sellingPrice,
      discount: discountPercent(r.mrp, r.sellingPrice),
      description: describeProduct({ id: r.productId, ...r }),
      moreDetails: { brand: r.brand, sku },
      publish: true,
      sku,
      // The search's copies of the links below, as the link tables' triggers would write them
      // (migration 0007_search_shelves): given here, the triggers find nothing to change, and the
      // import writes each product once instead of three times (three versions of every row until
      // a vacuum, which embedded PGlite never runs by itself).
      searchCategoryIds: [categoryIds.get(r.category)!],
      searchSubCategoryIds: [subCategoryIds.get(pairKey(r.category, r.subCategory))!.id],
      createdAt: at(i),
      updatedAt: at(i),
    }
  })
  const productCategoryLinks = unique.map((r, i) => ({
    productId: productRows[i].id,
    categoryId: categoryIds.get(r.category)!,
    position: 0,
  }))
  const productSubCategoryLinks = unique.map((r, i) => ({
    productId: productRows[i].id,
    subCategoryId: subCategoryIds.get(pairKey(r.category, r.subCategory))!.id,
    position: 0,
  }))
  const writing = performance.now()
  const wrote = await db
    .transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${IMPORT_LOCK_KEY})`)
      // Another process may have imported while this one was parsing and storing images.
      if (await hasAnyCategory(tx as unknown as Db)) return false
      await tx.insert(categories).values(categoryRows)
      for (const batch of chunks(subCategoryRows, batchSize)) await tx.insert(subCategories).values(batch)
      for (const batch of chunks(subCategoryLinks, batchSize)) await tx.insert(subCategoryCategories).values(batch)
      for (const batch of chunks(productRows, batchSize)) await tx.insert(products).values(batch)
      for (const batch of chunks(pictures, batchSize * 2)) await tx.insert(illustrationsTable).values(batch).onConflictDoNothing()
      // The imported rows are already right: every data fix is done for them (api/db/seed/data-fixes.ts).
      await tx.execute(sql`insert into data_fixes (name, rows)
        select name, 0 from unnest(${textArrayOf([...CATALOG_DATA_FIXES])}) as f(name)
        on conflict do nothing`)
      for (const batch of chunks(productCategoryLinks, batchSize * 2)) await tx.insert(productCategories).values(batch)
      for (const batch of chunks(productSubCategoryLinks, batchSize * 2)) await tx.insert(productSubCategories).values(batch)
      // Every store's own stock of every product, drawn from the demo stock by the SQL function
      // demo_store_stock (migration 0010_dark_stores; docs/stores.md, "Stock"), in one statement.
      const stockRows = unique.map((r, i) => ({ id: productRows[i].id, base: String(stockFor(r.productId)), sku: productRows[i].sku }))
      // 8,208 × 7 rows: the stores' availability bits are built once below, not row by row.
      await bulkStockWrites(tx)
      for (const batch of chunks(stockRows, batchSize * 4))
        await tx.execute(sql`insert into inventory (store_id, product_id, stock)
          select s.id, v.id, demo_store_stock(v.base, s.id, v.sku)
          from unnest(${textArrayOf(batch.map((p) => p.id))}, ${textArrayOf(batch.map((p) => p.base))}::int[],
                      ${textArrayOf(batch.map((p) => p.sku))}) as v(id, base, sku)
          cross join stores s
          on conflict do nothing`)
      await refreshStockBits(tx)
      const stored = await storing
      const imageRows = [...stored].map(([file, img]) => {
        if (img.url !== storage.urlFor(mainImageKey(art.get(file)!))) throw new Error(`Artwork ${file} was stored as ${img.url}`)
        return {
          id: img.key.replace(/\.webp$/, ''),
          url: img.url,
          width: img.width,
          height: img.height,
          bytes: img.bytes,
        }
      })
      await tx.insert(imagesTable).values(imageRows).onConflictDoNothing()
      return true
    })
    .catch(async (err: unknown) => {
      // Let the image work finish before reporting, so no write to storage outlives this call.
      await storing.catch(() => {})
      throw err
    })
  const finished = performance.now()
  if (!wrote) {
    await storing
    return { imported: false }
  }

  const result = {
    imported: true as const,
    categories: categoryRows.length,
    subCategories: subCategoryRows.length,
    products: productRows.length,
    images: art.size,
    illustrations: pictures.length,
    timings: {
      parseMs: Math.round(parsed - started),
      imagesMs: Math.round(imagesDone - parsed),
      writeMs: Math.round(finished - writing),
      totalMs: Math.round(finished - started),
    },
  }
  logger.info(
    {
      categories: result.categories,
      subCategories: result.subCategories,
      products: result.products,
      images: result.images,
      illustrations: result.illustrations,
      ...result.timings,
    },
    'catalogue imported',
  )
  return result
}
