/**
 * Selling prices are the catalogue's own (docs/decisions/0011-commerce-orders-and-money.md): the
 * import stores the CSV's DiscountPrice as is, and the one-off data fix corrects rows written by the
 * old import (selling price recomputed from MRP and a whole-percent discount) without touching rows
 * an admin changed since. Runs on PGlite, or PostgreSQL with TEST_DATABASE_URL.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq, sql } from 'drizzle-orm'
import type { Database } from '../client.ts'
import { products } from '../schema.ts'
import { createTestDatabase } from '../../testing/db.ts'
import { insertProducts } from '../../testing/fixtures.ts'
import { createDiskStorage } from '../../lib/storage.ts'
import { logger } from '../../../server-shared/logger.ts'
import { importCatalog } from './import-catalog.ts'
import { fixCatalogSellingPrices } from './data-fixes.ts'

const here = path.dirname(fileURLToPath(import.meta.url))
const FIXTURE = path.join(here, 'testdata', 'catalog-50.csv')

let database: Database
let tmp: string

beforeAll(async () => {
  database = await createTestDatabase()
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'selling-price-'))
})
afterAll(async () => {
  await database?.close()
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true })
})

const bySku = async (sku: string) => (await database.db.select().from(products).where(eq(products.sku, sku)))[0]!

describe('selling price from the catalogue', () => {
  it('the import stores Milky Mist Paneer 1 kg at ₹440 (MRP ₹470), not ₹441.80', async () => {
    const result = await importCatalog({ db: database.db, storage: createDiskStorage(path.join(tmp, 'uploads')), csvPath: FIXTURE, logger })
    expect(result.imported).toBe(true)
    const paneer = await bySku('BB-30')
    expect(paneer.name).toBe('Paneer - Premium Fresh')
    expect(paneer.unit).toBe('1 kg')
    expect(paneer.price).toBe(470)
    expect(paneer.sellingPrice).toBe(440)
    expect(paneer.discount).toBe(6) // display only: 6.38 % rounded
  })

  it('the data fix corrects old rows (Red Label 1 kg: ₹524.40 → ₹526), once, and never an admin edit', async () => {
    // Ids outside the 50-row import. Rows as the old import left them: selling price recomputed from MRP and a whole-percent discount.
    await insertProducts(database.db, [
      { name: 'Fixture Red Label', unit: '1 Kg', price: 570, discount: 8 },
      { name: 'Fixture Red Label (edited)', unit: '250 g', price: 150, discount: 10 },
    ])
    await database.db.update(products).set({ sku: 'BB-90029' }).where(eq(products.name, 'Fixture Red Label'))
    await database.db.update(products).set({ sku: 'BB-90028', sellingPrice: 130 }).where(eq(products.name, 'Fixture Red Label (edited)'))
    expect((await bySku('BB-90029')).sellingPrice).toBe(524.4)
    // As a database imported before the fix: the import now records it as done (data-fixes.test.ts).
    await database.db.execute(sql`delete from data_fixes where name = 'catalog-selling-price-2026-11'`)

    const csv = path.join(tmp, 'fix.csv')
    fs.writeFileSync(
      csv,
      [
        'ProductID,ProductName,Brand,Price,DiscountPrice,Quantity,Category,SubCategory',
        '90028,Tea,Red Label,150,132,250 g,Beverages,Leaf & Dust Tea',
        '90029,Tea,Red Label,570,526,1 Kg,Beverages,Leaf & Dust Tea',
      ].join('\n'),
    )
    expect(await fixCatalogSellingPrices(database.db, csv)).toBe(1)
    expect((await bySku('BB-90029')).sellingPrice).toBe(526)
    expect((await bySku('BB-90028')).sellingPrice).toBe(130) // an admin's price is kept
    expect((await bySku('BB-30')).sellingPrice).toBe(440) // already right: untouched

    // Recorded: a second start does nothing, even if the rows were put back.
    await database.db.update(products).set({ sellingPrice: 524.4 }).where(eq(products.sku, 'BB-90029'))
    expect(await fixCatalogSellingPrices(database.db, csv)).toBeNull()
    const recorded = await database.db.execute(sql`select name, rows from data_fixes where name like 'catalog-%' order by name`)
    // The import recorded the drawn-pictures fix as done: its products got their pictures.
    expect((recorded as unknown as { rows: unknown[] }).rows).toEqual([
      { name: 'catalog-drawn-pictures-2026-11', rows: 0 },
      { name: 'catalog-selling-price-2026-11', rows: 1 },
    ])
  })
})
