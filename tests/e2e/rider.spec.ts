/**
 * The rider's journey (docs/delivery.md), with JavaScript on and off, the rider's page and the
 * dispatch board at 360 px: an admin invites a rider of the order's store at /dashboard/staff; the
 * order is packed while no rider is free, and the dispatch board lists it as waiting; the rider sets a
 * password, signs in, opens /rider and goes on shift, and the dispatch rule gives it the waiting order
 * at once (the board and the order page show the rider holding it); the rider sees the store, the address with floor and landmark,
 * the customer's first name and the cash to collect, presses "Picked up", then "Delivered" with the
 * cash and the customer's delivery code (the order is ₹1,000 or more: docs/delivery.md, "Delivery
 * code"; a wrong code first, refused with the tries left), and goes off shift. The order is
 * delivered with the cash recorded.
 *
 * The store's queue is emptied first (its earlier riders deactivated, its waiting orders cancelled,
 * all made by earlier runs and other specs), so the rule has this order and this rider only.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test'
import { axeViolations } from './a11y-helpers.ts'
import { ADMIN, api, isJs, newUser, otpOf, registerViaApi, signInWithPassword, toast, waitForHydration, waitForMail } from './helpers.ts'

interface Stocked {
  _id: string
  stock: number
  sellingPrice: number
}

const login = async (request: APIRequestContext, email: string, password: string) =>
  ({
    Authorization: `Bearer ${(await api<{ accessToken: string }>(request, '/user/login', { email, password })).data.accessToken}`,
  }) as Record<string, string>

/** A placed cash-on-delivery order of one product to an address with a floor and a landmark, by a shopper named "Meera Iyer …". */
async function placedOrder(request: APIRequestContext, testInfo: Parameters<typeof newUser>[0]) {
  // One unit of ₹1,000 or more: the order needs the delivery code (DELIVERY_CODE_ABOVE's default).
  let product: Stocked | undefined
  for (const search of ['almonds', 'cashew', 'olive oil', 'ghee', 'basmati rice', 'honey']) {
    const found = (await api<Stocked[]>(request, '/product/search-product', { search, page: 1, limit: 50 })).data
    product = found.find((p) => p.stock >= 3 && p.sellingPrice >= 1000)
    if (product) break
  }
  expect(product, 'a product of ₹1,000 or more in stock').toBeTruthy()
  const shopper = { ...newUser(testInfo, 'rider-shopper'), name: `Meera Iyer ${testInfo.project.name}` }
  await registerViaApi(request, shopper)
  const headers = await login(request, shopper.email, shopper.password)
  expect((await request.post('/api/cart/create', { data: { productId: product!._id }, headers })).ok()).toBe(true)
  const address = await request.post('/api/address/create', {
    data: {
      address_line: '5, 12th Main Road',
      floor: '3',
      landmark: 'Blue Gate',
      city: 'Bengaluru',
      state: 'Karnataka',
      pincode: '560038',
      mobile: '9876501234',
    },
    headers,
  })
  expect(address.ok(), await address.text()).toBe(true)
  const placed = await request.post('/api/order/cash-on-delivery', {
    data: { addressId: (await address.json()).data._id },
    headers: { ...headers, 'Idempotency-Key': `e2e-rider-${Date.now()}-${testInfo.project.name}` },
  })
  expect(placed.status(), await placed.text()).toBe(201)
  return { ...((await placed.json()).data as { _id: string; orderId: string; store: { _id: string; name: string } }), shopper: headers }
}

