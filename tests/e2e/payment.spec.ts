/**
 * Online payment with the test provider (docs/payments.md), with JavaScript on and off: pay by UPI
 * (the checkout opens in the page with JavaScript, the hosted test page without) and land on
 * /success paid; a failed payment offers "Try again" and "Pay on delivery instead"; an abandoned
 * payment holds the stock until the hold ends (PAYMENT_RESERVATION_SECONDS, 25 s on the e2e server)
 * and then the stock is back; a paid order cancelled by the shopper shows its refund; an admin finds
 * a paid order by its payment state and refunds a line that cannot be delivered.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test'
import type { TestInfo } from '@playwright/test'
import { signInAsAdmin } from './admin-fixtures.ts'
import { api, isJs, newUser, registerViaApi, submitLogin, waitForHydration } from './helpers.ts'

interface Stocked {
  _id: string
  name: string
  sellingPrice: number
  stock: number
}

/** A product with a few units in stock. */
async function stockedProduct(request: APIRequestContext, skip: string[] = []): Promise<Stocked> {
  for (const search of ['atta', 'rice', 'dal', 'oil', 'tea', 'sugar']) {
    const found = (await api<Stocked[]>(request, '/product/search-product', { search, page: 1, limit: 50 })).data
    const product = found.find((p) => p.stock >= 5 && p.sellingPrice >= 10 && !skip.includes(p._id))
    if (product) return product
  }
  throw new Error('no stocked product found')
}

const stockOf = async (request: APIRequestContext, id: string) =>
  (await api<{ stock: number }>(request, '/product/get-product-details', { productId: id })).data.stock

/** A signed-in shopper with an address and one unit of `product` in the cart, on /checkout. */
async function atCheckout(page: Page, request: APIRequestContext, testInfo: TestInfo, product: Stocked, label: string) {
  const user = newUser(testInfo, label)
  await registerViaApi(request, user)
  const token = (await api<{ accessToken: string }>(request, '/user/login', { email: user.email, password: user.password })).data
    .accessToken
  const headers = { Authorization: `Bearer ${token}` }
  expect((await request.post('/api/cart/create', { data: { productId: product._id }, headers })).ok()).toBe(true)
  await request.post('/api/address/create', {
    data: { address_line: '221, 12th Main, HAL 2nd Stage', city: 'Bengaluru', state: 'Karnataka', pincode: '560038', mobile: '9820098200' },
    headers,
  })
  await submitLogin(page, user.email, user.password)
  await expect(page).toHaveURL(/\/$/)
  await page.goto('/checkout')
  return { headers }
}

/** Chooses UPI and places the order: the pay page. */
async function payByUpi(page: Page, js: boolean) {
  const place = page.getByRole('button', { name: /Place Order/ })
  if (js) await waitForHydration(place)
  await page.getByRole('radio', { name: /^UPI/ }).check()
  await place.click()
  await expect(page).toHaveURL(/\/checkout\/pay\//)
}

/** The test provider's checkout: the dialog in the page with JavaScript, the hosted page without (after "Pay"). */
async function openTestCheckout(page: Page, js: boolean) {
  if (js) {
    const dialog = page.getByRole('dialog')
    await expect(dialog).toContainText('Test payment: no money moves')
    return dialog
  }
  await page.getByRole('button', { name: /^Pay ₹/ }).click()
  await expect(page.getByText('Test payment: no money moves')).toBeVisible()
  return page.locator('main')
}

/** Shrinks the window to a 360 px phone and checks nothing scrolls sideways (docs/product.md, "Look and feel"). */
async function fitsPhone(page: Page, where: string) {
  await page.setViewportSize({ width: 360, height: 780 })
  const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, window: window.innerWidth }))
  expect(widths.page, `${where}: ${widths.page} px wide in a ${widths.window} px window`).toBeLessThanOrEqual(widths.window)
}

/** The test provider's answer page posts back by itself with JavaScript; without, "Return to the shop". */
/** Reloads the order page until its payment state reads `label` (a provider webhook settles it a moment after the action). */
async function expectPaymentStateAfterWebhook(page: Page, label: string) {
  await expect
    .poll(
      async () => {
        await page.reload()
        return page.getByTestId('payment-state').textContent()
      },
      { timeout: 20_000 },
    )
    .toBe(label)
}

