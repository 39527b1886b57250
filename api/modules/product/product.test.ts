/**
 * Product reads on a fresh database (PGlite, or PostgreSQL with TEST_DATABASE_URL): /get with
 * paging defaults and cap, get-product-by-category (flat and grouped, 15 per category),
 * get-product-by-category-and-subcategory and its misspelt alias, get-product-details, bad bodies,
 * unpublished products, and the catalogue cache. Search ranking has its own file (search.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Category, Product, SubCategory } from '../../db/schema.ts'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { insertCategory, insertProduct, insertProducts, insertSubCategory } from '../../testing/fixtures.ts'
import { wireDiscount } from '../../lib/money.ts'

const PRODUCT_KEYS = [
  '_id',
  'category',
  'createdAt',
  'description',
  'discount',
  'image',
  'imageKind',
  'more_details',
  'name',
  'price',
  'publish',
  'sellingPrice',
  'stock',
  'subCategory',
  'unit',
  'updatedAt',
]

let t: TestApp
let dairy: Category
let household: Category
let bulk: Category
let empty: Category
let paneerTofu: SubCategory
let bulkA: SubCategory
let bulkB: SubCategory
let paneer: Product
let hidden: Product
let twoCategories: Product
/** Published products, newest first (fixtures are one second apart in insertion order). */
let newestFirst: Product[]

type Answered = { _id: string; name: string }
const ids = (list: Answered[]) => list.map((p) => p._id)

beforeAll(async () => {
  t = await createTestApp()
  dairy = await insertCategory(t.db, { name: 'Dairy', image: '/uploads/dairy.webp' })
  household = await insertCategory(t.db, { name: 'Household' })
  bulk = await insertCategory(t.db, { name: 'Bulk' })
  empty = await insertCategory(t.db, { name: 'Empty Aisle' })
  paneerTofu = await insertSubCategory(t.db, { name: 'Paneer & Tofu', image: '/uploads/paneer-tofu.webp', categoryIds: [dairy.id] })
  bulkA = await insertSubCategory(t.db, { name: 'Bulk A', categoryIds: [bulk.id] })
  bulkB = await insertSubCategory(t.db, { name: 'Bulk B', categoryIds: [bulk.id] })

  // 110 products in Bulk: 60 in Bulk A, 50 in Bulk B (more than the limit cap of 100).
  const bulkProducts = await insertProducts(
    t.db,
    Array.from({ length: 110 }, (_, i) => ({
      name: `Bulk item ${String(i).padStart(3, '0')}`,
      categoryIds: [bulk.id],
      subCategoryIds: [i < 60 ? bulkA.id : bulkB.id],
    })),
  )
  paneer = await insertProduct(t.db, {
    name: 'Malai Paneer',
    categoryIds: [dairy.id],
    subCategoryIds: [paneerTofu.id],
    image: ['/uploads/paneer-1.webp', '/uploads/paneer-2.webp'],
    unit: '200 g',
    stock: 25,
    price: 95.5,
    discount: 12,
    description: 'Soft fresh paneer.',
    moreDetails: { brand: 'Amul', sku: '4242' },
  })
  hidden = await insertProduct(t.db, {
    name: 'Unpublished Paneer',
    categoryIds: [dairy.id],
    subCategoryIds: [paneerTofu.id],
    publish: false,
  })
  twoCategories = await insertProduct(t.db, { name: 'Paneer Scrubber', categoryIds: [household.id, dairy.id] })
  const broom = await insertProduct(t.db, { name: 'Broom', categoryIds: [household.id] })
  newestFirst = [broom, twoCategories, paneer, ...bulkProducts.reverse()]
})
afterAll(() => t?.close())