/** Deactivates the store's riders and cancels its waiting orders, so the rule has only this test's rider and order. */
async function emptyQueue(request: APIRequestContext, admin: Record<string, string>, storeId: string, keepOrderId: string) {
  const team = (await (await request.get('/api/staff/list', { headers: admin })).json()).data as {
    _id: string
    role: string
    status: string
    storeId: string | null
  }[]
  for (const rider of team.filter((m) => m.role === 'RIDER' && m.status === 'Active' && m.storeId === storeId)) {
    const res = await request.put('/api/staff/update', { data: { _id: rider._id, status: 'Inactive' }, headers: admin })
    expect(res.ok(), await res.text()).toBe(true)
  }
  const board = (await (await request.get('/api/dispatch/board', { headers: admin })).json()).data as {
    store: { _id: string }
    waiting: { _id: string }[]
    riders: { orders: { _id: string; status: string }[] }[]
  }[]
  const store = board.find((s) => s.store._id === storeId)!
  for (const order of store.waiting.filter((o) => o._id !== keepOrderId)) {
    await request.put('/api/order/update-status', { data: { orderId: order._id, status: 'cancelled' }, headers: admin })
  }
}

/** Sets `password` on `email`'s account by the password-reset flow's API (the code read from the mail). */
async function setPasswordByReset(request: APIRequestContext, email: string, password: string) {
  const since = Date.now()
  await request.put('/api/user/forgot-password', { data: { email } })
  let otp = ''
  await expect
    .poll(async () => {
      const mail = await waitForMail(email, since)
      if (mail.subject === 'Your password reset code') otp = otpOf(mail)
      return otp
    })
    .not.toBe('')
  const verified = await request.put('/api/user/verify-forgot-password-otp', { data: { email, otp } })
  expect(verified.status()).toBe(200)
  const { resetToken } = (await verified.json()).data as { resetToken: string }
  const reset = await request.put('/api/user/reset-password', {
    data: { email, newPassword: password, confirmPassword: password, resetToken },
  })
  expect(reset.status()).toBe(200)
}

async function expectNoSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
  expect(overflow).toBeLessThanOrEqual(0)
}

