/**
 * The home page's main-thread blocking on a phone-like browser (docs/decisions/0046-cheap-product-cards.md):
 * 360×640, the CPU slowed 4× through the Chrome DevTools Protocol (`Emulation.setCPUThrottlingRate`),
 * the long tasks (W3C Long Tasks API: tasks over 50 ms) of one load and the three seconds after it
 * (hydration, effects) must add up to at most LONG_TASK_BUDGET_MS. A product card that hydrates
 * with a fetcher and effects of its own again fails it.
 *
 * Other work on the machine only ever adds to a task's wall time, so the test loads the page LOADS
 * times and checks the smallest sum: the one least disturbed.
 *
 * JavaScript project only: without scripts the page runs no tasks of its own to hydrate, and the
 * observer that counts them is a script.
 */
import { expect, test } from '@playwright/test'
import { phoneContext, profileLoad } from '../../scripts/profile-page.ts'
import { isJs } from './helpers.ts'

/**
 * The bound, ms of long tasks: the target of 300 ms (docs/decisions/0046-cheap-product-cards.md,
 * "Decision") with a margin for a loaded CI machine; see that record for what this machine measured.
 */
const LONG_TASK_BUDGET_MS = 450

/** Loads measured; the smallest sum counts. */
const LOADS = 3

test.use({ viewport: { width: 360, height: 640 } })

test('home under 4x CPU throttling: long tasks add up to at most the budget', async ({ browser }, testInfo) => {
  test.skip(!isJs(testInfo), 'no JavaScript, no long tasks to count (the observer is a script)')
  test.setTimeout(120_000)
  const base = testInfo.project.use.baseURL!
  // A first load renders the page into the page cache (app/.server/page-cache.ts): the measured one is a shopper's usual.
  const warm = await browser.newContext()
  await (await warm.newPage()).goto(base)
  await warm.close()

  const sums: Array<{ sum: number; tasks: number[]; lcp: string | null }> = []
  for (let i = 0; i < LOADS; i++) {
    const context = await phoneContext(browser)
    const profile = await profileLoad(await context.newPage(), new URL('/', base).href, { trace: false })
    await context.close()
    sums.push({ sum: profile.longTaskSumMs, tasks: profile.longTasks, lcp: profile.lcpElement })
  }
  const least = sums.reduce((a, b) => (b.sum < a.sum ? b : a))
  testInfo.annotations.push({ type: 'long tasks', description: sums.map((s) => `${s.sum} ms [${s.tasks.join(', ')}]`).join('; ') })
  expect(least.lcp, 'the page reported its largest paint (the observers ran)').not.toBeNull()
  expect(least.sum, `long tasks of the least disturbed load: ${least.tasks.join(', ')} ms`).toBeLessThanOrEqual(LONG_TASK_BUDGET_MS)
})
