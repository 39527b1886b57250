/**
 * Live order status (docs/product.md, "Order page"): with JavaScript the shopper's open order page
 * shows a status the admin set elsewhere without a reload (server-sent events, then the page's data
 * reloaded); without JavaScript it says "Status as of <time>" and its Refresh link shows the new status.
 * The confirmation and the status email reach the shopper's inbox over SMTP within seconds: they are
 * background jobs the server's runner sends (docs/jobs.md, "Order emails").
 */
import { expect, test, type APIRequestContext } from '@playwright/test'
import { ADMIN, api, isJs, newUser, registerViaApi, submitLogin, waitForHydration, waitForMail } from './helpers.ts'

async function tokenOf(request: APIRequestContext, user: { email: string; password: string }): Promise<string> {
  return (await api<{ accessToken: string }>(request, '/user/login', { email: user.email, password: user.password })).data.accessToken
}

test('the order page shows a status change made elsewhere (live with JavaScript, by Refresh without)', async ({
  page,
  request,
}, testInfo) => {
  const js = isJs(testInfo)
  const user = newUser(testInfo, 'watcher')
  await registerViaApi(request, user)
  const auth = { Authorization: `Bearer ${await tokenOf(request, user)}` }
  const product = (await api<{ _id: string }[]>(request, '/product/search-product', { search: 'basmati rice', page: 1, limit: 1 })).data[0]!
  expect((await request.post('/api/cart/create', { data: { productId: product._id }, headers: auth })).ok()).toBe(true)
  const address = await request.post('/api/address/create', {
    data: { address_line: '7, Domlur Layout', city: 'Bengaluru', state: 'Karnataka', pincode: '560071', mobile: '9845012345' },
    headers: auth,
  })
  const placedAt = Date.now()
  const placed = await request.post('/api/order/cash-on-delivery', {
    data: { addressId: (await address.json()).data._id },
    headers: { ...auth, 'Idempotency-Key': `live-${Date.now()}-${testInfo.project.name}` },
  })
  expect(placed.status()).toBe(201)
  const order = (await placed.json()).data as { _id: string; orderId: string }
  const confirmation = await waitForMail(user.email, placedAt, 10_000)
  expect(confirmation.subject).toBe(`Order ${order.orderId} placed`)

  await submitLogin(page, user.email, user.password)
  await expect(page).toHaveURL(/\/$/)
  // The page's event stream answers its headers at once and stays open.
  const streamOpened = js ? page.waitForResponse((r) => r.url().endsWith(`/dashboard/myorder/${order._id}/events`)) : null
  await page.goto(`/dashboard/myorder/${order._id}`)
  const timeline = page.getByRole('list', { name: 'Order status' })
  await expect(timeline).not.toContainText('✓ Packed')
  await expect(page.getByTestId('status-as-of')).toContainText(/Status as of \d/)
  const refresh = page.getByTestId('status-as-of').getByRole('link', { name: 'Refresh' })
  await expect(refresh).toHaveAttribute('href', `/dashboard/myorder/${order._id}`)
  if (js) {
    await waitForHydration(refresh)
    // Once the stream is open, mark the document: a reload would lose the mark.
    const stream = await streamOpened!
    expect(stream.status()).toBe(200)
    expect(stream.headers()['content-type']).toMatch(/^text\/event-stream/)
    await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true))
  }

  // The admin moves the order on, from another session.
  const adminToken = await tokenOf(request, ADMIN)
  const changedAt = Date.now()
  const changed = await request.put('/api/order/update-status', {
    data: { orderId: order._id, status: 'packed' },
    headers: { Authorization: `Bearer ${adminToken}` },
  })
  expect(changed.status()).toBe(200)
  await expect
    .poll(async () => (await waitForMail(user.email, changedAt, 10_000)).subject, { timeout: 10_000 })
    .toBe(`Your order ${order.orderId} is packed`)

  if (js) {
    await expect(timeline).toContainText('✓ Packed', { timeout: 10_000 })
    expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true)
  } else {
    await expect(timeline).not.toContainText('✓ Packed')
    await refresh.click()
    await expect(timeline).toContainText('✓ Packed')
  }
})
