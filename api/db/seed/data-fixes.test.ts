/**
 * The one-off data fixes against a store's own edits (docs/decisions/0040-data-fixes-skip-edited-rows.md),
 * on PGlite, or PostgreSQL with TEST_DATABASE_URL: a fresh import records every fix as done, so
 * selling prices set by the product edit, the bulk edit and a CSV import survive restarts (the
 * start-up path, ./ensure.ts, run again on the same database); on a database where the fixes never
 * ran, a fix changes only rows no person changed and audits each as `system`.
 */
import { parse } from 'csv-parse/sync'
import { stringify } from 'csv-stringify/sync'
import { eq, sql } from 'drizzle-orm'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryRows } from '../query.ts'
import { insertProducts } from '../../testing/fixtures.ts'
import { products } from '../schema.ts'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { createAdmin, type SignedIn } from '../../testing/auth.ts'
import { logger } from '../../../server-shared/logger.ts'
import { mainImageKey } from '../../lib/images.ts'
import { ensureCatalog } from './ensure.ts'
import { artworkForProduct } from './artwork.ts'
import { CATALOG_DATA_FIXES, parseCatalogCsv, readArtwork } from './import-catalog.ts'

const FIXTURE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'testdata', 'catalog-50.csv')

let t: TestApp
let admin: SignedIn
beforeAll(async () => {
  t = await createTestApp()
  admin = await createAdmin(t)
})
afterAll(() => t?.close())

/** The start-up path that imports the catalogue or runs the data fixes (server.ts, api/embedded.ts). */
const start = () => ensureCatalog({ db: t.db, storage: t.deps.storage, logger, isEmbedded: true, dataDir: t.tmpDir, csvPath: FIXTURE })
const bySku = async (sku: string) => (await t.db.select().from(products).where(eq(products.sku, sku)))[0]!
const prices = async () =>
  Object.fromEntries(
    await Promise.all(['BB-1', 'BB-6', 'BB-7', 'BB-30'].map(async (sku) => [sku, (await bySku(sku)).sellingPrice] as const)),
  )
const csvForm = (text: string) => {
  const form = new FormData()
  form.append('file', new File([text], 'products.csv', { type: 'text/csv' }))
  return form
}

