/**
 * Lost updates refused (docs/decisions/0008-catalogue-writes.md): an update that carries the
 * `updatedAt` the admin read is applied only when nobody changed the row since; a stale one answers
 * 409 and changes nothing. An update without `updatedAt` (the original client's) is applied as before.
 * For products, categories and sub categories.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { createAdmin, type SignedIn } from '../../testing/auth.ts'
import { insertCategory, insertProduct, insertSubCategory, storeTestImage } from '../../testing/fixtures.ts'

let t: TestApp
let admin: SignedIn
let image: string

beforeAll(async () => {
  t = await createTestApp()
  admin = await createAdmin(t)
  image = await storeTestImage(t)
})
afterAll(() => t?.close())

const put = (path: string, json: object) => t.call(path, { method: 'PUT', json, token: admin.token })

describe('edits made on a stale copy', () => {
  it('a product: the second admin to save the copy both read gets 409, the first change stands', async () => {
    const product = await insertProduct(t.db, { name: 'Jaggery', price: 90, stock: 5 })
    const read = (await t.call('product/get-product-details', { method: 'POST', json: { productId: product.id } })).body.data
    const first = await put('product/update-product-details', { _id: product.id, updatedAt: read.updatedAt, stock: 9 })
    expect(first.status).toBe(200)
    const second = await put('product/update-product-details', { _id: product.id, updatedAt: read.updatedAt, price: 95 })
    expect(second.status).toBe(409)
    expect(second.body.message).toBe('This product was changed by someone else since you opened it: reload and edit again')
    const now = (await t.call('product/get-product-details', { method: 'POST', json: { productId: product.id } })).body.data
    expect([now.stock, now.price]).toEqual([9, 90])
    // With the fresh version the edit goes through; without any version too (the original client).
    expect((await put('product/update-product-details', { _id: product.id, updatedAt: now.updatedAt, price: 95 })).status).toBe(200)
    expect((await put('product/update-product-details', { _id: product.id, price: 99 })).status).toBe(200)
  })

  it('a category and a sub category', async () => {
    const category = await insertCategory(t.db, { name: 'Staples', image })
    const sub = await insertSubCategory(t.db, { name: 'Flours', categoryIds: [category.id], image })
    const stale = new Date(category.updatedAt.getTime() - 60_000).toISOString()
    const cat = await put('category/update', { _id: category.id, name: 'Staples & Grains', image, updatedAt: stale })
    expect(cat.status).toBe(409)
    expect(
      (await put('category/update', { _id: category.id, name: 'Staples & Grains', image, updatedAt: category.updatedAt.toISOString() }))
        .status,
    ).toBe(200)
    const subStale = await put('subcategory/update', { _id: sub.id, name: 'Atta', image, category: [category.id], updatedAt: stale })
    expect(subStale.status).toBe(409)
    expect(
      (
        await put('subcategory/update', {
          _id: sub.id,
          name: 'Atta',
          image,
          category: [category.id],
          updatedAt: sub.updatedAt.toISOString(),
        })
      ).status,
    ).toBe(200)
  })

  it('refuses a version that is not a time (400)', async () => {
    const product = await insertProduct(t.db, { name: 'Rock Salt', price: 30 })
    const res = await put('product/update-product-details', { _id: product.id, updatedAt: 'yesterday', stock: 1 })
    expect(res.status).toBe(400)
    expect(res.body.issues[0].path).toBe('updatedAt')
  })
})
