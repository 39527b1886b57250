/**
 * The search page (docs/product.md, "Search": a real results page: GET form with `?q=`, autofocused
 * input with the placeholder "Search for atta dal and more", typo tolerance "panner" → paneer and
 * "choclate" → chocolate, a 300 ms debounced update while typing with JavaScript on).
 */
import { test, expect, type Page } from '@playwright/test'
import { isJs, productCards, waitForHydration } from './helpers.ts'
import { SEARCH_DEBOUNCE_MS } from '../../app/lib/use-debounce.ts'

const PLACEHOLDER = 'Search for atta dal and more'

function searchBox(page: Page) {
  return page.getByRole('main').getByPlaceholder(PLACEHOLDER).or(page.getByRole('banner').getByPlaceholder(PLACEHOLDER)).first()
}

test('/search?q=panner shows a paneer product', async ({ page }) => {
  await page.goto('/search?q=panner')
  await expect(
    productCards(page)
      .filter({ hasText: /paneer/i })
      .first(),
  ).toBeVisible()
  await expect(searchBox(page)).toHaveValue('panner')
})

test('/search?q=choclate shows a chocolate product', async ({ page }) => {
  await page.goto('/search?q=choclate')
  await expect(
    productCards(page)
      .filter({ hasText: /chocolate/i })
      .first(),
  ).toBeVisible()
})

test('submitting the search form shows results', async ({ page }, testInfo) => {
  await page.goto('/search')
  const box = searchBox(page)
  await expect(box).toBeVisible()
  if (isJs(testInfo)) await expect(box).toBeFocused()
  else await expect(box).toHaveAttribute('autofocus', /.*/)
  await box.fill('paneer')
  await box.press('Enter')
  await expect(page).toHaveURL(/\/search\?(.*&)?q=paneer(&|$)/)
  await expect(
    productCards(page)
      .filter({ hasText: /paneer/i })
      .first(),
  ).toBeVisible()
})

test('typing updates the results without Enter (debounced)', async ({ page }, testInfo) => {
  test.skip(!isJs(testInfo), 'the update while typing needs JavaScript; without it the form is submitted')
  await page.goto('/search?q=milk')
  await expect(productCards(page).first()).toBeVisible()
  await waitForHydration(searchBox(page))
  // The page must not reload: this marker lives only as long as the document.
  await page.evaluate(() => ((window as unknown as { __e2eMarker: number }).__e2eMarker = 1))
  // Debounced (docs/product.md, "Constants": 300 ms): typing a word quickly loads its results once,
  // not per key.
  const loads: string[] = []
  page.on('request', (request) => {
    const url = new URL(request.url())
    if (url.pathname.startsWith('/search') && url.searchParams.has('q')) loads.push(url.searchParams.get('q')!)
  })
  const box = searchBox(page)
  await box.fill('')
  // An emptied box searches for nothing: past the debounce the results, the address and this input
  // (empty, focused) stay, so the next word lands in it.
  await page.waitForTimeout(SEARCH_DEBOUNCE_MS * 2)
  await expect(page).toHaveURL(/[?&]q=milk(&|$)/)
  await expect(box).toHaveValue('')
  await expect(box).toBeFocused()
  // A revalidation of the shown query (after any action on the page) is not a search; an empty one is.
  expect(
    loads.filter((q) => q !== 'milk'),
    `loads after emptying the box: ${loads.join(', ')}`,
  ).toEqual([])
  await box.pressSequentially('choclate', { delay: 30 })
  await expect(page).toHaveURL(/[?&]q=choclate(&|$)/)
  await expect(
    productCards(page)
      .filter({ hasText: /chocolate/i })
      .first(),
  ).toBeVisible()
  expect(await page.evaluate(() => (window as unknown as { __e2eMarker?: number }).__e2eMarker)).toBe(1)
  await expect(box).toHaveValue('choclate')
  expect(loads, 'the typed word was loaded').toContain('choclate')
  // Eight keys 30 ms apart load once; per-key loading would load 7 partial words. One partial load is
  // tolerated: a loaded CI machine can stall a keystroke past the 300 ms pause.
  expect(loads.filter((q) => q !== 'choclate' && q !== 'milk').length, `loads while typing: ${loads.join(', ')}`).toBeLessThanOrEqual(1)
})
