/**
 * POST /api/product/search-product (and /get with a search) on a fresh database (PGlite, or
 * PostgreSQL with TEST_DATABASE_URL): full-text word prefixes over name and brand, typo tolerance
 * by pg_trgm ("panner" finds paneer, "choclate" finds chocolate) without unrelated products, the
 * ranking (exact name, whole words, word prefixes, then by spelling), paging and unpublished products.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Product } from '../../db/schema.ts'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { insertCategory, insertProducts } from '../../testing/fixtures.ts'
import { MAX_SEARCH_TERMS, searchTerms, wordQuery } from './terms.ts'

let t: TestApp
const p: Record<string, Product> = {}

type Answered = { _id: string; name: string }
const names = (list: Answered[]) => list.map((x) => x.name)

async function search(json: Record<string, unknown>) {
  const res = await t.call('product/search-product', { json })
  expect(res.status).toBe(200)
  return res.body as { data: Answered[]; totalCount: number; totalPage: number; page: number; limit: number }
}

beforeAll(async () => {
  t = await createTestApp()
  const dairy = await insertCategory(t.db, { name: 'Dairy' })
  const snacks = await insertCategory(t.db, { name: 'Snacks' })
  const home = await insertCategory(t.db, { name: 'Home' })
  const fixtures = [
    { key: 'paneer', name: 'Paneer', brand: 'Fresho', category: dairy.id },
    { key: 'paneerMasala', name: 'Paneer Butter Masala', brand: 'MTR', category: dairy.id },
    { key: 'malaiPaneer', name: 'Malai Paneer', brand: 'Amul', category: dairy.id },
    { key: 'freshPaneer', name: 'Fresh Paneer - Soft', brand: 'Milky Mist', category: dairy.id },
    { key: 'banner', name: 'Happy Birthday Paper Banner', brand: 'Partyland', category: home.id },
    { key: 'pants', name: 'Diaper Pants - Medium', brand: 'Pampers', category: home.id },
    { key: 'pan', name: 'Frying Pan - Non Stick', brand: 'Prestige', category: home.id },
    { key: 'banana', name: 'Banana - Robusta', brand: 'Fresho', category: snacks.id },
    { key: 'dairyMilk', name: 'Dairy Milk Chocolate', brand: 'Cadbury', category: snacks.id },
    { key: 'darkChocolate', name: 'Dark Chocolate Bar 70%', brand: 'Amul', category: snacks.id },
    { key: 'cookies', name: 'Chocolate Chip Cookies', brand: 'Unibic', category: snacks.id },
    { key: 'coldCoffee', name: 'Cold Coffee', brand: 'Nescafe', category: snacks.id },
    { key: 'coconutOil', name: 'Coconut Oil', brand: 'Parachute', category: home.id },
    { key: 'milk', name: 'Toned Milk', brand: 'Amul', category: dairy.id },
    { key: 'dallas', name: 'Dallas Wine Glass', brand: 'BB Home', category: home.id },
    { key: 'toorDal', name: 'Toor Dal', brand: 'Tata Sampann', category: dairy.id },
    { key: 'eggless', name: 'Eggless Cake', brand: 'Fresho', category: snacks.id },
    { key: 'brownEggs', name: 'Brown Eggs', brand: 'Fresho', category: dairy.id },
  ]
  const rows = await insertProducts(
    t.db,
    fixtures.map((f) => ({ name: f.name, moreDetails: { brand: f.brand }, categoryIds: [f.category] })),
  )
  fixtures.forEach((f, i) => (p[f.key] = rows[i]!))
  const [hidden] = await insertProducts(t.db, [{ name: 'Paneer Tikka', publish: false, categoryIds: [dairy.id] }])
  p.hidden = hidden!
})
afterAll(() => t?.close())

describe('searchTerms', () => {
  it('lower-cases, splits on punctuation, keeps marks inside words and stops at 8 words', () => {
    expect(searchTerms('  Amul  PANNER!')).toEqual(['amul', 'panner'])
    expect(searchTerms("Kellogg's 2x200g")).toEqual(['kellogg', 's', '2x200g'])
    expect(searchTerms('ताज़ा पनीर')).toEqual(['ताज़ा', 'पनीर'])
    expect(searchTerms('%_\\:*&|!()')).toEqual([])
    expect(searchTerms('a b c d e f g h i j')).toHaveLength(MAX_SEARCH_TERMS)
  })
})

describe('wordQuery', () => {
  it('adds the plain English plural, or the singular of a plural', () => {
    expect(wordQuery('egg')).toBe('egg | eggs | egges')
    expect(wordQuery('eggs')).toBe('eggs | eggss | eggses | egg')
    expect(wordQuery('potatoes')).toBe('potatoes | potatoess | potatoeses | potatoe | potato')
    expect(wordQuery('gas')).toBe('gas | gass | gases')
  })
})

describe('POST /api/product/search-product', () => {
  it('finds paneer for "panner", ranked above a rarer word of the same spelling distance', async () => {
    const res = await search({ search: 'panner' })
    expect(res).toMatchObject({ totalCount: 5, totalPage: 1, page: 1, limit: 10 })
    const found = names(res.data)
    expect(found.slice(0, 4).sort()).toEqual(['Fresh Paneer - Soft', 'Malai Paneer', 'Paneer', 'Paneer Butter Masala'])
    // "banner" is one letter from "panner" too; four products say paneer, one says banner.
    expect(found[4]).toBe('Happy Birthday Paper Banner')
    for (const unrelated of ['Diaper Pants - Medium', 'Frying Pan - Non Stick', 'Banana - Robusta', 'Paneer Tikka']) {
      expect(found).not.toContain(unrelated)
    }
  })

  it('finds chocolate for "choclate" and nothing unrelated', async () => {
    const res = await search({ search: 'choclate' })
    expect(names(res.data).sort()).toEqual(['Chocolate Chip Cookies', 'Dairy Milk Chocolate', 'Dark Chocolate Bar 70%'])
    expect(res.totalCount).toBe(3)
  })

  it('ranks the exact name first, then names starting with the search, then other matches', async () => {
    const res = await search({ search: 'paneer' })
    const found = names(res.data)
    expect(found.slice(0, 2)).toEqual(['Paneer', 'Paneer Butter Masala'])
    expect(found.slice(2).sort()).toEqual(['Fresh Paneer - Soft', 'Malai Paneer'])
    expect(res.totalCount).toBe(4)
    expect(found).not.toContain('Paneer Tikka')
  })

  it('ranks products matching as typed above products matching only by spelling', async () => {
    await insertProducts(t.db, [{ name: 'Cheese Slices - Panner Style', moreDetails: { brand: 'Go' } }])
    t.deps.cache.invalidate()
    const res = await search({ search: 'panner' })
    expect(names(res.data)[0]).toBe('Cheese Slices - Panner Style')
    expect(res.totalCount).toBe(6)
  })

  it('ranks whole words above word prefixes', async () => {
    expect(names((await search({ search: 'dal' })).data)).toEqual(['Toor Dal', 'Dallas Wine Glass'])
    // A plural counts as the whole word: "Brown Eggs" before "Eggless Cake", which starts with "egg".
    expect(names((await search({ search: 'egg' })).data)).toEqual(['Brown Eggs', 'Eggless Cake'])
    expect(names((await search({ search: 'eggs' })).data)).toEqual(['Brown Eggs'])
    // The paneer matches by its brand, Milky Mist: a prefix, so after both whole-word matches.
    expect(names((await search({ search: 'milk' })).data)).toEqual(['Toned Milk', 'Dairy Milk Chocolate', 'Fresh Paneer - Soft'])
  })

  it('matches word prefixes and brands, and every word must match', async () => {
    expect(names((await search({ search: 'choc' })).data).sort()).toEqual([
      'Chocolate Chip Cookies',
      'Dairy Milk Chocolate',
      'Dark Chocolate Bar 70%',
    ])
    expect(names((await search({ search: 'amul' })).data).sort()).toEqual(['Dark Chocolate Bar 70%', 'Malai Paneer', 'Toned Milk'])
    expect(names((await search({ search: 'amul panner' })).data)).toEqual(['Malai Paneer'])
  })

  it('ignores case and punctuation', async () => {
    const plain = await search({ search: 'paneer' })
    const shouted = await search({ search: '  PANEER!! ' })
    expect(shouted.data).toEqual(plain.data)
  })

  it('pages a ranked search without repeating or skipping', async () => {
    // By now "Cheese Slices - Panner Style" is there too: 4 paneer products and 1 spelling match.
    const all = await search({ search: 'paneer' })
    expect(all.totalCount).toBe(5)
    const first = await search({ search: 'paneer', page: 1, limit: 3 })
    const second = await search({ search: 'paneer', page: 2, limit: 3 })
    expect(first).toMatchObject({ totalCount: 5, totalPage: 2, page: 1, limit: 3 })
    expect(second).toMatchObject({ totalCount: 5, totalPage: 2, page: 2, limit: 3 })
    expect([...first.data, ...second.data]).toEqual(all.data)
    expect(names(all.data).at(-1)).toBe('Cheese Slices - Panner Style')
    const past = await search({ search: 'paneer', page: 3, limit: 3 })
    expect(past).toMatchObject({ data: [], totalCount: 5, page: 3 })
  })

  it('answers nothing for a word that matches nothing', async () => {
    expect(await search({ search: 'xylophone' })).toMatchObject({ data: [], totalCount: 0, totalPage: 0 })
  })

  it('treats query syntax as plain text', async () => {
    expect(await search({ search: "paneer:* | ' or 1=1 --" })).toMatchObject({ totalCount: 0 })
    const onlySyntax = await search({ search: '%_:*&|!()' })
    expect(onlySyntax.totalCount).toBe(19)
  })

  it('answers every published product, newest first, for an empty search', async () => {
    const res = await search({ search: '', limit: 100 })
    expect(res.totalCount).toBe(19)
    expect(res.data[0]!.name).toBe('Cheese Slices - Panner Style')
    expect(res.data[1]!._id).toBe(p.brownEggs!.id)
    expect(names(res.data)).not.toContain('Paneer Tikka')
    const noSearch = await search({})
    expect(noSearch.data).toEqual(res.data.slice(0, 10))
  })

  it('refuses wrong types with 400 and issues', async () => {
    for (const json of [{ search: {} }, { search: ['paneer'] }, { page: 'x' }, { limit: { $gt: 0 } }]) {
      const res = await t.call('product/search-product', { json })
      expect(res.status).toBe(400)
      expect(res.body.issues.length).toBeGreaterThan(0)
    }
  })
})

describe('POST /api/product/get with a search', () => {
  it('answers the same products as search-product, with totalNoPage', async () => {
    const viaGet = await t.call('product/get', { json: { search: 'choclate', limit: 2 } })
    const viaSearch = await search({ search: 'choclate', limit: 2 })
    expect(viaGet.status).toBe(200)
    expect(viaGet.body.data).toEqual(viaSearch.data)
    expect(viaGet.body).toMatchObject({ totalCount: 3, totalNoPage: 2 })
  })
})
