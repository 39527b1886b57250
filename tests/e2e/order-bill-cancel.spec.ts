/**
 * The cash to collect and cancelling an order (docs/commerce-api.md, "Money" and "Orders"), with
 * JavaScript on and off: a cart of a product priced in paise shows "Rounding off" and a whole-rupee
 * grand total on the cart, the checkout, the order and the success page; an order never offers
 * "Add ₹… more for FREE delivery"; cancelling asks first (a dialog at `?cancel=1`), takes an optional
 * reason and shows it on the order, for the shopper and for the admin.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test'
import { ADMIN, api, isJs, newUser, registerViaApi, submitLogin, toast, waitForHydration } from './helpers.ts'

interface Priced {
  _id: string
  name: string
  sellingPrice: number
  stock: number
}

/** A product in stock whose selling price has paise and stays below the free-delivery amount. */
async function paiseProduct(request: APIRequestContext): Promise<Priced> {
  for (const search of ['biscuits', 'chips', 'juice', 'soap', 'masala', 'noodles']) {
    const found = (await api<Priced[]>(request, '/product/search-product', { search, page: 1, limit: 50 })).data
    const product = found.find((p) => !Number.isInteger(p.sellingPrice) && p.sellingPrice < 150 && p.stock >= 2)
    if (product) return product
  }
  throw new Error('no product priced in paise found')
}

/** A shopper with a token, an address and one unit of `product` in the cart. */
async function shopperWithCart(request: APIRequestContext, testInfo: Parameters<typeof newUser>[0], product: Priced) {
  const user = newUser(testInfo, 'cod')
  await registerViaApi(request, user)
  const token = (await api<{ accessToken: string }>(request, '/user/login', { email: user.email, password: user.password })).data
    .accessToken
  const headers = { Authorization: `Bearer ${token}` }
  expect((await request.post('/api/cart/create', { data: { productId: product._id }, headers })).ok()).toBe(true)
  const address = await request.post('/api/address/create', {
    data: { address_line: '221, 12th Main, HAL 2nd Stage', city: 'Bengaluru', state: 'Karnataka', pincode: '560038', mobile: '9820098200' },
    headers,
  })
  return { user, headers, addressId: (await address.json()).data._id as string }
}

/**
 * The bill of `product` alone: items in paise, delivery ₹25 below ₹199, the handling charge (₹2) and
 * below ₹99 the small cart fee (₹20) at their defaults (docs/commerce-api.md, "Fees"; the e2e servers
 * charge no late-night fee), rounded to the rupee.
 */
function expectedBill(product: Priced) {
  const items = Math.round(product.sellingPrice * 100)
  const payable = items + 2500 + 200 + (items < 9900 ? 2000 : 0)
  const grand = Math.floor((payable + 50) / 100)
  const rounding = grand * 100 - payable
  const sign = rounding < 0 ? '−' : '+'
  return { grand, roundingText: `${sign}₹${(Math.abs(rounding) / 100).toFixed(2)}` }
}

const bill = (page: Page) => page.getByRole('region', { name: 'Bill details' })

