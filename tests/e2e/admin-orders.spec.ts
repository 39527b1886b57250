/**
 * Admin orders at volume (docs/commerce-api.md, "Admin orders at volume"), with JavaScript on and
 * off: the admin searches /dashboard/orders by the shopper's email and by order number (`?q=`, a GET
 * form), prints the packing slips of the ticked orders and one order's slip from its page, downloads the filtered list as CSV, and cancels
 * the ticked orders in bulk only after ticking the confirmation, with a reason; at 360 px nothing on
 * these pages scrolls sideways.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test'
import { ADMIN, api, newUser, registerViaApi, submitLogin } from './helpers.ts'

interface Stocked {
  _id: string
  name: string
  stock: number
}

/** A shopper with an address and an order of two units of a product in stock: the order and the shopper's email. */
async function placedOrder(request: APIRequestContext, testInfo: Parameters<typeof newUser>[0]) {
  const found = (await api<Stocked[]>(request, '/product/search-product', { search: 'rice', page: 1, limit: 50 })).data
  const product = found.find((p) => p.stock >= 5)!
  const user = newUser(testInfo, 'vol')
  await registerViaApi(request, user)
  const token = (await api<{ accessToken: string }>(request, '/user/login', { email: user.email, password: user.password })).data
    .accessToken
  const headers = { Authorization: `Bearer ${token}` }
  expect((await request.post('/api/cart/create', { data: { productId: product._id }, headers })).ok()).toBe(true)
  const cart = (await (await request.get('/api/cart/get', { headers })).json()).data as { _id: string }[]
  await request.put('/api/cart/update-qty', { data: { _id: cart[0]!._id, qty: 2 }, headers })
  const address = await request.post('/api/address/create', {
    data: { address_line: '7, Domlur Layout', city: 'Bengaluru', state: 'Karnataka', pincode: '560071', mobile: '9876501234' },
    headers,
  })
  const placed = await request.post('/api/order/cash-on-delivery', {
    data: { addressId: (await address.json()).data._id },
    headers: { ...headers, 'Idempotency-Key': `e2e-vol-${Date.now()}-${testInfo.project.name}` },
  })
  expect(placed.status()).toBe(201)
  const order = (await placed.json()).data as { _id: string; orderId: string }
  return { order, email: user.email, product }
}

async function expectNoSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
  expect(overflow).toBeLessThanOrEqual(0)
}

const rows = (page: Page) => page.getByRole('table').locator('tbody tr')

