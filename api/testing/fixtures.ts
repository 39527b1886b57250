/**
 * Test fixtures for the catalogue: insert categories, sub categories and products straight into
 * the database with Drizzle (no admin endpoint needed), with their link rows. Products get strictly
 * increasing `createdAt` values in insertion order unless told otherwise, so "newest first" is
 * predictable in tests. For the write tests: real stored test images, the upload folder's files and
 * a snapshot of every catalogue row (to prove a refused request wrote nothing).
 */
import { consistentPrices } from '../modules/product/service.ts'
import fs from 'node:fs'
import path from 'node:path'
import { and, eq, sql } from 'drizzle-orm'
import sharp from 'sharp'
import type { Db } from '../db/client.ts'
import {
  categories,
  inventory,
  productCategories,
  products,
  productSubCategories,
  subCategories,
  subCategoryCategories,
  type Category,
  type Product,
  type SubCategory,
} from '../db/schema.ts'
import { processImage, recordImage } from '../lib/images.ts'
import type { Storage } from '../lib/storage.ts'

/** Inserts a category; `image` defaults to a fake url. */
export async function insertCategory(db: Db, input: { name: string; image?: string }): Promise<Category> {
  const [row] = await db
    .insert(categories)
    .values({ name: input.name, image: input.image ?? `/uploads/category-${slugish(input.name)}.webp` })
    .returning()
  return row!
}

/** Inserts a sub category linked to `categoryIds` (in that order: `position` 0, 1, …). */
export async function insertSubCategory(db: Db, input: { name: string; image?: string; categoryIds: string[] }): Promise<SubCategory> {
  const [row] = await db
    .insert(subCategories)
    .values({ name: input.name, image: input.image ?? `/uploads/sub-category-${slugish(input.name)}.webp` })
    .returning()
  if (input.categoryIds.length > 0) {
    await db
      .insert(subCategoryCategories)
      .values(input.categoryIds.map((categoryId, position) => ({ subCategoryId: row!.id, categoryId, position })))
  }
  return row!
}

/** What a test says about a product; everything but the name has a default. */
export interface ProductFixture {
  name: string
  categoryIds?: string[]
  subCategoryIds?: string[]
  image?: string[]
  unit?: string
  /** Units in the default store (SEEDED_DEFAULT_STORE), default 10. */
  stock?: number
  /** Units in other stores by store id (absent: 0). */
  storeStock?: Record<string, number>
  /** MRP in rupees. */
  price?: number
  /** Percent off the MRP. */
  discount?: number
  /** Selling price in rupees; derived from price and discount when omitted. */
  sellingPrice?: number
  description?: string
  moreDetails?: Record<string, string>
  publish?: boolean
  createdAt?: Date
}

/** The default store of a migrated database (migration 0010_dark_stores): Indiranagar, Bengaluru, 560038. */
export const SEEDED_DEFAULT_STORE = 'storeBlrIndiranagar'

/** Start of the fixture clock; each product is one second newer than the one before. */
const FIXTURE_EPOCH = Date.parse('2024-01-01T00:00:00.000Z')
let fixtureClock = 0

/** Rows per INSERT: keeps the bound parameters under PostgreSQL's limit of 65,535 per statement. */
const CHUNK = 1000

/**
 * Inserts many products with their category and sub category links, in three statements per
 * thousand products. Returns the rows in the order given.
 */
export async function insertProducts(db: Db, list: ProductFixture[]): Promise<Product[]> {
  const inserted: Product[] = []
  for (let start = 0; start < list.length; start += CHUNK) {
    inserted.push(...(await insertProductChunk(db, list.slice(start, start + CHUNK))))
  }
  return inserted
}

async function insertProductChunk(db: Db, list: ProductFixture[]): Promise<Product[]> {
  if (list.length === 0) return []
  const rows = await db
    .insert(products)
    .values(
      list.map((p) => {
        const createdAt = p.createdAt ?? new Date(FIXTURE_EPOCH + ++fixtureClock * 1000)
        return {
          name: p.name,
          image: p.image ?? [`/uploads/product-${slugish(p.name)}.webp`],
          unit: p.unit ?? '1 pc',
          ...consistentPrices({ mrp: p.price ?? 100, discount: p.discount ?? 0, sellingPrice: p.sellingPrice }),
          description: p.description ?? `${p.name}.`,
          moreDetails: p.moreDetails ?? {},
          publish: p.publish ?? true,
          createdAt,
          updatedAt: createdAt,
        }
      }),
    )
    .returning()
  const categoryLinks = list.flatMap((p, i) =>
    (p.categoryIds ?? []).map((categoryId, position) => ({ productId: rows[i]!.id, categoryId, position })),
  )
  const subCategoryLinks = list.flatMap((p, i) =>
    (p.subCategoryIds ?? []).map((subCategoryId, position) => ({ productId: rows[i]!.id, subCategoryId, position })),
  )
  const stockRows = list.flatMap((p, i) =>
    Object.entries({ [SEEDED_DEFAULT_STORE]: p.stock ?? 10, ...p.storeStock }).map(([storeId, stock]) => ({
      storeId,
      productId: rows[i]!.id,
      stock,
    })),
  )
  if (stockRows.length > 0) await db.insert(inventory).values(stockRows)
  if (categoryLinks.length > 0) await db.insert(productCategories).values(categoryLinks)
  if (subCategoryLinks.length > 0) await db.insert(productSubCategories).values(subCategoryLinks)
  return rows
}

