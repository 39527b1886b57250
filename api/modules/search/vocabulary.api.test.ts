/**
 * Search on queries a shopper types that the first ranking got wrong (docs/search.md, "Matching",
 * "Ranking" and "Answer"; docs/decisions/0028-search-held-out-ranking.md): a brand the store does not
 * stock is said so and answered with what it makes and the nearest shelf, never corrected into an
 * unrelated word; Hindi connectives never make a search drop its product word; everyday Hindi words
 * (pudina, kesar, achar, cold drink) find their products; fresh produce comes before processed food
 * with the same words, single products before combos; the product word is the one kept when no
 * product has every word. Runs on PGlite, and on PostgreSQL with TEST_DATABASE_URL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Understood } from '../../../contract/search.ts'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { insertCategory, insertProducts, insertSubCategory } from '../../testing/fixtures.ts'

let t: TestApp

type Answered = { _id: string; name: string; unit: string; subCategory: Array<{ name: string }> }
interface SearchBody {
  data: Answered[]
  totalCount: number
  understood?: Understood
}
const names = (list: Answered[]) => list.map((x) => x.name)

async function search(q: string): Promise<SearchBody> {
  const res = await t.call('product/search-product', { json: { search: q, page: 1, limit: 12 } })
  expect(res.status).toBe(200)
  return res.body
}

beforeAll(async () => {
  t = await createTestApp()
  const cat: Record<string, string> = {}
  for (const name of [
    'Fruits & Vegetables',
    'Snacks & Branded Foods',
    'Foodgrains, Oil & Masala',
    'Eggs, Meat & Fish',
    'Beverages',
    'Beauty & Hygiene',
    'Bakery, Cakes & Dairy',
  ]) {
    cat[name] = (await insertCategory(t.db, { name })).id
  }
  const shelves: Array<[string, string]> = [
    ['Lemon, Ginger & Garlic', 'Fruits & Vegetables'],
    ['Leafy Vegetables', 'Fruits & Vegetables'],
    ['Chilli & Soya Sauce', 'Snacks & Branded Foods'],
    ['Glucose & Milk Biscuits', 'Snacks & Branded Foods'],
    ['Pickles', 'Snacks & Branded Foods'],
    ['Tinned, Packed Sweets', 'Snacks & Branded Foods'],
    ['Healthy, Baked Snacks', 'Snacks & Branded Foods'],
    ['Edible Oils', 'Foodgrains, Oil & Masala'],
    ['Whole Spices', 'Foodgrains, Oil & Masala'],
    ['Fresh Chicken', 'Eggs, Meat & Fish'],
    ['Chicken Sausages', 'Eggs, Meat & Fish'],
    ['Cold Drinks', 'Beverages'],
    ['Face Care', 'Beauty & Hygiene'],
    ['Butter & Margarine', 'Bakery, Cakes & Dairy'],
    ['Milk', 'Bakery, Cakes & Dairy'],
  ]
  const sub: Record<string, string> = {}
  for (const [name, category] of shelves) sub[name] = (await insertSubCategory(t.db, { name, categoryIds: [cat[category]!] })).id
  const p = (name: string, brand: string, shelf: string, unit = '1 pc') => {
    const category = shelves.find(([s]) => s === shelf)![1]
    return { name, unit, moreDetails: { brand }, categoryIds: [cat[category]!], subCategoryIds: [sub[shelf]!] }
  }
  await insertProducts(t.db, [
    p('Chilli - Green Long, Medium (Loose)', 'Fresho', 'Lemon, Ginger & Garlic', '250 g'),
    p('Green Chilli Sauce', 'Tasties', 'Chilli & Soya Sauce', '200 g'),
    p('Tiger Glucose Biscuits', 'Britannia', 'Glucose & Milk Biscuits', '100 g'),
    p('Revitalift Serum', 'Loreal Paris', 'Face Care', '30 ml'),
    p('Mustard Oil - Kachi Ghani', 'Fortune', 'Edible Oils', '1 L'),
    p('Coconut Oil', 'Parachute', 'Edible Oils', '1 L'),
    p('Mint Leaves - Cleaned', 'Fresho', 'Leafy Vegetables', '100 g'),
    p('Chicken Seekh Kabab Lime N Pudina', 'Fresho', 'Chicken Sausages', '500 g'),
    p('Kashmiri Saffron', 'Vedapure', 'Whole Spices', '1 g'),
    p('Kesar Angoori Petha', 'Rafael', 'Tinned, Packed Sweets', '500 g'),
    p('Mango Pickle', 'Mothers Recipe', 'Pickles', '300 g'),
    p('Ragi Sticks - Achari Masala', 'GoodDiet', 'Healthy, Baked Snacks', '30 g'),
    p('Soft Drink', 'Mountain Dew', 'Cold Drinks', '250 ml'),
    p('Chicken Curry Cut 500 g + Chicken Masala 100 g', 'bb Combo', 'Fresh Chicken', 'Combo'),
    p('Chicken - Curry Cut, Without Skin', 'Fresho', 'Fresh Chicken', '500 g'),
    p('Pasteurised Butter', 'Amul', 'Butter & Margarine', '500 g'),
    p('Pasteurised Butter', 'Amul', 'Butter & Margarine', '100 g'),
    p('Toned Milk', 'Nandini', 'Milk', '500 ml'),
  ])
}, 120_000)
afterAll(() => t?.close())

describe('a brand the store does not stock', () => {
  it('"parle g" is never corrected into "paris": it says no Parle, shows biscuits and offers their shelf', async () => {
    const res = await search('parle g')
    expect(res.understood?.corrections).toEqual([])
    expect(res.understood?.notStocked).toEqual([{ word: 'parle g', showing: ['biscuits'] }])
    expect(names(res.data)).toEqual(['Tiger Glucose Biscuits'])
    expect(res.understood?.shelf?.subCategory.name).toBe('Glucose & Milk Biscuits')
  })

  it('is read beside the other words ("coke 250 ml" is a cold drink of that size), and a stocked brand is not flagged', async () => {
    const coke = await search('coke 250 ml')
    // "Soft Drink" does not say "cold drink": the notice names the shelf shown (docs/search.md, "Matching").
    expect(coke.understood?.notStocked).toEqual([{ word: 'coke', showing: ['cold drinks'] }])
    expect(names(coke.data)).toEqual(['Soft Drink'])
    const amul = await search('amul butter')
    expect(amul.understood?.notStocked).toBeUndefined()
    expect(amul.understood?.shelf).toBeUndefined()
  })
})

describe('words', () => {
  it('"sarson ka tel" is mustard oil, never any oil: the connective is left out, no word is dropped', async () => {
    const res = await search('sarson ka tel')
    expect(names(res.data)).toEqual(['Mustard Oil - Kachi Ghani'])
    expect(res.understood).toMatchObject({ query: 'sarson tel', relaxed: [], ignored: [] })
  })

  it.each([
    ['pudina', 'Mint Leaves - Cleaned'],
    ['kesar', 'Kashmiri Saffron'],
    ['achar', 'Mango Pickle'],
    ['cold drink', 'Soft Drink'],
  ])('finds everyday words: "%s" → %s first', async (q, first) => {
    const res = await search(q)
    expect(res.data[0]?.name).toBe(first)
  })

  it('keeps the product word when no product has every word ("butter nandini" → butter), and offers its shelf', async () => {
    const res = await search('butter nandini')
    expect(res.understood).toMatchObject({ query: 'butter', relaxed: ['nandini'] })
    expect(names(res.data)).toEqual(['Pasteurised Butter', 'Pasteurised Butter'])
    expect(res.understood?.shelf?.subCategory.name).toBe('Butter & Margarine')
  })

  it('never lets a pack size be the word kept: "amul butter 500g" is the 500 g butter', async () => {
    const res = await search('amul butter 500g')
    // The 500 g butter first; the other sizes fill the page after it (docs/search.md, "Pack sizes").
    expect(res.data.map((x) => `${x.name} ${x.unit}`)[0]).toBe('Pasteurised Butter 500 g')
  })
})

describe('ranking', () => {
  it('puts fresh produce before processed food with the same words ("green chilli": the chilli, then the sauce)', async () => {
    expect(names((await search('green chilli')).data)).toEqual(['Chilli - Green Long, Medium (Loose)', 'Green Chilli Sauce'])
  })

  it('puts a single product before a combo, unless the search asks for a combo', async () => {
    expect(names((await search('chicken curry cut')).data)).toEqual([
      'Chicken - Curry Cut, Without Skin',
      'Chicken Curry Cut 500 g + Chicken Masala 100 g',
    ])
    expect(names((await search('chicken curry cut combo')).data)[0]).toBe('Chicken Curry Cut 500 g + Chicken Masala 100 g')
  })
})
