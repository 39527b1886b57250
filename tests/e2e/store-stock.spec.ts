/**
 * The shopper pages against a dark store's stock and area (docs/stores.md, "Shopper pages"), with
 * JavaScript on and off: a product out of stock in the default store says "Out of stock" and comes
 * after the available ones of its listing; a product with 1-5 units says "Only N left"; an address
 * the default store does not serve (110001, Connaught Place) is marked at checkout and its order is
 * refused with a link to change the delivery location; a placed order's page shows its store and
 * promised time (addresses that must be served use 560038 or 560008, both Indiranagar's); a location
 * no store serves (799001) and a closed store (one made for the test in Chennai, opening in two hours)
 * offer no "Place Order", the closed one saying when it opens.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test'
import {
  ADMIN,
  productBuyBox,
  api,
  isJs,
  newUser,
  productCardItems,
  registerViaApi,
  slug,
  submitLogin,
  uniqueName,
  waitForHydration,
} from './helpers.ts'

interface ListedProduct {
  _id: string
  name: string
  stock: number
  /** Present on a product standing for its pack group (docs/product.md, "Pack sizes"). */
  packSizes?: unknown[]
}
interface SubCategoryRow {
  _id: string
  name: string
  category: { _id: string; name: string }[]
}

/** The admin's bearer header (the stock of a product is set through the admin API). */
async function adminHeaders(request: APIRequestContext): Promise<Record<string, string>> {
  const login = await api<{ accessToken: string }>(request, '/user/login', { email: ADMIN.email, password: ADMIN.password })
  return { Authorization: `Bearer ${login.data.accessToken}` }
}

/** Sets a product's stock in the default store (no X-Store-Id: the default store, docs/stores.md). */
async function setStock(request: APIRequestContext, headers: Record<string, string>, productId: string, stock: number) {
  const response = await request.put('/api/product/update-product-details', { data: { _id: productId, stock }, headers })
  expect(response.ok(), await response.text()).toBe(true)
}

/**
 * A sub category whose products fit on one listing page (2-8 of them) and are all in stock, as
 * the API lists them; `offset` picks a different one per project so the two runs do not share it.
 */
async function smallListing(request: APIRequestContext, offset: number) {
  const subCategories = (await api<SubCategoryRow[]>(request, '/subcategory/get', {})).data
  let seen = 0
  for (const sub of subCategories) {
    const category = sub.category[0]
    if (!category) continue
    const listed = await api<ListedProduct[]>(request, '/product/get-product-by-category-and-subcategory', {
      categoryId: category._id,
      subCategoryId: sub._id,
      page: 1,
      limit: 8,
      // As the listing page asks (docs/product.md, "Pack sizes"); a listing with a pack group is
      // skipped: a sold-out size of a group is shown by its in-stock sibling, not as "Out of stock".
      groupSizes: true,
    })
    const total = Number(listed.totalCount)
    if (total < 3 || total > 8 || listed.data.some((p) => p.stock <= 5 || p.packSizes)) continue
    if (seen++ < offset) continue
    return { path: `/${slug(category.name, category._id)}/${slug(sub.name, sub._id)}`, products: listed.data }
  }
  throw new Error('no small listing with every product in stock')
}

async function addressOf(page: Page, line: string, city: string, state: string, pincode: string) {
  await page.getByLabel('Address (house, street, area)').fill(line)
  await page.getByLabel('City').fill(city)
  await page.getByLabel('State').selectOption(state)
  await page.getByLabel('Pincode').fill(pincode)
  await page.getByLabel('Mobile').fill('9845012345')
  await page.getByRole('button', { name: 'Save address' }).click()
}

/** Signs a fresh shopper in and puts one in-stock product (from a search for `search`) in the cart. */
async function shopperWithCart(page: Page, request: APIRequestContext, js: boolean, label: string, search: string) {
  const user = newUser(test.info(), label)
  await registerViaApi(request, user)
  await submitLogin(page, user.email, user.password)
  await expect(page).toHaveURL(/\/$/)
  const found = (await api<ListedProduct[]>(request, '/product/search-product', { search, page: 1, limit: 10 })).data
  const product = found.find((p) => p.stock > 5)!
  await page.goto(`/product/x-${product._id}`)
  const add = productBuyBox(page).getByRole('button', { name: /^Add .+ to cart$/ })
  if (js) await waitForHydration(add)
  await add.click()
  await expect(page.getByTestId('cart-button')).toContainText('1 item')
}

test('out of stock sorts last with "Out of stock"; 1-5 units say "Only N left"', async ({ page, request }, testInfo) => {
  const headers = await adminHeaders(request)
  const listing = await smallListing(request, isJs(testInfo) ? 0 : 1)
  const [soldOut, few] = [listing.products[0]!, listing.products[1]!]
  await setStock(request, headers, soldOut._id, 0)
  await setStock(request, headers, few._id, 3)
  try {
    await page.goto(listing.path)
    const cards = productCardItems(page)
    await expect(cards).toHaveCount(listing.products.length)
    // The sold-out product was first; now it is the last card, and the only one out of stock.
    const last = cards.last()
    await expect(last).toContainText(soldOut.name)
    await expect(last).toContainText('Out of stock')
    await expect(page.getByRole('main').getByText('Out of stock')).toHaveCount(1)
    await expect(cards.filter({ hasText: few.name }).first()).toContainText('Only 3 left')

    // The product page says the same.
    await page.goto(`/product/x-${few._id}`)
    await expect(productBuyBox(page).getByText('Only 3 left')).toBeVisible()
    // Nothing leaves its card at 360 px.
    await page.setViewportSize({ width: 360, height: 800 })
    await page.goto(listing.path)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
  } finally {
    await setStock(request, headers, soldOut._id, soldOut.stock)
    await setStock(request, headers, few._id, few.stock)
  }
})