test('an admin makes a rider, who goes on shift, gets the packed order, picks it up and delivers it with the cash', async ({
  page,
  browser,
  request,
}, testInfo) => {
  // An invite, a mail round trip, a password reset and two sign-ins.
  test.slow()
  const js = isJs(testInfo)
  const admin = await login(request, ADMIN.email, ADMIN.password)
  const order = await placedOrder(request, testInfo)
  await emptyQueue(request, admin, order.store._id, order._id)

  // The admin invites the rider at /dashboard/staff.
  const rider = newUser(testInfo, 'rider')
  await signInWithPassword(page, ADMIN)
  await page.goto('/dashboard/staff?dialog=invite')
  const dialog = page.getByRole('dialog', { name: 'Invite to the team' })
  const send = dialog.getByRole('button', { name: 'Send invite' })
  if (js) await waitForHydration(send)
  await dialog.getByLabel('Email').fill(rider.email)
  await dialog.getByLabel('Role').selectOption('RIDER')
  await dialog.getByLabel('Store (staff and riders)').selectOption(order.store._id)
  await dialog.getByLabel('Name (for a new account)').fill(rider.name)
  await send.click()
  await expect(toast(page, `${rider.email} invited as rider`)).toBeVisible()
  await setPasswordByReset(request, rider.email, rider.password)

  // Packed with no free rider: the order waits on the board.
  const packed = await request.put('/api/order/update-status', { data: { orderId: order._id, status: 'packed' }, headers: admin })
  expect(packed.ok(), await packed.text()).toBe(true)
  await page.setViewportSize({ width: 360, height: 740 })
  await page.goto('/dashboard/dispatch')
  await expect(page.getByRole('heading', { name: 'Dispatch', level: 1 })).toBeVisible()
  const storeBoard = page.locator(`[data-card="dispatch-store"][data-store-id="${order.store._id}"]`)
  await expect(storeBoard.getByRole('list', { name: `Waiting at ${order.store.name}` })).toContainText(order.orderId)
  await expectNoSidewaysScroll(page)

  const context = await browser.newContext({ javaScriptEnabled: js, viewport: { width: 360, height: 740 } })
  try {
    const riderPage = await context.newPage()
    await signInWithPassword(riderPage, rider)
    await riderPage.goto('/rider')
    await expect(riderPage.getByRole('heading', { name: 'Deliveries', level: 1 })).toBeVisible()
    await expect(riderPage.locator('[data-field="store"]')).toContainText(order.store.name)
    await expect(riderPage.locator('[data-field="shift"]')).toContainText('Off shift')
    const goOn = riderPage.getByRole('button', { name: 'Go on shift' })
    if (js) await waitForHydration(goOn)
    await goOn.click()
    await expect(toast(riderPage, 'You are on shift')).toBeVisible()
    await expect(riderPage.locator('[data-field="shift"]')).toContainText('On shift')

    // On shift, the rider took the oldest waiting order of the store: this one.
    const card = riderPage.locator(`[data-card="rider-order"][data-order-id="${order._id}"]`)
    await expect(card).toBeVisible()
    await expect(card).toContainText(order.orderId)
    await expect(card.locator('[data-field="customer"]')).toHaveText('Meera')
    await expect(card.locator('[data-field="address"]')).toContainText('5, 12th Main Road, floor 3 (near Blue Gate), Bengaluru 560038')
    await expect(card.locator('[data-field="collect"]')).toContainText('cash')
    await expectNoSidewaysScroll(riderPage)
    expect(await axeViolations(riderPage)).toEqual([])
    await page.getByRole('link', { name: 'Refresh' }).click()
    await expect(storeBoard.locator(`[data-rider-id] [data-order-id="${order._id}"]`)).toBeVisible()
    await expect(storeBoard.getByRole('list', { name: `Waiting at ${order.store.name}` })).toHaveCount(0)
    // The order page names the rider; the admin's "back to the queue" goes through the rule, which
    // gives it straight back to the only free rider.
    await page.goto(`/dashboard/orders/${order._id}`)
    const riderBox = page.getByTestId('order-rider')
    await expect(riderBox).toContainText(`Rider: ${rider.name}`)
    const assign = riderBox.getByRole('button', { name: 'Assign' })
    if (js) await waitForHydration(assign)
    await assign.click()
    await expect(toast(page, 'Rider assigned')).toBeVisible()
    await expect(page.getByTestId('order-rider')).toContainText(`Rider: ${rider.name}`)
    await expectNoSidewaysScroll(page)

    const pickedUp = card.getByRole('button', { name: 'Picked up' })
    if (js) await waitForHydration(pickedUp)
    await pickedUp.click()
    await expect(toast(riderPage, 'Picked up: out for delivery')).toBeVisible()
    await expect(card.locator('[data-field="status"]')).toHaveText('Out for delivery')
    const cash = card.getByLabel('Cash collected (₹)')
    const amount = await cash.inputValue()
    expect(Number(amount)).toBeGreaterThan(0)
    await expectNoSidewaysScroll(riderPage)
    // The shopper's order shows the code (their own answer only); the rider types it at the door.
    const shopperView = await request.post('/api/order/details', { data: { orderId: order._id }, headers: order.shopper })
    const code = ((await shopperView.json()).data as { deliveryCode?: string }).deliveryCode
    expect(code).toMatch(/^\d{4}$/)
    const codeField = card.getByLabel('Delivery code from the customer')
    await codeField.fill(code === '0000' ? '1111' : '0000')
    await card.getByRole('button', { name: 'Delivered' }).click()
    await expect(toast(riderPage, 'That code is not right: 4 tries left')).toBeVisible()
    await card.getByLabel('Delivery code from the customer').fill(code!)
    await card.getByRole('button', { name: 'Delivered' }).click()
    await expect(toast(riderPage, 'Delivered')).toBeVisible()
    await expect(card).toHaveCount(0)

    const details = await request.post('/api/order/details', { data: { orderId: order._id }, headers: admin })
    expect(((await details.json()).data as { status: string }).status).toBe('delivered')

    await riderPage.getByRole('button', { name: 'Go off shift' }).click()
    await expect(riderPage.locator('[data-field="shift"]')).toContainText('Off shift')
  } finally {
    await context.close()
  }
})
