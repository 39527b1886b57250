/**
 * Pack sizes as one card through the API (docs/product.md, "Pack sizes"), on a fresh database
 * (PGlite, or PostgreSQL with TEST_DATABASE_URL): a search or a listing asked for `groupSizes`
 * lists and counts each pack group once, its in-stock size standing for it with every size in
 * `packSizes`; facets count groups; a product's details answer its sizes and its similar rows leave
 * them out; the home rows asked for `groupSizes` show a group once; an admin's rename moves a product
 * out of its group; without `groupSizes` the original client's answers are as before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { createAdmin, type SignedIn } from '../../testing/auth.ts'
import { insertCategory, insertProducts, insertSubCategory } from '../../testing/fixtures.ts'

let t: TestApp
let admin: SignedIn
let categoryId = ''
let subCategoryId = ''
const ids: Record<string, string> = {}

interface PackSize {
  _id: string
  unit: string
  stock: number
  price: number
  sellingPrice: number
  discount: number
}
interface Answered {
  _id: string
  name: string
  unit: string
  stock: number
  more_details: { brand?: string }
  packSizes?: PackSize[]
}
interface ListBody {
  data: Answered[]
  totalCount: number
  facets?: {
    brand: Array<{ value: string; count: number }>
    price: Array<{ value: string; count: number }>
    discount: Array<{ value: string; count: number }>
  }
}

async function call(path: string, json: Record<string, unknown>): Promise<ListBody> {
  const res = await t.call(path, { json })
  expect(res.status).toBe(200)
  return res.body
}
const search = (json: Record<string, unknown>) => call('product/search-product', { page: 1, limit: 20, ...json })
const listing = (json: Record<string, unknown>) =>
  call('product/get-product-by-category-and-subcategory', { categoryId, subCategoryId, page: 1, limit: 20, ...json })
const label = (p: Answered) => `${p.more_details.brand ?? ''} ${p.name} ${p.unit}`.trim()

beforeAll(async () => {
  t = await createTestApp()
  admin = await createAdmin(t)
  const dairy = await insertCategory(t.db, { name: 'Bakery, Cakes & Dairy' })
  const paneer = await insertSubCategory(t.db, { name: 'Paneer, Tofu & Cream', categoryIds: [dairy.id] })
  categoryId = dairy.id
  subCategoryId = paneer.id
  const on = { categoryIds: [dairy.id], subCategoryIds: [paneer.id] }
  const mm = { brand: 'Milky Mist' }
  // The 200 g is the newest and cheapest, but sold out: another size must stand for the group.
  const inserted = await insertProducts(t.db, [
    { name: 'Paneer - Premium Fresh', unit: '1 kg', price: 500, sellingPrice: 440, stock: 5, moreDetails: mm, ...on },
    { name: 'Paneer - Premium Fresh', unit: '2x200 g', price: 224, stock: 5, moreDetails: mm, ...on },
    { name: 'Paneer - Premium Fresh', unit: '500 g', price: 300, sellingPrice: 255, stock: 5, moreDetails: mm, ...on },
    { name: 'Paneer - Premium Fresh', unit: '100 g', price: 60, stock: 5, moreDetails: mm, publish: false, ...on },
    { name: 'Paneer - Premium Fresh', unit: '200 g', price: 112, stock: 0, moreDetails: mm, ...on },
    { name: 'Malai Paneer', unit: '200 g', price: 95, stock: 5, moreDetails: { brand: 'Amul' }, ...on },
    { name: 'Paneer Tikka Combo', unit: 'Combo', price: 300, stock: 5, moreDetails: { brand: 'Fresho' }, ...on },
    { name: 'Paneer Tikka Combo', unit: 'Combo', price: 300, stock: 5, moreDetails: { brand: 'Fresho' }, ...on },
  ])
  for (const p of inserted) ids[`${p.name} ${p.unit}`] = p.id
}, 60_000)
afterAll(() => t?.close())

describe('a search asked for groupSizes', () => {
  it('lists and counts each pack group once, an in-stock size standing for it with every published size', async () => {
    const a = await search({ search: 'paneer', groupSizes: true })
    expect(a.totalCount).toBe(4)
    expect(a.data).toHaveLength(4)
    const mm = a.data.filter((p) => p.more_details.brand === 'Milky Mist')
    expect(mm).toHaveLength(1)
    expect(mm[0]!.stock).toBeGreaterThan(0)
    expect(mm[0]!.packSizes!.map((s) => [s.unit, s.stock, s.sellingPrice])).toEqual([
      ['200 g', 0, 112],
      ['2x200 g', 5, 224],
      ['500 g', 5, 255],
      ['1 kg', 5, 440],
    ])
    expect(mm[0]!.packSizes!.map((s) => s._id)).toContain(mm[0]!._id)
    expect(mm[0]!.packSizes![0]).toEqual({
      _id: ids['Paneer - Premium Fresh 200 g'],
      unit: '200 g',
      stock: 0,
      price: 112,
      sellingPrice: 112,
      discount: 0,
    })
  })

  it('leaves packSizes off a product with no other size, and never groups combos', async () => {
    const a = await search({ search: 'paneer', groupSizes: true })
    const others = a.data.filter((p) => p.more_details.brand !== 'Milky Mist')
    expect(others.map(label).sort()).toEqual([
      'Amul Malai Paneer 200 g',
      'Fresho Paneer Tikka Combo Combo',
      'Fresho Paneer Tikka Combo Combo',
    ])
    for (const p of others) expect(p).not.toHaveProperty('packSizes')
  })

  it('counts groups in the facets: a group once per brand, per price band and per discount step it reaches', async () => {
    const a = await search({ search: 'paneer', groupSizes: true, facets: true })
    expect(a.facets!.brand).toEqual([
      { value: 'Fresho', label: 'Fresho', count: 2 },
      { value: 'Amul', label: 'Amul', count: 1 },
      { value: 'Milky Mist', label: 'Milky Mist', count: 1 },
    ])
    const bands = (f: ListBody['facets']) => Object.fromEntries(f!.price.filter((p) => p.count > 0).map((p) => [p.value, p.count]))
    // ₹112 (200 g) is ₹100-200; 2x200 g, 500 g, 1 kg and the two combos are ₹200-500.
    expect(bands(a.facets)).toEqual({ '50-100': 1, '100-200': 1, '200-500': 3 })
    // The 500 g (15 %) and the 1 kg (12 %) are discounted: one group at 10 %, none at 25 %.
    expect(a.facets!.discount.map((d) => d.count)).toEqual([1, 0, 0])
    const plain = await search({ search: 'paneer', facets: true })
    expect(plain.facets!.brand.find((b) => b.value === 'Milky Mist')!.count).toBe(4)
    expect(bands(plain.facets)).toEqual({ '50-100': 1, '100-200': 1, '200-500': 5 })
    expect(plain.facets!.discount.map((d) => d.count)).toEqual([2, 0, 0])
  })

  it('keeps the size a search names standing for its group', async () => {
    const a = await search({ search: 'paneer 1kg', groupSizes: true })
    // The size fills the page rather than narrowing it (docs/search.md, "Pack sizes"): the asked size's group leads.
    expect(a.data.map(label)[0]).toBe('Milky Mist Paneer - Premium Fresh 1 kg')
    expect(a.data[0]!.packSizes).toHaveLength(4)
  })

  it('shows a group by its cheapest in-stock size when sorted by price, and pages without repeating a group', async () => {
    const a = await search({ search: 'paneer', groupSizes: true, sort: 'price_asc' })
    expect(a.data.map(label)).toEqual([
      'Amul Malai Paneer 200 g',
      'Milky Mist Paneer - Premium Fresh 2x200 g',
      'Fresho Paneer Tikka Combo Combo',
      'Fresho Paneer Tikka Combo Combo',
    ])
    const pages = [
      await search({ search: 'paneer', groupSizes: true, limit: 3 }),
      await search({ search: 'paneer', groupSizes: true, limit: 3, page: 2 }),
    ]
    const seen = pages.flatMap((p) => p.data.map((x) => x._id))
    expect(new Set(seen).size).toBe(4)
    expect(pages[1]!.totalCount).toBe(4)
  })

  it('answers the original client as before without groupSizes: every size, no packSizes', async () => {
    const a = await search({ search: 'paneer' })
    expect(a.totalCount).toBe(7)
    for (const p of a.data) expect(p).not.toHaveProperty('packSizes')
  })

  it('refuses a groupSizes that is not true or false', async () => {
    const res = await t.call('product/search-product', { json: { search: 'paneer', page: 1, limit: 5, groupSizes: 'yes' } })
    expect(res.status).toBe(400)
  })
})

describe('a listing asked for groupSizes', () => {
  it('counts a pack group once and carries its sizes', async () => {
    const a = await listing({ groupSizes: true })
    expect(a.totalCount).toBe(4)
    const mm = a.data.find((p) => p.more_details.brand === 'Milky Mist')!
    expect(mm.packSizes!.map((s) => s.unit)).toEqual(['200 g', '2x200 g', '500 g', '1 kg'])
    expect((await listing({})).totalCount).toBe(7)
  })

  it('chooses the size standing for a group among those a filter keeps, in stock or not', async () => {
    // ₹100-200: only the sold-out 200 g of the group (the Amul paneer is ₹95).
    const a = await listing({ groupSizes: true, price: '100-200' })
    expect(a.data.map(label)).toEqual(['Milky Mist Paneer - Premium Fresh 200 g'])
    expect(a.data[0]!.packSizes).toHaveLength(4)
    expect(a.totalCount).toBe(1)
  })
})

describe('home rows asked for groupSizes', () => {
  const rows = async (json: Record<string, unknown>) => {
    const res = await t.call('product/get-product-by-category', { json: { id: [categoryId], grouped: true, ...json } })
    expect(res.status).toBe(200)
    return (res.body.data as Array<{ categoryId: string; products: Answered[] }>)[0]!.products
  }

  it('show a pack group as one card, an in-stock size standing for it with every size', async () => {
    const row = await rows({ groupSizes: true })
    expect(row.map((p) => p.more_details.brand).sort()).toEqual(['Amul', 'Fresho', 'Fresho', 'Milky Mist'])
    const mm = row.find((p) => p.more_details.brand === 'Milky Mist')!
    expect(mm.stock).toBeGreaterThan(0)
    expect(mm.packSizes!.map((s) => s.unit)).toEqual(['200 g', '2x200 g', '500 g', '1 kg'])
  })

  it('answer every size, without packSizes, when not asked (the original client)', async () => {
    const row = await rows({})
    expect(
      row
        .filter((p) => p.more_details.brand === 'Milky Mist')
        .map((p) => p.unit)
        .sort(),
    ).toEqual(['1 kg', '200 g', '2x200 g', '500 g'])
    for (const p of row) expect(p).not.toHaveProperty('packSizes')
    const res = await t.call('product/get-product-by-category', { json: { id: [categoryId], grouped: true, groupSizes: 'yes' } })
    expect(res.status).toBe(400)
  })
})

describe('a product with other pack sizes', () => {
  it('answers its sizes with its details, itself included', async () => {
    const res = await t.call('product/get-product-details', { json: { productId: ids['Paneer - Premium Fresh 500 g'] } })
    expect(res.status).toBe(200)
    expect(res.body.data.packSizes.map((s: PackSize) => s.unit)).toEqual(['200 g', '2x200 g', '500 g', '1 kg'])
    const amul = await t.call('product/get-product-details', { json: { productId: ids['Malai Paneer 200 g'] } })
    expect(amul.body.data).not.toHaveProperty('packSizes')
  })

  it('leaves its other sizes out of the similar products', async () => {
    const res = await t.call('product/similar', { json: { productId: ids['Paneer - Premium Fresh 500 g'] } })
    expect(res.status).toBe(200)
    const shown = [...res.body.data.sameShelf, ...res.body.data.sameBrand] as Answered[]
    expect(shown.map(label).sort()).toEqual([
      'Amul Malai Paneer 200 g',
      'Fresho Paneer Tikka Combo Combo',
      'Fresho Paneer Tikka Combo Combo',
    ])
  })

  it('leaves the group when an admin renames it, and a listing counts it apart', async () => {
    const id = ids['Paneer - Premium Fresh 1 kg']!
    const renamed = await t.call('product/update-product-details', {
      method: 'PUT',
      json: { _id: id, name: 'Paneer - Low Fat' },
      token: admin.token,
    })
    expect(renamed.status).toBe(200)
    const a = await listing({ groupSizes: true })
    expect(a.totalCount).toBe(5)
    const details = await t.call('product/get-product-details', { json: { productId: id } })
    expect(details.body.data).not.toHaveProperty('packSizes')
    const back = await t.call('product/update-product-details', {
      method: 'PUT',
      json: { _id: id, name: 'Paneer - Premium Fresh' },
      token: admin.token,
    })
    expect(back.status).toBe(200)
    expect((await listing({ groupSizes: true })).totalCount).toBe(4)
  })
})