function expectProductShape(p: Record<string, unknown>) {
  expect(Object.keys(p).sort()).toEqual(PRODUCT_KEYS)
  expect(typeof p.price).toBe('number')
  expect(typeof p.discount).toBe('number')
  expect(Array.isArray(p.image)).toBe(true)
  expect(p.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
}

describe('POST /api/product/get', () => {
  it('answers page 1 of 10, newest first, with totalCount and totalNoPage when the body is empty', async () => {
    const res = await t.call('product/get', { method: 'POST' })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ error: false, success: true, message: expect.any(String), totalCount: 113, totalNoPage: 12 })
    expect(ids(res.body.data)).toEqual(newestFirst.slice(0, 10).map((p) => p.id))
    for (const p of res.body.data) expectProductShape(p)
  })

  it('answers a product with every contract field, price and discount as numbers, categories expanded', async () => {
    const res = await t.call('product/get', { json: { page: 1, limit: 3 } })
    const answered = res.body.data.find((p: Answered) => p._id === paneer.id)
    expect(answered).toMatchObject({
      name: 'Malai Paneer',
      image: ['/uploads/paneer-1.webp', '/uploads/paneer-2.webp'],
      category: [{ _id: dairy.id, name: 'Dairy', image: '/uploads/dairy.webp' }],
      subCategory: [{ _id: paneerTofu.id, name: 'Paneer & Tofu', image: '/uploads/paneer-tofu.webp' }],
      unit: '200 g',
      stock: 25,
      price: 95.5,
      sellingPrice: 84.04,
      // 12 % off, answered as the discount the original client's arithmetic needs
      // (docs/commerce-api.md, "The discount on the wire"): ₹95.50 − ⌈₹11.00…⌉ = ₹84.50.
      discount: wireDiscount(9550, 8404),
      description: 'Soft fresh paneer.',
      more_details: { brand: 'Amul', sku: '4242' },
      publish: true,
    })
    const both = res.body.data.find((p: Answered) => p._id === twoCategories.id)
    // Categories in the product's own order (Household first), not by name.
    expect(both.category.map((c: Answered) => c.name)).toEqual(['Household', 'Dairy'])
    expect(both.subCategory).toEqual([])
  })

  it('caps limit at 100', async () => {
    const res = await t.call('product/get', { json: { limit: 1000 } })
    expect(res.status).toBe(200)
    expect(res.body.data).toHaveLength(100)
    expect(res.body).toMatchObject({ totalCount: 113, totalNoPage: 2 })
  })

  it('pages without repeating or skipping a product', async () => {
    const seen: string[] = []
    for (let page = 1; page <= 17; page++) {
      const res = await t.call('product/get', { json: { page, limit: 7 } })
      expect(res.body.totalNoPage).toBe(17)
      seen.push(...ids(res.body.data))
    }
    expect(seen).toEqual(newestFirst.map((p) => p.id))
    const past = await t.call('product/get', { json: { page: 18, limit: 7 } })
    expect(past.body.data).toEqual([])
    expect(past.body.totalCount).toBe(113)
  })

  it('accepts page and limit given as digits, and null as "use the default"', async () => {
    const res = await t.call('product/get', { json: { page: '2', limit: '5', search: null } })
    expect(res.status).toBe(200)
    expect(ids(res.body.data)).toEqual(newestFirst.slice(5, 10).map((p) => p.id))
  })

  it('searches when given a search', async () => {
    const res = await t.call('product/get', { json: { search: 'paneer' } })
    expect(res.status).toBe(200)
    expect(ids(res.body.data).sort()).toEqual([paneer.id, twoCategories.id].sort())
    expect(res.body).toMatchObject({ totalCount: 2, totalNoPage: 1 })
  })

  it.each([
    [{ page: 'x' }, 'page'],
    [{ page: {} }, 'page'],
    [{ page: 0 }, 'page'],
    [{ limit: 'ten' }, 'limit'],
    [{ search: {} }, 'search'],
    [{ search: { $ne: null } }, 'search'],
  ])('refuses %j with 400 and issues', async (json, path) => {
    const res = await t.call('product/get', { json })
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ error: true, success: false, message: expect.any(String) })
    expect(res.body.issues).toEqual([expect.objectContaining({ path, message: expect.any(String) })])
  })

  it('refuses a body that is not JSON', async () => {
    const res = await t.call('product/get', { json: '{"page": ' })
    expect(res.status).toBe(400)
    expect(res.body.error).toBe(true)
  })
})

