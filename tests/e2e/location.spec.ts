/**
 * The shopper's delivery location (docs/stores.md, "Location (BFF)"), with JavaScript on and off:
 * the header names the default store until a location is chosen; /location takes a PIN code
 * (refusing a malformed one with contract/location.ts `PINCODE_MESSAGE`), says where and how fast in the header,
 * or that the place is not served yet, and the cards say the store's minutes; goes back only to
 * same-site paths; a visitor's choice is saved to the account at sign-in and comes back at the next
 * sign-in; a signed-in shopper picks a saved address, and with JavaScript "Use my current location"
 * finds the nearest PIN code; a change of location with a cart says what the new store lacks or has
 * few of; at 360 px nothing scrolls sideways.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test'
import { adminHeaders, openAroundTheClock } from './admin-fixtures.ts'
import { api, expectCartSettled, isJs, newUser, productBuyBox, registerViaApi, signIn, toast, waitForHydration } from './helpers.ts'

const KORAMANGALA = 'storeBlrKoramangala'

interface StockRow {
  productId: string
  name: string
  stock: number
}

/** The header's location link. */
const locationLink = (page: Page) => page.getByRole('banner').getByTestId('location-link')

/** Submits `pincode` on the open /location page. */
async function choosePincode(page: Page, pincode: string, js: boolean) {
  const field = page.getByRole('main').getByLabel('Pincode')
  const submit = page.getByRole('main').getByRole('button', { name: 'Check and save' })
  if (js) await waitForHydration(submit)
  await field.fill(pincode)
  await submit.click()
}

/** True when the page is no wider than the window (nothing scrolls sideways). */
const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)

test.describe('location at 360 px', () => {
  test.use({ viewport: { width: 360, height: 780 } })

  test('the default store until chosen; a served pincode, a refused one and one not served', async ({ page }, testInfo) => {
    test.setTimeout(180_000)
    const js = isJs(testInfo)
    await page.goto('/')
    await expect(locationLink(page)).toContainText('Choose your location')
    await expect(locationLink(page)).toContainText('to see delivery time')
    // No location, no promise (docs/stores.md, "Shopper pages"): no card names minutes.
    await expect(page.getByRole('main').locator('[data-card="product"]').first()).toBeVisible()
    await expect(page.getByRole('main').locator('.badge-time')).toHaveCount(0)
    expect(await fitsWidth(page)).toBe(true)
    await page.goto('/cart')
    await expect(page.getByRole('main').getByRole('link', { name: 'Choose your location to see delivery time' })).toHaveAttribute(
      'href',
      '/location?redirectTo=%2Fcart',
    )
    expect(await fitsWidth(page)).toBe(true)
    await page.goto('/')

    await locationLink(page).click()
    await expect(page).toHaveURL(/\/location$/)
    await choosePincode(page, '12345', js)
    await expect(page.getByRole('main').getByText('Enter a valid 6-digit pincode')).toBeVisible()
    await expect(page).toHaveURL(/\/location/)
    expect(await fitsWidth(page)).toBe(true)

    await choosePincode(page, '560038', js)
    // A success toast lasts 2 s: it is checked first.
    await expect(toast(page, /Delivering to Indiranagar, 560038 in \d+ minutes?/)).toBeVisible()
    await expect(page).toHaveURL(/\/$/)
    await expect(locationLink(page)).toContainText('Indiranagar, 560038')
    await expect(locationLink(page)).toContainText(/Delivery in \d+ minutes?/)
    // The cards say the store's minutes, as the header does.
    const minutes = /Delivery in (\d+) minutes?/.exec((await locationLink(page).textContent()) ?? '')![1]
    await expect(page.getByRole('main').locator('.badge-time').first()).toHaveText(`${minutes} min`)
    expect(await fitsWidth(page)).toBe(true)
    // The same minutes on a product page and in the cart: one promise everywhere.
    const productHref = (await page.getByRole('main').locator('[data-card="product"] a.pc-link').first().getAttribute('href'))!
    await page.goto(productHref)
    // The product's own badge first; its similar products' cards say the same.
    await expect(page.getByRole('main').locator('.badge-time').first()).toHaveText(`${minutes} min`)
    await page.goto('/cart')
    await expect(page.getByTestId('cart-delivery')).toHaveText(new RegExp(`reach you in ${minutes} minutes?\\.`))

    await page.goto('/location')
    await choosePincode(page, '799001', js)
    await expect(toast(page, "We don't deliver to Agartala yet. Nearest:")).toBeVisible()
    await expect(page).toHaveURL(/\/$/)
    await expect(locationLink(page)).toContainText("We don't deliver to Agartala yet")
    expect(await fitsWidth(page)).toBe(true)
    // Not served: every card says so and its ADD is disabled, before anything is in the cart.
    const main = page.getByRole('main')
    await expect(main.locator('[data-card="product"]').first()).toBeVisible()
    const cards = await main.locator('[data-card="product"]').count()
    await expect(main.locator('.badge-none')).toHaveCount(cards)
    await expect(main.locator('.badge-none').first()).toHaveText('Delivery not available at 799001')
    await expect(main.locator('[data-card="product"] button.cart-add')).toHaveCount(0)
    await expect(main.getByRole('button', { name: /^Add .+ to cart$/ }).first()).toBeDisabled()
    await page.goto(productHref)
    await expect(productBuyBox(page).getByRole('button', { name: /^Add .+ to cart$/ })).toBeDisabled()
    await expect(page.getByRole('main').locator('.badge-none').first()).toHaveText('Delivery not available at 799001')
    // A form posted anyway (a stale page) is refused with the same words, and the cart stays empty.
    const productId = /-([0-9a-f]{24})$/.exec(productHref)![1]!
    const refused = await page.request.post('/cart', {
      form: { intent: 'add', productId, js: '1' },
      headers: { Origin: new URL(page.url()).origin },
    })
    expect(refused.status()).toBe(422)
    expect(await refused.text()).toContain('Delivery not available at 799001')
    await page.goto('/cart')
    await expect(page.getByTestId('cart-delivery')).toContainText('Delivery not available at 799001')
    await expect(page.getByRole('main').getByText('Your cart is empty')).toBeVisible()
    expect(await fitsWidth(page)).toBe(true)
    await page.goto('/location')
    expect(await fitsWidth(page)).toBe(true)
  })
})

