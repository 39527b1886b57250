/**
 * The search's rules for words that are not the thing bought (docs/search.md, "Pack sizes",
 * "Modifiers" and "Matching"; docs/decisions/0059-search-modifiers-and-absent-brands.md), through
 * POST /api/product/search-product on a fresh database (PGlite, or PostgreSQL with TEST_DATABASE_URL),
 * one test per class of failure: a pack count is a quantity ("maggi 4 pack"), a colour or attribute
 * ranks and fills rather than narrows ("kala chana", "red chilli powder", "sugar free biscuits"), a
 * brand the store lacks shows what was asked ("kissan jam") and its notice agrees with the list ("vim
 * bar"), a size fills the page ("colgate 200g"). Made-up rows modelled on the bundled catalogue's;
 * the synonym rows are the seeded ones (api/db/seed/data/synonyms.csv: kissan, vim, kala chana).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { insertCategory, insertProducts, insertSubCategory } from '../../testing/fixtures.ts'

let t: TestApp

interface Answer {
  data: Array<{ name: string; unit: string; more_details: { brand?: string } }>
  totalCount: number
  understood: {
    query: string
    ignored: string[]
    relaxed: string[]
    notStocked?: Array<{ word: string; showing: string[] }>
    shelf?: { subCategory: { name: string } }
  }
}

async function search(text: string): Promise<Answer> {
  const res = await t.call('product/search-product', { json: { search: text, page: 1, limit: 12 } })
  expect(res.status).toBe(200)
  return res.body
}
const names = (a: Answer) => a.data.map((p) => `${p.name} ${p.unit}`)

beforeAll(async () => {
  t = await createTestApp()
  const snacks = await insertCategory(t.db, { name: 'Snacks & Branded Foods' })
  const beauty = await insertCategory(t.db, { name: 'Beauty & Hygiene' })
  const grains = await insertCategory(t.db, { name: 'Foodgrains, Oil & Masala' })
  const gourmet = await insertCategory(t.db, { name: 'Gourmet & World Food' })
  const home = await insertCategory(t.db, { name: 'Cleaning & Household' })
  const shelf = async (name: string, category: { id: string }) => {
    const s = await insertSubCategory(t.db, { name, categoryIds: [category.id] })
    return { categoryIds: [category.id], subCategoryIds: [s.id] }
  }
  const noodles = await shelf('Instant Noodles', snacks)
  const face = await shelf('Face Care', beauty)
  const dals = await shelf('Toor, Channa & Moong Dal', grains)
  const spices = await shelf('Powdered Spices', grains)
  const jams = await shelf('Jams, Marmalade, Spreads', gourmet)
  const ketchup = await shelf('Tomato Ketchup & Sauces', snacks)
  const bars = await shelf('Cereal & Granola Bars', gourmet)
  const dishwash = await shelf('Dishwash Bars & Powders', home)
  const toothpaste = await shelf('Toothpaste', beauty)
  const cookies = await shelf('Cookies', snacks)
  const biscuits = await shelf('Marie, Health, Digestive', snacks)
  await insertProducts(t.db, [
    { name: 'Masala Instant Noodles', unit: '70 g', moreDetails: { brand: 'MAGGI' }, ...noodles },
    { name: 'Masala Instant Noodles', unit: '4x70 g', moreDetails: { brand: 'MAGGI' }, ...noodles },
    { name: 'Atta Noodles', unit: '280 g', moreDetails: { brand: 'MAGGI' }, ...noodles },
    { name: 'Masala Noodles Family Pack', unit: '140 g', moreDetails: { brand: 'MAGGI' }, ...noodles },
    { name: 'Purifying Neem Face Pack', unit: '50 g', moreDetails: { brand: 'Himalaya' }, ...face },
    { name: 'Brown Chana', unit: '500 g', moreDetails: { brand: 'Super Saver' }, ...dals },
    { name: 'Chana - Brown/Kadale Kaalu', unit: '1 kg', moreDetails: { brand: 'BB Popular' }, ...dals },
    { name: 'Chana Dal', unit: '1 kg', moreDetails: { brand: 'Super Saver' }, ...dals },
    { name: 'Kabuli Chana', unit: '500 g', moreDetails: { brand: 'BB Royal' }, ...dals },
    { name: 'Red Chilli Powder 200G + Turmeric Powder 100G', unit: 'Combo', moreDetails: { brand: 'BB Royal' }, ...spices },
    { name: 'Kashmiri Mirch Powder', unit: '100 g', moreDetails: { brand: 'Aashirvaad' }, ...spices },
    { name: 'Strawberry Conserve', unit: '330 g', moreDetails: { brand: 'HappyChef' }, ...jams },
    { name: 'Orange Marmalade', unit: '330 g', moreDetails: { brand: 'HappyChef' }, ...jams },
    { name: 'Tomato Ketchup', unit: '950 g', moreDetails: { brand: 'Morton' }, ...ketchup },
    { name: 'Protein Bar - Hazelnut', unit: '70 g', moreDetails: { brand: 'Yoga Bar' }, ...bars },
    { name: 'Dish Wash Powder', unit: '500 g', moreDetails: { brand: 'Wild Ideas' }, ...dishwash },
    { name: 'Visible White Toothpaste', unit: '100 g', moreDetails: { brand: 'Colgate' }, ...toothpaste },
    { name: 'Vedshakti Toothpaste', unit: '200 g', moreDetails: { brand: 'Colgate' }, ...toothpaste },
    { name: 'Charcoal Clean Toothpaste', unit: '120 g', moreDetails: { brand: 'Colgate' }, ...toothpaste },
    { name: 'Milk Cookies', unit: '500 g', moreDetails: { brand: 'Unibic' }, ...cookies },
    { name: 'Sugar Free Butter Cookies', unit: '75 g', moreDetails: { brand: 'Unibic' }, ...cookies },
    { name: 'Farmlite Digestive Biscuit', unit: '150 g', moreDetails: { brand: 'Sunfeast' }, ...biscuits },
  ])
}, 180_000)
afterAll(() => t?.close())

describe('a pack count is a quantity, not a word to match', () => {
  it.each(['maggi 4 pack', 'maggi pack of 4', 'Maggi 4 packs'])('"%s" lists Maggi, the 4-packs first, never a face pack', async (text) => {
    const a = await search(text)
    // 280 g is four of Maggi's 70 g singles printed as one weight: a 4-pack too; 140 g is two.
    expect(names(a).slice(0, 2).sort()).toEqual(['Atta Noodles 280 g', 'Masala Instant Noodles 4x70 g'])
    expect(a.data.every((p) => p.more_details.brand === 'MAGGI')).toBe(true)
    expect(a.totalCount).toBe(4)
    expect(a.understood.relaxed).toEqual([])
  })
})

describe('colours and attributes rank and fill; they never empty the list', () => {
  it('"kala chana" lists the brown chana first, then the other chana', async () => {
    const a = await search('kala chana')
    expect(names(a).slice(0, 2).sort()).toEqual(['Brown Chana 500 g', 'Chana - Brown/Kadale Kaalu 1 kg'])
    expect(a.totalCount).toBe(4)
    expect(a.understood.relaxed).toEqual([])
  })

  it('"safed chana" is the kabuli chana first', async () => {
    expect(names(await search('safed chana'))[0]).toBe('Kabuli Chana 500 g')
  })

  it('"red chilli powder" lists the single chilli powder before the combo that names red', async () => {
    expect(names(await search('red chilli powder'))).toEqual([
      'Kashmiri Mirch Powder 100 g',
      'Red Chilli Powder 200G + Turmeric Powder 100G Combo',
    ])
  })

  it('"sugar free biscuits" lists the sugar-free cookies first and fills with the other biscuits', async () => {
    const a = await search('sugar free biscuits')
    expect(names(a)[0]).toBe('Sugar Free Butter Cookies 75 g')
    expect(a.totalCount).toBe(3)
    expect(a.understood.relaxed).toEqual([])
  })

  it('says so when no listed product carries the modifier', async () => {
    const a = await search('gluten free biscuits')
    expect(a.totalCount).toBe(3)
    expect(a.understood.relaxed).toEqual(['gluten', 'free'])
    expect(a.understood.query).toBe('biscuits')
  })
})

describe('a brand the store does not stock', () => {
  it('"kissan jam" says Kissan is not stocked and shows jam, not ketchup', async () => {
    const a = await search('kissan jam')
    // No product listed says "jam": the notice names the shelf the list shows.
    expect(a.understood.notStocked).toEqual([{ word: 'kissan', showing: ['jams, marmalade, spreads'] }])
    expect(names(a).sort()).toEqual(['Orange Marmalade 330 g', 'Strawberry Conserve 330 g'])
    expect(a.understood.shelf?.subCategory.name).toBe('Jams, Marmalade, Spreads')
  })

  it('"vim bar" shows dishwash products, not protein bars, and the notice says what is shown', async () => {
    const a = await search('vim bar')
    // The store has no dishwash bar: the notice names the shelf shown, not "dishwash bar".
    expect(a.understood.notStocked).toEqual([{ word: 'vim', showing: ['dishwash bars & powders'] }])
    expect(names(a)).toEqual(['Dish Wash Powder 500 g'])
    expect(a.understood.shelf?.subCategory.name).toBe('Dishwash Bars & Powders')
  })
})

describe('a size fills the page', () => {
  it('"colgate 200g" lists the 200 g pack first, then Colgate\'s other toothpastes', async () => {
    const a = await search('colgate 200g')
    expect(names(a)[0]).toBe('Vedshakti Toothpaste 200 g')
    expect(a.totalCount).toBe(3)
  })
})