test('the admin searches, prints packing slips and exports the filtered list', async ({ page, request }, testInfo) => {
  test.setTimeout(90_000)
  const { order, email, product } = await placedOrder(request, testInfo)
  await page.setViewportSize({ width: 360, height: 800 })
  await submitLogin(page, ADMIN.email, ADMIN.password)
  await expect(page).toHaveURL(/\/$/)

  await page.goto('/dashboard/orders')
  const search = page.getByRole('search', { name: 'Search orders' })
  await search.getByLabel('Search').fill(email.toUpperCase())
  await search.getByRole('button', { name: 'Search' }).click()
  await expect(page).toHaveURL(/\?q=/)
  await expect(rows(page)).toHaveCount(1)
  await expect(rows(page)).toContainText(order.orderId)
  await expectNoSidewaysScroll(page)

  // By order number, from the address bar alone.
  await page.goto(`/dashboard/orders?q=${order.orderId.toLowerCase()}`)
  await expect(rows(page)).toHaveCount(1)
  await expect(page.getByRole('searchbox', { name: 'Search' })).toHaveValue(order.orderId.toLowerCase())

  // Packing slips of the ticked orders open in a new tab.
  await page.getByRole('checkbox', { name: `Select order ${order.orderId}` }).check()
  const [slips] = await Promise.all([
    page.context().waitForEvent('page'),
    page.getByRole('button', { name: 'Print packing slips' }).click(),
  ])
  await slips.waitForLoadState()
  await expect(slips).toHaveURL(new RegExp(`/dashboard/orders/packing-slips\\?ids=${order._id}`))
  const slip = slips.getByRole('article', { name: `Packing slip ${order.orderId}` })
  await expect(slip).toContainText('7, Domlur Layout')
  await expect(slip).toContainText('Phone 9876501234')
  await expect(slip.locator('tbody tr')).toHaveCount(1)
  await expect(slip.locator('tbody tr td').first()).toHaveText('2')
  await expect(slip).toContainText(product.name)
  await expect(slip).toContainText(`SKU ${product._id}`)
  await slips.setViewportSize({ width: 360, height: 800 })
  await expectNoSidewaysScroll(slips)
  await slips.close()

  // One order's slip, from its own page.
  await page.goto(`/dashboard/orders/${order._id}`)
  const [single] = await Promise.all([
    page.context().waitForEvent('page'),
    page.getByRole('link', { name: `Packing slip of order ${order.orderId}` }).click(),
  ])
  await single.waitForLoadState()
  await expect(single.getByRole('article', { name: `Packing slip ${order.orderId}` })).toContainText(product.name)
  await expect(single.getByRole('article')).toHaveCount(1)
  await single.close()
  await page.goto(`/dashboard/orders?q=${order.orderId}`)

  // The export link carries the filters; the CSV downloads as an attachment.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()])
  expect(download.suggestedFilename()).toMatch(/^orders-\d{4}-\d{2}-\d{2}\.csv$/)
  const csv = await page.request.get(`/dashboard/orders/export?q=${order.orderId}`)
  expect(csv.headers()['content-type']).toBe('text/csv; charset=utf-8')
  expect(csv.headers()['content-disposition']).toMatch(/^attachment;/)
  const lines = (await csv.text()).trim().split(/\r?\n/)
  expect(lines).toHaveLength(2)
  expect(lines[1]).toContain(order.orderId)
  expect(lines[1]).toContain(email)
  // "Export lines (CSV)" keeps the filters and gives one row per order line.
  const linesLink = page.getByRole('link', { name: 'Export lines (CSV)' })
  const linesHref = (await linesLink.getAttribute('href'))!
  expect(linesHref).toContain(`q=${order.orderId}`)
  expect(linesHref).toContain('rows=lines')
  const lineCsv = await page.request.get(linesHref)
  expect(lineCsv.headers()['content-disposition']).toMatch(/filename="order-lines-/)
  const lineRows = (await lineCsv.text()).trim().split(/\r?\n/)
  expect(lineRows[0]).toMatch(/^\uFEFF?Order number,Placed at \(IST\),Status,Store,Line,SKU,Product,/)
  expect(lineRows.length).toBeGreaterThanOrEqual(2)
  for (const row of lineRows.slice(1)) expect(row).toContain(order.orderId)
})

test('bulk cancel asks for the confirmation tick and keeps the reason; the export is for admins only', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(90_000)
  const { order, email } = await placedOrder(request, testInfo)
  await submitLogin(page, ADMIN.email, ADMIN.password)
  await expect(page).toHaveURL(/\/$/)
  await page.goto(`/dashboard/orders?q=${encodeURIComponent(email)}`)
  await expect(rows(page)).toHaveCount(1)

  const selected = page.getByRole('form', { name: 'Selected orders' })
  await selected.getByRole('checkbox', { name: `Select order ${order.orderId}` }).check()
  await selected.getByLabel('New status').selectOption('cancelled')
  await selected.getByLabel('Reason, if cancelling (the shopper sees it)').fill('Rain: no riders')
  await selected.getByRole('button', { name: 'Change status' }).click()
  await expect(page.getByRole('status')).toContainText('Tick "Yes, cancel"')
  await expect(rows(page)).toContainText('Placed')

  await page.getByRole('checkbox', { name: `Select order ${order.orderId}` }).check()
  await page.getByLabel('New status').selectOption('cancelled')
  await page.getByLabel('Reason, if cancelling (the shopper sees it)').fill('Rain: no riders')
  await page.getByRole('checkbox', { name: /Yes, cancel/ }).check()
  await page.getByRole('button', { name: 'Change status' }).click()
  await expect(page.getByRole('status')).toContainText('1 of 1 order marked cancelled')
  await expect(rows(page)).toContainText('Cancelled')
  const details = await page.request.get(`/dashboard/orders/${order._id}`)
  expect(await details.text()).toContain('Rain: no riders')

  // A shopper is refused the export.
  const shopper = newUser(testInfo, 'not-admin')
  await registerViaApi(request, shopper)
  await page.context().clearCookies()
  await submitLogin(page, shopper.email, shopper.password)
  await expect(page).toHaveURL(/\/$/)
  expect((await page.request.get('/dashboard/orders/export')).status()).toBe(403)
})
