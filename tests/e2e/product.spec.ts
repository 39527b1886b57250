/**
 * The product page (docs/product.md, "Product page": name, unit, selling price, MRP struck through
 * and discount % (a whole percent), no delivery time before a location is chosen; unknown id answers a 404 page; a stale name in the slug
 * redirects to the canonical URL). docs/product.md, "Slugs": the id is the last dash-separated piece.
 */
import { test, expect, type Page } from '@playwright/test'
import { api, findListing, productBuyBox, productCards } from './helpers.ts'

// CSV row 1661: Fresho "Lettuce - Iceberg", 1 pc, MRP 81.82, selling price 44 → round(46.2) = 46 % off.
// The only product of Fruits & Vegetables / Exotic Vegetables.
// The API keeps MRP and a discount percentage (docs/product.md, "Entities"), so the selling price
// shown is derived from them: ₹44 up to paise, depending on how precisely the discount is stored.
const PRODUCT = {
  name: 'Lettuce - Iceberg',
  unit: '1 pc',
  mrp: /₹\s?81\.82/,
  price: /^₹\s?44(\.\d{2})?$/,
  discount: /4[56](\.\d{1,2})?\s?%/,
}

async function openProductFromCard(page: Page, request: Parameters<typeof findListing>[0]) {
  const listing = await findListing(request, 'Fruits & Vegetables', 'Exotic Vegetables')
  await page.goto(listing.path)
  const card = productCards(page).filter({ hasText: PRODUCT.name }).first()
  await expect(card).toBeVisible()
  await card.click()
  await expect(page).toHaveURL(/\/product\/[^/]+-[0-9a-f]{24}$/)
}

test('a product page shows name, selling price, MRP struck through, discount, unit and no time before a location', async ({
  page,
  request,
}) => {
  await openProductFromCard(page, request)
  const main = page.getByRole('main')
  await expect(main.getByRole('heading', { level: 1 })).toContainText(PRODUCT.name)
  await expect(main.getByText(PRODUCT.unit, { exact: true }).first()).toBeVisible()
  // No location chosen: no delivery time is promised (docs/stores.md, "Shopper pages").
  await expect(main.locator('.badge-time')).toHaveCount(0)
  await expect(main.getByText(PRODUCT.discount).first()).toBeVisible()
  // The badge is a whole percent, rounded down (app/lib/money.ts `discountLabel`): "45% OFF", never "45.5% OFF".
  await expect(productBuyBox(page).getByText(/^\d+% OFF$/)).toBeVisible()

  // The MRP is struck through: a <del>/<s> element or text drawn with line-through.
  const mrp = main.getByText(PRODUCT.mrp).first()
  await expect(mrp).toBeVisible()
  const struck = await mrp.evaluate((el) => {
    for (let node: Element | null = el; node; node = node.parentElement) {
      if (node.tagName === 'DEL' || node.tagName === 'S') return true
      if (getComputedStyle(node).textDecorationLine.includes('line-through')) return true
    }
    return !!el.querySelector('del, s')
  })
  expect(struck, 'MRP is struck through').toBe(true)

  // The selling price is shown and is not the struck-through one.
  const price = main.getByText(PRODUCT.price).first()
  await expect(price).toBeVisible()
  const priceStruck = await price.evaluate((el) => !!el.closest('del, s'))
  expect(priceStruck).toBe(false)
})

test('an unknown product id shows a 404 page', async ({ page }) => {
  // A well-formed id that does not exist, and a slug whose id piece is not an id at all.
  for (const path of ['/product/no-such-thing-0123456789abcdef01234567', '/product/no-such-thing']) {
    const response = await page.goto(path)
    expect(response?.status(), path).toBe(404)
    await expect(page.getByRole('heading', { name: /not found/i })).toBeVisible()
    // The site's layout stays around the 404 page.
    await expect(page.getByRole('banner')).toBeVisible()
  }
})

test('a stale name in the product slug redirects to the canonical URL', async ({ page, request }) => {
  await openProductFromCard(page, request)
  const canonical = new URL(page.url()).pathname
  const id = canonical.split('-').pop()!
  const response = await page.goto(`/product/some-old-name-${id}`)
  await expect(page).toHaveURL(new RegExp(`${canonical.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`))
  expect(response?.status()).toBe(200)
  expect(response?.request().redirectedFrom()?.url()).toContain(`/product/some-old-name-${id}`)
  await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toContainText(PRODUCT.name)
})

test('below the product: "Similar products" from its shelf and "More from" its brand, each with See All', async ({ page, request }) => {
  // A branded product on a full shelf: the first of a search for butter.
  const found = (
    await api<Array<{ _id: string; name: string; more_details: Record<string, string> }>>(request, '/product/search-product', {
      search: 'butter',
      page: 1,
      limit: 10,
    })
  ).data
  const product = found.find((p) => p.more_details.brand)!
  const brand = product.more_details.brand!.trim()
  await page.goto(`/product/x-${product._id}`)
  const similar = page.getByRole('region', { name: 'Similar products' })
  await expect(similar.locator('[data-card="product"]').first()).toBeVisible()
  // Never the product itself, and never one card twice across the two rows.
  const shelfIds = await similar.locator('article[data-card="product"]').evaluateAll((cards) => cards.map((c) => c.id))
  const fromBrand = page.getByRole('region', { name: `More from ${brand}` })
  const brandIds = (await fromBrand.count())
    ? await fromBrand.locator('article[data-card="product"]').evaluateAll((cards) => cards.map((c) => c.id))
    : []
  const all = [...shelfIds, ...brandIds]
  expect(all.some((id) => id.endsWith(product._id))).toBe(false)
  expect(new Set(all).size).toBe(all.length)
  expect(shelfIds.length).toBeLessThanOrEqual(8)

  await similar.getByRole('link', { name: 'See all Similar products' }).click()
  await expect(page).toHaveURL(/\/[^/]+-[0-9a-f]{24}\/[^/]+-[0-9a-f]{24}$/)
  await expect(page.getByRole('main').locator('[data-card="product"]').first()).toBeVisible()
})

for (const viewport of [
  { width: 360, height: 640 },
  { width: 390, height: 844 },
]) {
  test(`at ${viewport.width} × ${viewport.height} the first screen holds name, pack size, price, MRP, discount and ADD`, async ({
    page,
    request,
  }) => {
    test.setTimeout(90_000)
    // docs/product.md, "Product page": a phone sees what it buys and the button without scrolling.
    await page.setViewportSize(viewport)
    await openProductFromCard(page, request)
    const main = page.getByRole('main')
    await expect(main.getByRole('heading', { level: 1 })).toContainText(PRODUCT.name)
    const parts = [
      main.getByRole('heading', { level: 1 }),
      main.getByTestId('product-unit'),
      main.getByTestId('product-price'),
      main.getByTestId('product-mrp'),
      main.getByTestId('product-discount'),
      main.getByTestId('product-buy').getByRole('button', { name: /^Add .+ to cart$/ }),
      // The picture stays in the first screen too (the page's Largest Contentful Paint).
      main.getByRole('img', { name: PRODUCT.name }).first(),
    ]
    expect(await page.evaluate(() => window.scrollY)).toBe(0)
    for (const part of parts) {
      const box = (await part.boundingBox())!
      expect(box, `${part}`).not.toBeNull()
      expect(box.y, `${part} top`).toBeGreaterThanOrEqual(0)
      expect(box.y + box.height, `${part} bottom`).toBeLessThanOrEqual(viewport.height)
      expect(box.x + box.width, `${part} right`).toBeLessThanOrEqual(viewport.width)
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
  })
}
