/**
 * Filters, sort and what a search was taken to mean (docs/search.md): "Showing results for milk
 * (doodh)", "Did you mean bread?", "No parle g products; showing biscuits." with the nearest shelf, brand and price filters and the price sort on search results and
 * on a category listing, as GET parameters (so with JavaScript on and off, and shareable links), and
 * the chips that remove a filter.
 */
import { test, expect, type Page } from '@playwright/test'
import { findListing, isJs, productCardItems, waitForHydration } from './helpers.ts'

/** Opens the "Filter and sort" disclosure (a `<details>`: no script needed). */
async function openFilters(page: Page) {
  const details = page.getByRole('main').locator('details').filter({ hasText: 'Filter and sort' }).first()
  if (!(await details.evaluate((d) => (d as HTMLDetailsElement).open))) {
    await details.locator('summary').first().click()
  }
  await expect(page.getByRole('group', { name: 'Sort by' })).toBeVisible()
}

/** Ticks or picks `label` in the facet form; without JavaScript the Apply button sends the form. */
async function choose(page: Page, label: RegExp, jsOn: boolean) {
  if (jsOn) await waitForHydration(page.getByRole('button', { name: 'Apply' }))
  await page.getByRole('main').getByLabel(label).first().check()
  if (!jsOn) await page.getByRole('button', { name: 'Apply' }).click()
}

/** The selling prices of the cards shown, in rupees. */
async function cardPrices(page: Page): Promise<number[]> {
  const texts = await productCardItems(page).locator('.price > span:first-child').allTextContents()
  return texts.map((t) => Number(t.replace(/[^\d.]/g, '')))
}

test('a Hindi-English search says what it searched for', async ({ page }) => {
  await page.goto('/search?q=doodh')
  await expect(page.getByTestId('search-meaning')).toHaveText('Showing results for milk (doodh)')
  await expect(productCardItems(page).first()).toContainText(/milk/i)
})

test('a misspelt search offers the correction and shows its results', async ({ page }) => {
  await page.goto('/search?q=bred')
  const meaning = page.getByTestId('search-meaning')
  await expect(meaning).toContainText('Did you mean bread?')
  await expect(productCardItems(page).first()).toBeVisible()
  await meaning.getByRole('link', { name: 'bread' }).click()
  await expect(page).toHaveURL(/\/search\?q=bread$/)
  await expect(page.getByTestId('search-meaning')).toHaveCount(0)
})

test('a brand the store does not stock is said so, with what it makes and a link to the nearest shelf', async ({ page }) => {
  await page.goto('/search?q=parle%20g')
  const meaning = page.getByTestId('search-meaning')
  await expect(meaning).toContainText('No parle g products; showing biscuits.')
  await expect(meaning).not.toContainText('Did you mean')
  await expect(productCardItems(page).first()).toContainText(/biscuit/i)
  const shelf = meaning.getByTestId('search-nearest-shelf')
  await expect(shelf).toHaveText('Glucose & Milk Biscuits')
  await shelf.click()
  await expect(page).toHaveURL(/\/Glucose-Milk-Biscuits-[^/]+$/)
})

test('search results filter by brand, the chip removes it, and the link can be shared', async ({ page }, testInfo) => {
  await page.goto('/search?q=milk')
  await openFilters(page)
  const brands = page.getByRole('group', { name: 'Brand' })
  const first = brands.getByRole('checkbox').first()
  const brand = await first.getAttribute('value')
  const label = (await brands.locator('label').first().textContent())!
  const count = Number(/\((\d+)\)/.exec(label)![1])
  await choose(page, new RegExp(`^${brand!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(`), isJs(testInfo))
  await expect.poll(() => new URL(page.url()).searchParams.getAll('brand')).toEqual([brand])
  await expect(page.getByRole('heading', { name: new RegExp(`^${count} results? for “milk”`) })).toBeVisible()
  const items = productCardItems(page)
  await expect(items.first()).toBeVisible()
  for (const text of await items.allTextContents()) expect(text).toContain(brand!)

  // The same URL opened afresh shows the same filtered list (a shared link).
  const shared = page.url()
  await page.goto(shared)
  await expect(page.getByRole('heading', { name: new RegExp(`^${count} results? for “milk”`) })).toBeVisible()

  await page
    .getByRole('list', { name: 'Chosen filters' })
    .getByRole('link', { name: new RegExp(brand!) })
    .click()
  await expect(page).not.toHaveURL(/brand=/)
  await expect(page.getByRole('list', { name: 'Chosen filters' })).toHaveCount(0)
})

