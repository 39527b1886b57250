/**
 * The admin product grid (POST /api/product/admin-list) and the export narrowed by its filters
 * (GET /api/product/export?…), on a fresh database (PGlite, or PostgreSQL with TEST_DATABASE_URL):
 * unpublished products listed, the default store's stock, each filter alone and combined, search by
 * name, brand and SKU (wildcards taken literally), every sort, paging, bad filters refused with 400,
 * admin only (docs/product-csv.md, "The admin grid").
 */
import { eq } from 'drizzle-orm'
import { parse } from 'csv-parse/sync'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { products, type Category, type SubCategory } from '../../db/schema.ts'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { createAdmin, createShopper, type SignedIn } from '../../testing/auth.ts'
import { insertCategory, insertProduct, insertSubCategory } from '../../testing/fixtures.ts'

let t: TestApp
let admin: SignedIn
let shopper: SignedIn
let dairy: Category
let snacks: Category
let paneer: SubCategory
let chips: SubCategory

beforeAll(async () => {
  t = await createTestApp()
  admin = await createAdmin(t)
  shopper = await createShopper(t)
  dairy = await insertCategory(t.db, { name: 'Dairy' })
  snacks = await insertCategory(t.db, { name: 'Snacks' })
  paneer = await insertSubCategory(t.db, { name: 'Paneer', categoryIds: [dairy.id] })
  chips = await insertSubCategory(t.db, { name: 'Chips', categoryIds: [snacks.id] })
  const rows = [
    { name: 'Amul Paneer', sku: 'DAI-001', stock: 25, price: 100, sellingPrice: 90, brand: 'Amul', c: dairy, s: paneer },
    { name: 'Milky Mist Paneer', sku: 'DAI-002', stock: 0, price: 120, sellingPrice: 110, brand: 'Milky Mist', c: dairy, s: paneer },
    { name: 'Lays Classic', sku: 'SNK_100', stock: 3, price: 20, sellingPrice: 20, brand: 'Lays', c: snacks, s: chips },
    { name: 'Bingo Mad Angles', sku: 'SNK-101', stock: 5, price: 30, sellingPrice: 25, brand: 'bingo', c: snacks, s: chips },
    { name: '50% Off Namkeen', sku: null, stock: 0, price: 40, sellingPrice: 40, brand: '', c: snacks, s: null },
  ]
  for (const r of rows) {
    const p = await insertProduct(t.db, {
      name: r.name,
      stock: r.stock,
      price: r.price,
      sellingPrice: r.sellingPrice,
      categoryIds: [r.c.id],
      subCategoryIds: r.s ? [r.s.id] : [],
      moreDetails: r.brand ? { brand: r.brand } : {},
      publish: r.name !== 'Lays Classic',
    })
    if (r.sku) await t.db.update(products).set({ sku: r.sku }).where(eq(products.id, p.id))
  }
})
afterAll(() => t?.close())

const list = (json: Record<string, unknown>, token = admin.token) => t.call('product/admin-list', { method: 'POST', json, token })
const names = async (json: Record<string, unknown>) => {
  const res = await list(json)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return (res.body.data as { name: string }[]).map((p) => p.name)
}

