/**
 * The one-off data fix `catalog-drawn-pictures-2026-11` (api/db/seed/data-fixes.ts): products
 * imported before drawn pictures existed, still showing the shared artwork the import gave them,
 * get their own drawn picture; a product whose picture an admin changed keeps it; runs once.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq, sql } from 'drizzle-orm'
import type { Database } from '../client.ts'
import { illustrations, products } from '../schema.ts'
import { createTestDatabase } from '../../testing/db.ts'
import { createDiskStorage, type Storage } from '../../lib/storage.ts'
import { logger } from '../../../server-shared/logger.ts'
import { mainImageKey } from '../../lib/images.ts'
import { importCatalog, parseCatalogCsv, readArtwork, skuFor } from './import-catalog.ts'
import { artworkForProduct } from './artwork.ts'
import { fixCatalogPictures } from './data-fixes.ts'

const FIXTURE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'testdata', 'catalog-50.csv')

let database: Database
let tmp: string
let storage: Storage
beforeAll(async () => {
  database = await createTestDatabase()
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pictures-fix-'))
  storage = createDiskStorage(path.join(tmp, 'uploads'))
})
afterAll(async () => {
  await database?.close()
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true })
})

describe('fixCatalogPictures', () => {
  it('gives products still showing their imported artwork a drawn picture, once, and keeps an admin’s picture', async () => {
    await importCatalog({ db: database.db, storage, csvPath: FIXTURE, logger })
    const drawn = new Map(
      (await database.db.select({ sku: products.sku, image: products.image }).from(products)).map((p) => [p.sku!, p.image]),
    )
    // The catalogue as the import before drawn pictures left it: each product its shared artwork.
    const rows = parseCatalogCsv(fs.readFileSync(FIXTURE))
    const choices = rows.map((r) => artworkForProduct(r))
    const art = await readArtwork(choices.map((c) => c.file))
    for (const [i, r] of rows.entries()) {
      const old = storage.urlFor(mainImageKey(art.get(choices[i]!.file)!))
      await database.db
        .update(products)
        .set({ image: [old] })
        .where(eq(products.sku, skuFor(r.productId)))
    }
    await database.db.execute(sql`delete from illustrations`)
    // As before drawn pictures: neither the rows nor the record of the fix (the import writes it).
    await database.db.execute(sql`delete from data_fixes where name = 'catalog-drawn-pictures-2026-11'`)
    // An admin gave one product a photo of its own.
    const photo = '/uploads/0123456789abcdef01234567.webp'
    await database.db
      .update(products)
      .set({ image: [photo] })
      .where(eq(products.sku, 'BB-1'))

    expect(await fixCatalogPictures(database.db, FIXTURE, (key) => storage.urlFor(key))).toBe(49)
    for (const p of await database.db.select({ sku: products.sku, image: products.image }).from(products)) {
      expect(p.image, p.sku!).toEqual(p.sku === 'BB-1' ? [photo] : drawn.get(p.sku!))
    }
    // Every picture is recorded to be drawn (the kept photo's product has a row too: harmless).
    expect(await database.db.select().from(illustrations)).toHaveLength(50)

    // Recorded: a second start does nothing, even with products back on their artwork.
    const old = storage.urlFor(mainImageKey(art.get(choices[1]!.file)!))
    await database.db
      .update(products)
      .set({ image: [old] })
      .where(eq(products.sku, skuFor(rows[1]!.productId)))
    expect(await fixCatalogPictures(database.db, FIXTURE, (key) => storage.urlFor(key))).toBeNull()
  })
})