test('goes back to the page it came from, only on this site', async ({ page }, testInfo) => {
  test.setTimeout(90_000)
  const js = isJs(testInfo)
  await page.goto('/cart')
  await locationLink(page).click()
  await expect(page).toHaveURL(/\/location\?redirectTo=%2Fcart$/)
  await choosePincode(page, '560034', js)
  await expect(page).toHaveURL(/\/cart$/)
  await expect(locationLink(page)).toContainText('Koramangala, 560034')

  await page.goto(`/location?${new URLSearchParams({ redirectTo: '//evil.example/x' })}`)
  await choosePincode(page, '560038', js)
  await expect(page).toHaveURL(/^http:\/\/localhost:\d+\/$/)
})

test("a visitor's location is saved to the account at sign-in and comes back at the next", async ({
  browser,
  page,
  playwright,
}, testInfo) => {
  test.setTimeout(120_000)
  const js = isJs(testInfo)
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL })
  const shopper = newUser(testInfo, 'location')
  await registerViaApi(request, shopper)
  await request.dispose()

  await page.goto('/location')
  await choosePincode(page, '560102', js)
  await expect(locationLink(page)).toContainText('560102')
  await signIn(page, shopper)
  await expect(locationLink(page)).toContainText('560102')

  const other = await browser.newContext({ baseURL: testInfo.project.use.baseURL, javaScriptEnabled: js, locale: 'en-IN' })
  const second = await other.newPage()
  await second.goto('/')
  await expect(locationLink(second)).toContainText('Choose your location')
  await signIn(second, shopper)
  await expect(locationLink(second)).toContainText('560102')
  await other.close()
})

/** Sets a product's stock in Koramangala through the admin API. */
async function setKoramangalaStock(request: APIRequestContext, headers: Record<string, string>, productId: string, stock: number) {
  const response = await request.put('/api/inventory/update', { data: { rows: [{ storeId: KORAMANGALA, productId, stock }] }, headers })
  expect(response.ok(), await response.text()).toBe(true)
}

/**
 * Products with more than 5 units in Indiranagar (the default store: the public API's answer) and in
 * Koramangala, from page `listPage` (50 rows) of Koramangala's inventory list.
 */
async function inBothStores(request: APIRequestContext, headers: Record<string, string>, listPage: number): Promise<StockRow[]> {
  const listed = await request.post('/api/inventory/list', {
    data: { storeId: KORAMANGALA, filter: 'all', page: listPage, limit: 50 },
    headers,
  })
  expect(listed.ok()).toBe(true)
  const rows = ((await listed.json()) as { data: StockRow[] }).data.filter((row) => row.stock > 5)
  const inIndiranagar = async (productId: string) =>
    (await api<{ stock: number }>(request, '/product/get-product-details', { productId })).data.stock
  const both: StockRow[] = []
  for (const row of rows) if ((await inIndiranagar(row.productId)) > 5) both.push(row)
  return both
}

