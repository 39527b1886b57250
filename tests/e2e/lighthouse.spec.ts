/**
 * Lighthouse on a phone (scripts/lighthouse.ts: mobile preset, simulated throttling) for the home
 * page, a listing, a product page and /login: the audits that do not depend on the machine's speed
 * must all pass (accessibility, best practices and SEO at 100) and every page must report a Largest
 * Contentful Paint (docs/decisions/0018-page-cache.md); the home page's Total Blocking Time, the
 * median of three runs, stays under a bound (docs/decisions/0060-long-task-check.md), and so does its
 * Largest Contentful Paint (docs/decisions/0077-scripts-after-first-paint.md). The other
 * performance figures vary with the machine's load, so they are measured in `npm run bench`, not
 * asserted here. Lighthouse drives its own browser, so this runs once, in the "quiet" project, after
 * every other test has finished (playwright.config.ts).
 */
import { expect, test } from '@playwright/test'
import { runLighthouse } from '../../scripts/lighthouse.ts'
import { api, findListing, slug } from './helpers.ts'

/** Lighthouse runs of the home page: the median of three is steady where one run is not (Lighthouse docs, "Variability"). */
const HOME_RUNS = 3
/**
 * The home page's Total Blocking Time bound, ms: the target of 200 ms (docs/decisions/0046-cheap-product-cards.md)
 * with a margin for a slower CI machine; the quiet machine measures 28-133 ms.
 */
const HOME_TBT_MAX_MS = 300
/**
 * The home page's Largest Contentful Paint bound, ms (the median of the same runs). The target is
 * 2,500 ms; with its modules fetched after the first paint home measures 1,136-1,390 ms, and 2,349-2,836 ms
 * without (docs/decisions/0077-scripts-after-first-paint.md), so the bound between them fails when the
 * modules are fetched before the paint again. Lighthouse simulates the network, so the machine's load
 * moves it little (1,158-1,288 ms with both cores busy).
 */
const HOME_LCP_MAX_MS = 2_000
/** Runs of the second sample, taken only when the first sample's median is over the bound. */
const HOME_RECHECK_RUNS = 5
/**
 * The second sample's bound, ms: a busy CI machine measured 389-574 ms over three runs and 392 ms
 * over five with the code that measures 28-133 ms quiet; the regression this check exists for
 * measured 420-1,320 ms quiet, so it stays over this bound on a busy machine too.
 */
const HOME_RECHECK_TBT_MAX_MS = 500

test('home, a listing, a product page and /login pass Lighthouse accessibility, best practices and SEO, report an LCP, and home blocks the main thread under 300 ms and paints its banner within 2 s', async ({
  request,
}, testInfo) => {
  // Up to 3 + 5 Lighthouse loads of home and one of each other page, on a loaded 2-core machine.
  test.setTimeout(480_000)
  const base = testInfo.project.use.baseURL!
  const listing = await findListing(request, 'Fruits & Vegetables', 'Exotic Vegetables')
  const [product] = (await api<Array<{ _id: string; name: string }>>(request, '/product/get', { page: 1, limit: 1, search: 'milk' })).data
  // The canonical URLs: a slug the page would redirect is not what a shopper lands on.
  const final = async (path: string) => new URL((await request.get(path)).url()).pathname
  const pages = ['/', await final(listing.path), await final(`/product/${encodeURIComponent(slug(product!.name, product!._id))}`), '/login']

  // Home three times (its blocking time is held below), the other pages once.
  const [home, ...others] = pages.map((path) => new URL(path, base).href)
  let [homeResult] = await runLighthouse([home!], { runs: HOME_RUNS })
  const firstTbt = homeResult!.tbtMs
  // A busy machine can slow one sample of three; a regression shows in a second, larger sample too
  // (docs/decisions/0060-long-task-check.md).
  const recheck = firstTbt === null || firstTbt > HOME_TBT_MAX_MS
  if (recheck) [homeResult] = await runLighthouse([home!], { runs: HOME_RECHECK_RUNS })
  const results = [homeResult!, ...(await runLighthouse(others, { runs: 1 }))]
  // Main-thread blocking on a phone: Lighthouse's Total Blocking Time (the long tasks' time over
  // 50 ms each, with the CPU slowed 4×), the median of the loads (docs/decisions/0060-long-task-check.md).
  const sample = recheck ? `median of ${HOME_RECHECK_RUNS} runs after ${firstTbt} ms over ${HOME_RUNS}` : `median of ${HOME_RUNS} runs`
  // The figures either way, so a run's log shows the margin to each bound.
  const figures = `home, ${sample}: performance ${homeResult!.performance}, TBT ${homeResult!.tbtMs} ms, LCP ${homeResult!.lcpMs} ms, FCP ${homeResult!.fcpMs} ms`
  console.log(figures)
  testInfo.annotations.push({ type: 'figures', description: figures })
  expect(results[0]!.tbtMs, `${home}: Total Blocking Time, ${sample}`).toBeLessThanOrEqual(
    recheck ? HOME_RECHECK_TBT_MAX_MS : HOME_TBT_MAX_MS,
  )
  expect(results[0]!.lcpMs, `${home}: Largest Contentful Paint, ${sample}`).toBeLessThanOrEqual(HOME_LCP_MAX_MS)
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
