/**
 * The order desk (docs/commerce-api.md, "Packing slips" and "Admin orders at volume"), with
 * JavaScript on and off: an admin filters /dashboard/orders by one store, follows "Print packed
 * orders' slips" and finds the store's packed order on its own slip: the order number's Code 128
 * barcode as an SVG in the server's HTML, the lines in pick order (category, then sub category, then
 * name, as each line's aisle reads), and one printed page per slip (the page printed to PDF). The
 * address search finds the order by a word of its delivery landmark, in capitals. At 360 px nothing
 * scrolls sideways.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test'
import { ADMIN, api, newUser, registerViaApi, submitLogin } from './helpers.ts'

interface Stocked {
  _id: string
  name: string
  stock: number
}

/** A packed order of three products from different searches, with a landmark no other order has: the order, its store and the landmark. */
async function packedOrder(request: APIRequestContext, testInfo: Parameters<typeof newUser>[0]) {
  const products: Stocked[] = []
  for (const search of ['rice', 'milk', 'soap', 'oil']) {
    const found = (await api<Stocked[]>(request, '/product/search-product', { search, page: 1, limit: 30 })).data
    const pick = found.find((p) => p.stock >= 5 && !products.some((q) => q._id === p._id))
    if (pick) products.push(pick)
  }
  expect(products.length).toBeGreaterThanOrEqual(3)
  const user = newUser(testInfo, 'desk')
  await registerViaApi(request, user)
  const login = async (email: string, password: string) =>
    (await api<{ accessToken: string }>(request, '/user/login', { email, password })).data.accessToken
  const headers = { Authorization: `Bearer ${await login(user.email, user.password)}` }
  for (const p of products) expect((await request.post('/api/cart/create', { data: { productId: p._id }, headers })).ok()).toBe(true)
  const landmark = `Near Peepal${Date.now() % 1_000_000}${testInfo.project.name === 'js' ? 'J' : 'N'} Tree`
  const address = await request.post('/api/address/create', {
    data: { address_line: '7, Domlur Layout', landmark, city: 'Bengaluru', state: 'Karnataka', pincode: '560071', mobile: '9876501234' },
    headers,
  })
  expect(address.ok(), await address.text()).toBe(true)
  const placed = await request.post('/api/order/cash-on-delivery', {
    data: { addressId: (await address.json()).data._id },
    headers: { ...headers, 'Idempotency-Key': `e2e-desk-${Date.now()}-${testInfo.project.name}` },
  })
  expect(placed.status(), await placed.text()).toBe(201)
  const order = (await placed.json()).data as { _id: string; orderId: string; store: { _id: string; name: string } }
  const admin = { Authorization: `Bearer ${await login(ADMIN.email, ADMIN.password)}` }
  const packed = await request.put('/api/order/update-status', { data: { orderId: order._id, status: 'packed' }, headers: admin })
  expect(packed.ok(), await packed.text()).toBe(true)
  return { order, landmark, lineCount: products.length }
}

async function expectNoSidewaysScroll(page: Page) {
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth))
    .toBeLessThanOrEqual(0)
}

/** The catalogue's comparison of names (api/modules/order/packing-slips.ts). */
const NAMES = new Intl.Collator('en-IN', { sensitivity: 'base', numeric: true })

test('a store’s packed orders print one slip a page, barcoded, in pick order; the address search finds the order', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(120_000)
  const { order, landmark, lineCount } = await packedOrder(request, testInfo)
  await page.setViewportSize({ width: 360, height: 800 })
  await submitLogin(page, ADMIN.email, ADMIN.password)
  await expect(page).toHaveURL(/\/$/)

  // The address search: a word of the landmark, in capitals.
  await page.goto('/dashboard/orders')
  const search = page.getByRole('search', { name: 'Search orders' })
  await search.getByLabel('Search').fill(landmark.split(' ')[1]!.toUpperCase())
  await search.getByRole('button', { name: 'Search' }).click()
  await expect(page).toHaveURL(/\?q=PEEPAL/)
  const rows = page.getByRole('table').locator('tbody tr')
  await expect(rows).toHaveCount(1)
  await expect(rows).toContainText(order.orderId)
  await expectNoSidewaysScroll(page)

  // One store filtered: its packed orders' slips, linked from the list.
  await page.goto(`/dashboard/orders?store=${order.store._id}&status=packed`)
  await page.getByRole('link', { name: `Print packed orders' slips of ${order.store.name}` }).click()
  await expect(page).toHaveURL(new RegExp(`/dashboard/orders/packing-slips\\?storeId=${order.store._id}`))
  const slip = page.getByRole('article', { name: `Packing slip ${order.orderId}` })
  await expect(slip).toContainText(landmark)
  const barcode = slip.getByRole('img', { name: `Barcode of order ${order.orderId} (Code 128)` })
  await expect(barcode.locator('svg path').first()).toBeAttached()
  await expect(barcode.locator('svg')).toHaveAttribute('viewBox', /^0 0 \d+ \d+$/)

  // Pick order: each line's aisle ("Category › Sub category", or none) then its name, in order.
  const lines = slip.getByTestId('slip-line')
  await expect(lines).toHaveCount(lineCount)
  const shown = await lines.evaluateAll((rows) =>
    rows.map((row) => {
      const aisle = row.querySelector('td:nth-child(2) > span.block:first-child')?.textContent ?? ''
      const [category = null, subCategory = null] = aisle ? aisle.split(' › ') : []
      return { category, subCategory, name: row.querySelector('[data-testid="slip-line-name"]')?.textContent ?? '' }
    }),
  )
  const byName = (a: string | null, b: string | null) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : NAMES.compare(a, b))
  const sorted = [...shown].sort(
    (a, b) => byName(a.category, b.category) || byName(a.subCategory, b.subCategory) || NAMES.compare(a.name, b.name),
  )
  expect(shown).toEqual(sorted)
  expect(shown.some((l) => l.category !== null)).toBe(true)
  await expectNoSidewaysScroll(page)

  // Printed: one page per slip (Chromium prints the page to PDF with the print stylesheet).
  const slips = await page.getByRole('article', { name: /^Packing slip / }).count()
  expect(slips).toBeGreaterThanOrEqual(1)
  const pdf = (await page.pdf({ format: 'A5' })).toString('latin1')
  expect(pdf.match(/\/Type\s*\/Page[^s]/g)?.length).toBe(slips)
})
