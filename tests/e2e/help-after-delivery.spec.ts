/**
 * Help after delivery (docs/help-after-delivery.md), with JavaScript on and off, at 360 px: a shopper
 * reports a missing item of a delivered order paid online, under the automatic cap, and sees it
 * refunded at once ("Refunded ₹x to your UPI"); a larger report of a cash order (with a photo) waits,
 * listed on the admin's order page with the way to the queue; an admin approves it at
 * /dashboard/issues, and both order pages show the refund note.
 * Orders are placed and delivered through the API as the admin's order desk does (placed → packed →
 * out for delivery → delivered), so the pages under test are the shopper's and the admin's.
 */
import { expect, test, type APIRequestContext, type Page, type TestInfo } from '@playwright/test'
import sharp from 'sharp'
import { axeViolations } from './a11y-helpers.ts'
import { adminHeaders, openAroundTheClock } from './admin-fixtures.ts'
import { shopperReadyToCheckout } from './checkout-fixtures.ts'
import { ADMIN, api, isJs, signInWithPassword, toast, waitForHydration } from './helpers.ts'

/** The store serving 560038 (the checkout fixtures' address): opened around the clock for the test. */
const STORE = 'storeBlrIndiranagar'

interface Stocked {
  _id: string
  name: string
  sellingPrice: number
  stock: number
}

/** A product in stock whose price is between `min` and `max` rupees. */
async function productPriced(request: APIRequestContext, min: number, max: number): Promise<Stocked> {
  for (const search of ['biscuits', 'chips', 'juice', 'ghee', 'almonds', 'cashew', 'honey', 'oil', 'rice', 'masala']) {
    const found = (await api<Stocked[]>(request, '/product/search-product', { search, page: 1, limit: 50 })).data
    const hit = found.find((p) => p.sellingPrice >= min && p.sellingPrice <= max && p.stock >= 3)
    if (hit) return hit
  }
  throw new Error(`no product between ₹${min} and ₹${max} in stock`)
}

/** Moves an order to delivered as the admin's order desk does. */
async function deliver(request: APIRequestContext, admin: Record<string, string>, orderId: string) {
  for (const status of ['packed', 'out_for_delivery', 'delivered']) {
    const res = await request.put('/api/order/update-status', { data: { orderId, status }, headers: admin })
    expect(res.ok(), `${status}: ${await res.text()}`).toBe(true)
  }
}

async function expectNoSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
  expect(overflow).toBeLessThanOrEqual(0)
}

/** Rupees as the toasts write them: ₹45, ₹99.50. */
const rupees = (n: number) => `₹${Number.isInteger(n) ? n : n.toFixed(2)}`

/**
 * A PNG of its own for this test: uploads are stored by content (docs/decisions/0004-images.md), so
 * a shared fixture's photo would be the same file as the shelf image of another journey
 * (tests/e2e/admin.spec.ts), and the report would keep that file in use after that journey deleted
 * its shelf.
 */
async function uniquePhoto(testInfo: TestInfo): Promise<string> {
  const file = testInfo.outputPath('report-photo.png')
  const channel = () => Math.floor(Math.random() * 256)
  await sharp({ create: { width: 48, height: 36, channels: 3, background: { r: channel(), g: channel(), b: channel() } } })
    .png()
    .toFile(file)
  return file
}

/** From the shopper's order page: Get help, then report `kind` of the line `name` (with a photo when given). */
async function reportLine(page: Page, testInfo: TestInfo, orderId: string, name: string, kind: string, photo?: string) {
  const js = isJs(testInfo)
  await page.goto(`/dashboard/myorder/${orderId}`)
  await page.getByRole('link', { name: 'Get help' }).click()
  await expect(page).toHaveURL(new RegExp(`/dashboard/myorder/${orderId}/help$`))
  await expectNoSidewaysScroll(page)
  expect(await axeViolations(page)).toEqual([])
  const form = page.getByRole('form', { name: `Report ${name}` })
  await form.getByLabel('What is wrong').selectOption({ label: kind })
  await form.getByLabel('Units').selectOption('1')
  await form.getByLabel('Note (optional)').fill('Checked the bag twice')
  if (photo) await form.getByLabel('Photo (optional)').setInputFiles(photo)
  const submit = form.getByRole('button', { name: `Report ${name}` })
  if (js) await waitForHydration(submit)
  await submit.click()
  await expect(page).toHaveURL(new RegExp(`/dashboard/myorder/${orderId}$`))
}

