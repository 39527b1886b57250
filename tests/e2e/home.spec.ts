/**
 * Home (docs/product.md, "Home"): the real categories of the catalogue, one product
 * row per category with See All, cards with a rupee price and no delivery time before a location is
 * chosen, a category tile leading to its listing, the category tiles filling their rows at phone
 * widths with no name cut, the signed-out header and the footer.
 */
import { test, expect } from '@playwright/test'
import { isJs, loginLink, productCardItems, productCards, waitForHydration } from './helpers.ts'

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
    // Six cards in the document; the rest come when the row is scrolled, or one "See All" away (docs/product.md, "Home").
    expect(cards, `cards in row "${name}"`).toBeLessThanOrEqual(6)
  }
  await expect(main.getByRole('link', { name: /see all/i })).toHaveCount(CATEGORIES.length)

  // A card: product link (docs/product.md, "Slugs") and a rupee price; no location chosen, so no
  // delivery time is promised (docs/stores.md, "Shopper pages").
  const card = productCardItems(main).first()
  await expect(card).not.toContainText(/\d+ min\b/)
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
  await expect(card).toContainText(/₹\s?[\d,]+/)
  // No location chosen: no delivery time is promised (docs/decisions/0056-one-delivery-promise-and-popular-first.md).
  await expect(card).not.toContainText(/\d+ min/)
})

test('header shows Login when signed out; footer shows 2024', async ({ page }) => {
  await page.goto('/')
  await expect(loginLink(page)).toBeVisible()
  await expect(page.getByRole('contentinfo')).toContainText('2024')
})

for (const width of [360, 390, 412]) {
  test(`the category tiles fill their rows and no name is cut at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 })
    await page.goto('/')
    const grid = page.getByTestId('category-grid')
    const layout = await grid.evaluate((ul) => {
      const tiles = [...ul.children].map((li) => li.getBoundingClientRect())
      const rows = new Map<number, number>()
      for (const tile of tiles) rows.set(Math.round(tile.top), (rows.get(Math.round(tile.top)) ?? 0) + 1)
      const names = [...ul.querySelectorAll('li a > span:last-child')].map((span) => ({
        text: span.textContent,
        cut: span.scrollHeight > span.clientHeight + 1 || span.scrollWidth > span.clientWidth + 1,
      }))
      return { count: tiles.length, rows: [...rows.values()], names, pageFits: document.documentElement.scrollWidth <= window.innerWidth }
    })
    expect(layout.count).toBe(CATEGORIES.length)
    // Every row holds at least half as many tiles as the fullest: no tile alone on a last row.
    const fullest = Math.max(...layout.rows)
    for (const tilesInRow of layout.rows)
      expect(tilesInRow, `rows ${layout.rows.join(', ')}`).toBeGreaterThanOrEqual(Math.floor(fullest / 2) + 1)
    expect(layout.names.filter((n) => n.cut).map((n) => n.text)).toEqual([])
    expect(layout.pageFits).toBe(true)
    // The tiles beyond the screen are reached by scrolling the grid itself.
    await grid.getByRole('link', { name: CATEGORIES.at(-1)!, exact: true }).scrollIntoViewIfNeeded()
    await expect(grid.getByRole('link', { name: CATEGORIES.at(-1)!, exact: true })).toBeInViewport()
  })
}

test('at 360 px a row scrolls sideways inside itself and See All opens its listing', async ({ page }) => {
  test.setTimeout(90_000)
  await page.setViewportSize({ width: 360, height: 640 })
  await page.goto('/')
  const row = page.getByRole('main').getByRole('region', { name: 'Fruits & Vegetables', exact: true })
  const list = row.getByRole('list').first()
  // Rows below the first screen are laid out (and hydrated) when they come near it.
  await row.scrollIntoViewIfNeeded()
  // The row overflows and scrolls (overflow-x), the page does not.
  // Polled: a row is laid out when it nears the screen (content-visibility), which a loaded machine may do a frame late.
  await expect.poll(() => list.evaluate((el) => [getComputedStyle(el).overflowX, el.scrollWidth > el.clientWidth])).toEqual(['auto', true])
  await list.evaluate((el) => el.scrollBy({ left: 300, behavior: 'instant' }))
  await expect.poll(() => list.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0)
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
  await row.getByRole('link', { name: /see all/i }).click()
  await expect(page).toHaveURL(/\/Fruits[^/]*-[0-9a-f]{24}(\/[^/]+-[0-9a-f]{24})?$/)
  await expect(productCardItems(page).first()).toBeVisible()
})

test("with JavaScript a row's buttons move it 200 px and bring the rest of the row: at least 12 products", async ({ page }, testInfo) => {
  test.setTimeout(90_000)
  test.skip(!isJs(testInfo), 'the buttons need JavaScript (docs/product.md, "Constants"); without it See All is the way on')
  await page.setViewportSize({ width: 1280, height: 800 })
  await page.goto('/')
  const row = page.getByRole('main').getByRole('region', { name: 'Fruits & Vegetables', exact: true })
  const list = row.getByRole('list').first()
  // Rows below the first screen hydrate when they come near it.
  await row.scrollIntoViewIfNeeded()
  const right = row.getByRole('button', { name: 'Scroll Fruits & Vegetables right' })
  await waitForHydration(right)
  await expect(right).toBeEnabled()
  await right.click()
  await expect.poll(() => productCardItems(list).count()).toBeGreaterThanOrEqual(12)
  await expect.poll(() => list.evaluate((el) => Math.round(el.scrollLeft))).toBe(200)
  await right.click()
  await expect.poll(() => list.evaluate((el) => Math.round(el.scrollLeft))).toBe(400)
  await row.getByRole('button', { name: 'Scroll Fruits & Vegetables left' }).click()
  await expect.poll(() => list.evaluate((el) => Math.round(el.scrollLeft))).toBe(200)
})
