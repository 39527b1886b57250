/**
 * A failed delivery (docs/delivery.md, "Could not deliver"), with JavaScript on and off, at 360 px: a
 * rider of the order's store holds a paid order out for delivery, chooses "Customer not reachable"
 * under "Could not deliver" on /rider, and the order ends delivery failed; the shopper's order page
 * says "Delivery failed: Customer not reachable" and that the payment is refunded in full; the admin's
 * orders list finds it under the "Delivery failed" filter. Then the order desk marks a second,
 * cash-on-delivery order delivery failed from its page ("Address not found"), which says nothing is
 * charged.
 *
 * The store's queue is emptied first (its earlier riders deactivated, its waiting orders cancelled),
 * so the dispatch rule gives the orders to this test's rider only (as tests/e2e/rider.spec.ts does).
 */
import { expect, test, type APIRequestContext, type Page, type TestInfo } from '@playwright/test'
import { adminHeaders, signInAsAdmin } from './admin-fixtures.ts'
import { midPricedProduct } from './checkout-fixtures.ts'
import { api, isJs, newUser, registerViaApi, signInWithPassword, toast, waitForHydration } from './helpers.ts'
import { emptyQueue, setPasswordByReset } from './rider-fixtures.ts'

const INDIRANAGAR = 'storeBlrIndiranagar'

const loginHeaders = async (request: APIRequestContext, email: string, password: string) =>
  ({
    Authorization: `Bearer ${(await api<{ accessToken: string }>(request, '/user/login', { email, password })).data.accessToken}`,
  }) as Record<string, string>

/** A shopper of the Indiranagar store with one unit of `productId` in the cart and an address there. */
async function shopperWithCart(request: APIRequestContext, testInfo: TestInfo, label: string, productId: string) {
  const user = newUser(testInfo, label)
  await registerViaApi(request, user)
  const headers = await loginHeaders(request, user.email, user.password)
  expect((await request.post('/api/cart/create', { data: { productId }, headers })).ok()).toBe(true)
  const address = await request.post('/api/address/create', {
    data: {
      address_line: '9, 80 Feet Road, HAL 2nd Stage',
      city: 'Bengaluru',
      state: 'Karnataka',
      pincode: '560038',
      mobile: '9820011223',
    },
    headers,
  })
  expect(address.ok(), await address.text()).toBe(true)
  return { user, headers, addressId: ((await address.json()) as { data: { _id: string } }).data._id }
}

/** A RIDER of the Indiranagar store, invited by the admin, its password set by the reset flow; answers its sign-in and API headers. */
async function newRider(request: APIRequestContext, admin: Record<string, string>, testInfo: TestInfo) {
  const rider = newUser(testInfo, 'failed-rider')
  const invited = await request.post('/api/staff/invite', {
    data: { email: rider.email, role: 'RIDER', storeId: INDIRANAGAR, name: rider.name },
    headers: admin,
  })
  expect(invited.status(), await invited.text()).toBe(201)
  await setPasswordByReset(request, rider.email, rider.password)
  const headers = await loginHeaders(request, rider.email, rider.password)
  expect((await request.post('/api/rider/shift', { data: { onShift: true }, headers })).ok()).toBe(true)
  return { rider, headers }
}

/** Packs `orderId` (the rule gives it to the only free rider) and the rider picks it up. */
async function outForDelivery(request: APIRequestContext, admin: Record<string, string>, rider: Record<string, string>, orderId: string) {
  const packed = await request.put('/api/order/update-status', { data: { orderId, status: 'packed' }, headers: admin })
  expect(packed.ok(), await packed.text()).toBe(true)
  const picked = await request.post('/api/rider/picked-up', { data: { orderId }, headers: rider })
  expect(picked.ok(), await picked.text()).toBe(true)
}

async function expectNoSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
  expect(overflow).toBeLessThanOrEqual(0)
}