test('a bill in paise is rounded to the rupee; the shopper cancels after confirming, with a reason', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(90_000)
  const js = isJs(testInfo)
  const product = await paiseProduct(request)
  const { user, headers, addressId } = await shopperWithCart(request, testInfo, product)
  const { grand, roundingText } = expectedBill(product)

  await submitLogin(page, user.email, user.password)
  await expect(page).toHaveURL(/\/$/)
  // The cart offers free delivery and shows the rounding the order will ask for.
  await page.goto('/cart')
  await expect(bill(page)).toContainText(`Rounding off${roundingText}`)
  await expect(bill(page)).toContainText(`Grand total₹${grand}`)
  await expect(bill(page)).toContainText('more for FREE delivery')
  await page.goto('/checkout')
  await expect(bill(page)).toContainText(`Rounding off${roundingText}`)

  // Placed as the original client does it: no idempotency key.
  const placed = await request.post('/api/order/cash-on-delivery', { data: { addressId }, headers })
  expect(placed.status()).toBe(201)
  const order = (await placed.json()).data as { _id: string; orderId: string; totalAmt: number }
  expect(order.totalAmt).toBe(grand)

  await page.goto(`/success?order=${order.orderId}`)
  await expect(page.getByRole('main')).toContainText(`pay ₹${grand} in cash on delivery`)

  const orderPath = `/dashboard/myorder/${order._id}`
  await page.goto(orderPath)
  await expect(bill(page)).toContainText(`Rounding off${roundingText}`)
  await expect(bill(page)).toContainText(`Grand total₹${grand}`)
  await expect(bill(page)).not.toContainText('more for FREE delivery')

  // "Cancel order" asks first; "Keep order" changes nothing.
  const cancel = page.getByRole('link', { name: 'Cancel order' })
  if (js) await waitForHydration(cancel)
  await cancel.click()
  const dialog = page.getByRole('dialog', { name: 'Cancel this order?' })
  await expect(dialog).toBeVisible()
  await expect(page).toHaveURL(/\?cancel=1$/)
  await dialog.getByRole('link', { name: 'Keep order' }).click()
  await expect(dialog).toHaveCount(0)
  await expect(page).toHaveURL(new RegExp(`${orderPath}$`))
  await expect(page.getByRole('list', { name: 'Order status' })).not.toContainText('Cancelled')

  if (js) await waitForHydration(cancel)
  await cancel.click()
  await expect(dialog).toBeVisible()
  await dialog.getByLabel('Reason (optional)').fill('Ordered twice by mistake')
  await dialog.getByRole('button', { name: 'Yes, cancel order' }).click()
  await expect(toast(page, 'Order cancelled')).toBeVisible()
  await expect(dialog).toHaveCount(0)
  await expect(page).toHaveURL(new RegExp(`${orderPath}$`))
  await expect(page.getByRole('list', { name: 'Order status' })).toContainText('✓ Cancelled')
  await expect(page.getByTestId('cancellation-note')).toHaveText('This order was cancelled. Reason: Ordered twice by mistake')
  await expect(page.getByRole('link', { name: 'Cancel order' })).toHaveCount(0)
  await expect(bill(page)).not.toContainText('more for FREE delivery')
  const seen = await request.post('/api/order/details', { data: { orderId: order._id }, headers })
  expect((await seen.json()).data.cancelReason).toBe('Ordered twice by mistake')
})

test('the admin cancels an order after confirming, with a reason the shopper sees', async ({ page, request }, testInfo) => {
  test.setTimeout(90_000)
  const js = isJs(testInfo)
  const product = await paiseProduct(request)
  const { headers, addressId } = await shopperWithCart(request, testInfo, product)
  const placed = await request.post('/api/order/cash-on-delivery', {
    data: { addressId },
    headers: { ...headers, 'Idempotency-Key': `e2e-admin-cancel-${Date.now()}-${testInfo.project.name}` },
  })
  expect(placed.status()).toBe(201)
  const order = (await placed.json()).data as { _id: string }

  await submitLogin(page, ADMIN.email, ADMIN.password)
  await expect(page).toHaveURL(/\/$/)
  await page.goto(`/dashboard/orders/${order._id}`)
  await expect(bill(page)).not.toContainText('more for FREE delivery')
  const cancel = page.getByRole('link', { name: 'Cancel order' })
  if (js) await waitForHydration(cancel)
  await cancel.click()
  const dialog = page.getByRole('dialog', { name: 'Cancel this order?' })
  await expect(dialog).toBeVisible()
  await dialog.getByLabel('Reason (optional)').fill('Address could not be reached')
  await dialog.getByRole('button', { name: 'Yes, cancel order' }).click()
  await expect(toast(page, 'Order marked cancelled')).toBeVisible()
  await expect(dialog).toHaveCount(0)
  await expect(page.getByTestId('cancellation-note')).toContainText('Reason: Address could not be reached')
  await expect(page.getByRole('link', { name: 'Cancel order' })).toHaveCount(0)
  const seen = await request.post('/api/order/details', { data: { orderId: order._id }, headers })
  expect((await seen.json()).data).toMatchObject({ status: 'cancelled', cancelReason: 'Address could not be reached' })
})
