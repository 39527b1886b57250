/**
 * Test fixtures for the catalogue: insert categories, sub categories and products straight into
 * the database with Drizzle (no admin endpoint needed), with their link rows. Products get strictly
 * increasing `createdAt` values in insertion order unless told otherwise, so "newest first" is
 * predictable in tests.
 */
import type { Db } from '../db/client.ts'
import {
  categories,
  productCategories,
  products,
  productSubCategories,
  subCategories,
  subCategoryCategories,
  type Category,
  type Product,
  type SubCategory,
} from '../db/schema.ts'

/** Inserts a category; `image` defaults to a fake url. */
export async function insertCategory(db: Db, input: { name: string; image?: string }): Promise<Category> {
  const [row] = await db
    .insert(categories)
    .values({ name: input.name, image: input.image ?? `/uploads/category-${slugish(input.name)}.webp` })
    .returning()
  return row!
}

/** Inserts a sub category linked to `categoryIds` (in that order: `position` 0, 1, …). */
export async function insertSubCategory(
  db: Db,
  input: { name: string; image?: string; categoryIds: string[] },
): Promise<SubCategory> {
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
  stock?: number
  /** MRP in rupees. */
  price?: number
  /** Percent off the MRP. */
  discount?: number
  description?: string
  moreDetails?: Record<string, string>
  publish?: boolean
  createdAt?: Date
}

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
          stock: p.stock ?? 10,
          price: p.price ?? 100,
          discount: p.discount ?? 0,
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
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')
}