test('a category listing sorts by price and filters by price band', async ({ page, request }, testInfo) => {
  const listing = await findListing(request, 'Foodgrains, Oil & Masala', 'Whole Spices')
  await page.goto(listing.path)
  await openFilters(page)
  await choose(page, /^Price: low to high$/, isJs(testInfo))
  await expect(page).toHaveURL(/[?&]sort=price_asc(&|$)/)
  // With JavaScript the address changes a moment before React draws the sorted rows: poll.
  await expect
    .poll(async () => {
      const prices = await cardPrices(page)
      return prices.length > 1 && prices.every((p, i) => i === 0 || prices[i - 1]! <= p)
    })
    .toBe(true)

  await openFilters(page)
  await choose(page, /^Under ₹50 \(\d+\)$/, isJs(testInfo))
  await expect(page).toHaveURL(/[?&]price=0-50(&|$)/)
  await expect(page).toHaveURL(/[?&]sort=price_asc(&|$)/)
  // The address changes before the new page is drawn (without JavaScript, a form submission).
  await expect(page.getByRole('list', { name: 'Chosen filters' }).getByRole('link', { name: /Under ₹50/ })).toBeVisible()
  await expect
    .poll(async () => {
      const cheap = await cardPrices(page)
      return cheap.length > 0 && cheap.every((price) => price < 50)
    })
    .toBe(true)
  await expect(page.getByRole('list', { name: 'Chosen filters' }).getByRole('link', { name: /Under ₹50/ })).toBeVisible()
})

test.describe('default order at 360 px', () => {
  test.use({ viewport: { width: 360, height: 780 } })

  test('a listing without ?sort= is sorted by popularity, Newest stays a choice; a search by relevance', async ({
    page,
    request,
  }, testInfo) => {
    const listing = await findListing(request, 'Foodgrains, Oil & Masala', 'Whole Spices')
    await page.goto(listing.path)
    const filters = page.getByRole('main').locator('details').filter({ hasText: 'Filter and sort' }).first()
    await expect(filters.locator('summary').first()).toContainText('Sort: Popular')
    await openFilters(page)
    const sorts = page.getByRole('group', { name: 'Sort by' })
    await expect(sorts.getByLabel('Popular', { exact: true })).toBeChecked()
    await expect(sorts.getByLabel('Relevance', { exact: true })).toHaveCount(0)
    // The canonical URL never carries the sort (docs/search.md, "Default order on the pages").
    const canonical = new URL((await page.locator('link[rel="canonical"]').getAttribute('href'))!)
    expect(canonical.pathname).toBe(new URL(page.url()).pathname)
    expect(canonical.search).toBe('')
    await choose(page, /^Newest$/, isJs(testInfo))
    await expect(page).toHaveURL(/[?&]sort=newest(&|$)/)
    await expect(filters.locator('summary').first()).toContainText('Sort: Newest')
    // In the form, shown once the disclosure is open (hidden from the accessibility tree until then).
    await expect(page.getByRole('main').locator('a', { hasText: 'Clear all' })).toHaveCount(1)
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)

    await page.goto('/search?q=milk')
    await expect(
      page.getByRole('main').locator('details').filter({ hasText: 'Filter and sort' }).first().locator('summary').first(),
    ).toContainText('Sort: Relevance')
  })
})
