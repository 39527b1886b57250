/**
 * POST /api/product/similar (docs/product.md, "Product page"): the shelf's products nearest in
 * selling price, in stock in the store first; more of the brand not already shown; 404 for an
 * unknown, unpublished or malformed id; each row capped at SIMILAR_PRODUCTS_MAX; answers match the
 * contract (checked by the test app).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SIMILAR_PRODUCTS_MAX } from '../../../contract/product.ts'
import type { Product } from '../../db/schema.ts'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { insertCategory, insertProduct, insertProducts, insertSubCategory } from '../../testing/fixtures.ts'

let t: TestApp
let self: Product
const named = new Map<string, Product>()
const names = (list: Array<{ _id: string }>) => list.map((p) => [...named].find(([, row]) => row.id === p._id)?.[0] ?? p._id)

beforeAll(async () => {
  t = await createTestApp()
  const dairy = await insertCategory(t.db, { name: 'Dairy' })
  const butter = await insertSubCategory(t.db, { name: 'Butter', categoryIds: [dairy.id] })
  const cheese = await insertSubCategory(t.db, { name: 'Cheese', categoryIds: [dairy.id] })
  const onShelf = (name: string, sellingPrice: number, extra: Record<string, unknown> = {}) => ({
    name,
    price: sellingPrice,
    sellingPrice,
    categoryIds: [dairy.id],
    subCategoryIds: [butter.id],
    moreDetails: { brand: 'Other' },
    ...extra,
  })
  self = await insertProduct(t.db, onShelf('Amul Butter 100 g', 50, { moreDetails: { brand: 'Amul' } }))
  named.set('self', self)
  const rows = await insertProducts(t.db, [
    onShelf('Near 48', 48),
    onShelf('Near 55', 55),
    onShelf('Far 500', 500),
    onShelf('Nearest but sold out', 50, { stock: 0 }),
    onShelf('Hidden 50', 50, { publish: false }),
    { name: 'Amul Cheese', price: 120, categoryIds: [dairy.id], subCategoryIds: [cheese.id], moreDetails: { brand: ' amul' } },
    { name: 'Amul Old Cheese', price: 90, categoryIds: [dairy.id], subCategoryIds: [cheese.id], moreDetails: { brand: 'Amul' }, stock: 0 },
    { name: 'Other Cheese', price: 110, categoryIds: [dairy.id], subCategoryIds: [cheese.id], moreDetails: { brand: 'Other' } },
  ])
  for (const row of rows) named.set(row.name, row)
})
afterAll(() => t?.close())

describe('POST /api/product/similar', () => {
  it('answers the shelf nearest in price first (in stock first), then more of the brand', async () => {
    const res = await t.call('product/similar', { json: { productId: self.id } })
    expect(res.status).toBe(200)
    const { sameShelf, sameBrand } = res.body.data as { sameShelf: Array<{ _id: string }>; sameBrand: Array<{ _id: string }> }
    // ₹48 is 4 % under ₹50, ₹55 10 % over, ₹500 ten times; the sold-out one comes last however near.
    expect(names(sameShelf)).toEqual(['Near 48', 'Near 55', 'Far 500', 'Nearest but sold out'])
    // " amul" is Amul; the sold-out one after; never the product itself, never an unpublished one.
    expect(names(sameBrand)).toEqual(['Amul Cheese', 'Amul Old Cheese'])
  })

  it('shows each product once: the brand row leaves out what the shelf row has', async () => {
    const more = await insertProduct(t.db, {
      ...{ name: 'Amul Garlic Butter', price: 52 },
      subCategoryIds: await shelfOf(self.id),
      moreDetails: { brand: 'Amul' },
    })
    named.set('Amul Garlic Butter', more)
    // Fixtures write past the API: drop the cached answers as a catalogue write does.
    t.deps.cache.invalidate()
    const res = await t.call('product/similar', { json: { productId: self.id } })
    const { sameShelf, sameBrand } = res.body.data as { sameShelf: Array<{ _id: string }>; sameBrand: Array<{ _id: string }> }
    expect(names(sameShelf)[0]).toBe('Amul Garlic Butter')
    expect(names(sameBrand)).not.toContain('Amul Garlic Butter')
  })

  it(`holds at most ${SIMILAR_PRODUCTS_MAX} products a row`, async () => {
    const shelf = await shelfOf(self.id)
    await insertProducts(
      t.db,
      Array.from({ length: 12 }, (_, i) => ({
        name: `Amul Extra ${i}`,
        price: 60 + i,
        subCategoryIds: shelf,
        moreDetails: { brand: 'Amul' },
      })),
    )
    t.deps.cache.invalidate()
    const res = await t.call('product/similar', { json: { productId: self.id } })
    const { sameShelf, sameBrand } = res.body.data as { sameShelf: unknown[]; sameBrand: unknown[] }
    expect(sameShelf).toHaveLength(SIMILAR_PRODUCTS_MAX)
    expect(sameBrand).toHaveLength(SIMILAR_PRODUCTS_MAX)
  })

  it.each([
    ['an unknown id', 'f'.repeat(24)],
    ['a malformed id', 'not an id!'],
    ['an unpublished product', 'hidden'],
  ])('answers 404 "Product not found" for %s', async (_label, id) => {
    const productId = id === 'hidden' ? named.get('Hidden 50')!.id : id
    const res = await t.call('product/similar', { json: { productId } })
    expect(res.status).toBe(404)
    expect(res.body.message).toBe('Product not found')
  })

  it('lists the same kind of product first: other paneers before the tempeh of the paneer shelf', async () => {
    const dairy = await insertCategory(t.db, { name: 'Bakery, Cakes & Dairy' })
    const shelf = await insertSubCategory(t.db, { name: 'Paneer, Tofu & Cream', categoryIds: [dairy.id] })
    const on = { categoryIds: [dairy.id], subCategoryIds: [shelf.id] }
    const paneer = await insertProduct(t.db, { name: 'Malai Paneer', price: 90, ...on, moreDetails: { brand: 'Fresho' } })
    const rows = await insertProducts(t.db, [
      { name: 'Tempeh - Original', price: 90, ...on, moreDetails: { brand: 'Tempe' } },
      { name: 'Paneer - Premium Fresh', price: 400, ...on, moreDetails: { brand: 'Milky Mist' } },
    ])
    for (const row of rows) named.set(row.name, row)
    const res = await t.call('product/similar', { json: { productId: paneer.id } })
    expect(names(res.body.data.sameShelf)).toEqual(['Paneer - Premium Fresh', 'Tempeh - Original'])
  })

  it('refuses a body without a product id with 400', async () => {
    const res = await t.call('product/similar', { json: {} })
    expect(res.status).toBe(400)
  })
})

/** The sub category ids of a product. */
async function shelfOf(productId: string): Promise<string[]> {
  const res = await t.call('product/get-product-details', { json: { productId } })
  return (res.body.data as { subCategory: Array<{ _id: string }> }).subCategory.map((s) => s._id)
}