test('an address outside the store\'s area is marked, and its order refused with "Change delivery location"', async ({
  page,
  request,
}, testInfo) => {
  // A sign-in, a product page and the checkout twice: more than the default 30 s on a loaded 2-core machine.
  test.setTimeout(90_000)
  const js = isJs(testInfo)
  await shopperWithCart(page, request, js, 'far-away', 'basmati rice')
  await page.goto('/checkout')
  await addressOf(page, '5, Janpath, Connaught Place', 'New Delhi', 'Delhi', '110001')
  await expect(page.getByRole('radio', { name: /Janpath/ })).toBeChecked()
  // Marked before anything is sent.
  await expect(page.getByTestId('address-not-served')).toContainText('Indiranagar does not deliver here')
  await expect(page.getByTestId('not-served-note').getByRole('link', { name: 'Change delivery location' })).toHaveAttribute(
    'href',
    '/location?redirectTo=%2Fcheckout',
  )
  const place = page.getByRole('button', { name: /^Place Order/ })
  if (js) await waitForHydration(place)
  await place.click()
  const form = page.locator('form#place-order')
  await expect(form.getByRole('alert').filter({ hasText: 'does not deliver to pincode 110001' })).toBeVisible()
  await expect(form.getByRole('link', { name: 'Change delivery location' })).toHaveAttribute('href', '/location?redirectTo=%2Fcheckout')
  await expect(page).toHaveURL(/\/checkout/)
})

test('an order from the store shows its store and promised time', async ({ page, request }, testInfo) => {
  const js = isJs(testInfo)
  await shopperWithCart(page, request, js, 'on-time', 'toor dal')
  await page.goto('/checkout')
  await addressOf(page, '3, 80 Feet Road, HAL II Stage', 'Bengaluru', 'Karnataka', js ? '560038' : '560008')
  const address = page.getByRole('radio', { name: /80 Feet Road/ })
  await expect(address).toBeChecked()
  // Served by the default store: the minutes to this address.
  await expect(page.locator('label').filter({ has: address })).toContainText(/Delivery in \d+ minutes?/)
  const place = page.getByRole('button', { name: /^Place Order/ })
  if (js) await waitForHydration(place)
  await place.click()
  await expect(page).toHaveURL(/\/success\?order=OD\d+/)
  await expect(page.getByTestId('promised-minutes')).toHaveText(/^\d+ minutes?$/)
  await page.getByRole('link', { name: 'View order' }).click()
  const delivery = page.getByTestId('order-delivery')
  await expect(delivery).toContainText('From Indiranagar store')
  await expect(delivery.getByTestId('promised-time')).toContainText(/Arriving by \d\d:\d\d \(\d+ minutes?\)/)
  // The countdown is JavaScript's; without it the promised time alone.
  if (js) await expect(delivery.getByTestId('countdown')).toHaveText(/\d+ minutes? left|Any moment now/)
  else await expect(delivery.getByTestId('countdown')).toHaveCount(0)
})

/** "HH:MM" of the hour `hoursFromNow` after now in India Standard Time (UTC+05:30), on the hour. */
function istHourFromNow(hoursFromNow: number): string {
  const istHour = new Date(Date.now() + 330 * 60_000).getUTCHours()
  return `${String((istHour + hoursFromNow) % 24).padStart(2, '0')}:00`
}

test('no order where no store delivers, nor from a closed store, which says when it opens', async ({ page, request }, testInfo) => {
  test.setTimeout(120_000)
  const js = isJs(testInfo)
  const headers = await adminHeaders(request)
  await shopperWithCart(page, request, js, 'no-store', 'toor dal')
  const choose = async (pincode: string) => {
    await page.goto('/location')
    const submit = page.getByRole('main').getByRole('button', { name: 'Check and save' })
    if (js) await waitForHydration(submit)
    await page.getByRole('main').getByLabel('Pincode').fill(pincode)
    await submit.click()
    await expect(page).toHaveURL(/\/$/)
  }
  const placeOrder = page.getByRole('button', { name: /^Place Order/ })

  // Agartala: browsing the default store, and no "Place Order".
  await choose('799001')
  await page.goto('/checkout')
  await expect(page.getByTestId('checkout-refusal')).toContainText("We don't deliver to Agartala, 799001 yet.")
  await expect(page.getByTestId('checkout-refusal').getByRole('link', { name: 'Change delivery location' })).toBeVisible()
  await expect(placeOrder).toHaveCount(0)

  // A store in Chennai (no seeded store is near) that opens in two hours and closes in three.
  const name = uniqueName(testInfo, 'Closed store')
  const [opensAt, closesAt] = [istHourFromNow(2), istHourFromNow(3)]
  const created = await request.post('/api/store/create', {
    data: { name, area: 'Park Town', city: 'Chennai', addressLine: '1, Poonamallee High Road', pincode: '600003', opensAt, closesAt },
    headers,
  })
  expect(created.ok(), await created.text()).toBe(true)
  const storeId = ((await created.json()) as { data: { _id: string } }).data._id
  try {
    await choose('600003')
    await expect(page.getByRole('banner').getByTestId('location-link')).toContainText(`Closed now, opens at ${opensAt}`)
    await page.goto('/checkout')
    await expect(page.getByTestId('checkout-refusal')).toContainText(`${name} is closed now. It opens at ${opensAt}.`)
    await expect(placeOrder).toHaveCount(0)
  } finally {
    const off = await request.put('/api/store/update', { data: { _id: storeId, active: false }, headers })
    expect(off.ok(), await off.text()).toBe(true)
  }
})
