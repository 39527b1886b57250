/**
 * The tax invoice (docs/commerce-api.md, "Tax invoice"), with JavaScript on and off: a shopper's
 * order page has an "Invoice (PDF)" link, on a 360 px phone inside the screen; the link answers
 * the PDF inline (`application/pdf`, a file name with the order number) to the shopper, a 404 to
 * another shopper, and the admin's order page links to the same invoice; a cancelled order's page
 * links its credit note, which answers its PDF.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test'
import { ADMIN, api, newUser, registerViaApi, submitLogin } from './helpers.ts'

/** A new shopper with one placed order of one in-stock product, through the API. */
async function shopperWithOrder(request: APIRequestContext, user: { name: string; email: string; password: string }) {
  await registerViaApi(request, user)
  const token = (await api<{ accessToken: string }>(request, '/user/login', { email: user.email, password: user.password })).data
    .accessToken
  const headers = { Authorization: `Bearer ${token}` }
  const found = (await api<{ _id: string; stock: number }[]>(request, '/product/search-product', { search: 'atta', page: 1, limit: 20 }))
    .data
  const product = found.find((p) => p.stock >= 20)
  expect(product).toBeDefined()
  expect((await request.post('/api/cart/create', { data: { productId: product!._id }, headers })).ok()).toBe(true)
  const address = await request.post('/api/address/create', {
    data: { address_line: '4, Old Airport Road', city: 'Bengaluru', state: 'Karnataka', pincode: '560008', mobile: '9845011111' },
    headers,
  })
  const placed = await request.post('/api/order/cash-on-delivery', { data: { addressId: (await address.json()).data._id }, headers })
  expect(placed.status()).toBe(201)
  return (await placed.json()).data as { _id: string; orderId: string; totalAmt: number }
}

/** Follows the page's "Invoice (PDF)" link with the page's cookies and checks the PDF it answers. */
async function expectInvoiceLink(page: Page, order: { orderId: string }) {
  const link = page.getByRole('link', { name: /Invoice \(PDF\)/ })
  await expect(link).toBeVisible()
  const href = await link.getAttribute('href')
  expect(href).toMatch(/\/invoice$/)
  const res = await page.request.get(href!)
  expect(res.status()).toBe(200)
  expect(res.headers()['content-type']).toBe('application/pdf')
  expect(res.headers()['content-disposition']).toBe(`inline; filename="invoice-${order.orderId}.pdf"`)
  expect((await res.body()).subarray(0, 5).toString()).toBe('%PDF-')
  return { link, href: href! }
}

test('the shopper opens the invoice from the order page; another shopper cannot; the admin can', async ({
  page,
  request,
  browser,
}, testInfo) => {
  test.setTimeout(90_000)
  const user = newUser(testInfo, 'invoice')
  const order = await shopperWithOrder(request, user)

  await page.setViewportSize({ width: 360, height: 800 })
  await submitLogin(page, user.email, user.password)
  await expect(page).toHaveURL(/\/$/)
  await page.goto(`/dashboard/myorder/${order._id}`)
  const { link, href } = await expectInvoiceLink(page, order)
  // On a phone the link stays inside the screen and nothing scrolls sideways.
  const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }))
  expect(scroll).toBeLessThanOrEqual(width)
  const box = (await link.boundingBox())!
  expect(box.x + box.width).toBeLessThanOrEqual(width + 1)

  // Another shopper: 404. Signed out: to the login page.
  const other = newUser(testInfo, 'invoice-other')
  await registerViaApi(request, other)
  const otherContext = await browser.newContext({ javaScriptEnabled: testInfo.project.name !== 'no-js' })
  const otherPage = await otherContext.newPage()
  await submitLogin(otherPage, other.email, other.password)
  await expect(otherPage).toHaveURL(/\/$/)
  expect((await otherPage.request.get(href)).status()).toBe(404)
  await otherContext.close()
  const anonymous = await request.get(href, { maxRedirects: 0 })
  expect(anonymous.status()).toBe(302)
  expect(anonymous.headers().location).toContain('/login')

  // The admin: the same invoice from the admin order page.
  const adminContext = await browser.newContext({ javaScriptEnabled: testInfo.project.name !== 'no-js' })
  const adminPage = await adminContext.newPage()
  await submitLogin(adminPage, ADMIN.email, ADMIN.password)
  await expect(adminPage).toHaveURL(/\/$/)
  await adminPage.goto(`/dashboard/orders/${order._id}`)
  const admin = await expectInvoiceLink(adminPage, order)
  expect(admin.href).toBe(`/dashboard/orders/${order._id}/invoice`)
  // A shopper on the admin path: refused.
  expect((await page.request.get(admin.href)).status()).toBe(403)
  await adminContext.close()
})

test('a cancelled order’s page links its credit note, which answers its PDF', async ({ page, request }, testInfo) => {
  test.setTimeout(90_000)
  const user = newUser(testInfo, 'credit-note')
  const order = await shopperWithOrder(request, user)
  const token = (await api<{ accessToken: string }>(request, '/user/login', { email: user.email, password: user.password })).data
    .accessToken
  const headers = { Authorization: `Bearer ${token}` }
  expect((await request.post('/api/order/cancel', { data: { orderId: order._id }, headers })).ok()).toBe(true)
  const notes = (await (await request.post('/api/invoice/credit-notes', { data: { orderId: order._id }, headers })).json()).data as {
    creditNoteNumber: string
  }[]
  expect(notes).toHaveLength(1)
  const number = notes[0]!.creditNoteNumber
  await submitLogin(page, user.email, user.password)
  await expect(page).toHaveURL(/\/$/)
  await page.goto(`/dashboard/myorder/${order._id}`)
  const link = page.getByRole('link', { name: new RegExp(`Credit note ${number.replace(/\//g, '\\/')} \\(PDF\\)`) })
  await expect(link).toBeVisible()
  const res = await page.request.get((await link.getAttribute('href'))!)
  expect(res.status()).toBe(200)
  expect(res.headers()['content-type']).toBe('application/pdf')
  expect(res.headers()['content-disposition']).toBe(`inline; filename="credit-note-${number.replace(/\//g, '-')}.pdf"`)
  expect((await res.body()).subarray(0, 5).toString()).toBe('%PDF-')
})
