/**
 * The named fees on the bill (docs/commerce-api.md, "Fees"), with JavaScript on and off, 360 px wide:
 * a cart of one product under ₹99 shows "Handling charge ₹2" and "Small cart fee ₹20" at their
 * defaults, each name opening an info note (a <details> disclosure, no JavaScript needed); so does
 * the checkout, whose order keeps them; the shopper's and the admin's order pages show the same
 * lines, and the invoice PDF a line per fee. The e2e servers charge no late-night fee (the hour of
 * the run must not matter: scripts/e2e-server.mjs); api/modules/payment/fees.test.ts proves it.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test, type APIRequestContext, type Page } from '@playwright/test'
import { billRegion as bill, shopperReadyToCheckout, type Priced } from './checkout-fixtures.ts'
import { ADMIN, api, isJs, signInWithPassword, submitLogin, waitForHydration } from './helpers.ts'

test.use({ viewport: { width: 360, height: 800 } })

/** A product in stock selling between ₹20 and ₹80: one unit is a small cart (below ₹99). */
async function smallProduct(request: APIRequestContext): Promise<Priced> {
  for (const search of ['biscuits', 'chips', 'salt', 'soap', 'noodles', 'masala']) {
    const found = (await api<Priced[]>(request, '/product/search-product', { search, page: 1, limit: 50 })).data
    const hit = found.find((p) => p.sellingPrice >= 20 && p.sellingPrice <= 80 && p.stock >= 8)
    if (hit) return hit
  }
  throw new Error('no product between ₹20 and ₹80 in stock found')
}

async function expectNoSideScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
}

/** The fee lines of the bill: each one's amount, and its note opening when its name is pressed. */
async function expectFeeLines(page: Page, opts: { rules: boolean }) {
  const region = bill(page)
  await expect(region.locator('[data-fee-amount="handling"]')).toHaveText('₹2')
  await expect(region.locator('[data-fee-amount="small-cart"]')).toHaveText('₹20')
  await expect(region.locator('[data-fee="late-night"]')).toHaveCount(0)
  // Each note is closed until its name is pressed (a native disclosure: with or without JavaScript).
  const handling = region.locator('[data-fee-note="handling"]')
  const note = handling.getByText('A flat charge on every order for picking and packing your items at the store.')
  await expect(note).toBeHidden()
  await handling.getByText('Handling charge').click()
  await expect(note).toBeVisible()
  const small = region.locator('[data-fee-note="small-cart"]')
  await small.getByText('Small cart fee').click()
  await expect(small).toContainText(
    opts.rules ? 'Charged when the items total is below ₹99.' : 'Charged because the items total was below the minimum order value.',
  )
  // The delivery charge says what it is too.
  const delivery = region.locator('[data-fee-note="delivery"]')
  await delivery.getByText('Delivery charge').click()
  await expect(delivery).toContainText('Free when the items total is ₹199 or more.')
  await expectNoSideScroll(page)
}

test('a small cart: every fee a bill line with its note on the cart, the checkout, the order pages and the invoice', async ({
  page,
  request,
  browser,
}, testInfo) => {
  test.setTimeout(150_000)
  const js = isJs(testInfo)
  const item = await smallProduct(request)
  const { user, headers } = await shopperReadyToCheckout(request, testInfo, 'fees', item._id)
  const cart = (await (await request.get('/api/cart/get', { headers })).json()).bill
  expect(cart).toMatchObject({ handlingCharge: 2, smallCartFee: 20, smallCartBelow: 99 })

  await submitLogin(page, user.email, user.password)
  await expect(page).toHaveURL(/\/$/)
  await page.goto('/cart')
  await expectFeeLines(page, { rules: true })
  await expect(bill(page)).toContainText(`Grand total₹${cart.grandTotal}`)

  await page.goto('/checkout')
  await expectFeeLines(page, { rules: true })
  const place = page.getByRole('button', { name: /Place Order/ })
  if (js) await waitForHydration(place)
  await place.click()
  await expect(page).toHaveURL(/\/success\?order=/)
  const orderNumber = new URL(page.url()).searchParams.get('order')!
  const order = (await (await request.post('/api/order/details', { data: { orderId: orderNumber }, headers })).json()).data
  expect(order.bill).toMatchObject({ handlingCharge: 2, smallCartFee: 20, grandTotal: cart.grandTotal })
  expect(order.totalAmt).toBe(cart.grandTotal)

  await page.goto(`/dashboard/myorder/${order._id}`)
  await expectFeeLines(page, { rules: false })

  // The invoice: a line per fee, taxed as delivery (SAC 9968).
  const pdf = await page.request.get(`/dashboard/myorder/${order._id}/invoice`)
  expect(pdf.status()).toBe(200)
  const dir = mkdtempSync(join(tmpdir(), 'fees-invoice-'))
  try {
    const file = join(dir, 'invoice.pdf')
    writeFileSync(file, await pdf.body())
    const text = execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' })
    expect(text).toMatch(/Handling charge\s+9968/)
    expect(text).toMatch(/Small cart fee\s+9968/)
    expect(text).toMatch(/Fees \(incl\. GST\)\s+22\.00/)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }

  // The admin's order page: the same lines.
  const adminContext = await browser.newContext({ viewport: { width: 360, height: 800 }, javaScriptEnabled: js })
  const adminPage = await adminContext.newPage()
  await signInWithPassword(adminPage, ADMIN)
  await adminPage.goto(`/dashboard/orders/${order._id}`)
  await expectFeeLines(adminPage, { rules: false })
  await adminContext.close()
})