async function returnToShop(page: Page, js: boolean) {
  if (!js) await page.getByRole('button', { name: 'Return to the shop' }).click()
}

test('pays by UPI: the order is placed and paid, the stock is sold', async ({ page, request }, testInfo) => {
  test.setTimeout(90_000)
  const js = isJs(testInfo)
  const product = await stockedProduct(request)
  await atCheckout(page, request, testInfo, product, 'upi')
  const before = await stockOf(request, product._id)
  await payByUpi(page, js)
  await expect(page.getByRole('main')).toContainText('your items are held until')
  expect(await stockOf(request, product._id)).toBe(before - 1)
  await fitsPhone(page, 'the pay page')
  const checkout = await openTestCheckout(page, js)
  await fitsPhone(page, "the test provider's checkout")
  await checkout.getByRole('button', { name: 'Pay by UPI' }).click()
  await returnToShop(page, js)
  await expect(page).toHaveURL(/\/success\?order=OD/)
  await expect(page.getByRole('main')).toContainText('Order placed')
  await expect(page.getByRole('main')).toContainText('online')
  expect(await stockOf(request, product._id)).toBe(before - 1)
})

test('a failed payment offers "Try again" and "Pay on delivery instead"', async ({ page, request }, testInfo) => {
  test.setTimeout(90_000)
  const js = isJs(testInfo)
  const product = await stockedProduct(request)
  await atCheckout(page, request, testInfo, product, 'fail')
  await payByUpi(page, js)
  const checkout = await openTestCheckout(page, js)
  await checkout.getByRole('button', { name: 'Fail the payment' }).click()
  await returnToShop(page, js)
  await expect(page).toHaveURL(/\/checkout\/pay\/.+\?failed=1/)
  await expect(page.getByTestId('payment-trouble')).toHaveText('The payment did not go through. No money was taken.')
  await expect(page.getByRole('button', { name: 'Try again' })).toBeVisible()
  await fitsPhone(page, 'the pay page after a failed payment')
  const cod = page.getByRole('button', { name: 'Pay on delivery instead' })
  if (js) await waitForHydration(cod)
  await cod.click()
  await expect(page).toHaveURL(/\/success\?order=OD/)
  await expect(page.getByRole('main')).toContainText('in cash on delivery')
})

test('an abandoned payment holds the stock until the hold ends, then it is back', async ({ page, request }, testInfo) => {
  test.setTimeout(120_000)
  const js = isJs(testInfo)
  const product = await stockedProduct(request)
  await atCheckout(page, request, testInfo, product, 'abandon')
  const before = await stockOf(request, product._id)
  await payByUpi(page, js)
  const checkout = await openTestCheckout(page, js)
  await checkout.getByRole('button', { name: /Abandon/ }).click()
  await expect(page).toHaveURL(/\/checkout\/pay\/.+\?cancelled=1/)
  await expect(page.getByTestId('payment-trouble')).toHaveText('The payment was not completed.')
  expect(await stockOf(request, product._id)).toBe(before - 1)
  // The e2e server holds for 25 s and sweeps every 2 s.
  await expect.poll(() => stockOf(request, product._id), { timeout: 60_000, intervals: [2000] }).toBe(before)
  await page.reload()
  await expect(page.getByRole('heading', { name: 'The time to pay ran out' })).toBeVisible()
})

test('a paid order cancelled by the shopper is refunded', async ({ page, request }, testInfo) => {
  test.setTimeout(90_000)
  const js = isJs(testInfo)
  const product = await stockedProduct(request)
  await atCheckout(page, request, testInfo, product, 'refund')
  await payByUpi(page, js)
  const checkout = await openTestCheckout(page, js)
  await checkout.getByRole('button', { name: 'Pay by UPI' }).click()
  await returnToShop(page, js)
  await expect(page).toHaveURL(/\/success\?order=OD/)
  await page.getByRole('link', { name: 'View order' }).click()
  await expect(page.getByTestId('payment-state')).toHaveText('Paid online')
  const cancel = page.getByRole('link', { name: 'Cancel order' })
  if (js) await waitForHydration(cancel)
  await cancel.click()
  await page.getByRole('dialog').getByRole('button', { name: 'Yes, cancel order' }).click()
  await expect(page.getByTestId('refund')).toContainText('Order cancelled')
  // The refund settles by the provider's webhook a moment later.
  await expectPaymentStateAfterWebhook(page, 'Refunded')
  await expect(page.getByTestId('refund')).toContainText('Refunded')
})