/** Puts `count` units of a product in the cart from its page (the buy box's ADD, then "Add one more"). */
async function addFromProductPage(page: Page, js: boolean, productId: string, name: string, count: number) {
  await page.goto(`/product/x-${productId}`)
  // The buy box names the product with its brand ("Add <brand> <name> to cart").
  await expect(page.getByRole('heading', { level: 1 })).toContainText(name)
  const add = productBuyBox(page).getByRole('button', { name: /^Add .+ to cart$/ })
  if (js) await waitForHydration(add)
  await add.click()
  await expect(productBuyBox(page).locator('output')).toContainText('1')
  for (let n = 2; n <= count; n++) {
    const more = productBuyBox(page).getByRole('button', { name: /^Add one more / })
    await more.click()
    await expect(productBuyBox(page).locator('output')).toContainText(String(n))
  }
  // Every press has landed before the next step (the count shows at once, before the server has it):
  // the next step loads a new document, which would cancel a request still under way.
  await expectCartSettled(productBuyBox(page))
}

test('a signed-in shopper picks a saved address; with JavaScript, "Use my current location"', async ({
  browser,
  page,
  request,
}, testInfo) => {
  test.setTimeout(90_000)
  const js = isJs(testInfo)
  const shopper = newUser(testInfo, 'saved-address')
  await registerViaApi(request, shopper)
  const login = await api<{ accessToken: string }>(request, '/user/login', { email: shopper.email, password: shopper.password })
  const address = await request.post('/api/address/create', {
    data: { address_line: '12, 80 Feet Road, 4th Block', city: 'Bengaluru', state: 'Karnataka', pincode: '560034', mobile: '9845012345' },
    headers: { Authorization: `Bearer ${login.data.accessToken}` },
  })
  expect(address.ok(), await address.text()).toBe(true)

  await signIn(page, shopper)
  await expect(locationLink(page)).toContainText('Choose your location')
  await page.goto('/location')
  const saved = page.getByRole('region', { name: 'Or deliver to a saved address' })
  const pick = saved.getByRole('button', { name: /12, 80 Feet Road, 4th Block/ })
  if (js) await waitForHydration(pick)
  await pick.click()
  // (The toast, 2 s long, is checked by the first test; a loaded machine may outlast it here.)
  await expect(page).toHaveURL(/\/$/)
  await expect(locationLink(page)).toContainText('Koramangala, 560034')
  // Saved to the account too.
  const account = await request.get('/api/location', { headers: { Authorization: `Bearer ${login.data.accessToken}` } })
  expect(((await account.json()) as { data: { pincode: string } }).data.pincode).toBe('560034')

  // The browser's position (Indiranagar's centre) picks the nearest PIN code; without JavaScript there is no such button.
  await page.goto('/location')
  const here = page.getByRole('main').getByRole('button', { name: 'Use my current location' })
  if (!js) {
    await expect(page.getByRole('main').getByRole('button', { name: 'Check and save' })).toBeVisible()
    await expect(here).toHaveCount(0)
    return
  }
  const located = await browser.newContext({ baseURL: testInfo.project.use.baseURL, locale: 'en-IN' })
  // The browser's answer is stubbed: Debian's chromium has no location provider, and Playwright's
  // emulated position did not reach the page there (the error callback ran).
  await located.addInitScript(() => {
    const position = { coords: { latitude: 12.9784, longitude: 77.6408, accuracy: 20 }, timestamp: Date.now() }
    Object.defineProperty(navigator, 'geolocation', {
      configurable: true,
      value: { getCurrentPosition: (found: (p: typeof position) => void) => setTimeout(() => found(position), 0) },
    })
  })
  try {
    const visitor = await located.newPage()
    await visitor.goto('/location')
    const button = visitor.getByRole('main').getByRole('button', { name: 'Use my current location' })
    await waitForHydration(button)
    await button.click()
    await expect(visitor).toHaveURL(/\/$/)
    await expect(locationLink(visitor)).toContainText('Indiranagar, 560038')
  } finally {
    await located.close()
  }
})

