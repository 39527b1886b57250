/**
 * Pack sizes as one card (docs/product.md, "Pack sizes"), JavaScript on and off: Milky Mist's
 * "Paneer - Premium Fresh" (200 g, 2x200 g, 500 g, 1 kg in the real catalogue) is one search result
 * saying "4 options"; with JavaScript a size chip switches the card (unit, link, ADD) to that size,
 * without it the chip is a link to that size's page; the product page lists "Other pack sizes";
 * the picker fits a 360 px phone.
 */
import { test, expect, type APIRequestContext, type Page } from '@playwright/test'
import { api, isJs, productCardItems, waitForHydration } from './helpers.ts'

const NAME = 'Paneer - Premium Fresh'
const SEARCH = '/search?q=milky+mist+paneer'

interface Grouped {
  _id: string
  name: string
  more_details: { brand?: string }
  packSizes?: Array<{ _id: string; unit: string }>
}

/** The sizes of the group as the API answers them (smallest first), by unit. */
async function sizes(request: APIRequestContext): Promise<Map<string, string>> {
  const answer = await api<Grouped[]>(request, '/product/search-product', {
    search: 'milky mist paneer',
    page: 1,
    limit: 20,
    groupSizes: true,
  })
  const group = answer.data.filter((p) => p.name === NAME && p.more_details.brand === 'Milky Mist')
  expect(group).toHaveLength(1)
  return new Map(group[0]!.packSizes!.map((s) => [s.unit, s._id]))
}

const card = (page: Page) => productCardItems(page).filter({ hasText: NAME })

test('a search shows the sizes of one product as one card with "4 options"', async ({ page, request }) => {
  const bySize = await sizes(request)
  expect([...bySize.keys()]).toEqual(['200 g', '2x200 g', '500 g', '1 kg'])
  await page.goto(SEARCH)
  await expect(card(page)).toHaveCount(1)
  await expect(card(page).getByText('4 options')).toBeVisible()
  await expect(card(page).getByRole('group', { name: '4 pack sizes' })).toBeVisible()
})

test('choosing a size: the card switches (JavaScript) or the size page opens (no JavaScript)', async ({ page, request }, testInfo) => {
  const bySize = await sizes(request)
  await page.goto(SEARCH)
  const picker = card(page).getByRole('group', { name: '4 pack sizes' })
  if (isJs(testInfo)) {
    const oneKg = picker.getByRole('button', { name: /^1 kg/ })
    await waitForHydration(oneKg)
    await oneKg.click()
    await expect(oneKg).toHaveAttribute('aria-pressed', 'true')
    await expect(card(page).locator('.pc-unit')).toHaveText('1 kg')
    await expect(card(page).getByRole('link', { name: NAME })).toHaveAttribute('href', new RegExp(`-${bySize.get('1 kg')}$`))
    // ADD (or "Out of stock") now speaks of the 1 kg pack.
    const add = card(page).getByRole('button', { name: /^Add Milky Mist Paneer - Premium Fresh 1 kg to cart$/ })
    const out = card(page).getByText('Out of stock')
    await expect(add.or(out)).toBeVisible()
    await picker.getByRole('button', { name: /^500 g/ }).click()
    await expect(card(page).locator('.pc-unit')).toHaveText('500 g')
    await expect(oneKg).toHaveAttribute('aria-pressed', 'false')
  } else {
    const links = picker.getByRole('link')
    await expect(links).toHaveCount(4)
    await expect(picker.locator('[aria-current="true"]')).toHaveCount(1)
    await picker.getByRole('link', { name: /^1 kg/ }).click()
    await expect(page).toHaveURL(new RegExp(`/product/[^/]*-${bySize.get('1 kg')}$`))
    await expect(page.getByRole('heading', { level: 1, name: NAME })).toBeVisible()
  }
})

test('the product page lists "Other pack sizes", each a link to its page', async ({ page, request }) => {
  const bySize = await sizes(request)
  await page.goto(`/product/x-${bySize.get('200 g')}`)
  const other = page.getByTestId('other-pack-sizes')
  await expect(other.getByRole('heading', { name: 'Other pack sizes' })).toBeVisible()
  const links = other.getByRole('link')
  await expect(links).toHaveCount(3)
  await expect(links.nth(0)).toContainText('2x200 g')
  await expect(links.nth(2)).toContainText('1 kg')
  await other.getByRole('link', { name: /500 g/ }).click()
  await expect(page).toHaveURL(new RegExp(`/product/[^/]*-${bySize.get('500 g')}$`))
  await expect(page.getByTestId('other-pack-sizes').getByRole('link')).toHaveCount(3)
})

test('the size picker fits a 360 px phone', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 800 })
  await page.goto(SEARCH)
  await expect(card(page).getByText('4 options')).toBeVisible()
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
  expect(overflow).toBeLessThanOrEqual(0)
  const box = await card(page).boundingBox()
  const chips = await card(page)
    .locator('.pc-pack')
    .evaluateAll((els) => els.map((el) => el.getBoundingClientRect().right))
  for (const right of chips) expect(right).toBeLessThanOrEqual(box!.x + box!.width)
})
