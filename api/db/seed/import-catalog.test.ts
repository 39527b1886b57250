/**
 * The catalogue import on a real database (PGlite, or PostgreSQL with TEST_DATABASE_URL): a 50-row
 * subset of the real CSV (testdata/catalog-50.csv: every category, trailing-space brands, combos,
 * zero discounts, a name with a line break). A failed import leaves nothing; a good one writes the
 * rows, links and images; a second one writes nothing; start-up seeding restores lost artwork.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { count, eq, sql } from 'drizzle-orm'
import type { PgTable } from 'drizzle-orm/pg-core'
import { parse } from 'csv-parse/sync'
import type { Database } from '../client.ts'
import { queryRows } from '../query.ts'
import {
  categories,
  illustrations,
  images as imagesTable,
  productCategories,
  products,
  productSubCategories,
  subCategories,
  subCategoryCategories,
} from '../schema.ts'
import { createTestDatabase } from '../../testing/db.ts'
import { createDiskStorage, type Storage } from '../../lib/storage.ts'
import { logger } from '../../../server-shared/logger.ts'
import { deleteImageIfUnused, isImageInUse, processImage, storedImageKeys } from '../../lib/images.ts'
import { importCatalog, parseCatalogCsv, stockFor } from './import-catalog.ts'
import { createIllustrationDrawer } from '../../lib/illustration-store.ts'
import { ensureCatalog, isArtworkStored, maintainCatalog } from './ensure.ts'

const here = path.dirname(fileURLToPath(import.meta.url))
const FIXTURE = path.join(here, 'testdata', 'catalog-50.csv')
const source = parse(fs.readFileSync(FIXTURE), { columns: true }) as Record<string, string>[]

let database: Database
let tmp: string
let uploads: string
let storage: Storage

beforeAll(async () => {
  database = await createTestDatabase()
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'catalog-import-'))
  uploads = path.join(tmp, 'uploads')
  storage = createDiskStorage(uploads)
})
afterAll(async () => {
  await database?.close()
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true })
})

async function rowCount(table: PgTable): Promise<number> {
  const [row] = await database.db.select({ n: count() }).from(table)
  return Number(row.n)
}
const allCounts = async () => ({
  categories: await rowCount(categories),
  subCategories: await rowCount(subCategories),
  links: await rowCount(subCategoryCategories),
  products: await rowCount(products),
  productCategories: await rowCount(productCategories),
  productSubCategories: await rowCount(productSubCategories),
  images: await rowCount(imagesTable),
  illustrations: await rowCount(illustrations),
})
const fileExists = (url: string) => storage.exists(storage.keyFor(url)!)

describe('importCatalog', () => {
  it('writes nothing when a row fails in a later batch (one transaction)', async () => {
    // MRP 10^11 rupees overflows numeric(12,2): PostgreSQL refuses the last product batch only.
    const bad = path.join(tmp, 'bad.csv')
    fs.writeFileSync(bad, fs.readFileSync(FIXTURE, 'utf8') + '999999,Gold Bar,Mint,100000000000,1,1 pc,Gourmet & World Food,Gift Boxes\r\n')
    await expect(importCatalog({ db: database.db, storage, csvPath: bad, logger, batchSize: 10 })).rejects.toThrow()
    expect(await allCounts()).toEqual({
      categories: 0,
      subCategories: 0,
      links: 0,
      products: 0,
      productCategories: 0,
      productSubCategories: 0,
      images: 0,
      illustrations: 0,
    })
  })

  it('refuses a malformed CSV before writing anything', async () => {
    const bad = path.join(tmp, 'bad-price.csv')
    fs.writeFileSync(
      bad,
      'ProductID,ProductName,Brand,Price,DiscountPrice,Quantity,Category,SubCategory\n1,Tea,X,abc,1,1 kg,Beverages,Tea\n',
    )
    await expect(importCatalog({ db: database.db, storage, csvPath: bad, logger })).rejects.toThrow('line 2: bad Price "abc"')
    expect(await rowCount(categories)).toBe(0)
  })

  it('imports categories, sub categories, products and their links from the CSV', async () => {
    const result = await importCatalog({ db: database.db, storage, csvPath: FIXTURE, logger, batchSize: 10 })
    const categoryNames = new Set(source.map((r) => r.Category))
    const subNames = new Set(source.map((r) => `${r.Category}|${r.SubCategory}`))
    expect(result).toMatchObject({ imported: true, categories: 11, subCategories: subNames.size, products: 50 })
    expect(categoryNames.size).toBe(11)
    const counts = await allCounts()
    expect(counts).toMatchObject({
      categories: 11,
      subCategories: subNames.size,
      links: subNames.size,
      products: 50,
      productCategories: 50,
      productSubCategories: 50,
    })
    expect(counts.images).toBe(result.imported ? result.images : -1)
  })

  it('computes MRP, discount, unit, stock, SKU, more_details and a description per row', async () => {
    // Row 1: Fresho Onion (Loose), MRP 69.75, selling 52 → (69.75 - 52) / 69.75 = 25.4 % → 25.
    const [onion] = await database.db.select().from(products).where(eq(products.sku, 'BB-1'))
    expect(onion).toMatchObject({
      name: 'Onion (Loose)',
      price: 69.75,
      discount: 25,
      unit: '2 kg',
      moreDetails: { brand: 'Fresho', sku: 'BB-1' },
      publish: true,
    })
    // Every store has its own stock of it, drawn from the demo stock (migration 0010_dark_stores).
    const stocks = await queryRows<{ store_id: string; stock: number }>(
      database.db,
      sql`select store_id, stock from inventory where product_id = ${onion.id}`,
    )
    expect(stocks).toHaveLength(7)
    for (const s of stocks) expect([0, 1, 2, 3, 4, 5, stockFor('1')]).toContain(s.stock)
    expect(onion.description).toContain('Fresho Onion (Loose)')
    expect(onion.description).toContain('2 kg')
    expect(onion.description).toContain('Potato, Onion & Tomato')
    // Row 7: MRP 210, selling 181 → 13.8 % rounds up to 14; row 14: 119 → 118 is 0.84 % → 1.
    const [seven] = await database.db.select().from(products).where(eq(products.sku, 'BB-7'))
    const [fourteen] = await database.db.select().from(products).where(eq(products.sku, 'BB-14'))
    expect([seven.price, seven.discount, fourteen.discount]).toEqual([210, 14, 1])

    const all = await database.db.select().from(products)
    for (const r of source) {
      const p = all.find((x) => x.sku === `BB-${r.ProductID}`)!
      expect(p, r.ProductID).toBeDefined()
      expect(p.price).toBeCloseTo(Number(r.Price), 2)
      const expected = Math.round(((Number(r.Price) - Number(r.DiscountPrice)) / Number(r.Price)) * 100)
      expect(p.discount).toBe(Math.min(100, Math.max(0, expected)))
      expect(p.moreDetails).toEqual({ brand: r.Brand.trim(), sku: `BB-${r.ProductID}` })
      expect(typeof p.moreDetails.brand).toBe('string')
      expect(p.name).toBe(r.ProductName.replace(/\s+/g, ' ').trim())
      expect(p.description.length).toBeGreaterThan(40)
    }
    // Trailing spaces in the source brand are gone; a zero discount stays 0; a line break in a name is a space.
    expect(source.some((r) => r.Brand !== r.Brand.trim())).toBe(true)
    expect(all.every((p) => p.moreDetails.brand === p.moreDetails.brand.trim())).toBe(true)
    const zero = source.find((r) => Number(r.Price) === Number(r.DiscountPrice))!
    expect(all.find((p) => p.sku === `BB-${zero.ProductID}`)!.discount).toBe(0)
    expect(all.some((p) => p.name.includes('Red Raspberry & Avocado'))).toBe(true)
  })

  it('links each product to its category and sub category, and each sub category to its category', async () => {
    const rows = await database.db
      .select({ sku: products.sku, category: categories.name, sub: subCategories.name })
      .from(products)
      .innerJoin(productCategories, eq(productCategories.productId, products.id))
      .innerJoin(categories, eq(categories.id, productCategories.categoryId))
      .innerJoin(productSubCategories, eq(productSubCategories.productId, products.id))
      .innerJoin(subCategories, eq(subCategories.id, productSubCategories.subCategoryId))
    expect(rows).toHaveLength(50)
    for (const r of source) {
      expect(rows.find((x) => x.sku === `BB-${r.ProductID}`)).toMatchObject({
        category: r.Category,
        sub: r.SubCategory,
      })
    }
    const links = await database.db
      .select({ sub: subCategories.name, category: categories.name })
      .from(subCategoryCategories)
      .innerJoin(subCategories, eq(subCategories.id, subCategoryCategories.subCategoryId))
      .innerJoin(categories, eq(categories.id, subCategoryCategories.categoryId))
    for (const l of links) expect(source.some((r) => r.SubCategory === l.sub && r.Category === l.category)).toBe(true)
  })

  it("writes the search's copies of the links with each product, so that no product is rewritten", async () => {
    const copies = await database.db
      .select({ id: products.id, categories: products.searchCategoryIds, subCategories: products.searchSubCategoryIds })
      .from(products)
    const linked = await database.db.select().from(productCategories)
    const shelved = await database.db.select().from(productSubCategories)
    expect(copies).toHaveLength(50)
    for (const c of copies) {
      expect(c.categories).toEqual(linked.filter((l) => l.productId === c.id).map((l) => l.categoryId))
      expect(c.subCategories).toEqual(shelved.filter((l) => l.productId === c.id).map((l) => l.subCategoryId))
    }
    // One version of each product: every product row was written by a command (`cmin`, in the one
    // import transaction) before the first link's, so the links' triggers rewrote none.
    const [order] = await queryRows<{ rewritten: number }>(
      database.db,
      sql`select count(*)::int as rewritten from products
          where cmin::text::int > (select min(cmin::text::int) from product_categories)`,
    )
    expect(order?.rewritten).toBe(0)
  })

  it('gives every product its own drawn picture, recorded to be drawn on first request', async () => {
    const all = await database.db.select({ image: products.image, sku: products.sku }).from(products)
    const recorded = await database.db.select().from(illustrations)
    expect(recorded).toHaveLength(50)
    const ids = new Set(recorded.map((r) => r.id))
    for (const p of all) {
      expect(p.image).toHaveLength(1)
      expect(p.image[0]).toMatch(/^\/uploads\/[0-9a-f]{24}-il\.webp$/)
      expect(ids.has(storage.keyFor(p.image[0])!.replace(/\.webp$/, ''))).toBe(true)
      // Not drawn at import: the first request draws it (api/lib/illustration-store.ts).
      expect(await fileExists(p.image[0])).toBe(false)
    }
    expect(new Set(all.map((p) => p.image[0])).size).toBe(50)
    const onion = recorded.find((r) => r.subject.seed === 'BB-1')!
    expect(onion.subject).toEqual({ brand: 'Fresho', name: 'Onion (Loose)', unit: '2 kg', form: 'produce', seed: 'BB-1' })
  })

  it('gives every sub category and category an image whose files exist in storage', async () => {
    const urls = new Set<string>()
    for (const c of await database.db.select({ image: categories.image }).from(categories)) urls.add(c.image)
    for (const s of await database.db.select({ image: subCategories.image }).from(subCategories)) urls.add(s.image)
    for (const url of urls) {
      for (const key of storedImageKeys(storage, url)) expect(await storage.exists(key), key).toBe(true)
    }
    // The stored art is a re-encoded WebP, 256 px like its source; each distinct file was stored once.
    const meta = await sharp(path.join(uploads, storage.keyFor([...urls][0])!)).metadata()
    expect(meta).toMatchObject({ format: 'webp', width: 256, height: 256 })
    const recorded = await database.db.select().from(imagesTable)
    expect(new Set(recorded.map((r) => r.url))).toEqual(urls)
    // On disk: these images' four files each, plus the one picture only the failed run's bad row
    // used (its sub category, Gift Boxes): a failed import may leave content-addressed files, never rows.
    const stems = new Set(fs.readdirSync(uploads).map((f) => f.slice(0, 24)))
    expect(fs.readdirSync(uploads)).toHaveLength(stems.size * 4)
    expect(stems.size).toBe(urls.size + 1)
  })

  it('imports nothing the second time', async () => {
    const before = await allCounts()
    expect(await importCatalog({ db: database.db, storage, csvPath: FIXTURE, logger })).toEqual({ imported: false })
    expect(await allCounts()).toEqual(before)
  })

  it('keeps artwork files that products still use, and deletes an unused upload', async () => {
    const [category] = await database.db.select().from(categories).limit(1)
    expect(await isImageInUse(database.db, category.image)).toBe(true)
    expect(await deleteImageIfUnused(database.db, storage, category.image)).toBe(false)
    expect(await fileExists(category.image)).toBe(true)

    const orphan = await processImage(
      await sharp({ create: { width: 20, height: 20, channels: 3, background: 'red' } })
        .png()
        .toBuffer(),
      {
        storage,
        maxBytes: 1024 * 1024,
      },
    )
    expect(await isImageInUse(database.db, orphan.url)).toBe(false)
    expect(await deleteImageIfUnused(database.db, storage, orphan.url)).toBe(true)
    expect(await fileExists(orphan.url)).toBe(false)
  })
})

describe('ensureCatalog', () => {
  it('does nothing with SEED_CATALOG=0', async () => {
    const outcome = await ensureCatalog({
      db: database.db,
      storage,
      logger,
      isEmbedded: true,
      dataDir: tmp,
      csvPath: FIXTURE,
      seed: false,
    })
    expect(outcome).toEqual({ action: 'skipped' })
  })

  it('leaves a present catalogue alone while its artwork is stored', async () => {
    const before = await allCounts()
    const outcome = await ensureCatalog({
      db: database.db,
      storage,
      logger,
      isEmbedded: true,
      dataDir: tmp,
      csvPath: FIXTURE,
    })
    expect(outcome).toEqual({ action: 'present', artworkRestored: 0 })
    expect(await allCounts()).toEqual(before)
  })

  it('with deferMaintenance leaves a deleted upload folder to maintainCatalog, which stores the artwork again', async () => {
    fs.rmSync(uploads, { recursive: true, force: true })
    const options = { db: database.db, storage, logger, isEmbedded: true, dataDir: tmp, csvPath: FIXTURE }
    // The start-up path a server waits for: nothing re-stored yet.
    expect(await ensureCatalog({ ...options, deferMaintenance: true })).toEqual({ action: 'present', artworkRestored: 0 })
    expect(await isArtworkStored(database.db, storage)).toBe(false)
    // Run once the server is ready (api/embedded.ts `afterReady`); the data fixes ran before, so none changes a row.
    const done = await maintainCatalog(options)
    expect(done.fixedRows).toBe(0)
    expect(done.artworkRestored).toBeGreaterThan(100)
    expect(await isArtworkStored(database.db, storage)).toBe(true)
  })

  it('stores the artwork again when the upload folder was deleted but the database kept', async () => {
    fs.rmSync(uploads, { recursive: true, force: true })
    expect(await isArtworkStored(database.db, storage)).toBe(false)
    const outcome = await ensureCatalog({
      db: database.db,
      storage,
      logger,
      isEmbedded: true,
      dataDir: tmp,
      csvPath: FIXTURE,
    })
    expect(outcome.action).toBe('present')
    expect(outcome.action === 'present' && outcome.artworkRestored).toBeGreaterThan(100)
    expect(await isArtworkStored(database.db, storage)).toBe(true)
    for (const c of await database.db.select({ image: categories.image }).from(categories)) {
      expect(await fileExists(c.image)).toBe(true)
    }
    // The products' pictures are drawn again on their next request.
    const [onion] = await database.db.select().from(products).where(eq(products.sku, 'BB-1'))
    const draw = createIllustrationDrawer({ db: database.db, storage })
    expect(await draw(storage.keyFor(onion.image[0])!)).toBe(true)
    expect(await fileExists(onion.image[0])).toBe(true)
  })
})

describe('parseCatalogCsv', () => {
  it('reads the fixture like csv-parse, with brands trimmed and whitespace collapsed', () => {
    const rows = parseCatalogCsv(fs.readFileSync(FIXTURE))
    expect(rows).toHaveLength(50)
    expect(rows[0]).toEqual({
      productId: '1',
      name: 'Onion (Loose)',
      brand: 'Fresho',
      mrp: 69.75,
      sellingPrice: 52,
      unit: '2 kg',
      category: 'Fruits & Vegetables',
      subCategory: 'Potato, Onion & Tomato',
    })
  })

  it('names a missing column', () => {
    expect(() => parseCatalogCsv('ProductID,ProductName\n1,Tea\n')).toThrow(/lacks column\(s\): Brand, Price/)
  })
})