test('changing location with a cart says what the new store lacks and caps what it has few of', async ({ page, request }, testInfo) => {
  test.setTimeout(120_000)
  const js = isJs(testInfo)
  const headers = await adminHeaders(request)
  // Two per project, apart from the ones tests/e2e/admin-stores.spec.ts takes from the same list.
  const both = await inBothStores(request, headers, 2)
  const [gone, few] = js ? [both[0], both[1]] : [both[2], both[3]]
  expect(few, 'two products in stock in both stores').toBeTruthy()
  // Open whatever the hour (a closed store's cart says so instead of what it lacks).
  const restoreHours = await openAroundTheClock(request, headers, KORAMANGALA)
  try {
    await setKoramangalaStock(request, headers, gone!.productId, 0)
    await setKoramangalaStock(request, headers, few!.productId, 1)
    // A visitor without a location fills a cart from Indiranagar's stock: one of one, two of the other.
    await addFromProductPage(page, js, gone!.productId, gone!.name, 1)
    await addFromProductPage(page, js, few!.productId, few!.name, 2)

    await page.goto('/cart')
    await locationLink(page).click()
    await expect(page).toHaveURL(/\/location\?redirectTo=%2Fcart$/)
    await choosePincode(page, '560034', js)
    await expect(page).toHaveURL(/\/cart$/)
    await expect(locationLink(page)).toContainText('Koramangala, 560034')
    // What changed, once, in the checkout's words (names are cut to 60 characters for the cookie).
    const notice = page.getByRole('status').filter({ hasText: 'Your cart was updated for Koramangala' })
    await expect(notice).toBeVisible()
    await expect(notice).toContainText(`${gone!.name.slice(0, 50)}`)
    await expect(notice).toContainText(/not available at this store/)
    await expect(notice).toContainText(/only 1 left here, quantity changed from 2/)
    // The line Koramangala lacks stays in the cart, marked; the other is down to its stock.
    await expect(page.getByRole('main')).toContainText('Unavailable at Koramangala')
    await page.reload()
    await expect(page.getByRole('status').filter({ hasText: 'Your cart was updated' })).toHaveCount(0)
  } finally {
    await setKoramangalaStock(request, headers, gone!.productId, gone!.stock)
    await setKoramangalaStock(request, headers, few!.productId, few!.stock)
    await restoreHours()
  }
})

