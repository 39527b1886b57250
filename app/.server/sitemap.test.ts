/**
 * The sitemap XML (app/.server/sitemap.ts) against the real API (createApp on a fresh PGlite, called
 * in process as server.ts wires it): which URLs are listed, their form (absolute, canonical slugs),
 * the index above the URL limit, and 404 for files that do not exist.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../api/testing/app.ts'
import { insertCategory, insertProduct, insertSubCategory } from '../../api/testing/fixtures.ts'
import { rootSitemap, sitemapFile } from './sitemap.ts'
import { inProcessWiring, apiFor } from './api-context.ts'

const ORIGIN = 'https://shop.example'
let t: TestApp
let ids: { dairy: string; milk: string; toned: string; hidden: string }

beforeAll(async () => {
  t = await createTestApp()
  const dairy = await insertCategory(t.db, { name: 'Dairy & Eggs' })
  const milk = await insertSubCategory(t.db, { name: 'Milk', categoryIds: [dairy.id] })
  const toned = await insertProduct(t.db, { name: 'Amul Taaza Toned Milk', categoryIds: [dairy.id], subCategoryIds: [milk.id] })
  const hidden = await insertProduct(t.db, { name: 'Draft product', categoryIds: [dairy.id], publish: false })
  ids = { dairy: dairy.id, milk: milk.id, toned: toned.id, hidden: hidden.id }
})
afterAll(async () => {
  await t?.close()
})

// The BFF calls the API in process, as server.ts wires it (app/.server/api-context.ts).
const api = apiFor(inProcessWiring(async (request) => t.app.fetch(request)))

const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1])

describe('sitemap.xml', () => {
  it('lists home, categories, shelves and published products with absolute canonical URLs', async () => {
    const xml = await rootSitemap(api, ORIGIN)
    expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">')
    expect(locs(xml)).toEqual([
      'https://shop.example/',
      `https://shop.example/Dairy-Eggs-${ids.dairy}`,
      `https://shop.example/Dairy-Eggs-${ids.dairy}/Milk-${ids.milk}`,
      `https://shop.example/product/Amul-Taaza-Toned-Milk-${ids.toned}`,
    ])
    expect(xml).not.toContain(ids.hidden)
    expect(xml).toMatch(/<lastmod>\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z<\/lastmod>/)
  })

  it('becomes a sitemap index over shelves and product files above the URL limit', async () => {
    const xml = await rootSitemap(api, ORIGIN, undefined, 3)
    expect(xml).toContain('<sitemapindex')
    expect(locs(xml)).toEqual(['https://shop.example/sitemaps/shelves.xml', 'https://shop.example/sitemaps/products-1.xml'])
    expect(locs((await sitemapFile(api, ORIGIN, 'shelves.xml'))!)).toHaveLength(3)
    expect(locs((await sitemapFile(api, ORIGIN, 'products-1.xml'))!)).toEqual([
      `https://shop.example/product/Amul-Taaza-Toned-Milk-${ids.toned}`,
    ])
  })

  it('has no file for unknown names or pages past the end', async () => {
    expect(await sitemapFile(api, ORIGIN, 'products-2.xml')).toBeNull()
    expect(await sitemapFile(api, ORIGIN, 'products-0.xml')).toBeNull()
    expect(await sitemapFile(api, ORIGIN, 'secrets.xml')).toBeNull()
    expect(await sitemapFile(api, ORIGIN, 'products-1.xml.gz')).toBeNull()
  })
})
