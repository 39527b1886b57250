/**
 * GET /api/sitemap/shelves and /products on a fresh database (PGlite, or PostgreSQL with
 * TEST_DATABASE_URL): what is listed (published products only, every category-sub category pair),
 * paging validation, and that a catalogue write is seen at once (the cache is cleared).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { insertCategory, insertProduct, insertSubCategory } from '../../testing/fixtures.ts'
import { createAdmin } from '../../testing/auth.ts'

const ISO_SECONDS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/
let t: TestApp

beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t?.close())

describe('GET /api/sitemap', () => {
  it('lists categories and every category-sub category shelf', async () => {
    const dairy = await insertCategory(t.db, { name: 'Dairy' })
    const bakery = await insertCategory(t.db, { name: 'Bakery' })
    const milk = await insertSubCategory(t.db, { name: 'Milk', categoryIds: [dairy.id] })
    const breads = await insertSubCategory(t.db, { name: 'Breads & Buns', categoryIds: [bakery.id, dairy.id] })
    t.deps.cache.invalidate()

    const res = await t.call('sitemap/shelves')
    expect(res.status).toBe(200)
    expect(res.body.data.categories.map((c: { name: string }) => c.name)).toEqual(['Bakery', 'Dairy'])
    expect(res.body.data.categories[0].updatedAt).toMatch(ISO_SECONDS)
    const shelves = res.body.data.shelves.map(
      (s: { category: { _id: string }; subCategory: { _id: string } }) => `${s.category._id}/${s.subCategory._id}`,
    )
    expect(shelves).toEqual([`${bakery.id}/${breads.id}`, `${dairy.id}/${breads.id}`, `${dairy.id}/${milk.id}`])
  })

  it('lists published products only, with paging fields', async () => {
    const [category] = (await t.call('category/get')).body.data
    const shown = await insertProduct(t.db, { name: 'Amul Taaza Toned Milk', categoryIds: [category._id] })
    await insertProduct(t.db, { name: 'Hidden draft', categoryIds: [category._id], publish: false })
    t.deps.cache.invalidate()

    const res = await t.call('sitemap/products?page=1')
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual([{ _id: shown.id, name: 'Amul Taaza Toned Milk', updatedAt: expect.stringMatching(ISO_SECONDS) }])
    expect(res.body).toMatchObject({ totalCount: 1, page: 1, limit: 50_000, totalNoPage: 1 })
    expect((await t.call('sitemap/products?page=2')).body.data).toEqual([])
  })

  it('refuses a page that is not a whole number from 1 with 400', async () => {
    for (const page of ['0', '-1', '1.5', '1e3', 'abc', '99999999']) {
      const res = await t.call(`sitemap/products?page=${page}`)
      expect(res.status, page).toBe(400)
      expect(res.body.issues[0].path).toBe('page')
    }
  })

  it('shows a product deleted through the API at once', async () => {
    const before = (await t.call('sitemap/products')).body.data
    expect(before).toHaveLength(1)
    const del = await t.call('product/delete-product', {
      method: 'DELETE',
      json: { _id: before[0]._id },
      token: (await createAdmin(t)).token,
    })
    expect(del.status).toBe(200)
    expect((await t.call('sitemap/products')).body.data).toEqual([])
  })
})
