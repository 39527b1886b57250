/**
 * A pack size in a search (docs/search.md, "Pack sizes") through POST /api/product/search-product,
 * on a fresh database (PGlite, or PostgreSQL with TEST_DATABASE_URL): the size never becomes a word
 * to match alone ("amul butter 500g" is Amul's 500 g butter, not a "500g" chicken combo), the same
 * size comes first among the products the words agree with, near sizes and the other products
 * follow and fill the page (none is left out), and a search of a size alone matches nothing and says so. The products are the
 * catalogue's own (api/db/seed/data/bigbasket-products.csv: Amul butters, Milky Mist paneers).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { insertCategory, insertProducts, insertSubCategory } from '../../testing/fixtures.ts'

let t: TestApp

interface Answer {
  data: Array<{ name: string; unit: string; more_details: { brand?: string } }>
  totalCount: number
  understood: { query: string; ignored: string[]; relaxed: string[] }
}

async function search(text: string): Promise<Answer> {
  const res = await t.call('product/search-product', { json: { search: text, page: 1, limit: 10 } })
  expect(res.status).toBe(200)
  return res.body
}
const listed = (a: Answer) => a.data.map((p) => `${p.more_details.brand ?? ''} ${p.name} ${p.unit}`.trim())

beforeAll(async () => {
  t = await createTestApp()
  const dairy = await insertCategory(t.db, { name: 'Bakery, Cakes & Dairy' })
  const meat = await insertCategory(t.db, { name: 'Eggs, Meat & Fish' })
  const masala = await insertCategory(t.db, { name: 'Foodgrains, Oil & Masala' })
  const butter = await insertSubCategory(t.db, { name: 'Butter & Margarine', categoryIds: [dairy.id] })
  const paneer = await insertSubCategory(t.db, { name: 'Paneer, Tofu & Cream', categoryIds: [dairy.id] })
  const chicken = await insertSubCategory(t.db, { name: 'Marinades', categoryIds: [meat.id] })
  const spices = await insertSubCategory(t.db, { name: 'Blended Masalas', categoryIds: [masala.id] })
  const on = (s: { id: string }, c: { id: string }) => ({ categoryIds: [c.id], subCategoryIds: [s.id] })
  // The 500 g butter is the oldest: without the size it would come last of the equal butters.
  await insertProducts(t.db, [
    { name: 'Pasteurised Butter', unit: '500 g', moreDetails: { brand: 'Amul' }, ...on(butter, dairy) },
    { name: 'Butter - Pasteurized', unit: '2x500 g', moreDetails: { brand: 'Amul' }, ...on(butter, dairy) },
    { name: 'Butter - Pasteurized', unit: '2x100 g', moreDetails: { brand: 'Amul' }, ...on(butter, dairy) },
    { name: 'Pasteurised Butter', unit: '100 g', moreDetails: { brand: 'Amul' }, ...on(butter, dairy) },
    { name: 'Chicken Tikka 500g Combo', unit: 'Combo', moreDetails: { brand: 'Fresho' }, ...on(chicken, meat) },
    { name: 'Chicken Curry Cut 500g', unit: '500 g', moreDetails: { brand: 'Fresho' }, ...on(chicken, meat) },
    { name: 'Paneer', unit: '1 kg', moreDetails: { brand: 'Milky Mist' }, ...on(paneer, dairy) },
    { name: 'Paneer', unit: '2x200 g', moreDetails: { brand: 'Milky Mist' }, ...on(paneer, dairy) },
    { name: 'Paneer', unit: '500 g', moreDetails: { brand: 'Milky Mist' }, ...on(paneer, dairy) },
    { name: 'Paneer', unit: '200 g', moreDetails: { brand: 'Milky Mist' }, ...on(paneer, dairy) },
    { name: 'Paneer Butter Masala', unit: '100 g', moreDetails: { brand: 'MDH' }, ...on(spices, masala) },
    { name: 'Kadai Paneer Masala', unit: '250 g', moreDetails: { brand: 'Everest' }, ...on(spices, masala) },
  ])
}, 60_000)
afterAll(() => t?.close())

describe('a pack size in a search', () => {
  it.each(['amul butter 500g', 'amul butter 500 g', 'Amul Butter 500 G', '500g amul butter', 'amul butter half kg', 'amul butter 1/2 kg'])(
    '"%s" lists Amul\'s 500 g butter, never the 500g chicken',
    async (text) => {
      const a = await search(text)
      expect(listed(a)[0]).toBe('Amul Pasteurised Butter 500 g')
      // The other sizes fill the page after it; the chicken never matches.
      expect(a.totalCount).toBe(4)
      expect(listed(a).some((p) => p.includes('Chicken'))).toBe(false)
      expect(a.understood.relaxed).toEqual([])
    },
  )

  it('says what it searched for, the size as typed', async () => {
    expect((await search('amul butter 500g')).understood.query).toBe('amul butter 500g')
  })

  it('counts a multipack by its total, and a multipack search by its count and size', async () => {
    expect(listed(await search('amul butter 1 kg'))[0]).toBe('Amul Butter - Pasteurized 2x500 g')
    expect(listed(await search('paneer 2 x 200 g'))[0]).toBe('Milky Mist Paneer 2x200 g')
    expect(listed(await search('paneer 2x200g'))[0]).toBe('Milky Mist Paneer 2x200 g')
  })

  it('lists near sizes first when no product has the size, and keeps every product', async () => {
    const a = await search('amul butter 250 g')
    expect(a.totalCount).toBe(4)
    // 125 g to 500 g are near 250 g: the 500 g and the 2x100 g packs, then the others.
    expect(listed(a).slice(0, 2).sort()).toEqual(['Amul Butter - Pasteurized 2x100 g', 'Amul Pasteurised Butter 500 g'])
  })

  it('narrows only to a size the words agree with: "paneer 100 g" keeps the paneers, not the masala', async () => {
    const a = await search('paneer 100 g')
    expect(a.data[0]!.name).toBe('Paneer')
    expect(a.data[0]!.unit).toBe('200 g')
    expect(a.totalCount).toBe(6)
  })

  it('puts the size the words agree with first and fills with the other paneers, then the masalas', async () => {
    const a = await search('paneer 1kg')
    expect(listed(a)[0]).toBe('Milky Mist Paneer 1 kg')
    expect(
      listed(a)
        .slice(1, 4)
        .every((p) => p.startsWith('Milky Mist Paneer')),
    ).toBe(true)
    expect(
      listed(a)
        .slice(4)
        .every((p) => p.includes('Masala')),
    ).toBe(true)
  })

  it('matches nothing for a size alone, and says the size was left out', async () => {
    const a = await search('500g')
    expect(a.data).toEqual([])
    expect(a.understood.ignored).toEqual(['500g'])
  })
})