test('an admin filters orders by payment state and refunds a line that cannot be delivered', async ({ page, request }, testInfo) => {
  test.setTimeout(90_000)
  const js = isJs(testInfo)
  const first = await stockedProduct(request)
  const second = await stockedProduct(request, [first._id])
  // A shopper's order of two lines, paid through the test provider (its webhooks are applied in process).
  const user = newUser(testInfo, 'line-refund')
  await registerViaApi(request, user)
  const token = (await api<{ accessToken: string }>(request, '/user/login', { email: user.email, password: user.password })).data
    .accessToken
  const headers = { Authorization: `Bearer ${token}` }
  for (const p of [first, second]) expect((await request.post('/api/cart/create', { data: { productId: p._id }, headers })).ok()).toBe(true)
  const address = await request.post('/api/address/create', {
    data: { address_line: '221, 12th Main, HAL 2nd Stage', city: 'Bengaluru', state: 'Karnataka', pincode: '560038', mobile: '9820098200' },
    headers,
  })
  const addressId = ((await address.json()) as { data: { _id: string } }).data._id
  const base = new URL(testInfo.project.use.baseURL!).origin
  const started = await request.post('/api/payment/start', {
    data: { addressId, method: 'upi', callbackUrl: `${base}/checkout/payment/callback`, cancelUrl: `${base}/checkout` },
    headers: { ...headers, 'Idempotency-Key': `e2e-line-refund-${testInfo.project.name}-${Date.now()}` },
  })
  expect(started.status()).toBe(201)
  const { order, checkout } = (
    (await started.json()) as { data: { order: { _id: string; orderId: string }; checkout: { providerOrderId: string } } }
  ).data
  const answer = await request.post('/api/payment/test-checkout/answer', { form: { order_id: checkout.providerOrderId, action: 'pay' } })
  expect(answer.ok()).toBe(true)

  await signInAsAdmin(page)
  await page.goto('/dashboard/orders')
  const filters = page.getByRole('search', { name: 'Search orders' })
  const search = filters.getByRole('button', { name: 'Search', exact: true })
  if (js) await waitForHydration(search)
  await filters.getByRole('combobox', { name: 'Payment', exact: true }).selectOption({ label: 'Paid online' })
  await search.click()
  await expect(page).toHaveURL(/[?&]payment=paid(&|$)/)
  const row = page.getByRole('row').filter({ hasText: order.orderId })
  await expect(row.getByTestId('payment-state')).toHaveText('Paid online')
  // Retried: with JavaScript the address changes a moment before React draws the filtered rows.
  await expect(
    page
      .getByRole('table')
      .getByTestId('payment-state')
      .filter({ hasNotText: /^Paid online$/ }),
  ).toHaveCount(0)
  await row.getByRole('link', { name: order.orderId }).click()
  await expect(page.getByRole('heading', { name: `Order ${order.orderId}` })).toBeVisible()
  await expect(page.getByTestId('payment-state')).toHaveText('Paid online')
  await fitsPhone(page, "the admin's order page")
  const refund = page.getByRole('button', { name: 'Refund line' })
  if (js) await waitForHydration(refund)
  await page.getByRole('combobox', { name: /^Refund a line that cannot be delivered/ }).selectOption(second._id)
  await refund.click()
  // The action sends the refund to the provider before it answers: slower than a page on a busy machine.
  await expect(page.getByTestId('refund')).toContainText(`Not delivered: ${second.name}`, { timeout: 30_000 })
  // Settled by the provider's refund webhook a moment later.
  await expectPaymentStateAfterWebhook(page, 'Partly refunded')
  await page.goto('/dashboard/orders?payment=partially_refunded')
  await expect(page.getByRole('row').filter({ hasText: order.orderId }).getByTestId('payment-state')).toHaveText('Partly refunded')
})
