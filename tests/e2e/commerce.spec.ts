/**
 * Selling, end to end (docs/commerce-api.md, "Cart" and "Orders"), with JavaScript on and off: a visitor fills a cart from
 * home, a listing and search, changes a quantity, signs in and finds the merged cart, adds an address,
 * places a cash-on-delivery order and sees it in My Orders; the admin delivers it and the shopper
 * sees the new status. Also: the phone's cart bar at 390 px, and a cancelled order giving its stock back.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test'
import { ADMIN, productBuyBox, api, findListing, isJs, newUser, registerViaApi, submitLogin, toast, waitForHydration } from './helpers.ts'

/** The ADD buttons of the page's main content (each labelled "Add <product> to cart"). */
const addButtons = (page: Page) => page.getByRole('main').getByRole('button', { name: /^Add .+ to cart$/ })

/** Presses the first ADD button of the page and waits until the header counts `count` items. */
async function addFirst(page: Page, count: number, js: boolean) {
  const button = addButtons(page).first()
  if (js) await waitForHydration(button)
  const before = new URL(page.url())
  await button.click()
  await expect(page.getByTestId('cart-button')).toContainText(`${count} item`)
  // Without JavaScript the form's redirect comes back to the same page, at the product's card.
  if (!js) {
    const after = new URL(page.url())
    expect(`${after.pathname}${after.search}`).toBe(`${before.pathname}${before.search}`)
    expect(after.hash).toMatch(/^#p-[a-f0-9]+$/)
    await expect(page.locator(after.hash)).toBeInViewport()
  }
}

async function addressOf(page: Page) {
  await page.getByLabel('Address (house, street, area)').fill('12, MG Road, Indiranagar')
  await page.getByLabel('City').fill('Bengaluru')
  await page.getByLabel('State').selectOption('Karnataka')
  await page.getByLabel('Pincode').fill('560038')
  await page.getByLabel('Mobile').fill('9845012345')
}

/** Signs in through the API and answers the access token (for calls a test makes as the shopper). */
async function tokenOf(request: APIRequestContext, user: { email: string; password: string }): Promise<string> {
  const res = await api<{ accessToken: string }>(request, '/user/login', { email: user.email, password: user.password })
  return res.data.accessToken
}

test('a visitor fills a cart, signs in to the merged cart, orders cash on delivery; the admin delivers it', async ({
  page,
  request,
  browser,
}, testInfo) => {
  test.setTimeout(120_000)
  const js = isJs(testInfo)
  const user = newUser(testInfo, 'buyer')
  await registerViaApi(request, user)

  // Home, a listing, search: one product from each.
  await page.goto('/')
  await addFirst(page, 1, js)
  const listing = await findListing(request, 'Fruits & Vegetables', 'Exotic Vegetables')
  await page.goto(listing.path)
  await addFirst(page, 2, js)
  await page.goto('/search?q=milk')
  await addFirst(page, 3, js)
  if (!js) await expect(toast(page, 'Item added to cart')).toBeVisible()

  if (js) {
    // With JavaScript, My Cart opens the drawer over the page; Escape closes it.
    await page.getByTestId('cart-button').click()
    const drawer = page.getByRole('dialog', { name: 'My Cart' })
    await expect(drawer.getByRole('list', { name: 'Cart items' }).getByRole('listitem')).toHaveCount(3)
    await expect(drawer).toContainText('Grand total')
    await page.keyboard.press('Escape')
    await expect(drawer).toBeHidden()
    await expect(page).toHaveURL(/\/search\?q=milk/)
  }

  // The cart page: three lines; one more of the first.
  await page.goto('/cart')
  const lines = page.getByRole('list', { name: 'Cart items' }).getByRole('listitem')
  await expect(lines).toHaveCount(3)
  const more = lines.first().getByRole('button', { name: /^Add one more / })
  if (js) await waitForHydration(more)
  await more.click()
  await expect(page.getByTestId('cart-button')).toContainText('4 items')
  await expect(page.getByRole('region', { name: 'Bill details' })).toContainText('Grand total')

  // Proceed as a visitor: sign in first, then the guest cart is the account's.
  await page.getByRole('link', { name: /Proceed/ }).click()
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fcheckout/)
  const form = page.getByRole('main')
  await form.getByLabel('Email', { exact: true }).fill(user.email)
  await form.getByLabel('Password', { exact: true }).fill(user.password)
  await form.getByRole('button', { name: 'Login', exact: true }).click()
  await expect(page).toHaveURL(/\/checkout/)
  await expect(page.getByTestId('cart-button')).toContainText('4 items')

  // No address yet: the checkout asks for one inline.
  await addressOf(page)
  await page.getByRole('button', { name: 'Save address' }).click()
  await expect(page.getByRole('radio', { name: /MG Road/ })).toBeChecked()
  const place = page.getByRole('button', { name: /^Place Order/ })
  if (js) await waitForHydration(place)
  await place.click()
  await expect(page).toHaveURL(/\/success\?order=OD\d+/)
  const orderNumber = (await page.getByTestId('order-number').textContent())!.trim()
  await expect(page.getByTestId('cart-button')).toContainText('My Cart')

  await page.goto('/dashboard/myorder')
  const row = page.getByRole('link', { name: new RegExp(`Order ${orderNumber}`) })
  await expect(row).toContainText('Placed')
  await expect(row).toContainText('4 items')

  // The admin moves it along to delivered.
  const adminContext = await browser.newContext({ javaScriptEnabled: js })
  const admin = await adminContext.newPage()
  await submitLogin(admin, ADMIN.email, ADMIN.password)
  await expect(admin).toHaveURL(/\/$/)
  await admin.goto('/dashboard/orders?status=placed')
  await admin.getByRole('link', { name: orderNumber }).click()
  for (const step of ['Mark packed', 'Mark out for delivery', 'Mark delivered']) {
    const button = admin.getByRole('button', { name: step })
    if (js) await waitForHydration(button)
    await button.click()
    await expect(toast(admin, /Order marked/)).toBeVisible()
  }
  await expect(admin.getByRole('main').getByText('Delivered').first()).toBeVisible()
  await adminContext.close()

  await row.click()
  await expect(page.getByRole('heading', { name: `Order ${orderNumber}` })).toBeVisible()
  await expect(page.getByRole('list', { name: 'Order status' })).toContainText('✓ Delivered')
  await expect(page.getByRole('link', { name: 'Cancel order' })).toHaveCount(0)
})