/** Inserts one product (see `insertProducts`). */
export async function insertProduct(db: Db, input: ProductFixture): Promise<Product> {
  const [row] = await insertProducts(db, [input])
  return row!
}

function slugish(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
}

// ---------------------------------------------------------------------------------------------
// Images and snapshots for the catalogue write tests (docs/decisions/0008-catalogue-writes.md).
// ---------------------------------------------------------------------------------------------

let imageSeed = 0

/**
 * A real PNG of `width` × `height` pixels in a colour of its own: every call gives different bytes
 * (so a different content-addressed url) unless `seed` is repeated.
 */
export function testPng(opts: { width?: number; height?: number; seed?: number } = {}): Promise<Buffer> {
  const seed = opts.seed ?? ++imageSeed
  const background = { r: (seed * 67) % 256, g: (seed * 131) % 256, b: (seed * 29 + Math.floor(seed / 256)) % 256 }
  return sharp({ create: { width: opts.width ?? 64, height: opts.height ?? 48, channels: 3, background } })
    .png()
    .toBuffer()
}

/**
 * Stores a test picture through the one image pipeline (as file/upload does, without HTTP) and
 * records it; returns its url (`/uploads/<hash>.webp`), ready for a category, sub category or product.
 */
export async function storeTestImage(t: { db: Db; deps: { storage: Storage } }, seed?: number): Promise<string> {
  const image = await processImage(await testPng({ seed }), { storage: t.deps.storage, maxBytes: 5 * 1024 * 1024 })
  await recordImage(t.db, image)
  return image.url
}

/** Every file name in the test app's upload folder (`<tmpDir>/uploads`), sorted; [] before any upload. */
export function storedFiles(tmpDir: string): string[] {
  const dir = path.join(tmpDir, 'uploads')
  return fs.existsSync(dir) ? fs.readdirSync(dir).sort() : []
}

/**
 * Every row of the catalogue's tables and the images table, in a fixed order: compare two snapshots
 * to prove that a refused request wrote nothing.
 */
export async function catalogSnapshot(db: Db): Promise<Record<string, unknown[]>> {
  const tables = {
    categories: sql`select * from categories order by id`,
    sub_categories: sql`select * from sub_categories order by id`,
    sub_category_categories: sql`select * from sub_category_categories order by sub_category_id, category_id`,
    products: sql`select * from products order by id`,
    product_categories: sql`select * from product_categories order by product_id, category_id`,
    product_sub_categories: sql`select * from product_sub_categories order by product_id, sub_category_id`,
    images: sql`select * from images order by id`,
    stores: sql`select * from stores order by id`,
    inventory: sql`select * from inventory order by store_id, product_id`,
    // Product CSVs checked and waiting for their apply (api/modules/product/import.ts).
    product_imports: sql`select id, user_id, content from product_imports order by id`,
  }
  const snapshot: Record<string, unknown[]> = {}
  for (const [name, query] of Object.entries(tables)) {
    const result = (await db.execute(query)) as unknown as { rows: unknown[] }
    snapshot[name] = result.rows
  }
  return snapshot
}

/** A product's stock in `storeId` (default: the default store), 0 without an inventory row. */
export async function stockIn(db: Db, productId: string, storeId: string = SEEDED_DEFAULT_STORE): Promise<number> {
  const [row] = await db
    .select({ stock: inventory.stock })
    .from(inventory)
    .where(and(eq(inventory.productId, productId), eq(inventory.storeId, storeId)))
  return row?.stock ?? 0
}

/** Sets a product's stock in `storeId` (default: the default store), straight in the table (no cache told). */
export async function setStockIn(db: Db, productId: string, stock: number, storeId: string = SEEDED_DEFAULT_STORE): Promise<void> {
  await db
    .insert(inventory)
    .values({ storeId, productId, stock })
    .onConflictDoUpdate({ target: [inventory.storeId, inventory.productId], set: { stock } })
}