test('after a switch to a store lacking a product, the cart bills only what it delivers, as checkout does', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(120_000)
  const js = isJs(testInfo)
  const headers = await adminHeaders(request)
  // Two per project, apart from the ones the test above takes (page 2 of the same list).
  const both = await inBothStores(request, headers, 3)
  const [gone, kept] = js ? [both[0], both[1]] : [both[2], both[3]]
  expect(kept, 'two products in stock in both stores').toBeTruthy()
  const user = newUser(testInfo, 'switch-bill')
  await registerViaApi(request, user)
  await signIn(page, user)
  // Open whatever the hour: checkout refuses a closed store.
  const restoreHours = await openAroundTheClock(request, headers, KORAMANGALA)
  try {
    await setKoramangalaStock(request, headers, gone!.productId, 0)
    // Filled from Indiranagar's stock (the default store), then moved to Koramangala, which lacks one.
    await addFromProductPage(page, js, gone!.productId, gone!.name, 1)
    await addFromProductPage(page, js, kept!.productId, kept!.name, 1)
    await page.setViewportSize({ width: 360, height: 780 })
    await page.goto('/location?redirectTo=%2Fcart')
    await choosePincode(page, '560034', js)
    await expect(page).toHaveURL(/\/cart$/)
    await expect(locationLink(page)).toContainText('Koramangala')

    const lines = page.getByRole('list', { name: 'Cart items' }).getByRole('listitem')
    const unavailable = lines.filter({ hasText: 'Unavailable at Koramangala' })
    await expect(unavailable).toHaveCount(1)
    await expect(unavailable).toHaveAttribute('data-stock', 'unavailable')
    await expect(unavailable.locator('[data-greyed]')).toHaveCount(1)
    await expect(unavailable.getByRole('button', { name: /^Remove / })).toBeVisible()
    await expect(unavailable.getByRole('link', { name: /^See similar/ })).toHaveAttribute('href', /#similar-products$/)
    // The header, the cart's bill and checkout's bill count the one line Koramangala delivers.
    await expect(page.getByTestId('cart-button')).toContainText('1 item')
    const cartTotal = (await page.locator('[data-card="proceed"]').locator('span.text-lg').textContent())!.trim()
    expect(await fitsWidth(page)).toBe(true)
    await page.goto('/checkout')
    const place = page.getByRole('button', { name: /^Place Order/ })
    await expect(place).toHaveText(`Place Order · ${cartTotal}`)
    await expect(page.getByRole('heading', { name: '1 item' })).toBeVisible()
    await expect(page.getByRole('list', { name: 'Items to order' }).getByRole('listitem')).toHaveCount(1)

    // That first cart page was a full render (its one-time notice of what changed); now it is the
    // stored page with the shopper's cart spliced in (docs/decisions/0038-cart-summaries-in-memory.md),
    // and says the same.
    const again = await page.goto('/cart')
    expect(again!.headers()['x-page-cache']).toBe('spliced')
    await expect(unavailable.locator('[data-greyed]')).toHaveCount(1)
    await expect(unavailable.getByRole('link', { name: /^See similar/ })).toHaveAttribute('href', /#similar-products$/)
    await expect(page.getByTestId('cart-button')).toContainText('1 item')
    await expect(page.locator('[data-card="proceed"]').locator('span.text-lg')).toHaveText(cartTotal)

    // Remove takes the line out; the bill stays what it was.
    const remove = unavailable.getByRole('button', { name: /^Remove / })
    if (js) await waitForHydration(remove)
    await remove.click()
    await expect(page).toHaveURL(/\/cart/)
    await expect(lines).toHaveCount(1)
    await expect(page.locator('[data-card="proceed"]').locator('span.text-lg')).toHaveText(cartTotal)
    expect(await fitsWidth(page)).toBe(true)
  } finally {
    await setKoramangalaStock(request, headers, gone!.productId, gone!.stock)
    await restoreHours()
  }
})

test('at 360 px the new address starts from the location; its label, floor and landmark show with the store that delivers it', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(120_000)
  const js = isJs(testInfo)
  const shopper = newUser(testInfo, 'address-extras')
  await registerViaApi(request, shopper)
  // Signed in at the default width (signIn checks the desktop account menu), then a phone's.
  await signIn(page, shopper)
  await page.setViewportSize({ width: 360, height: 640 })
  await page.goto('/location')
  await choosePincode(page, '560038', js)
  await expect(locationLink(page)).toContainText('560038')

  // Something in the cart, so the checkout opens (a product with stock in the location's store).
  await page.goto('/')
  const href = await page.getByRole('main').locator('a[href^="/product/"]').first().getAttribute('href')
  await page.goto(href!)
  const add = productBuyBox(page).getByRole('button', { name: /^Add .+ to cart$/ })
  if (js) await waitForHydration(add)
  await add.click()
  await expect(productBuyBox(page).locator('output')).toContainText('1')

  // No address yet: the form starts with the chosen location's pincode, city and state, all editable.
  await page.goto('/checkout')
  const main = page.getByRole('main')
  await expect(main.getByLabel('Pincode')).toHaveValue('560038')
  await expect(main.getByLabel('State')).toHaveValue('Karnataka')
  await expect(main.getByLabel('City')).not.toHaveValue('')
  await main.getByLabel('City').fill('Bengaluru')
  await main.getByRole('radio', { name: 'Work' }).check()
  await main.getByLabel('Address (house, street, area)').fill('7, 100 Feet Road, Indiranagar')
  await main.getByLabel('Floor (optional)').fill('3')
  await main.getByLabel('Landmark (optional)').fill('Opposite the park')
  await main.getByLabel('Mobile').fill('9845012345')
  const save = main.getByRole('button', { name: 'Save address' })
  if (js) await waitForHydration(save)
  await save.click()

  const saved = main.getByRole('radio', {
    name: /Floor 3, 7, 100 Feet Road, Indiranagar, Bengaluru, Karnataka 560038 \(Landmark: Opposite the park\)/,
  })
  await expect(saved).toBeChecked()
  // Its label first, and the store placement would pick for it with its minutes (the radio's name is its whole card).
  await expect(saved).toHaveAccessibleName(/^Work Floor 3, .* Delivery in \d+ minutes? from \S+/)
  expect(await fitsWidth(page)).toBe(true)

  // My Addresses lists it the same way.
  await page.goto('/dashboard/address')
  const card = page.getByRole('list', { name: 'Saved addresses' }).getByRole('listitem').first()
  await expect(card).toContainText('Work')
  await expect(card).toContainText('Floor 3, 7, 100 Feet Road')
  await expect(card).toContainText('Landmark: Opposite the park')
})