test('the phone shows a cart bar while the cart holds something', async ({ page }, testInfo) => {
  const js = isJs(testInfo)
  await page.setViewportSize({ width: 390, height: 844 })
  await page.goto('/search?q=rice')
  await expect(page.getByTestId('cart-bar')).toHaveCount(0)
  const button = addButtons(page).first()
  if (js) await waitForHydration(button)
  await button.click()
  const bar = page.getByTestId('cart-bar')
  await expect(bar).toBeVisible()
  await expect(bar).toContainText(/1 item · ₹[\d,.]+, View Cart/)
  // Nothing dangles at the end of "1 item · ₹x": the comma is for screen readers only.
  await expect(bar).not.toContainText(/·\s*,?\s*View Cart/)
  await bar.click()
  await expect(page).toHaveURL(/\/cart$/)
  await expect(page.getByTestId('cart-bar')).toHaveCount(0)
})

test('a shopper cancels a placed order and its stock comes back', async ({ page, request }, testInfo) => {
  const user = newUser(testInfo, 'canceller')
  await registerViaApi(request, user)
  const token = await tokenOf(request, user)
  const auth = { Authorization: `Bearer ${token}` }
  const products = (
    await api<{ _id: string; stock: number }[]>(request, '/product/search-product', { search: 'basmati rice', page: 1, limit: 1 })
  ).data
  const product = products[0]!
  const stockOf = async () => (await api<{ stock: number }>(request, '/product/get-product-details', { productId: product._id })).data.stock
  const before = await stockOf()
  for (let i = 0; i < 2; i++)
    expect((await request.post('/api/cart/create', { data: { productId: product._id }, headers: auth })).ok()).toBe(true)
  const address = await request.post('/api/address/create', {
    data: { address_line: '4, CMH Road', city: 'Bengaluru', state: 'Karnataka', pincode: '560038', mobile: '9830012345' },
    headers: auth,
  })
  const addressId = (await address.json()).data._id
  const placed = await request.post('/api/order/cash-on-delivery', {
    data: { addressId },
    headers: { ...auth, 'Idempotency-Key': `e2e-${Date.now()}-${testInfo.project.name}` },
  })
  expect(placed.status()).toBe(201)
  const order = (await placed.json()).data
  expect(await stockOf()).toBe(before - 2)

  await submitLogin(page, user.email, user.password)
  await expect(page).toHaveURL(/\/$/)
  await page.goto(`/dashboard/myorder/${order._id}`)
  // Cancelling asks first (a dialog with an optional reason).
  const cancel = page.getByRole('link', { name: 'Cancel order' })
  if (isJs(testInfo)) await waitForHydration(cancel)
  await cancel.click()
  await page.getByRole('dialog', { name: 'Cancel this order?' }).getByRole('button', { name: 'Yes, cancel order' }).click()
  await expect(toast(page, 'Order cancelled')).toBeVisible()
  await expect(page.getByRole('list', { name: 'Order status' })).toContainText('✓ Cancelled')
  expect(await stockOf()).toBe(before)
})

