/**
 * Zero axe violations (WCAG 2.2 AA) on every page, signed out, as a shopper and as an admin, with
 * JavaScript on and off (the two projects), including states that appear after an action: form
 * errors, dialogs, toasts (docs/accessibility.md).
 */
import { test, expect, type APIRequestContext, type Page } from '@playwright/test'
import { axeViolations } from './a11y-helpers.ts'
import { ADMIN, api, findListing, isJs, newUser, registerViaApi, signIn, submitLogin, type Product } from './helpers.ts'

// axe takes a few seconds on a page of the full catalogue; each test checks several pages.
test.describe.configure({ timeout: 180_000 })

async function expectNoViolations(page: Page, label: string) {
  const violations = await axeViolations(page)
  expect(violations, `${label}: ${JSON.stringify(violations, null, 1)}`).toEqual([])
}

/** The visitor pages every a11y pass checks: home, listings, a product, searches, sign-in pages, cart, a 404. */
async function visitorPaths(request: APIRequestContext): Promise<string[]> {
  const listing = await findListing(request, 'Fruits & Vegetables', 'Exotic Vegetables')
  const products = await api<Product[]>(request, '/product/get', { page: 1, limit: 1 })
  return [
    '/',
    listing.path,
    listing.path.split('/').slice(0, 2).join('/'),
    `/product/x-${products.data[0]._id}`,
    '/search?q=milk',
    '/search?q=zzzzqqq',
    '/login',
    '/register',
    '/forgot-password',
    '/cart',
    '/no-such-page/at-all',
  ]
}

test('visitor pages have no accessibility violations', async ({ page, request }) => {
  for (const path of await visitorPaths(request)) {
    await page.goto(path)
    await expectNoViolations(page, path)
  }
})

test('visitor pages on a phone have no accessibility violations', async ({ page, request }) => {
  // Below 768 px the header, the product rows and the listing's shelves take their phone layout.
  await page.setViewportSize({ width: 390, height: 844 })
  for (const path of await visitorPaths(request)) {
    await page.goto(path)
    await expectNoViolations(page, `${path} (phone)`)
  }
})

test('search meanings, filters and sort have no accessibility violations', async ({ page, request }) => {
  const listing = await findListing(request, 'Foodgrains, Oil & Masala', 'Whole Spices')
  for (const path of [
    '/search?q=doodh',
    '/search?q=bred',
    '/search?q=amul+qzxwv',
    `/search?q=milk&sort=price_asc&price=0-50`,
    `${listing.path}?sort=discount&discount=10`,
  ]) {
    await page.goto(path)
    // The facet form folds into a disclosure: check it open, with its counts and chosen filters.
    const filters = page.getByRole('main').locator('details').filter({ hasText: 'Filter and sort' }).first()
    if ((await filters.count()) > 0) await filters.locator('summary').first().click()
    await expectNoViolations(page, path)
  }
})

test('form errors and toasts have no accessibility violations', async ({ page }) => {
  await page.goto('/login')
  await submitLogin(page, 'nobody@example.com', 'Wrong-password-1')
  await expect(page.getByText(/check your email or password/i).first()).toBeVisible()
  await expectNoViolations(page, 'login error')

  await page.goto('/register')
  await page.getByRole('button', { name: /register/i }).click()
  // Without JavaScript the click is a navigation: wait for the answer page, not a half-streamed one.
  await expect(page.getByRole('main').getByText('Enter your name', { exact: true })).toBeVisible()
  await expectNoViolations(page, 'register errors')
})

test('shopper pages have no accessibility violations', async ({ page, request }, testInfo) => {
  const user = newUser(testInfo, 'a11y')
  await registerViaApi(request, user)
  await signIn(page, user)
  for (const path of ['/', '/user', '/dashboard/profile', '/dashboard/myorder', '/dashboard/address']) {
    await page.goto(path)
    await expectNoViolations(page, `shopper ${path}`)
  }
  await page.goto('/dashboard/profile')
  await page.getByRole('link', { name: 'Edit avatar' }).click()
  // A dialog with JavaScript; without it the same form opens in the page.
  await expect(page.getByRole('link', { name: 'Cancel' })).toBeVisible()
  await expectNoViolations(page, 'avatar dialog')
  if (isJs(testInfo)) {
    // Escape closes the dialog and focus returns to the Edit link, not to the page's body.
    await page.keyboard.press('Escape')
    await expect(page.getByRole('link', { name: 'Edit avatar' })).toBeFocused()
  }
})

test('cart, checkout, address and order pages have no accessibility violations', async ({ page, request }, testInfo) => {
  const user = newUser(testInfo, 'a11y-buyer')
  await registerViaApi(request, user)
  await signIn(page, user)
  // A cart with a product, then the pages of buying it (with the address form's errors shown).
  await page.goto('/search?q=milk')
  await page
    .getByRole('main')
    .getByRole('button', { name: /^Add .+ to cart$/ })
    .first()
    .click()
  await expect(page.getByTestId('cart-button')).toContainText('1 item')
  await page.goto('/cart')
  await expectNoViolations(page, '/cart with a product')
  await page.goto('/checkout')
  await page.getByRole('button', { name: 'Save address' }).click()
  await expect(page.getByText('Enter the city').first()).toBeVisible()
  await expectNoViolations(page, '/checkout with address errors')
  await page.getByLabel('Address (house, street, area)').fill('12, MG Road')
  await page.getByLabel('City').fill('Bengaluru')
  await page.getByLabel('State').selectOption('Karnataka')
  await page.getByLabel('Pincode').fill('560038')
  await page.getByLabel('Mobile').fill('9845012345')
  await page.getByRole('button', { name: 'Save address' }).click()
  await expect(page.getByRole('radio', { name: /MG Road/ })).toBeChecked()
  await expectNoViolations(page, '/checkout with an address')
  await page.getByRole('button', { name: /^Place Order/ }).click()
  await expect(page).toHaveURL(/\/success/)
  await expectNoViolations(page, '/success')
  await page.goto('/dashboard/myorder')
  await expectNoViolations(page, '/dashboard/myorder with an order')
  await page
    .getByRole('link', { name: /^Order OD/ })
    .first()
    .click()
  await expectNoViolations(page, 'order page')
  await page.goto('/dashboard/address?add=1')
  await expectNoViolations(page, '/dashboard/address with the form')
})

test('admin pages have no accessibility violations', async ({ page }) => {
  await submitLogin(page, ADMIN.email, ADMIN.password)
  await expect(page).toHaveURL(/\/$/)
  for (const path of [
    '/dashboard/category',
    '/dashboard/subcategory',
    '/dashboard/upload-product',
    '/dashboard/product',
    '/dashboard/orders',
    '/dashboard/dispatch',
  ]) {
    await page.goto(path)
    await expectNoViolations(page, `admin ${path}`)
  }
  await page.goto('/dashboard/upload-product')
  await page
    .getByRole('main')
    .getByRole('button', { name: /^(submit|save|upload)/i })
    .last()
    .click()
  await expectNoViolations(page, 'upload product errors')
})