describe('POST /api/product/get-product-by-category', () => {
  it('answers at most 15 products of one category, newest first', async () => {
    const res = await t.call('product/get-product-by-category', { json: { id: bulk.id } })
    expect(res.status).toBe(200)
    expect(res.body.success).toBe(true)
    expect(res.body.data).toHaveLength(15)
    const bulkNewest = newestFirst.filter((p) => p.name.startsWith('Bulk item'))
    expect(ids(res.body.data)).toEqual(bulkNewest.slice(0, 15).map((p) => p.id))
    expectProductShape(res.body.data[0])
  })

  it('never shows an unpublished product', async () => {
    const res = await t.call('product/get-product-by-category', { json: { id: dairy.id } })
    expect(ids(res.body.data)).toEqual([twoCategories.id, paneer.id])
    expect(ids(res.body.data)).not.toContain(hidden.id)
  })

  it('answers a flat list for a list of ids, each product once', async () => {
    const res = await t.call('product/get-product-by-category', { json: { id: [household.id, dairy.id, bulk.id] } })
    expect(res.status).toBe(200)
    const list = ids(res.body.data)
    // Household (2) + Dairy (2, one already listed under Household) + Bulk (15)
    expect(list).toHaveLength(2 + 1 + 15)
    expect(new Set(list).size).toBe(list.length)
    expect(list.slice(0, 3)).toEqual([newestFirst[0]!.id, twoCategories.id, paneer.id])
  })

  it('answers one row per category with grouped: true, in the order asked, 15 at most each', async () => {
    const unknown = 'f'.repeat(24)
    const res = await t.call('product/get-product-by-category', {
      json: { id: [bulk.id, empty.id, dairy.id, unknown, household.id], grouped: true },
    })
    expect(res.status).toBe(200)
    const rows = res.body.data as { categoryId: string; products: Answered[] }[]
    expect(rows.map((r) => r.categoryId)).toEqual([bulk.id, empty.id, dairy.id, unknown, household.id])
    expect(rows.map((r) => r.products.length)).toEqual([15, 0, 2, 0, 2])
    // In its own category's row a product shows even when another row already has it.
    expect(ids(rows[2]!.products)).toContain(twoCategories.id)
    expect(ids(rows[4]!.products)).toContain(twoCategories.id)
    expectProductShape(rows[0]!.products[0] as never)
  })

  // docs/product.md, "Home": a row takes brands in turn.
  it("mixes brands in a category's row: each brand's newest first, then each brand's second", async () => {
    const mixed = await insertCategory(t.db, { name: 'Mixed Shelf' })
    const one = (name: string, brand: string) => ({ name, categoryIds: [mixed.id], moreDetails: { brand } })
    // Inserted oldest first: Chitale, then two Britannia, then four Amul (the newest).
    const [c1, b1, b2, a1, a2, a3, a4] = await insertProducts(t.db, [
      one('Chitale Bakarwadi', 'Chitale'),
      one('Britannia Rusk', 'Britannia'),
      one('Britannia Cake', 'Britannia'),
      one('Amul Butter', 'Amul'),
      one('Amul Cheese', 'Amul'),
      one('Amul Ghee', 'amul '),
      one('Amul Lassi', 'Amul'),
    ])
    const res = await t.call('product/get-product-by-category', { json: { id: [mixed.id], grouped: true } })
    const [row] = res.body.data as { products: Answered[] }[]
    // Newest first alone would be four Amul cards, then Britannia; brands in turn instead ("amul " is Amul).
    expect(ids(row!.products)).toEqual([a4!.id, b2!.id, c1!.id, a3!.id, b1!.id, a2!.id, a1!.id])
  })

  it.each([[{}], [{ id: { $ne: null } }], [{ id: ['a1', { $ne: null }] }], [{ id: 7 }], [{ id: 'x', grouped: 'yes' }]])(
    'refuses %j with 400 and issues',
    async (json) => {
      const res = await t.call('product/get-product-by-category', { json })
      expect(res.status).toBe(400)
      expect(res.body.success).toBe(false)
      expect(res.body.issues.length).toBeGreaterThan(0)
    },
  )
})

describe('POST /api/product/get-product-by-category-and-subcategory', () => {
  it('pages the products of a category and sub category with totalCount, page and limit', async () => {
    const first = await t.call('product/get-product-by-category-and-subcategory', {
      json: { categoryId: bulk.id, subCategoryId: bulkA.id, page: 1, limit: 8 },
    })
    expect(first.status).toBe(200)
    expect(first.body).toMatchObject({ success: true, error: false, totalCount: 60, page: 1, limit: 8 })
    expect(first.body.data).toHaveLength(8)
    expectProductShape(first.body.data[0])
    expect(first.body.data.every((p: { subCategory: Answered[] }) => p.subCategory[0]!._id === bulkA.id)).toBe(true)

    const seen: string[] = []
    for (let page = 1; page <= 8; page++) {
      const res = await t.call('product/get-product-by-category-and-subcategory', {
        json: { categoryId: bulk.id, subCategoryId: bulkA.id, page, limit: 8 },
      })
      seen.push(...ids(res.body.data))
    }
    expect(seen).toHaveLength(60)
    expect(new Set(seen).size).toBe(60)
    expect(seen).toEqual(newestFirst.filter((p) => /^Bulk item 0[0-5]\d$/.test(p.name)).map((p) => p.id))
  })

  it('lists every product of the category when the sub category is omitted', async () => {
    const res = await t.call('product/get-product-by-category-and-subcategory', { json: { categoryId: bulk.id } })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ totalCount: 110, page: 1, limit: 10 })
    expect(res.body.data).toHaveLength(10)
    const dairyOnly = await t.call('product/get-product-by-category-and-subcategory', {
      json: { categoryId: dairy.id, subCategoryId: null },
    })
    expect(ids(dairyOnly.body.data)).toEqual([twoCategories.id, paneer.id])
  })

  it('answers nothing for an empty list of categories, and treats an empty sub category list as omitted', async () => {
    const none = await t.call('product/get-product-by-category-and-subcategory', { json: { categoryId: [] } })
    expect(none.status).toBe(200)
    expect(none.body).toMatchObject({ data: [], totalCount: 0 })
    const all = await t.call('product/get-product-by-category-and-subcategory', { json: { categoryId: [dairy.id], subCategoryId: [] } })
    expect(ids(all.body.data)).toEqual([twoCategories.id, paneer.id])
    for (const grouped of [false, true]) {
      const rows = await t.call('product/get-product-by-category', { json: { id: [], grouped } })
      expect(rows.status).toBe(200)
      expect(rows.body.data).toEqual([])
    }
  })

  it('answers the misspelt alias of the original client the same way', async () => {
    const json = { categoryId: dairy.id, subCategoryId: paneerTofu.id, page: 1, limit: 8 }
    const right = await t.call('product/get-product-by-category-and-subcategory', { json })
    const alias = await t.call('product/get-pruduct-by-category-and-subcategory', { json })
    expect(alias.status).toBe(200)
    expect(alias.body).toEqual(right.body)
    expect(ids(alias.body.data)).toEqual([paneer.id])
  })

  it('caps limit at 100', async () => {
    const res = await t.call('product/get-product-by-category-and-subcategory', { json: { categoryId: bulk.id, limit: 1000 } })
    expect(res.body.data).toHaveLength(100)
    expect(res.body.limit).toBe(100)
  })

  it.each([[{}], [{ categoryId: { $ne: null } }], [{ categoryId: 'c', subCategoryId: {} }], [{ categoryId: 'c', page: 'x' }]])(
    'refuses %j with 400 and issues',
    async (json) => {
      const res = await t.call('product/get-product-by-category-and-subcategory', { json })
      expect(res.status).toBe(400)
      expect(res.body.issues.length).toBeGreaterThan(0)
    },
  )
})