describe('POST /api/product/admin-list', () => {
  it('lists every product, published or not, newest first, with prices, default-store stock, brand, SKU and the brands', async () => {
    const res = await list({})
    expect(res.status).toBe(200)
    expect(res.body.totalCount).toBe(5)
    expect(res.body.totalNoPage).toBe(1)
    expect(res.body.data.map((p: { name: string }) => p.name)).toEqual([
      '50% Off Namkeen',
      'Bingo Mad Angles',
      'Lays Classic',
      'Milky Mist Paneer',
      'Amul Paneer',
    ])
    expect(res.body.data.find((p: { name: string }) => p.name === 'Lays Classic')).toMatchObject({
      sku: 'SNK_100',
      brand: 'Lays',
      price: 20,
      sellingPrice: 20,
      stock: 3,
      publish: false,
      updatedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    })
    expect(res.body.data[0]).toMatchObject({ sku: null, brand: '' })
    expect(res.body.brands).toEqual(['Amul', 'bingo', 'Lays', 'Milky Mist'])
  })

  it('filters by stock: out (0) and low (1..5)', async () => {
    expect(await names({ stock: 'out' })).toEqual(['50% Off Namkeen', 'Milky Mist Paneer'])
    expect(await names({ stock: 'low' })).toEqual(['Bingo Mad Angles', 'Lays Classic'])
    expect(await names({ stock: '' })).toHaveLength(5)
  })

  it('filters by category, sub category and brand (whole, any case), and combines filters', async () => {
    expect(await names({ category: dairy.id })).toEqual(['Milky Mist Paneer', 'Amul Paneer'])
    expect(await names({ subCategory: chips.id })).toEqual(['Bingo Mad Angles', 'Lays Classic'])
    expect(await names({ brand: 'BINGO' })).toEqual(['Bingo Mad Angles'])
    expect(await names({ brand: 'Bing' })).toEqual([])
    expect(await names({ category: dairy.id, stock: 'out' })).toEqual(['Milky Mist Paneer'])
    expect(await names({ category: 'f'.repeat(24) })).toEqual([])
  })

  it('searches the name, the brand and the SKU, any case, taking % and _ literally', async () => {
    expect(await names({ q: 'paneer' })).toEqual(['Milky Mist Paneer', 'Amul Paneer'])
    expect(await names({ q: 'dai-002' })).toEqual(['Milky Mist Paneer'])
    expect(await names({ q: 'milky mist' })).toEqual(['Milky Mist Paneer'])
    expect(await names({ q: 'amul' })).toEqual(['Amul Paneer'])
    expect(await names({ q: 'SNK_' })).toEqual(['Lays Classic'])
    expect(await names({ q: '50%' })).toEqual(['50% Off Namkeen'])
    expect(await names({ q: '%' })).toEqual(['50% Off Namkeen'])
  })

  it('sorts by name, selling price and stock either way, and pages without overlap', async () => {
    expect(await names({ sort: 'name' })).toEqual([
      '50% Off Namkeen',
      'Amul Paneer',
      'Bingo Mad Angles',
      'Lays Classic',
      'Milky Mist Paneer',
    ])
    expect((await names({ sort: 'price_asc' }))[0]).toBe('Lays Classic')
    expect((await names({ sort: 'price_desc' }))[0]).toBe('Milky Mist Paneer')
    const byStock = (await list({ sort: 'stock_asc' })).body.data as { _id: string; stock: number }[]
    expect(byStock.map((p) => p.stock)).toEqual([0, 0, 3, 5, 25])
    expect(byStock[0]!._id < byStock[1]!._id).toBe(true)
    expect((await names({ sort: 'stock_desc' }))[0]).toBe('Amul Paneer')
    const page1 = await list({ sort: 'name', limit: 2, page: 1 })
    const page3 = await list({ sort: 'name', limit: 2, page: 3 })
    expect(page1.body.totalNoPage).toBe(3)
    expect(page1.body.data.map((p: { name: string }) => p.name)).toEqual(['50% Off Namkeen', 'Amul Paneer'])
    expect(page3.body.data.map((p: { name: string }) => p.name)).toEqual(['Milky Mist Paneer'])
  })

  it('refuses a bad filter with 400 naming it', async () => {
    for (const [json, path] of [
      [{ stock: 'some' }, 'stock'],
      [{ sort: 'random' }, 'sort'],
      [{ q: 'x'.repeat(101) }, 'q'],
      [{ brand: 'a\nb' }, 'brand'],
      [{ limit: 1000 }, 'limit'],
    ] as const) {
      const res = await list(json)
      expect(res.status, JSON.stringify(json)).toBe(400)
      expect(res.body.issues.map((i: { path: string }) => i.path)).toContain(path)
    }
  })

  it('is for admins only (401 without a token, 403 for a shopper)', async () => {
    expect((await t.call('product/admin-list', { method: 'POST', json: {} })).status).toBe(401)
    expect((await list({}, shopper.token)).status).toBe(403)
  })
})

describe('GET /api/product/export with the grid filters', () => {
  const exported = async (query: string) => {
    const res = await t.app.request(`/api/product/export${query}`, { headers: { Authorization: `Bearer ${admin.token}` } })
    const text = await res.text()
    return { status: res.status, rows: res.status === 200 ? (parse(text, { columns: true }) as Record<string, string>[]) : [], text }
  }

  it('exports only the products the filters select (the sort is ignored)', async () => {
    expect((await exported('')).rows).toHaveLength(5)
    const out = await exported('?stock=out&sort=name')
    expect(out.status).toBe(200)
    expect(out.rows.map((r) => r.name).sort()).toEqual(['50% Off Namkeen', 'Milky Mist Paneer'])
    const search = await exported(`?q=SNK&category=${snacks.id}`)
    expect(search.rows.map((r) => r.sku).sort()).toEqual(['SNK-101', 'SNK_100'])
    const none = await exported('?brand=Nobody')
    expect(none.rows).toEqual([])
    expect(none.text.startsWith('sku,')).toBe(true)
  })

  it('refuses a bad filter with 400', async () => {
    const res = await exported('?stock=nope')
    expect(res.status).toBe(400)
    expect(JSON.parse(res.text).issues[0].path).toBe('stock')
  })
})
