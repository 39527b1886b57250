/**
 * A tip for the delivery partner and delivery instructions at checkout (docs/commerce-api.md, "Tip
 * and delivery instructions"), with JavaScript on and off, 360 px wide: the shopper picks ₹20, "Leave
 * at the door" and a note, places a cash-on-delivery order (without JavaScript the first press shows
 * the bill with the tip, the second places it), the order page shows the tip line and the
 * instructions, the admin's order page the instructions, and the next checkout preselects ₹20.
 */
import { expect, test, type Page } from '@playwright/test'
import { billRegion, midPricedProduct, shopperReadyToCheckout } from './checkout-fixtures.ts'
import { ADMIN, isJs, signInWithPassword, submitLogin, waitForHydration } from './helpers.ts'

test.use({ viewport: { width: 360, height: 800 } })

const bill = billRegion

async function expectNoSideScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
}

test('₹20 and "Leave at the door": on the order, its pages and the admin’s; the next checkout preselects ₹20', async ({
  page,
  request,
  browser,
}, testInfo) => {
  test.setTimeout(150_000)
  const js = isJs(testInfo)
  const item = await midPricedProduct(request)
  const { user, headers } = await shopperReadyToCheckout(request, testInfo, 'tip', item._id)

  await submitLogin(page, user.email, user.password)
  await expect(page).toHaveURL(/\/$/)
  await page.goto('/checkout')
  await expect(page.getByRole('radio', { name: 'None' })).toBeChecked()
  await expect(bill(page)).not.toContainText('Delivery partner tip')
  const twenty = page.getByRole('radio', { name: '₹20' })
  if (js) await waitForHydration(twenty)
  await twenty.check()
  await page.getByRole('checkbox', { name: 'Leave at the door' }).check()
  await page.getByLabel('Anything else for your delivery partner (optional)').fill('Gate code 4521')
  await expectNoSideScroll(page)
  const place = page.getByRole('button', { name: /Place Order/ })
  if (js) {
    // The bill follows the chosen tip at once.
    await expect(bill(page)).toContainText('Delivery partner tip₹20')
  } else {
    // The bill was drawn without a tip: the first press shows the bill with it, the choices kept.
    await place.click()
    await expect(page.getByRole('alert').filter({ hasText: 'With your tip of ₹20 the total is' })).toBeVisible()
    await expect(bill(page)).toContainText('Delivery partner tip₹20')
    await expect(page.getByRole('radio', { name: '₹20' })).toBeChecked()
    await expect(page.getByRole('checkbox', { name: 'Leave at the door' })).toBeChecked()
    await expect(page.getByLabel('Anything else for your delivery partner (optional)')).toHaveValue('Gate code 4521')
  }
  await page.getByRole('button', { name: /Place Order/ }).click()
  await expect(page).toHaveURL(/\/success\?order=/)
  const orderNumber = new URL(page.url()).searchParams.get('order')!
  const order = (await (await request.post('/api/order/details', { data: { orderId: orderNumber }, headers })).json()).data
  expect(order.bill.tip).toBe(20)
  expect(order.deliveryInstructions).toEqual({ chips: ['leave_at_door'], note: 'Gate code 4521' })

  await page.goto(`/dashboard/myorder/${order._id}`)
  await expect(bill(page)).toContainText('Delivery partner tip₹20')
  await expect(page.getByTestId('delivery-instructions')).toContainText('Leave at the door · Gate code 4521')
  await expectNoSideScroll(page)

  // The admin's order page shows the instructions and the tip.
  const adminContext = await browser.newContext({ viewport: { width: 360, height: 800 }, javaScriptEnabled: js })
  const adminPage = await adminContext.newPage()
  await signInWithPassword(adminPage, ADMIN)
  await adminPage.goto(`/dashboard/orders/${order._id}`)
  await expect(adminPage.getByTestId('delivery-instructions')).toContainText('Leave at the door · Gate code 4521')
  await expect(bill(adminPage)).toContainText('Delivery partner tip₹20')
  await adminContext.close()

  // The next checkout preselects the last tip and its bill carries it.
  expect((await request.post('/api/cart/create', { data: { productId: item._id }, headers })).ok()).toBe(true)
  await page.goto('/checkout')
  await expect(page.getByRole('radio', { name: '₹20' })).toBeChecked()
  await expect(bill(page)).toContainText('Delivery partner tip₹20')
})