describe('POST /api/product/get-product-details', () => {
  it('answers the product', async () => {
    const res = await t.call('product/get-product-details', { json: { productId: paneer.id } })
    expect(res.status).toBe(200)
    expect(res.body.success).toBe(true)
    expectProductShape(res.body.data)
    expect(res.body.data).toMatchObject({
      _id: paneer.id,
      name: 'Malai Paneer',
      price: 95.5,
      sellingPrice: 84.04,
      discount: wireDiscount(9550, 8404),
    })
  })

  it.each([
    ['an unknown id', 'a'.repeat(24)],
    ['an id of the wrong shape', "' or 1=1 --"],
    ['an empty id', ''],
  ])('answers 404 "Product not found" for %s', async (_, productId) => {
    const res = await t.call('product/get-product-details', { json: { productId } })
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ message: 'Product not found', error: true, success: false })
  })

  it('answers 404 for an unpublished product', async () => {
    const res = await t.call('product/get-product-details', { json: { productId: hidden.id } })
    expect(res.status).toBe(404)
  })

  it('refuses an object in place of the id with 400', async () => {
    const res = await t.call('product/get-product-details', { json: { productId: { $ne: null } } })
    expect(res.status).toBe(400)
    expect(res.body.issues[0].path).toBe('productId')
  })
})

describe('catalogue cache', () => {
  it('serves a repeated request from the cache and shows fresh data after invalidate()', async () => {
    const json = { page: 1, limit: 5 }
    const first = await t.call('product/get', { json })
    const hits = t.deps.cache.stats.hits
    const second = await t.call('product/get', { json })
    expect(t.deps.cache.stats.hits).toBe(hits + 1)
    expect(second.body).toEqual(first.body)

    // Keys hold every input: another page, limit or search is another entry.
    const misses = t.deps.cache.stats.misses
    await t.call('product/get', { json: { page: 4, limit: 5 } })
    await t.call('product/get', { json: { page: 1, limit: 6 } })
    await t.call('product/get', { json: { page: 1, limit: 5, search: 'broom' } })
    expect(t.deps.cache.stats.misses).toBe(misses + 3)

    const added = await insertProduct(t.db, { name: 'Fresh Arrival', categoryIds: [dairy.id] })
    const stale = await t.call('product/get', { json })
    expect(stale.body).toEqual(first.body)
    const staleRow = await t.call('product/get-product-by-category', { json: { id: dairy.id } })
    expect(ids(staleRow.body.data)).not.toContain(added.id)

    t.deps.cache.invalidate()
    const fresh = await t.call('product/get', { json })
    expect(fresh.body.data[0]._id).toBe(added.id)
    expect(fresh.body.totalCount).toBe(first.body.totalCount + 1)
    const row = await t.call('product/get-product-by-category', { json: { id: dairy.id } })
    expect(ids(row.body.data)[0]).toBe(added.id)
    const details = await t.call('product/get-product-details', { json: { productId: added.id } })
    expect(details.status).toBe(200)
  })
})
