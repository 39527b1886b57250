/**
 * Lighthouse on a phone (scripts/lighthouse.ts: mobile preset, simulated throttling) for the home
 * page, a listing, a product page and /login: the audits that do not depend on the machine's speed
 * must all pass (accessibility, best practices and SEO at 100) and every page must report a Largest
 * Contentful Paint (docs/decisions/0018-page-cache.md). The performance scores vary with the
 * machine's load, so they are measured in `npm run bench`, not asserted here. Lighthouse drives its
 * own browser, so this runs once, in the "js" project.
 */
import { expect, test } from '@playwright/test'
import { runLighthouse } from '../../scripts/lighthouse.ts'
import { api, findListing, isJs, slug } from './helpers.ts'

test('home, a listing, a product page and /login pass Lighthouse accessibility, best practices and SEO, and report an LCP', async ({
  request,
}, testInfo) => {
  test.skip(!isJs(testInfo), 'Lighthouse runs its own browser: once is enough')
  test.setTimeout(300_000)
  const base = testInfo.project.use.baseURL!
  const listing = await findListing(request, 'Fruits & Vegetables', 'Exotic Vegetables')
  const [product] = (await api<Array<{ _id: string; name: string }>>(request, '/product/get', { page: 1, limit: 1, search: 'milk' })).data
  // The canonical URLs: a slug the page would redirect is not what a shopper lands on.
  const final = async (path: string) => new URL((await request.get(path)).url()).pathname
  const pages = ['/', await final(listing.path), await final(`/product/${encodeURIComponent(slug(product!.name, product!._id))}`), '/login']

  const results = await runLighthouse(
    pages.map((path) => new URL(path, base).href),
    { runs: 1 },
  )
  for (const result of results) {
    const failing = result.failing.map((f) => `${f.category}: ${f.id}`)
    expect(failing, `${result.url}: audits not passed`).toEqual([])
    expect({ accessibility: result.accessibility, bestPractices: result.bestPractices, seo: result.seo }, result.url).toEqual({
      accessibility: 100,
      bestPractices: 100,
      seo: 100,
    })
    expect(result.lcpMs, `${result.url} reports a Largest Contentful Paint`).not.toBeNull()
  }
})
