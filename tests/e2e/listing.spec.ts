/**
 * Product list of a category and sub category (docs/product.md, "Listings"; docs/product.md, "States
 * and transitions": page 1 replaces the list, later pages append, and with JavaScript off a next-page
 * link does the same; docs/product.md, "Constants": page size 8).
 */
import { test, expect, type Locator, type Page } from '@playwright/test'
import { findListing, isJs, productCards, waitForHydration } from './helpers.ts'

// 16 products in the CSV: two pages of 8.
const CATEGORY = 'Fruits & Vegetables'
const SUB_CATEGORY = 'Leafy Vegetables'
const PAGE_SIZE = 8

test('a listing shows 8 cards, then pages forward to 16', async ({ page, request }, testInfo) => {
  const listing = await findListing(request, CATEGORY, SUB_CATEGORY)
  expect(listing.totalCount).toBeGreaterThan(PAGE_SIZE)
  const expectedAfterTwo = Math.min(2 * PAGE_SIZE, listing.totalCount)

  await page.goto(listing.path)
  await expect(page.getByRole('main').getByRole('heading', { name: SUB_CATEGORY, exact: true })).toBeVisible()
  const cards = productCards(page)
  await expect(cards).toHaveCount(PAGE_SIZE)
  const firstCard = await cards.first().getAttribute('href')

  const next = nextControl(page)
  await expect(next).toBeVisible()
  if (isJs(testInfo)) {
    // With JavaScript the next page is appended in place: no document load (the marker survives).
    await waitForHydration(next)
    await page.evaluate(() => ((window as unknown as { __e2eMarker: number }).__e2eMarker = 1))
    await next.click()
    await expect(cards).toHaveCount(expectedAfterTwo)
    expect(await page.evaluate(() => (window as unknown as { __e2eMarker?: number }).__e2eMarker)).toBe(1)
  } else {
    // Without JavaScript a plain link loads the next page, which shows pages 1 and 2.
    await expect(next).toHaveAttribute('href', /[?&]page=2\b/)
    await next.click()
    await expect(page).toHaveURL(/[?&]page=2\b/)
    await expect(cards).toHaveCount(expectedAfterTwo)
  }
  await expect(cards.first()).toHaveAttribute('href', firstCard!)
  const hrefs = await cards.evaluateAll((links) => links.map((a) => a.getAttribute('href')))
  expect(new Set(hrefs).size, 'no product twice').toBe(hrefs.length)
  if (listing.totalCount <= expectedAfterTwo) await expect(next).toHaveCount(0)
})

/** The "load more" / next page control under the grid: a link without JavaScript, link or button with. */
function nextControl(page: Page): Locator {
  const main = page.getByRole('main')
  const name = /load more|next|more products|show more/i
  return main.getByRole('link', { name }).or(main.getByRole('button', { name })).first()
}

test('the sidebar lists the sub categories of the category and highlights the current one', async ({ page, request }) => {
  const listing = await findListing(request, CATEGORY, SUB_CATEGORY)
  await page.goto(listing.path)
  const sidebar = page.getByRole('navigation', { name: /sub ?categor/i })
  const current = sidebar.getByRole('link', { name: SUB_CATEGORY, exact: true })
  await expect(current).toBeVisible()
  await expect(current).toHaveAttribute('aria-current', 'page')
  await expect(sidebar.getByRole('link', { name: 'Potato, Onion & Tomato', exact: true })).toBeVisible()
  await expect(sidebar.getByRole('link', { name: 'Potato, Onion & Tomato', exact: true })).not.toHaveAttribute('aria-current', 'page')
  // Only sub categories of this category: a Beauty & Hygiene one is absent.
  await expect(sidebar.getByRole('link', { name: 'Face Care', exact: true })).toHaveCount(0)
})

test('a stale name in the listing slugs redirects to the canonical URL, keeping the page', async ({ page, request }) => {
  const listing = await findListing(request, CATEGORY, SUB_CATEGORY)
  const response = await page.goto(`/old-name-${listing.category._id}/old-name-${listing.subCategory._id}?page=2`)
  expect(response?.status()).toBe(200)
  const url = new URL(page.url())
  expect(url.pathname).not.toContain('old-name')
  expect(url.pathname).toMatch(new RegExp(`-${listing.category._id}/[^/]+-${listing.subCategory._id}$`))
  expect(url.searchParams.get('page')).toBe('2')
  await expect(productCards(page)).toHaveCount(Math.min(2 * PAGE_SIZE, listing.totalCount))
  // The sidebar's link to the current sub category is this canonical path.
  const current = page.getByRole('navigation', { name: /sub ?categor/i }).getByRole('link', { name: SUB_CATEGORY, exact: true })
  await expect(current).toHaveAttribute('href', url.pathname)
})

/**
 * The top, left and width of each of the first `count` product cards of the main content's
 * "Products" list, in CSS px.
 */
async function cardBoxes(page: Page, count: number) {
  const items = page.getByRole('main').getByRole('list', { name: 'Products' }).first().locator(':scope > li')
  await expect(items.nth(count - 1)).toBeVisible()
  return items.evaluateAll(
    (els, n) =>
      els.slice(0, n).map((el) => {
        const r = el.getBoundingClientRect()
        return { top: Math.round(r.top), left: Math.round(r.left), width: r.width }
      }),
    count,
  )
}

test('on a 360 px phone a listing and a search show their cards in two columns', async ({ page, request }) => {
  // docs/product.md, "Listings": two cards a row on a phone, like every quick-commerce app.
  await page.setViewportSize({ width: 360, height: 800 })
  const listing = await findListing(request, CATEGORY, SUB_CATEGORY)
  for (const path of [listing.path, '/search?q=biscuits']) {
    await page.goto(path)
    const [a, b, c, d] = await cardBoxes(page, 4)
    expect(a!.top, `${path}: cards 1 and 2 side by side`).toBe(b!.top)
    expect(b!.left, path).toBeGreaterThan(a!.left + a!.width - 1)
    expect(c!.top, `${path}: card 3 starts the second row`).toBeGreaterThan(a!.top)
    expect(c!.left, path).toBe(a!.left)
    expect(d!.top, path).toBe(c!.top)
    // Each card takes about half the phone's width, never less than a third of it.
    expect(a!.width, path).toBeGreaterThan(360 / 3)
    expect(a!.width, path).toBeLessThanOrEqual(180)
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
    expect(overflow, `${path}: nothing scrolls sideways`).toBeLessThanOrEqual(0)
  }
})