test.describe('help after delivery', () => {
  test.use({ viewport: { width: 360, height: 740 } })

  test('a missing item of an order paid online is refunded at once and shown on the order', async ({ page, request }, testInfo) => {
    test.setTimeout(90_000)
    const admin = await adminHeaders(request)
    const restore = await openAroundTheClock(request, admin, STORE)
    try {
      const product = await productPriced(request, 40, 150)
      const { user, headers } = await shopperReadyToCheckout(request, testInfo, 'help-missing', product._id)
      const addresses = (await (await request.get('/api/address/get', { headers })).json()) as { data: { _id: string }[] }
      const base = new URL(testInfo.project.use.baseURL!).origin
      const started = await request.post('/api/payment/start', {
        data: {
          addressId: addresses.data[0]!._id,
          method: 'upi',
          callbackUrl: `${base}/checkout/payment/callback`,
          cancelUrl: `${base}/checkout`,
        },
        headers: { ...headers, 'Idempotency-Key': `e2e-help-${testInfo.project.name}-${Date.now()}` },
      })
      expect(started.status(), await started.text()).toBe(201)
      const { order, checkout } = ((await started.json()) as { data: { order: { _id: string }; checkout: { providerOrderId: string } } })
        .data
      expect(
        (await request.post('/api/payment/test-checkout/answer', { form: { order_id: checkout.providerOrderId, action: 'pay' } })).ok(),
      ).toBe(true)
      await expect
        .poll(
          async () =>
            (
              (await (await request.post('/api/order/details', { data: { orderId: order._id }, headers })).json()).data as {
                status: string
              }
            ).status,
        )
        .toBe('placed')
      await deliver(request, admin, order._id)

      await signInWithPassword(page, user)
      await reportLine(page, testInfo, order._id, product.name, 'Missing')
      const refunded = `Refunded ${rupees(product.sellingPrice)} to your UPI`
      await expect(toast(page, refunded)).toBeVisible()
      const reports = page.getByRole('list', { name: 'Your reports' })
      await expect(reports).toContainText(`Missing: 1 × ${product.name}`)
      await expect(reports).toContainText(refunded)
      await expectNoSidewaysScroll(page)
    } finally {
      await restore()
    }
  })

  test('a large report waits, listed on the admin’s order page; the admin approves it at /dashboard/issues and both order pages show the refund', async ({
    browser,
    page,
    request,
  }, testInfo) => {
    test.setTimeout(120_000)
    const js = isJs(testInfo)
    const admin = await adminHeaders(request)
    const restore = await openAroundTheClock(request, admin, STORE)
    try {
      // Above the automatic ₹200 an order, below the delivery code's ₹1,000.
      const product = await productPriced(request, 201, 900)
      const { user, headers } = await shopperReadyToCheckout(request, testInfo, 'help-large', product._id)
      const addresses = (await (await request.get('/api/address/get', { headers })).json()) as { data: { _id: string }[] }
      const placed = await request.post('/api/order/cash-on-delivery', {
        data: { addressId: addresses.data[0]!._id },
        headers: { ...headers, 'Idempotency-Key': `e2e-help-large-${testInfo.project.name}-${Date.now()}` },
      })
      expect(placed.status(), await placed.text()).toBe(201)
      const order = (await placed.json()).data as { _id: string; orderId: string }
      await deliver(request, admin, order._id)

      await signInWithPassword(page, user)
      await reportLine(page, testInfo, order._id, product.name, 'Damaged', await uniquePhoto(testInfo))
      await expect(toast(page, "We'll review this within 24 hours")).toBeVisible()
      await expect(page.getByRole('list', { name: 'Your reports' })).toContainText('Waiting for review')

      const adminContext = await browser.newContext({ javaScriptEnabled: js, viewport: { width: 360, height: 740 } })
      try {
        const adminPage = await adminContext.newPage()
        await signInWithPassword(adminPage, ADMIN)
        // The order's own page lists the report, waiting, with the way to the queue.
        await adminPage.goto(`/dashboard/orders/${order._id}`)
        const onOrder = adminPage.getByRole('list', { name: 'Problem reports' }).locator('li[data-issue-id]')
        await expect(onOrder).toHaveCount(1)
        await expect(onOrder).toContainText(`Damaged: 1 × ${product.name}`)
        await expect(onOrder).toContainText(`value ${rupees(product.sellingPrice)}`)
        await expect(onOrder.getByRole('img', { name: `Photo of ${product.name}` })).toBeVisible()
        await expect(onOrder).toContainText('Waiting for a decision')
        await expectNoSidewaysScroll(adminPage)
        await onOrder.getByRole('link', { name: 'Decide in Issues' }).click()
        await expect(adminPage).toHaveURL(/\/dashboard\/issues$/)
        const card = adminPage.locator('li[data-issue-id]').filter({ hasText: order.orderId })
        await expect(card).toContainText(`Damaged: 1 × ${product.name}`)
        await expect(card).toContainText(`Value ${rupees(product.sellingPrice)}`)
        await expect(card.getByRole('img', { name: `Photo of ${product.name}` })).toBeVisible()
        await expectNoSidewaysScroll(adminPage)
        expect(await axeViolations(adminPage)).toEqual([])
        const approve = card.getByRole('button', { name: 'Approve refund' })
        if (js) await waitForHydration(approve)
        await approve.click()
        await expect(toast(adminPage, `Refund of ${rupees(product.sellingPrice)} approved`)).toBeVisible()
        await expect(adminPage.locator('li[data-issue-id]').filter({ hasText: order.orderId })).toHaveCount(0)
        // Decided, it stays on the order's page with what became of it.
        await adminPage.goto(`/dashboard/orders/${order._id}`)
        await expect(adminPage.getByRole('list', { name: 'Problem reports' }).locator('li[data-status="refunded"]')).toContainText(
          `${rupees(product.sellingPrice)} to be paid back by the store`,
        )
        expect(await axeViolations(adminPage)).toEqual([])
      } finally {
        await adminContext.close()
      }

      await page.goto(`/dashboard/myorder/${order._id}`)
      await expect(page.getByRole('list', { name: 'Your reports' })).toContainText(
        `${rupees(product.sellingPrice)} to be paid back by the store`,
      )
      // The cash note's credit note (docs/help-after-delivery.md, "Credit notes"): linked on the order page, a PDF.
      const creditNote = page.locator('a[data-credit-note]')
      await expect(creditNote).toHaveCount(1)
      const pdf = await page.request.get((await creditNote.getAttribute('href'))!)
      expect(pdf.status()).toBe(200)
      expect(pdf.headers()['content-type']).toBe('application/pdf')
    } finally {
      await restore()
    }
  })
})
