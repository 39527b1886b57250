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
import { expect, test, type Page } from '@playwright/test'
import { axeViolations } from './a11y-helpers.ts'
import { ADMIN, isJs, newUser, signInWithPassword, toast, waitForHydration } from './helpers.ts'
import { emptyQueue, login, placedOrder, setPasswordByReset } from './rider-fixtures.ts'

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
  const order = await placedOrder(request, testInfo, 'rider')
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
    const shopperView = await request.post('/api/order/details', { data: { orderId: order._id }, headers: order.shopper.headers })
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
