/**
 * The product CSV (docs/product-csv.md) on a fresh database (PGlite, or PostgreSQL with
 * TEST_DATABASE_URL), as an admin: the export's format and formula guard; the dry run listing every
 * row's error by line and column and writing nothing; the apply upserting by SKU in one transaction
 * (a row that no longer applies writes nothing at all); export → import round trip unchanged; the
 * bulk edit of prices and stock; admin only.
 */
import { eq, sql } from 'drizzle-orm'
import { parse } from 'csv-parse/sync'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { products, type Category, type SubCategory } from '../../db/schema.ts'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { createAdmin, createShopper, type SignedIn } from '../../testing/auth.ts'
import { catalogSnapshot, insertCategory, insertProduct, insertSubCategory, stockIn, storeTestImage } from '../../testing/fixtures.ts'
import { CSV_COLUMNS } from './csv.ts'
import { guardCell, unguardCell } from '../../lib/csv-cells.ts'

let t: TestApp
let admin: SignedIn
let shopper: SignedIn
let dairy: Category
let snacks: Category
let paneer: SubCategory
let chips: SubCategory
let image: string
let image2: string

beforeAll(async () => {
  t = await createTestApp()
  admin = await createAdmin(t)
  shopper = await createShopper(t)
  image = await storeTestImage(t)
  image2 = await storeTestImage(t)
  dairy = await insertCategory(t.db, { name: 'Dairy', image })
  snacks = await insertCategory(t.db, { name: 'Snacks', image })
  paneer = await insertSubCategory(t.db, { name: 'Paneer & Tofu', image, categoryIds: [dairy.id] })
  chips = await insertSubCategory(t.db, { name: 'Chips', image, categoryIds: [snacks.id] })
  const amul = await insertProduct(t.db, {
    name: 'Amul Paneer',
    image: [image],
    unit: '200 g',
    stock: 25,
    price: 95.5,
    sellingPrice: 90,
    categoryIds: [dairy.id],
    subCategoryIds: [paneer.id],
    moreDetails: { brand: 'Amul', 'Shelf Life': '7 days' },
  })
  await t.db.update(products).set({ sku: 'BB-1' }).where(eq(products.id, amul.id))
  // A product made in the admin form: no SKU; a name a spreadsheet would run as a formula.
  await insertProduct(t.db, { name: '=HYPERLINK("x")', image: [image], categoryIds: [snacks.id], subCategoryIds: [chips.id], price: 20 })
})
afterAll(() => t?.close())

const HEADER = CSV_COLUMNS.join(',')
const csvFile = (text: string) => {
  const form = new FormData()
  form.append('file', new File([text], 'products.csv', { type: 'text/csv' }))
  return form
}
const dryRun = (text: string, token = admin.token) => t.call('product/import', { method: 'POST', body: csvFile(text), token })
const apply = (upload: string, token = admin.token) => t.call('product/import/apply', { method: 'POST', json: { upload }, token })
const exportCsv = async () => {
  const answer = await t.app.request('/api/product/export', { headers: { Authorization: `Bearer ${admin.token}` } })
  return { status: answer.status, headers: answer.headers, text: await answer.text() }
}
/** The product of a SKU with its stock in the default store (what the CSV's `stock` is; docs/stores.md, "Stock"). */
const bySku = async (sku: string) => {
  const [row] = await t.db.select().from(products).where(eq(products.sku, sku))
  return row ? { ...row, stock: await stockIn(t.db, row.id) } : undefined
}

describe('GET /api/product/export', () => {
  it('starts with a UTF-8 byte order mark (Excel), which the import reads past', async () => {
    const answer = await t.app.request('/api/product/export', { headers: { Authorization: `Bearer ${admin.token}` } })
    const bytes = new Uint8Array(await answer.arrayBuffer())
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    // The file as downloaded, byte order mark included, checks clean.
    const checked = await dryRun(new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes))
    expect(checked.status).toBe(200)
    expect(checked.body.data.errors, JSON.stringify(checked.body)).toEqual([])
  })

  it('streams every product as CSV with the documented header, guarded cells and exact prices', async () => {
    const res = await exportCsv()
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/)
    expect(res.headers.get('content-disposition')).toMatch(/attachment; filename="products-\d{4}-\d{2}-\d{2}\.csv"/)
    const rows = parse(res.text) as string[][]
    expect(rows[0]).toEqual([...CSV_COLUMNS])
    const amul = rows.find((r) => r[0] === 'BB-1')!
    const byColumn = Object.fromEntries(CSV_COLUMNS.map((c, i) => [c, amul[i]]))
    expect(byColumn).toMatchObject({
      name: 'Amul Paneer',
      brand: 'Amul',
      mrp: '95.50',
      selling_price: '90.00',
      stock: '25',
      publish: 'true',
      categories: 'Dairy',
      sub_categories: 'Paneer & Tofu',
      images: image,
      more_details: '{"Shelf Life":"7 days"}',
    })
    expect(rows.find((r) => r[0] === '')![2]).toBe(`'=HYPERLINK("x")`)
  })

  it('is for admins only: 401 without a token, 403 for a shopper', async () => {
    expect((await t.call('product/export')).status).toBe(401)
    expect((await t.call('product/export', { token: shopper.token })).status).toBe(403)
    expect((await dryRun(HEADER, shopper.token)).status).toBe(403)
    expect((await t.call('product/bulk-update', { json: { items: [] }, token: shopper.token })).status).toBe(403)
  })
})

