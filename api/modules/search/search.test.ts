/**
 * POST /api/product/search-product (and /get with a search), and the listing's filters, on a fresh
 * database (PGlite, or PostgreSQL with TEST_DATABASE_URL): ranking by shelf, head noun, brand and
 * stock; Hindi-English synonyms both ways; spelling against the vocabulary (bred → bread, toor stays
 * toor); words left out and searches relaxed; facets and sorts on search and listings; the answers
 * the original client gets without the new fields; the vocabulary after admin writes; validation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq, sql } from 'drizzle-orm'
import type { Category, SubCategory } from '../../db/schema.ts'
import { products, searchSynonyms } from '../../db/schema.ts'
import { queryRows } from '../../db/query.ts'
import { seedSynonyms, SYNONYM_SEEDS } from '../../db/seed/synonyms.ts'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { createAdmin, type SignedIn } from '../../testing/auth.ts'
import { insertCategory, insertProducts, insertSubCategory, storeTestImage } from '../../testing/fixtures.ts'
import { placeWithKey, shopperWithLine } from '../../testing/orders.ts'
import { MAX_SEARCH_TERMS, searchTerms, wordQuery } from './terms.ts'

let t: TestApp
let admin: SignedIn
const cat: Record<string, Category> = {}
const sub: Record<string, SubCategory> = {}

type Answered = { _id: string; name: string; sellingPrice: number; discount: number; stock: number; more_details: { brand?: string } }
interface SearchBody {
  data: Answered[]
  totalCount: number
  totalPage: number
  page: number
  limit: number
  understood?: { query: string; synonyms: unknown[]; corrections: unknown[]; ignored: string[]; relaxed: string[] }
  facets?: {
    brand: Array<{ value: string; count: number }>
    price: Array<{ value: string; count: number }>
    discount: Array<{ value: string; count: number }>
  }
}
const names = (list: Answered[]) => list.map((x) => x.name)

async function search(json: Record<string, unknown>): Promise<SearchBody> {
  const res = await t.call('product/search-product', { json })
  expect(res.status).toBe(200)
  return res.body
}

beforeAll(async () => {
  t = await createTestApp()
  admin = await createAdmin(t)
  for (const name of ['Bakery, Cakes & Dairy', 'Beauty & Hygiene', 'Snacks & Branded Foods', 'Foodgrains, Oil & Masala', 'Beverages']) {
    cat[name] = await insertCategory(t.db, { name })
  }
  const shelves: Array<[string, string]> = [
    ['Milk', 'Bakery, Cakes & Dairy'],
    ['Curd', 'Bakery, Cakes & Dairy'],
    ['Paneer, Tofu & Cream', 'Bakery, Cakes & Dairy'],
    ['Gourmet Bread', 'Bakery, Cakes & Dairy'],
    ['Butter & Margarine', 'Bakery, Cakes & Dairy'],
    ['Face Care', 'Beauty & Hygiene'],
    ['Cookies', 'Snacks & Branded Foods'],
    ['Chocolates', 'Snacks & Branded Foods'],
    ['Toor, Channa & Moong Dal', 'Foodgrains, Oil & Masala'],
    ['Atta Whole Wheat', 'Foodgrains, Oil & Masala'],
    ['Green Tea', 'Beverages'],
    ['Coffee', 'Beverages'],
  ]
  for (const [name, category] of shelves) sub[name] = await insertSubCategory(t.db, { name, categoryIds: [cat[category]!.id] })
  const linked = (shelf: string) => {
    const category = shelves.find(([s]) => s === shelf)![1]
    return { categoryIds: [cat[category]!.id], subCategoryIds: [sub[shelf]!.id] }
  }
  const p = (name: string, brand: string, shelf: string | null, extra: Record<string, unknown> = {}) => ({
    name,
    moreDetails: { brand },
    ...(shelf ? linked(shelf) : { categoryIds: [cat['Snacks & Branded Foods']!.id] }),
    ...extra,
  })
  await insertProducts(t.db, [
    p('Toned Milk', 'Amul', 'Milk', { price: 30 }),
    p('Full Cream Milk', 'Nandini', 'Milk', { stock: 0, price: 34 }),
    p('Cow Milk', 'Heritage', 'Milk', { price: 32, discount: 10 }),
    p('Milk Cookies', 'Unibic', 'Cookies', { price: 50 }),
    p('Almond Milk Cleansing Lotion', 'Lotus', 'Face Care', { price: 350, discount: 30 }),
    p('Farm Fresh Curd/Dahi', 'Milky Mist', 'Curd', { price: 60 }),
    p('Greek Yoghurt', 'Epigamia', 'Curd', { price: 80 }),
    p('Paneer - Fresh', 'Fresho', 'Paneer, Tofu & Cream', { price: 90 }),
    p('Malai Paneer', 'Amul', 'Paneer, Tofu & Cream', { price: 95 }),
    p('Paneer Masala', 'MDH', null, { price: 70 }),
    p('Happy Birthday Banner', 'Partyland', null, { price: 150 }),
    p('Toor Dal', 'Tata Sampann', 'Toor, Channa & Moong Dal', { price: 180 }),
    p('Chana Dal', 'BB Royal', 'Toor, Channa & Moong Dal', { price: 110 }),
    p('Tool Kit', 'Stanley', null, { price: 900 }),
    p('Whole Wheat Bread', 'Modern', 'Gourmet Bread', { price: 45 }),
    p('Sandwich Bread', 'Harvest Gold', 'Gourmet Bread', { price: 40 }),
    p('Bread Knife', 'Prestige', null, { price: 250 }),
    p('Cold Brew Coffee', 'Sleepy Owl', 'Coffee', { price: 300 }),
    p('Pasteurised Butter', 'Amul', 'Butter & Margarine', { price: 56 }),
    p('Garlic Butter', 'Britannia', 'Butter & Margarine', { price: 60 }),
    p('Shea Butter Body Lotion', 'Nivea', 'Face Care', { price: 400 }),
    p('Dairy Milk Chocolate', 'Cadbury', 'Chocolates', { price: 100, discount: 20 }),
    p('Dark Chocolate Bar', 'Amul', 'Chocolates', { price: 120, discount: 45 }),
    p('Whole Wheat Atta', 'Aashirvaad', 'Atta Whole Wheat', { price: 260 }),
    p('Green Tea', 'Lipton', 'Green Tea', { price: 150 }),
    p('Green Tea Face Wash', 'Himalaya', 'Face Care', { price: 120 }),
    p('Paneer Tikka', 'Fresho', 'Paneer, Tofu & Cream', { publish: false }),
  ])
})
afterAll(() => t?.close())

describe('searchTerms and wordQuery', () => {
  it('lower-cases, splits on punctuation, keeps marks inside words and stops at 8 words', () => {
    expect(searchTerms('  Amul  PANNER!')).toEqual(['amul', 'panner'])
    expect(searchTerms("Kellogg's 2x200g")).toEqual(['kellogg', 's', '2x200g'])
    expect(searchTerms('ताज़ा पनीर')).toEqual(['ताज़ा', 'पनीर'])
    expect(searchTerms('%_\\:*&|!()')).toEqual([])
    expect(searchTerms('a b c d e f g h i j')).toHaveLength(MAX_SEARCH_TERMS)
  })

  it('searches every plural and singular form, or a prefix, optionally in the name or brand only', () => {
    expect(wordQuery('egg')).toBe('(egg | eggs | egges)')
    expect(wordQuery('eggs', { weight: 'A' })).toBe('(eggs:A | egg:A)')
    expect(wordQuery('choc', { prefix: true, weight: 'B' })).toBe('choc:*B')
  })
})

describe('ranking', () => {
  it('puts the shelf the search names first, in stock before out of stock, compound names after', async () => {
    const res = await search({ search: 'milk' })
    const found = names(res.data)
    expect(found.slice(0, 2).sort()).toEqual(['Cow Milk', 'Toned Milk'])
    // Out of stock: after the in-stock milks, still before the milk cookies and the lotion.
    expect(found[2]).toBe('Full Cream Milk')
    // The last word is also taken as a prefix (the shopper may be typing "milky"): the Milky Mist curd.
    expect(found.slice(3).sort()).toEqual(['Almond Milk Cleansing Lotion', 'Dairy Milk Chocolate', 'Farm Fresh Curd/Dahi', 'Milk Cookies'])
    expect(res.understood).toEqual({ query: 'milk', synonyms: [], corrections: [], ignored: [], relaxed: [] })
  })

  it('lists the products of a shelf named by the search even when their names do not say it', async () => {
    expect(names((await search({ search: 'curd' })).data).sort()).toEqual(['Farm Fresh Curd/Dahi', 'Greek Yoghurt'])
  })

  it('ranks whole-word head nouns above words inside other names, and the shelf over a stray product', async () => {
    const found = names((await search({ search: 'paneer' })).data)
    expect(found.slice(0, 2).sort()).toEqual(['Malai Paneer', 'Paneer - Fresh'])
    expect(found[2]).toBe('Paneer Masala')
    expect(found).not.toContain('Paneer Tikka')
  })

  it('counts brands: "amul butter" puts Amul\'s butter first, then other butters', async () => {
    const found = names((await search({ search: 'amul butter' })).data)
    expect(found).toEqual(['Pasteurised Butter'])
    const butters = names((await search({ search: 'butter' })).data)
    expect(butters.slice(0, 2).sort()).toEqual(['Garlic Butter', 'Pasteurised Butter'])
    expect(butters[2]).toBe('Shea Butter Body Lotion')
    expect(names((await search({ search: 'amul' })).data).sort()).toEqual([
      'Dark Chocolate Bar',
      'Malai Paneer',
      'Pasteurised Butter',
      'Toned Milk',
    ])
  })

  it('takes a multi-word search for the shelf it names ("green tea": the tea before the face wash)', async () => {
    expect(names((await search({ search: 'green tea' })).data)).toEqual(['Green Tea', 'Green Tea Face Wash'])
  })

  it('matches word prefixes of the word being typed', async () => {
    expect(names((await search({ search: 'choc' })).data).sort()).toEqual(['Dairy Milk Chocolate', 'Dark Chocolate Bar'])
  })

  it('ignores case and punctuation, and treats query syntax as plain text', async () => {
    expect((await search({ search: '  MILK!! ' })).data).toEqual((await search({ search: 'milk' })).data)
    expect((await search({ search: "paneer:* | ' or 1=1 --" })).data.length).toBeGreaterThan(0)
    expect(await search({ search: '%_:*&|!()' })).toMatchObject({ totalCount: 26 })
  })

  it('pages a ranked search without repeating or skipping', async () => {
    const all = await search({ search: 'milk' })
    const first = await search({ search: 'milk', page: 1, limit: 4 })
    const second = await search({ search: 'milk', page: 2, limit: 4 })
    expect(first).toMatchObject({ totalCount: 7, totalPage: 2, page: 1, limit: 4 })
    expect([...first.data, ...second.data]).toEqual(all.data)
    expect(await search({ search: 'milk', page: 3, limit: 4 })).toMatchObject({ data: [], totalCount: 7, page: 3 })
  })
})

describe('synonyms', () => {
  it('finds milk for doodh and says so', async () => {
    const res = await search({ search: 'doodh' })
    // The same products as "milk" but the Milky Mist curd: a synonym is a whole word, never a prefix.
    const milk = names((await search({ search: 'milk' })).data).filter((n) => n !== 'Farm Fresh Curd/Dahi')
    expect(names(res.data)).toEqual(milk)
    expect(res.understood).toMatchObject({ query: 'doodh', synonyms: [{ word: 'doodh', means: ['milk'] }] })
  })

  it('maps dahi and curd both ways', async () => {
    expect(names((await search({ search: 'dahi' })).data).sort()).toEqual(['Farm Fresh Curd/Dahi', 'Greek Yoghurt'])
    expect((await search({ search: 'curd' })).understood?.synonyms).toEqual([{ word: 'curd', means: ['dahi'] }])
  })

  it('reads a two-word synonym as one thing ("wheat flour" finds atta)', async () => {
    const res = await search({ search: 'wheat flour' })
    expect(names(res.data)).toContain('Whole Wheat Atta')
    expect(res.understood?.synonyms).toEqual([{ word: 'wheat flour', means: ['atta'] }])
  })

  it('seeds at least 80 pairs from the data file, once: rows the store removes stay removed', async () => {
    const [{ n }] = await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from search_synonyms`)
    expect(n).toBeGreaterThanOrEqual(80)
    await t.db.delete(searchSynonyms).where(eq(searchSynonyms.word, 'kela'))
    expect(await seedSynonyms(t.db)).toBeNull()
    expect(await queryRows(t.db, sql`select 1 from search_synonyms where word = 'kela'`)).toEqual([])
  })

  it('gives a database seeded before a later batch that batch alone: a row of the first that the store removed stays removed', async () => {
    // As a database seeded before the 2026-12 batch: without its data fix and without one of its rows.
    await t.db.execute(sql`delete from data_fixes where name = ${SYNONYM_SEEDS['2026-12']}`)
    await t.db.delete(searchSynonyms).where(eq(searchSynonyms.word, 'kesar'))
    expect(await seedSynonyms(t.db)).toBe(1)
    expect(await queryRows(t.db, sql`select means, kind, source from search_synonyms where word = 'kesar'`)).toEqual([
      { means: 'saffron', kind: 'word', source: 'mcgregor' },
    ])
    expect(await queryRows(t.db, sql`select 1 from search_synonyms where word = 'kela'`)).toEqual([])
    expect(await seedSynonyms(t.db)).toBeNull()
  })
})

describe('spelling', () => {
  it('corrects bred to the frequent bread, not to brew, and says "did you mean"', async () => {
    const res = await search({ search: 'bred' })
    expect(names(res.data)).toContain('Whole Wheat Bread')
    expect(names(res.data)).not.toContain('Cold Brew Coffee')
    expect(res.understood).toMatchObject({ query: 'bread', corrections: [{ word: 'bred', to: 'bread' }] })
  })

  it('keeps a short word the catalogue knows: toor stays toor', async () => {
    const res = await search({ search: 'toor' })
    expect(names(res.data)).toEqual(['Toor Dal'])
    expect(res.understood?.corrections).toEqual([])
  })

  it('finds paneer for panner, never the banner', async () => {
    const res = await search({ search: 'panner' })
    expect(names(res.data)).not.toContain('Happy Birthday Banner')
    expect(names(res.data).slice(0, 2).sort()).toEqual(['Malai Paneer', 'Paneer - Fresh'])
    expect(res.understood?.corrections).toEqual([{ word: 'panner', to: 'paneer' }])
  })

  it('leaves out words that match nothing, and answers nothing when no word is left', async () => {
    const res = await search({ search: 'amul qzxwv' })
    expect(res.totalCount).toBe(4)
    expect(res.understood).toMatchObject({ query: 'amul', ignored: ['qzxwv'] })
    expect(await search({ search: 'xylophone' })).toMatchObject({ data: [], totalCount: 0, totalPage: 0 })
    // Eight random words: only the first three are looked up by spelling; all are left out.
    const random = await search({ search: 'zzqxa yyqvb wwqkc vvqjd uuqhe ttqgf ssqfg rrqdh' })
    expect(random).toMatchObject({ data: [], totalCount: 0 })
    expect(random.understood?.ignored).toHaveLength(8)
  })

  it('keeps the head noun when no product has every word ("chocolate bread" → bread)', async () => {
    const res = await search({ search: 'chocolate bread' })
    expect(names(res.data).sort()).toEqual(['Bread Knife', 'Sandwich Bread', 'Whole Wheat Bread'])
    expect(res.understood).toMatchObject({ query: 'bread', relaxed: ['chocolate'] })
  })
})

describe('facets and sorting', () => {
  it('counts brands, price bands and discounts of the search, each under the other filters', async () => {
    const res = await search({ search: 'milk', facets: true })
    expect(res.facets!.brand).toEqual(
      expect.arrayContaining([
        { value: 'Amul', label: 'Amul', count: 1 },
        { value: 'Heritage', label: 'Heritage', count: 1 },
      ]),
    )
    expect(res.facets!.price.find((p) => p.value === '0-50')!.count).toBe(3)
    expect(res.facets!.discount).toEqual([
      { value: '10', label: '10% off or more', count: 3 },
      { value: '25', label: '25% off or more', count: 1 },
      { value: '40', label: '40% off or more', count: 0 },
    ])
    const amul = await search({ search: 'milk', facets: true, brand: ['amul'] })
    expect(names(amul.data)).toEqual(['Toned Milk'])
    // The brand facet still offers the other brands; the price facet counts Amul's products only.
    expect(amul.facets!.brand.length).toBe(res.facets!.brand.length)
    expect(amul.facets!.price.find((p) => p.value === '0-50')!.count).toBe(1)
  })

  it('filters by price band and least discount, and sorts by price and by discount', async () => {
    expect(names((await search({ search: 'milk', price: '100-200' })).data)).toEqual([])
    expect(names((await search({ search: 'milk', discount: '25' })).data)).toEqual(['Almond Milk Cleansing Lotion'])
    const asc = (await search({ search: 'milk', sort: 'price_asc' })).data.map((p) => p.sellingPrice)
    expect(asc).toEqual([...asc].sort((a, b) => a - b))
    const desc = (await search({ search: 'milk', sort: 'price_desc' })).data.map((p) => p.sellingPrice)
    expect(desc).toEqual([...desc].sort((a, b) => b - a))
    const off = (await search({ search: 'milk', sort: 'discount' })).data.map((p) => p.discount)
    expect(off).toEqual([...off].sort((a, b) => b - a))
  })

  it('filters, sorts and counts a category listing, which answers as before without them', async () => {
    const listing = (json: Record<string, unknown>) =>
      t.call('product/get-product-by-category-and-subcategory', { json: { categoryId: cat['Bakery, Cakes & Dairy']!.id, ...json } })
    const plain = await listing({ limit: 50 })
    expect(Object.keys(plain.body).sort()).toEqual(['data', 'error', 'limit', 'message', 'page', 'success', 'totalCount'])
    expect(plain.body.totalCount).toBe(11)
    const amul = await listing({ limit: 50, brand: 'Amul', facets: true, sort: 'price_desc' })
    expect(names(amul.body.data)).toEqual(['Malai Paneer', 'Pasteurised Butter', 'Toned Milk'])
    expect(amul.body.totalCount).toBe(3)
    expect(amul.body.facets.brand.find((b: { value: string }) => b.value === 'Heritage').count).toBe(1)
    const milkShelf = await t.call('product/get-product-by-category-and-subcategory', {
      json: { categoryId: cat['Bakery, Cakes & Dairy']!.id, subCategoryId: sub.Milk!.id, sort: 'price_asc' },
    })
    expect(names(milkShelf.body.data)).toEqual(['Cow Milk', 'Toned Milk', 'Full Cream Milk'])
  })

  it('sorts a listing by popularity (most ordered first, in stock first) and by newest', async () => {
    const shelf = (sort?: string) =>
      t.call('product/get-product-by-category-and-subcategory', {
        json: { categoryId: cat['Bakery, Cakes & Dairy']!.id, subCategoryId: sub.Milk!.id, limit: 50, ...(sort ? { sort } : {}) },
      })
    const plain = (await shelf()).body.data as Answered[]
    // `newest` is the listing's order of old (what the original client gets without a sort).
    expect(names((await shelf('newest')).body.data)).toEqual(names(plain))
    // The last in-stock product of the shelf is ordered twice: it comes first; the sold-out one stays last.
    const inStock = plain.filter((x) => x.stock > 0)
    const target = inStock.at(-1)!
    for (let n = 0; n < 2; n++) {
      const who = await shopperWithLine(t, target._id)
      expect((await placeWithKey(t, who, `popular-${process.pid}-${n}`)).status).toBe(201)
    }
    // (The first popular answer of this list: a cached one lags new orders by up to the cache's TTL.)
    const popular = names((await shelf('popular')).body.data)
    expect(popular[0]).toBe(target.name)
    expect(popular.at(-1)).toBe(plain.at(-1)!.name)
    expect(names((await shelf()).body.data)).toEqual(names(plain))
  })

  it('refuses unknown bands, steps, sorts and too many or malformed brands with 400', async () => {
    for (const json of [
      { search: 'milk', price: '1-2' },
      { search: 'milk', discount: 7 },
      { search: 'milk', sort: 'cheapest' },
      { search: 'milk', brand: Array.from({ length: 21 }, (_, i) => `b${i}`) },
      { search: 'milk', brand: 'Am\u0000ul' },
      { search: 'milk', facets: 'yes' },
    ]) {
      const res = await t.call('product/search-product', { json })
      expect(res.status).toBe(400)
      expect(res.body.issues.length).toBeGreaterThan(0)
    }
  })
})

describe('the original client', () => {
  it('gets every published product newest first for an empty search, with the keys of old', async () => {
    const res = await t.call('product/search-product', { json: { search: '', limit: 100 } })
    expect(Object.keys(res.body).sort()).toEqual(['data', 'error', 'limit', 'message', 'page', 'success', 'totalCount', 'totalPage'])
    expect(res.body.totalCount).toBe(26)
    expect(names(res.body.data)).not.toContain('Paneer Tikka')
    const viaGet = await t.call('product/get', { json: { search: 'milk', limit: 2 } })
    expect(viaGet.body.data).toEqual((await search({ search: 'milk', limit: 2 })).data)
    expect(viaGet.body).toMatchObject({ totalCount: 7, totalNoPage: 4 })
  })

  it('refuses wrong types with 400 and issues', async () => {
    for (const json of [{ search: {} }, { search: ['paneer'] }, { page: 'x' }, { limit: { $gt: 0 } }]) {
      const res = await t.call('product/search-product', { json })
      expect(res.status).toBe(400)
      expect(res.body.issues.length).toBeGreaterThan(0)
    }
  })
})

describe('the vocabulary after catalogue writes', () => {
  const vocabulary = async (word: string) =>
    (await queryRows<{ products: number }>(t.db, sql`select products from search_vocabulary where word = ${word}`))[0]?.products ?? 0

  it('follows creates, renames, unpublishing and deletes, and spelling follows it', async () => {
    const image = await storeTestImage(t)
    const body = {
      name: 'Quinoa Puffs',
      image: [image],
      category: [cat['Snacks & Branded Foods']!.id],
      unit: '100 g',
      stock: 5,
      price: 99,
      discount: 0,
      description: 'Puffed quinoa.',
      more_details: { brand: 'Kwality' },
    }
    const created = await t.call('product/create', { json: body, token: admin.token })
    expect(created.status).toBe(201)
    const second = await t.call('product/create', { json: { ...body, name: 'Quinoa Flakes' }, token: admin.token })
    expect(await vocabulary('quinoa')).toBe(2)
    expect(await vocabulary('kwality')).toBe(2)
    expect((await search({ search: 'quinao' })).understood?.corrections).toEqual([{ word: 'quinao', to: 'quinoa' }])

    await t.call('product/update-product-details', {
      method: 'PUT',
      json: { _id: created.body.data._id, name: 'Millet Puffs' },
      token: admin.token,
    })
    expect(await vocabulary('quinoa')).toBe(1)
    expect(await vocabulary('millet')).toBe(1)
    expect(await vocabulary('puffs')).toBe(1)

    await t.db.update(products).set({ publish: false }).where(eq(products.id, second.body.data._id))
    expect(await vocabulary('quinoa')).toBe(0)
    expect(await vocabulary('flakes')).toBe(0)
    await t.db.update(products).set({ publish: true }).where(eq(products.id, second.body.data._id))
    expect(await vocabulary('quinoa')).toBe(1)

    await t.call('product/delete-product', { method: 'DELETE', json: { _id: second.body.data._id }, token: admin.token })
    expect(await vocabulary('quinoa')).toBe(0)
    expect(await vocabulary('kwality')).toBe(1)
    expect((await search({ search: 'quinao' })).totalCount).toBe(0)
    expect(names((await search({ search: 'millet' })).data)).toEqual(['Millet Puffs'])
  })

  it('matches a whole rebuild of the vocabulary from the products', async () => {
    const drift = await queryRows(
      t.db,
      sql`with truth as (
            select w as word, count(*)::int as products from products p, search_vocabulary_words(p.search_doc) w
            where p.publish group by w)
          select * from truth full join search_vocabulary v using (word)
          where truth.products is distinct from v.products`,
    )
    expect(drift).toEqual([])
  })
})

describe('the shelf copies after catalogue writes', () => {
  it('follow a product moved to another shelf: the search finds it by its new shelf only', async () => {
    const image = await storeTestImage(t)
    const created = await t.call('product/create', {
      json: {
        name: 'Ragi Crunchies',
        image: [image],
        category: [cat['Snacks & Branded Foods']!.id],
        subCategory: [sub['Cookies']!.id],
        unit: '150 g',
        stock: 5,
        price: 60,
        discount: 0,
        description: 'Baked ragi bites.',
        more_details: { brand: 'Kwality' },
      },
      token: admin.token,
    })
    expect(created.status).toBe(201)
    expect(names((await search({ search: 'cookies', limit: 50 })).data)).toContain('Ragi Crunchies')
    expect(names((await search({ search: 'chocolates', limit: 50 })).data)).not.toContain('Ragi Crunchies')

    const moved = await t.call('product/update-product-details', {
      method: 'PUT',
      json: { _id: created.body.data._id, subCategory: [sub['Chocolates']!.id] },
      token: admin.token,
    })
    expect(moved.status).toBe(200)
    expect(names((await search({ search: 'cookies', limit: 50 })).data)).not.toContain('Ragi Crunchies')
    expect(names((await search({ search: 'chocolates', limit: 50 })).data)).toContain('Ragi Crunchies')
  })

  it('match the link tables for every product, and a stock update leaves the vocabulary alone', async () => {
    const before = await queryRows(t.db, sql`select word, products from search_vocabulary order by word`)
    await t.db.execute(sql`update inventory set stock = 7`)
    expect(await queryRows(t.db, sql`select word, products from search_vocabulary order by word`)).toEqual(before)
    const drift = await queryRows(
      t.db,
      sql`select p.id from products p
          where p.search_category_ids <> array(select category_id from product_categories where product_id = p.id order by 1)
             or p.search_sub_category_ids <> array(select sub_category_id from product_sub_categories where product_id = p.id order by 1)`,
    )
    expect(drift).toEqual([])
  })
})
