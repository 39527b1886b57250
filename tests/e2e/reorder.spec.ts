/**
 * "Order again" (docs/product.md, "Order again"), with JavaScript on and off: a shopper places an
 * order of two products, one of which the order sold out; "Order again" on the order page puts the
 * other back in the cart, with the toast "Added N items to your cart" and, on the cart page, the
 * sold-out one listed as left out ("out of stock"); "Order again" on a My Orders row adds once more.
 */
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test'
import { api, isJs, newUser, registerViaApi, submitLogin, toast, waitForHydration } from './helpers.ts'

interface Stocked {
  _id: string
  name: string
  stock: number
}

/**
 * Two products of searches no other test file uses: `few`, whose whole stock fits in one line (5-12
 * units, so ordering all of it sells it out; each project takes a different one, so neither depends
 * on the other's order), and `many`, with stock to spare.
 */
async function twoProducts(request: APIRequestContext, pick: number): Promise<{ few: Stocked; many: Stocked }> {
  const fews: Stocked[] = []
  let many: Stocked | undefined
  for (const search of ['pickle', 'honey', 'vinegar', 'jam', 'ketchup', 'papad', 'namkeen', 'sauce']) {
    const found = (await api<Stocked[]>(request, '/product/search-product', { search, page: 1, limit: 50 })).data
    for (const p of found) if (p.stock >= 5 && p.stock <= 12 && !fews.some((f) => f._id === p._id)) fews.push(p)
    many ??= found.find((p) => p.stock >= 40)
    const few = fews[pick]
    if (few && many && few._id !== many._id) return { few, many }
  }
  throw new Error('no products with the stock this test needs')
}

/** The page does not scroll sideways and `box` lies inside the viewport's width. */
async function expectFits(page: Page, box: Locator) {
  const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }))
  expect(scroll).toBeLessThanOrEqual(width)
  const rect = (await box.boundingBox())!
  expect(rect.x).toBeGreaterThanOrEqual(0)
  expect(rect.x + rect.width).toBeLessThanOrEqual(width + 1)
}

test('Order again adds what is available now, says what was left out, from the order page and from My Orders', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(120_000)
  const js = isJs(testInfo)
  const { few, many } = await twoProducts(request, js ? 0 : 1)

  // A shopper orders all of `few` and 2 of `many` (through the API, as the original client does).
  const user = newUser(testInfo, 'reorder')
  await registerViaApi(request, user)
  const token = (await api<{ accessToken: string }>(request, '/user/login', { email: user.email, password: user.password })).data
    .accessToken
  const headers = { Authorization: `Bearer ${token}` }
  for (const [product, qty] of [
    [few, few.stock],
    [many, 2],
  ] as const) {
    const line = await request.post('/api/cart/create', { data: { productId: product._id }, headers })
    expect(line.ok()).toBe(true)
    const set = await request.put('/api/cart/update-qty', { data: { _id: (await line.json()).data._id, qty }, headers })
    expect(set.ok()).toBe(true)
  }
  const address = await request.post('/api/address/create', {
    data: { address_line: '9, Domlur Layout', city: 'Bengaluru', state: 'Karnataka', pincode: '560071', mobile: '9845098450' },
    headers,
  })
  const placed = await request.post('/api/order/cash-on-delivery', { data: { addressId: (await address.json()).data._id }, headers })
  expect(placed.status()).toBe(201)
  const order = (await placed.json()).data as { _id: string; orderId: string }

  // On a phone (docs/product.md, "Look and feel": every page works from 360 px): the buttons and the left-out list stay on the screen.
  await page.setViewportSize({ width: 360, height: 800 })
  await submitLogin(page, user.email, user.password)
  await expect(page).toHaveURL(/\/$/)

  // From the order page: `many` comes back, `few` (sold out by this very order) is left out.
  await page.goto(`/dashboard/myorder/${order._id}`)
  const again = page.getByRole('main').getByRole('button', { name: /^Order again/ })
  if (js) await waitForHydration(again)
  await again.click()
  await expect(page).toHaveURL(/\/cart$/)
  await expect(toast(page, 'Added 2 items to your cart')).toBeVisible()
  const main = page.getByRole('main')
  await expect(main.getByRole('heading', { name: 'My Cart' })).toContainText('(2 items)')
  await expect(main.getByText(many.name).first()).toBeVisible()
  const leftOut = main.getByRole('status').filter({ hasText: 'Not everything from your order was added' })
  await expect(leftOut).toBeVisible()
  await expect(leftOut.getByRole('listitem')).toHaveCount(1)
  // Long names are cut to fit the session cookie that carries the list (app/lib/reorder.ts).
  await expect(leftOut.getByRole('listitem')).toContainText(few.name.slice(0, 40))
  await expect(leftOut.getByRole('listitem')).toContainText(': out of stock')
  await expectFits(page, leftOut)

  // The list is shown once: a reload of the cart no longer has it.
  await page.reload()
  await expect(main.getByRole('heading', { name: 'My Cart' })).toContainText('(2 items)')
  await expect(main.getByText('Not everything from your order was added')).toHaveCount(0)

  // From a My Orders row: 2 more of `many`, to 4 in the cart.
  await page.goto('/dashboard/myorder')
  const rowButton = page.getByRole('main').getByRole('button', { name: `Order again (order ${order.orderId})` })
  await expectFits(page, rowButton)
  if (js) await waitForHydration(rowButton)
  await rowButton.click()
  await expect(page).toHaveURL(/\/cart$/)
  await expect(toast(page, 'Added 2 items to your cart')).toBeVisible()
  await expect(main.getByRole('heading', { name: 'My Cart' })).toContainText('(4 items)')
  const cart = (await (await request.get('/api/cart/get', { headers })).json()).data as { productId: { _id: string }; quantity: number }[]
  expect(cart.map((l) => [l.productId._id, l.quantity])).toEqual([[many._id, 4]])
})