test('a rider marks "Could not deliver" with a reason: the shopper sees the failed delivery and the refund; the admin filter finds it', async ({
  page,
  browser,
  request,
}, testInfo) => {
  // A mail round trip, a payment, three people's pages.
  test.slow()
  const js = isJs(testInfo)
  const admin = await adminHeaders(request)
  await emptyQueue(request, admin, INDIRANAGAR)
  const { rider, headers: riderHeaders } = await newRider(request, admin, testInfo)

  // A paid order (UPI through the test provider).
  const product = await midPricedProduct(request)
  const shopper = await shopperWithCart(request, testInfo, 'failed-shopper', product._id)
  const base = new URL(testInfo.project.use.baseURL!).origin
  const started = await request.post('/api/payment/start', {
    data: { addressId: shopper.addressId, method: 'upi', callbackUrl: `${base}/checkout/payment/callback`, cancelUrl: `${base}/checkout` },
    headers: { ...shopper.headers, 'Idempotency-Key': `e2e-failed-${testInfo.project.name}-${Date.now()}` },
  })
  expect(started.status(), await started.text()).toBe(201)
  const { order, checkout } = (
    (await started.json()) as { data: { order: { _id: string; orderId: string }; checkout: { providerOrderId: string } } }
  ).data
  expect(
    (await request.post('/api/payment/test-checkout/answer', { form: { order_id: checkout.providerOrderId, action: 'pay' } })).ok(),
  ).toBe(true)
  await outForDelivery(request, admin, riderHeaders, order._id)

  const context = await browser.newContext({ javaScriptEnabled: js, viewport: { width: 360, height: 740 } })
  try {
    // The rider: "Could not deliver", "Customer not reachable".
    const riderPage = await context.newPage()
    await signInWithPassword(riderPage, rider)
    await riderPage.goto('/rider')
    const card = riderPage.locator(`[data-card="rider-order"][data-order-id="${order._id}"]`)
    await expect(card.locator('[data-field="status"]')).toHaveText('Out for delivery')
    const failForm = card.getByRole('form', { name: `Could not deliver ${order.orderId}` })
    const submit = failForm.getByRole('button', { name: 'Could not deliver' })
    if (js) await waitForHydration(submit)
    await failForm.getByRole('radio', { name: 'Customer not reachable' }).check()
    await expectNoSidewaysScroll(riderPage)
    await submit.click()
    await expect(toast(riderPage, 'Delivery failed: return the order to the store')).toBeVisible()
    await expect(card).toHaveCount(0)
  } finally {
    await context.close()
  }

  // The shopper's order page (a browser of their own): why, and the refund in words.
  const shopperContext = await browser.newContext({ javaScriptEnabled: js, viewport: { width: 360, height: 740 } })
  try {
    const shopperPage = await shopperContext.newPage()
    await signInWithPassword(shopperPage, shopper.user)
    await shopperPage.goto(`/dashboard/myorder/${order._id}`)
    const note = shopperPage.getByTestId('delivery-failed-note')
    await expect(note).toContainText('Delivery failed: Customer not reachable')
    await expect(note).toContainText(/Your payment of ₹[\d.]+ (is being|has been) refunded in full/)
    await expect(shopperPage.getByRole('list', { name: 'Order status' })).toContainText('Delivery failed')
    await expectNoSidewaysScroll(shopperPage)
  } finally {
    await shopperContext.close()
  }

  // The admin's list: the "Delivery failed" filter finds it.
  await signInAsAdmin(page)
  await page.setViewportSize({ width: 360, height: 740 })
  await page.goto('/dashboard/orders')
  const filters = page.getByRole('navigation', { name: 'Filter by status' })
  const chip = filters.getByRole('link', { name: 'Delivery failed' })
  if (js) await waitForHydration(chip)
  await chip.click()
  await expect(page).toHaveURL(/[?&]status=delivery_failed(&|$)/)
  await expect(page.getByRole('row').filter({ hasText: order.orderId })).toBeVisible()
  await expectNoSidewaysScroll(page)

  // The order desk marks a cash-on-delivery order delivery failed from its page.
  const second = await shopperWithCart(request, testInfo, 'failed-cod', product._id)
  const placed = await request.post('/api/order/cash-on-delivery', {
    data: { addressId: second.addressId },
    headers: { ...second.headers, 'Idempotency-Key': `e2e-failed-cod-${testInfo.project.name}-${Date.now()}` },
  })
  expect(placed.status(), await placed.text()).toBe(201)
  const cod = ((await placed.json()) as { data: { _id: string; orderId: string } }).data
  await outForDelivery(request, admin, riderHeaders, cod._id)
  await page.goto(`/dashboard/orders/${cod._id}`)
  const desk = page.locator('[data-card="delivery failed"]')
  const mark = desk.getByRole('button', { name: 'Mark delivery failed' })
  if (js) await waitForHydration(mark)
  await desk.getByRole('radio', { name: 'Address not found' }).check()
  await expectNoSidewaysScroll(page)
  await mark.click()
  await expect(toast(page, 'Order marked delivery failed')).toBeVisible()
  const codNote = page.getByTestId('delivery-failed-note')
  await expect(codNote).toContainText('Delivery failed: Address not found')
  await expect(codNote).toContainText('Nothing is charged')
})