describe('data fixes never overwrite a person’s change', () => {
  it('a fresh import records every fix; edited selling prices survive two restarts', async () => {
    expect((await start()).action).toBe('imported')
    const recorded = await queryRows<{ name: string }>(t.db, sql`select name from data_fixes where name like 'catalog-%' order by name`)
    expect(recorded.map((r) => r.name)).toEqual([...CATALOG_DATA_FIXES].sort())

    // Prices an admin sets that keep the MRP: each equals MRP × (100 − whole discount) / 100, the
    // value the old import computed, so the selling-price fix's formula alone took them for its own.
    const paneer = await bySku('BB-30') // MRP ₹470, ₹440 in the source
    const bulk = await t.call('product/bulk-update', { json: { items: [{ _id: paneer.id, sellingPrice: '423' }] }, token: admin.token })
    expect(bulk.status, JSON.stringify(bulk.body)).toBe(200)
    const eggs = await bySku('BB-6') // MRP ₹110, ₹78 in the source
    const edit = await t.call('product/update-product-details', {
      method: 'PUT',
      json: { _id: eggs.id, sellingPrice: 99 },
      token: admin.token,
    })
    expect(edit.status, JSON.stringify(edit.body)).toBe(200)
    // A CSV import (export, one selling price changed, dry run, apply): eggs 30 pcs, MRP ₹210, ₹181 in the source.
    const exported = await t.app.request('/api/product/export', { headers: { Authorization: `Bearer ${admin.token}` } })
    const rows = parse(await exported.text(), { columns: true }) as Record<string, string>[]
    const tray = rows.find((r) => r.sku === 'BB-7')!
    tray.selling_price = '189'
    const dry = await t.call('product/import', { method: 'POST', body: csvForm(stringify(rows, { header: true })), token: admin.token })
    expect(dry.status, JSON.stringify(dry.body)).toBe(200)
    const applied = await t.call('product/import/apply', { json: { upload: dry.body.data.upload }, token: admin.token })
    expect(applied.status, JSON.stringify(applied.body)).toBe(200)

    const edited = { 'BB-1': 52, 'BB-6': 99, 'BB-7': 189, 'BB-30': 423 }
    expect(await prices()).toEqual(edited)
    for (let restart = 0; restart < 2; restart++) {
      expect((await start()).action).toBe('present')
      expect(await prices()).toEqual(edited)
    }
  })

  it('on a database the fixes never ran on, they change only rows no person changed, each audited as system', async () => {
    // As a database imported before the fixes: their records gone, one untouched product at the old
    // import's recomputed price (₹69.75 × 75 % = ₹52.31) and on its shared artwork, and an edited
    // product at its shared artwork too.
    await t.db.execute(sql`delete from data_fixes where name like 'catalog-%'`)
    const source = parseCatalogCsv(fs.readFileSync(FIXTURE))
    const art = await readArtwork(source.map((r) => artworkForProduct(r).file))
    const artworkOf = (productId: string) =>
      t.deps.storage.urlFor(mainImageKey(art.get(artworkForProduct(source.find((r) => r.productId === productId)!).file)!))
    await t.db
      .update(products)
      .set({ sellingPrice: 52.31, image: [artworkOf('1')] })
      .where(eq(products.sku, 'BB-1'))
    await t.db
      .update(products)
      .set({ image: [artworkOf('30')] })
      .where(eq(products.sku, 'BB-30'))
    const onion = await bySku('BB-1')
    expect(onion.discount).toBe(25)

    expect((await start()).action).toBe('present')
    expect(await prices()).toEqual({ 'BB-1': 52, 'BB-6': 99, 'BB-7': 189, 'BB-30': 423 })
    expect((await bySku('BB-1')).image).not.toEqual([artworkOf('1')]) // its own drawn picture
    expect((await bySku('BB-30')).image).toEqual([artworkOf('30')]) // the admin's row keeps its picture
    const fixesRun = await queryRows<{ name: string; rows: number }>(
      t.db,
      sql`select name, rows from data_fixes where name like 'catalog-%' order by name`,
    )
    expect(fixesRun).toEqual([
      { name: 'catalog-drawn-pictures-2026-11', rows: 1 },
      { name: 'catalog-selling-price-2026-11', rows: 1 },
    ])

    // The audit trail names `system` for each row a fix changed, and only those.
    const audit = await t.call('audit/list?action=data_fix', { token: admin.token })
    expect(audit.status, JSON.stringify(audit.body)).toBe(200)
    const entries = audit.body.data as { actor: string; entity: string; entityId: string; before: unknown; after: unknown }[]
    expect(entries).toHaveLength(2)
    for (const e of entries) expect(e).toMatchObject({ actor: 'system', entity: 'product', entityId: onion.id })
    expect(entries.map((e) => e.after)).toContainEqual({ sellingPrice: 52, dataFix: 'catalog-selling-price-2026-11' })
    expect(entries.map((e) => e.before)).toContainEqual({ sellingPrice: 52.31 })

    // And once only.
    expect((await start()).action).toBe('present')
    expect((await t.call('audit/list?action=data_fix', { token: admin.token })).body.data).toHaveLength(2)
  })

  it('migration 0024 marks the rows the audit trail says a person changed (not a stock-only edit)', async () => {
    const [edited, stocked, untouched] = await insertProducts(t.db, [
      { name: 'Backfill Edited', price: 100 },
      { name: 'Backfill Stocked', price: 100 },
      { name: 'Backfill Untouched', price: 100 },
    ])
    const entry = (id: string, action: string, after: object) =>
      sql`insert into audit_log (id, actor_id, actor_email, action, entity, entity_id, before, after)
          values (${`${id}-${action}`}, ${admin.user.id}, ${admin.user.email}, ${action}, 'product', ${id}, '{}'::jsonb, ${JSON.stringify(after)}::jsonb)`
    await t.db.execute(entry(edited!.id, 'bulk_update', { sellingPrice: 90 }))
    await t.db.execute(entry(stocked!.id, 'bulk_update', { stock: 3 }))
    // The migration's last statement, as written (each file runs once per database; this runs it again).
    const migration = fs.readFileSync(path.join(path.dirname(FIXTURE), '../../migrations/0024_product_edited_marker.sql'), 'utf8')
    await t.db.execute(sql.raw(migration.split('--> statement-breakpoint').at(-1)!))
    const marked = async (id: string) => (await t.db.select().from(products).where(eq(products.id, id)))[0]!
    expect(await marked(edited!.id)).toMatchObject({ editedBy: admin.user.id, editedAt: expect.any(Date) })
    expect(await marked(stocked!.id)).toMatchObject({ editedBy: null, editedAt: null })
    expect(await marked(untouched!.id)).toMatchObject({ editedBy: null, editedAt: null })
  })
})
