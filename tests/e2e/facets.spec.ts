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
  await expect(productCardItems(page).first()).toBeVisible()
  const prices = await cardPrices(page)
  expect(prices.length).toBeGreaterThan(1)
  expect(prices).toEqual([...prices].sort((a, b) => a - b))

  await openFilters(page)
  await choose(page, /^Under ₹50 \(\d+\)$/, isJs(testInfo))
  await expect(page).toHaveURL(/[?&]price=0-50(&|$)/)
  await expect(page).toHaveURL(/[?&]sort=price_asc(&|$)/)
  // The address changes before the new page is drawn (without JavaScript, a form submission).
  await expect(page.getByRole('list', { name: 'Chosen filters' }).getByRole('link', { name: /Under ₹50/ })).toBeVisible()
  const cheap = await cardPrices(page)
  expect(cheap.length).toBeGreaterThan(0)
  for (const price of cheap) expect(price).toBeLessThan(50)
  await expect(page.getByRole('list', { name: 'Chosen filters' }).getByRole('link', { name: /Under ₹50/ })).toBeVisible()
})
