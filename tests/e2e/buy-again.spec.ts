/**
 * Recommendation rows (docs/recommendations.md) on a fresh start, with JavaScript on and off, at
 * 360 px: a product of the seeded baskets shows "Frequently bought together" (rules mined from the
 * seeded delivered orders); a guest's /buy-again asks to sign in; after one order the home page shows
 * "Buy again" with the product and its ADD, /buy-again lists it, and nothing scrolls the page sideways.
 * The cart of a guest holding butter shows "You might have missed" with eggs, whose ADD puts them in
 * the cart.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test'
import { api, expectCartSettled, isJs, newUser, productCardItems, registerViaApi, slug, submitLogin, waitForHydration } from './helpers.ts'

interface Found {
  _id: string
  name: string
  stock: number
  more_details?: { sku?: string }
}

/** The page does not scroll sideways. */
async function expectNoSidewaysScroll(page: Page) {
  const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }))
  expect(scroll).toBeLessThanOrEqual(width)
}

/** Amul butter (SKU BB-136): eggs and butter are bought together in the seeded history (api/db/seed/demo-orders.ts). */
async function seededButter(request: APIRequestContext): Promise<Found> {
  const found = (await api<Found[]>(request, '/product/search-product', { search: 'amul butter pasteurized', page: 1, limit: 50 })).data
  const butter = found.find((p) => p.more_details?.sku === 'BB-136')
  expect(butter, 'the seeded basket product is in the catalogue').toBeDefined()
  return butter!
}

test('Frequently bought together on a seeded product; Buy again after one order', async ({ page, request }, testInfo) => {
  test.setTimeout(60_000)
  await page.setViewportSize({ width: 360, height: 800 })

  const butter = await seededButter(request)
  await page.goto(`/product/${slug(butter.name, butter._id)}`)
  const together = page.getByRole('region', { name: 'Frequently bought together' })
  await expect(together).toBeVisible()
  await expect(together.getByRole('link', { name: /Farm Eggs/ }).first()).toBeVisible()
  await expectNoSidewaysScroll(page)

  // A guest is asked to sign in.
  await page.goto('/buy-again')
  await expect(page.getByRole('link', { name: 'Sign in' }).last()).toBeVisible()

  // One order through the API (as the original client places it).
  const user = newUser(testInfo, 'buyagain')
  await registerViaApi(request, user)
  const token = (await api<{ accessToken: string }>(request, '/user/login', { email: user.email, password: user.password })).data
    .accessToken
  const headers = { Authorization: `Bearer ${token}` }
  const honey = (await api<Found[]>(request, '/product/search-product', { search: 'honey', page: 1, limit: 20 })).data.find(
    (p) => p.stock >= 20,
  )!
  expect((await request.post('/api/cart/create', { data: { productId: honey._id }, headers })).ok()).toBe(true)
  const address = await request.post('/api/address/create', {
    data: { address_line: '9, Domlur Layout', city: 'Bengaluru', state: 'Karnataka', pincode: '560071', mobile: '9845098450' },
    headers,
  })
  const placed = await request.post('/api/order/cash-on-delivery', { data: { addressId: (await address.json()).data._id }, headers })
  expect(placed.status()).toBe(201)

  await submitLogin(page, user.email, user.password)
  await expect(page).toHaveURL(/\/$/)
  const row = page.getByRole('region', { name: 'Buy again' })
  await expect(row).toBeVisible()
  await expect(row.getByRole('link', { name: honey.name }).first()).toBeVisible()
  await expect(row.getByRole('button', { name: /add/i }).first()).toBeVisible()
  await expectNoSidewaysScroll(page)

  await page.goto('/buy-again')
  await expect(page.getByRole('heading', { name: 'Buy again', level: 1 })).toBeVisible()
  await expect(page.getByRole('link', { name: honey.name }).first()).toBeVisible()
  await expectNoSidewaysScroll(page)
})

test('the cart shows "You might have missed" for its products, and an ADD there puts one in the cart', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(60_000)
  const js = isJs(testInfo)
  await page.setViewportSize({ width: 360, height: 800 })
  const butter = await seededButter(request)
  await page.goto(`/product/${slug(butter.name, butter._id)}`)
  const add = page
    .getByRole('main')
    .getByRole('button', { name: /^Add .+ to cart$/ })
    .first()
  if (js) await waitForHydration(add)
  await add.click()
  await expect(page.getByTestId('cart-button')).toContainText('1 item')

  await page.goto('/cart')
  const row = page.getByRole('region', { name: 'You might have missed' })
  await expect(row).toBeVisible()
  const eggs = productCardItems(row)
    .filter({ hasText: /Farm Eggs/ })
    .first()
  await expect(eggs).toBeVisible()
  // Never a product the cart already holds.
  await expect(row.getByRole('link', { name: butter.name, exact: true })).toHaveCount(0)
  await expectNoSidewaysScroll(page)

  const addEggs = eggs.getByRole('button', { name: /^Add .+ to cart$/ })
  if (js) await waitForHydration(addEggs)
  await addEggs.click()
  await expectCartSettled(page)
  await expect(page.getByTestId('cart-button')).toContainText('2 items')
  await page.goto('/cart')
  await expect(page.getByRole('list', { name: 'Cart items' }).getByRole('listitem')).toHaveCount(2)
})