describe('formula guard', () => {
  it('round-trips every value, guarded or not', () => {
    for (const v of ['=1+1', '+91', '-5', '@x', '\tx', "'=x", "''@", "'plain", 'plain', '', "it's"]) {
      expect(unguardCell(guardCell(v))).toBe(v)
      expect(guardCell(v)).not.toMatch(/^[=+\-@\t\r]/)
    }
  })
})

describe('POST /api/product/import (dry run)', () => {
  it('lists every error with line and column, counts the rows, and writes nothing', async () => {
    const before = await catalogSnapshot(t.db)
    const text = [
      'sku,name,unit,mrp,selling_price,stock,categories,sub_categories,images,description',
      `NEW-1,Good Chips,50 g,20,18,5,Snacks,Chips,${image},Crisp.`,
      `NEW-2,,50 g,abc,18,-1,Nowhere,Chips,/uploads/nope.webp,Crisp.`,
      `"NEW-3",Crisps,50 g,10,12,1,Snacks,Paneer & Tofu,${image},"Multi`,
      `line"`,
      `NEW-1,Again,50 g,20,18,5,Snacks,,${image},Dup.`,
      'BB-1,Amul Paneer,200 g,95.50,90,25,Dairy,Paneer & Tofu,' + image + ',short',
      ',No SKU,1,1,1,1,Snacks,,' + image + ',x',
      'ONLY,TWO',
    ].join('\n')
    const res = await dryRun(text)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const { errors, counts, applied } = res.body.data
    expect(applied).toBe(false)
    expect(errors).toEqual([
      { line: 3, column: 'name', message: 'Name is required' },
      { line: 3, column: 'mrp', message: 'Price must be a number' },
      { line: 3, column: 'stock', message: 'Stock cannot be negative' },
      { line: 3, column: 'images', message: expect.any(String) },
      { line: 4, column: 'selling_price', message: 'Selling price cannot be above the MRP' },
      { line: 4, column: 'sub_categories', message: `Sub category "Paneer & Tofu" is not under any of the row's categories` },
      { line: 6, column: 'sku', message: 'SKU "NEW-1" is also on line 2' },
      { line: 8, column: 'sku', message: 'SKU is required' },
      { line: 9, column: '', message: 'Expected 10 cells, found 2' },
    ])
    expect(counts).toEqual({ rows: 7, created: 1, updated: 1, unchanged: 0 })
    expect(await catalogSnapshot(t.db)).toEqual(before)
    // A file with errors is not kept: applying it is a 404.
    expect((await apply(res.body.data.upload)).status).toBe(404)
  })

  it('refuses a bad header, a file that is not UTF-8, a missing file and an oversize body with clear 4xx', async () => {
    const bad = await dryRun('name,price,colour\nx,1,red')
    expect(bad.body.data.errors).toEqual([
      { line: 1, column: 'price', message: 'Unknown column "price" (column 2)' },
      { line: 1, column: 'colour', message: 'Unknown column "colour" (column 3)' },
      { line: 1, column: 'sku', message: 'The header must have a "sku" column' },
    ])
    const latin1 = new FormData()
    latin1.append('file', new File([Uint8Array.from([0x73, 0x6b, 0x75, 0x0a, 0xe9, 0x0a])], 'x.csv'))
    expect((await t.call('product/import', { method: 'POST', body: latin1, token: admin.token })).status).toBe(400)
    expect((await t.call('product/import', { method: 'POST', body: new FormData(), token: admin.token })).status).toBe(400)
    const huge = await t.call('product/import', {
      method: 'POST',
      body: csvFile('x'),
      token: admin.token,
      headers: { 'Content-Length': String(100 * 1024 * 1024) },
    })
    expect([400, 413]).toContain(huge.status)
    expect((await apply('nope')).status).toBe(404)
    expect((await t.call('product/import/apply', { json: {}, token: admin.token })).status).toBe(400)
  })
})

