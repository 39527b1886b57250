/**
 * Coupons at checkout (docs/offers.md, "Applying a code" and "At placement"), with JavaScript on and
 * off, 360 px wide: a basket below ₹199 is refused WELCOME50 with "Minimum basket ₹199" on the field
 * (on the cart page and at checkout), and the offers of both pages say how much more unlocks it; at ₹199 or more the code takes ₹50 off the bill, the
 * cash-on-delivery order is placed with it, and the order's bill shows the discount.
 */
import { expect, test, type Page } from '@playwright/test'
import { billRegion, midPricedProduct, shopperReadyToCheckout } from './checkout-fixtures.ts'
import { isJs, submitLogin, waitForHydration } from './helpers.ts'

test.use({ viewport: { width: 360, height: 800 } })

const bill = billRegion

/** The page is no wider than the 360 px viewport. */
async function expectNoSideScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
}

/** Types `code` in the coupon field and presses Apply. */
async function applyCode(page: Page, js: boolean, code: string) {
  const box = page.getByRole('region', { name: 'Coupons and offers' })
  const field = box.getByLabel('Coupon code')
  if (js) await waitForHydration(field)
  await field.fill(code)
  await box.getByRole('button', { name: 'Apply' }).click()
}

test('WELCOME50: refused below ₹199 with the reason, then ₹50 off the bill and the order', async ({ page, request }, testInfo) => {
  test.setTimeout(120_000)
  const js = isJs(testInfo)
  const item = await midPricedProduct(request)
  const { user, headers } = await shopperReadyToCheckout(request, testInfo, 'coupon', item._id)

  await submitLogin(page, user.email, user.password)
  await expect(page).toHaveURL(/\/$/)
  // The cart page has the field and the offers too.
  await page.goto('/cart')
  await expect(page.getByTestId('coupon-unlock')).toContainText(/Add ₹[\d.]+ more to unlock ₹50 off with WELCOME50/)
  await applyCode(page, js, 'welcome50')
  await expect(page.getByRole('region', { name: 'Coupons and offers' }).getByRole('alert')).toHaveText('Minimum basket ₹199')
  await expectNoSideScroll(page)

  await page.goto('/checkout')
  const box = page.getByRole('region', { name: 'Coupons and offers' })
  await expect(page.getByTestId('coupon-unlock')).toContainText(/Add ₹[\d.]+ more to unlock ₹50 off with WELCOME50/)
  await applyCode(page, js, 'welcome50')
  await expect(box.getByRole('alert')).toHaveText('Minimum basket ₹199')
  await expect(bill(page)).not.toContainText('Coupon (')
  await expectNoSideScroll(page)

  // Enough units to reach ₹199.
  const units = Math.ceil(199 / item.sellingPrice)
  for (let i = 1; i < units; i++)
    expect((await request.post('/api/cart/create', { data: { productId: item._id }, headers })).ok()).toBe(true)
  await page.goto('/checkout')
  await applyCode(page, js, 'welcome50')
  await expect(page.getByTestId('coupon-applied')).toContainText('WELCOME50 applied: −₹50')
  await expect(bill(page)).toContainText('Coupon (WELCOME50)−₹50')
  await expectNoSideScroll(page)
  // The cart page shows it too.
  await page.goto('/cart')
  await expect(page.getByTestId('coupon-applied')).toContainText('WELCOME50 applied: −₹50')
  await expect(bill(page)).toContainText('Coupon (WELCOME50)−₹50')
  await page.goto('/checkout')
  const grand = Number(
    (await bill(page)
      .getByText(/^₹[\d,.]+$/)
      .last()
      .textContent())!.replace(/[₹,]/g, ''),
  )

  const place = page.getByRole('button', { name: /Place Order/ })
  if (js) await waitForHydration(place)
  await place.click()
  await expect(page).toHaveURL(/\/success\?order=/)
  const orderNumber = new URL(page.url()).searchParams.get('order')!
  const order = (await (await request.post('/api/order/details', { data: { orderId: orderNumber }, headers })).json()).data
  expect(order.bill).toMatchObject({ couponCode: 'WELCOME50', couponDiscount: 50, grandTotal: grand })

  await page.goto(`/dashboard/myorder/${order._id}`)
  await expect(bill(page)).toContainText('Coupon (WELCOME50)−₹50')
  await expectNoSideScroll(page)
})