test('a product out of stock shows "Out of stock" and no ADD button; a price changed before ordering stops the order and says so', async ({
  page,
  request,
}, testInfo) => {
  const js = isJs(testInfo)
  const adminToken = await tokenOf(request, ADMIN)
  const asAdmin = { Authorization: `Bearer ${adminToken}` }
  const found = (
    await api<{ _id: string; name: string; sellingPrice: number; price: number; stock: number }[]>(request, '/product/search-product', {
      search: js ? 'green tea' : 'black tea',
      page: 1,
      limit: 2,
    })
  ).data
  const [soldOut, repriced] = [found[0]!, found[1]!]
  const update = (json: object) => request.put('/api/product/update-product-details', { data: json, headers: asAdmin })
  expect((await update({ _id: soldOut._id, stock: 0 })).ok()).toBe(true)
  await page.goto(`/product/x-${soldOut._id}`)
  await expect(productBuyBox(page).getByText('Out of stock')).toBeVisible()
  await expect(productBuyBox(page).getByRole('button', { name: /^Add .+ to cart$/ })).toHaveCount(0)
  await update({ _id: soldOut._id, stock: soldOut.stock })

  // A shopper puts the other one in the cart; its price goes up before the order is placed.
  const user = newUser(testInfo, 'repriced')
  await registerViaApi(request, user)
  await submitLogin(page, user.email, user.password)
  await expect(page).toHaveURL(/\/$/)
  await page.goto(`/product/x-${repriced._id}`)
  const add = productBuyBox(page).getByRole('button', { name: /^Add .+ to cart$/ })
  if (js) await waitForHydration(add)
  await add.click()
  await expect(page.getByTestId('cart-button')).toContainText('1 item')
  await page.goto('/checkout')
  await addressOf(page)
  await page.getByRole('button', { name: 'Save address' }).click()
  await expect(page.getByRole('radio', { name: /MG Road/ })).toBeChecked()
  const newPrice = Math.round(repriced.sellingPrice * 100 + 100) / 100
  expect((await update({ _id: repriced._id, price: Math.max(repriced.price, newPrice), sellingPrice: newPrice })).ok()).toBe(true)
  const place = page.getByRole('button', { name: /^Place Order/ })
  if (js) await waitForHydration(place)
  await place.click()
  const alert = page.getByRole('alert').filter({ hasText: 'Your cart was updated' })
  await expect(alert).toContainText(`${repriced.name}: price changed`)
  await expect(page).toHaveURL(/\/checkout/)
  // Seen: placing again goes through at the new price.
  await page.getByRole('button', { name: /^Place Order/ }).click()
  await expect(page).toHaveURL(/\/success\?order=OD\d+/)
})