describe('POST /api/product/import/apply', () => {
  it('upserts by SKU: creates new SKUs, updates changed rows, leaves unchanged ones alone', async () => {
    const amulBefore = (await bySku('BB-1'))!
    const text = [
      'sku,name,brand,unit,mrp,selling_price,stock,categories,sub_categories,images,description',
      `NEW-10,Masala Chips,Lays,50 g,20,18,40,Snacks,Chips,${image}|${image2},"Crisp, spicy."`,
      `BB-1,Amul Paneer,Amul,200 g,99.99,89.99,30,Dairy,Paneer & Tofu,${image},${amulBefore.description}`,
    ].join('\r\n')
    const checked = await dryRun(text)
    expect(checked.body.data).toMatchObject({ errors: [], counts: { rows: 2, created: 1, updated: 1, unchanged: 0 } })
    const res = await apply(checked.body.data.upload)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.data).toMatchObject({ applied: true, counts: { created: 1, updated: 1 } })
    const created = (await bySku('NEW-10'))!
    expect(created).toMatchObject({ name: 'Masala Chips', stock: 40, price: 20, sellingPrice: 18, image: [image, image2], publish: true })
    expect(created.moreDetails).toEqual({ brand: 'Lays' })
    expect(created.searchSubCategoryIds).toEqual([chips.id])
    const amul = (await bySku('BB-1'))!
    expect(amul).toMatchObject({ price: 99.99, sellingPrice: 89.99, stock: 30, name: 'Amul Paneer' })
    expect(amul.moreDetails).toEqual({ brand: 'Amul', 'Shelf Life': '7 days' })
    // The storefront sees it at once (cache invalidated).
    const listed = await t.call('product/get-product-details', { json: { productId: created.id } })
    expect(listed.body.data.name).toBe('Masala Chips')
    // Applied once: the upload is gone.
    expect((await apply(checked.body.data.upload)).status).toBe(404)
    // The same file again is all unchanged.
    expect((await dryRun(text)).body.data.counts).toEqual({ rows: 2, created: 0, updated: 0, unchanged: 2 })
  })

  it('writes nothing at all when a row no longer applies at apply time (one transaction)', async () => {
    const text = [
      'sku,name,unit,mrp,stock,categories,images,description',
      `NEW-20,First,1 pc,10,1,Snacks,${image},x`,
      `NEW-21,Second,1 pc,10,1,Snacks,${image},x`,
      `BB-1,Amul Paneer,200 g,99.99,31,Dairy,${image},short`,
    ].join('\n')
    const checked = await dryRun(text)
    expect(checked.body.data.errors).toEqual([])
    // Between the check and the apply another product takes the SKU NEW-21... with a price the row's MRP is below.
    const other = await insertProduct(t.db, { name: 'Other', image: [image], categoryIds: [snacks.id], price: 5 })
    await t.db.update(products).set({ sku: 'NEW-21', sellingPrice: 50, price: 50 }).where(eq(products.id, other.id))
    await t.db.execute(sql`update products set selling_price = 20, price = 20 where sku = 'NEW-21'`)
    const before = await catalogSnapshot(t.db)
    const res = await apply(checked.body.data.upload)
    expect(res.status).toBe(400)
    expect(res.body.issues).toEqual([{ path: 'line 3, mrp', message: 'Selling price cannot be above the MRP' }])
    expect(await catalogSnapshot(t.db)).toEqual(before)
    expect(await bySku('NEW-20')).toBeUndefined()
  })

  it('round trip: the export imports back unchanged, and again after an import', async () => {
    const first = await exportCsv()
    const checked = await dryRun(first.text)
    const total = (parse(first.text) as string[][]).length - 1
    expect(checked.body.data).toMatchObject({ errors: [], counts: { rows: total, created: 0, updated: 0, unchanged: total } })
    const catalogue = async () => {
      const { product_imports: _waiting, ...rest } = await catalogSnapshot(t.db)
      return rest
    }
    const before = await catalogue()
    expect((await apply(checked.body.data.upload)).status).toBe(200)
    expect(await catalogue()).toEqual(before)
    expect((await exportCsv()).text).toBe(first.text)
  })
})

describe('POST /api/product/bulk-update', () => {
  it('changes prices and stock of several products in one transaction, or none', async () => {
    const amul = (await bySku('BB-1'))!
    const chipsRow = (await bySku('NEW-10'))!
    const ok = await t.call('product/bulk-update', {
      json: {
        items: [
          { _id: amul.id, stock: 7 },
          { _id: chipsRow.id, price: '25', sellingPrice: '22.50', stock: 0 },
        ],
      },
      token: admin.token,
    })
    expect(ok.status, JSON.stringify(ok.body)).toBe(200)
    expect(ok.body.data).toEqual({ updated: 2 })
    expect(await bySku('BB-1')).toMatchObject({ stock: 7, price: 99.99 })
    expect(await bySku('NEW-10')).toMatchObject({ stock: 0, price: 25, sellingPrice: 22.5 })

    const before = await catalogSnapshot(t.db)
    const bad = await t.call('product/bulk-update', {
      json: {
        items: [
          { _id: amul.id, stock: 8 },
          { _id: chipsRow.id, sellingPrice: 30 },
        ],
      },
      token: admin.token,
    })
    expect(bad.status).toBe(400)
    expect(bad.body.issues).toEqual([{ path: 'items.1.sellingPrice', message: 'Selling price cannot be above the price (MRP)' }])
    const unknown = await t.call('product/bulk-update', { json: { items: [{ _id: 'f'.repeat(24), stock: 1 }] }, token: admin.token })
    expect(unknown.status).toBe(404)
    const wrong = await t.call('product/bulk-update', { json: { items: [{ _id: amul.id, stock: -1 }] }, token: admin.token })
    expect(wrong.status).toBe(400)
    expect(await catalogSnapshot(t.db)).toEqual(before)
  })
})
