/**
 * Home (docs/product.md, "Home"): the real categories of the catalogue, one product
 * row per category with See All, cards with the "10 min" badge and a rupee price, a category tile
 * leading to its listing, the signed-out header and the footer.
 */
import { test, expect } from '@playwright/test'
import { loginLink, productCardItems, productCards } from './helpers.ts'

/** The 11 top-level categories of api/db/seed/data/bigbasket-products.csv. */
const CATEGORIES = [
  'Fruits & Vegetables',
  'Foodgrains, Oil & Masala',
  'Bakery, Cakes & Dairy',
  'Beverages',
  'Snacks & Branded Foods',
  'Beauty & Hygiene',
  'Cleaning & Household',
  'Kitchen, Garden & Pets',
  'Eggs, Meat & Fish',
  'Gourmet & World Food',
  'Baby Care',
]

test('home shows the real categories, a row per category and product cards', async ({ page }) => {
  await page.goto('/')
  const main = page.getByRole('main')

  // One row per category: a region titled with the category name, with See All and product cards.
  for (const name of CATEGORIES) {
    const row = main.getByRole('region', { name, exact: true })
    await expect(row.getByRole('heading', { name, exact: true }), `row title "${name}"`).toBeVisible()
    // See All leads to that category's listing (docs/product.md, "Home").
    await expect(row.getByRole('link', { name: /see all/i })).toHaveAttribute('href', /^\/[^/?#]+-[0-9a-f]{24}(\/[^/?#]+-[0-9a-f]{24})?$/)
    const cards = await productCards(row).count()
    expect(cards, `cards in row "${name}"`).toBeGreaterThan(0)
    // Six cards, the rest one "See All" away (docs/product.md, "Home").
    expect(cards, `cards in row "${name}"`).toBeLessThanOrEqual(6)
  }
  await expect(main.getByRole('link', { name: /see all/i })).toHaveCount(CATEGORIES.length)

  // A card: product link (docs/product.md, "Slugs"), the "10 min" badge and a rupee price.
  const card = productCardItems(main).first()
  await expect(card).toContainText('10 min')
  await expect(card).toContainText(/₹\s?[\d,]+(\.\d{2})?/)
  await expect(productCards(card)).toHaveAttribute('href', /^\/product\/[^/]+-[0-9a-f]{24}$/)
})

test('the home page document stays under 150 kB with every row filled', async ({ request }) => {
  // What a phone downloads before anything shows (docs/product.md, "Home"): the whole document,
  // uncompressed, every category's row included.
  const res = await request.get('/')
  const html = await res.text()
  for (const name of CATEGORIES) expect(html, `row "${name}"`).toContain(`>${name.replaceAll('&', '&amp;')}</h2>`)
  expect(Buffer.byteLength(html)).toBeLessThanOrEqual(150_000)
})

test('a category tile leads to a listing that shows products', async ({ page }) => {
  await page.goto('/')
  const tile = page.getByRole('main').getByRole('link', { name: 'Fruits & Vegetables', exact: true })
  await tile.click()
  await expect(page).toHaveURL(/\/Fruits[^/]*-[0-9a-f]{24}\/[^/]+-[0-9a-f]{24}$/)
  await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toBeVisible()
  const card = productCardItems(page).first()
  await expect(card).toBeVisible()
  await expect(card).toContainText('10 min')
  await expect(card).toContainText(/₹\s?[\d,]+/)
})

test('header shows Login when signed out; footer shows 2024', async ({ page }) => {
  await page.goto('/')
  await expect(loginLink(page)).toBeVisible()
  await expect(page.getByRole('contentinfo')).toContainText('2024')
})
