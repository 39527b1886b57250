/**
 * Live tracking (docs/delivery.md, "Live tracking"), in two browsers: the rider's (JavaScript on whatever the project, its
 * location granted and set with `context.setGeolocation`) and the shopper's (JavaScript on or off, the
 * project's), at 360 px. Order → packed → given to the rider → picked up: the rider's page shares its
 * position; the shopper's order page shows the rider's first name, the diagram with the rider's dot,
 * "Arriving in about N min" and "Last position at HH:MM". The rider moves nearer: with JavaScript
 * the shopper's page follows through the live stream without a reload; without, a reload shows the
 * new estimate. Then "Delivered" with the customer's code: the tracking box goes away.
 * The default machine has no tile server (MAP_TILE_URL unset), so the page draws its SVG diagram.
 */
import { expect, test, type BrowserContext, type Page } from '@playwright/test'
import { ADMIN, isJs, signInWithPassword, toast, waitForHydration } from './helpers.ts'
import { emptyQueue, invitedRider, login, placedOrder } from './rider-fixtures.ts'

interface TrackingAnswer {
  tracking: { address: { lat: number; lng: number }; store: { lat: number; lng: number } } | null
}

async function expectNoSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
  expect(overflow).toBeLessThanOrEqual(0)
}

/** The minutes of "Arriving in about N min" on the shopper's page. */
async function etaOf(page: Page): Promise<number> {
  const text = (await page.getByTestId('eta').textContent()) ?? ''
  return Number(/about (\d+) min/.exec(text)?.[1] ?? NaN)
}

test('the shopper follows the rider on the order page until the delivery with the code', async ({ page, browser, request }, testInfo) => {
  // A mail round trip for the rider's password, two browsers and a 10 s reporting period (with
  // JavaScript off, reloads until the next report shows).
  test.setTimeout(180_000)
  const js = isJs(testInfo)
  const admin = await login(request, ADMIN.email, ADMIN.password)
  const order = await placedOrder(request, testInfo, 'tracking')
  await emptyQueue(request, admin, order.store._id, order._id)
  const rider = await invitedRider(request, admin, testInfo, order.store._id, `Ravi Track ${testInfo.project.name}`)
  const packed = await request.put('/api/order/update-status', { data: { orderId: order._id, status: 'packed' }, headers: admin })
  expect(packed.ok(), await packed.text()).toBe(true)

  // Where the address is (its PIN code's centre), to put the rider 3.1 km north of it, then 220 m.
  const view = (await (await request.post('/api/tracking/order', { data: { orderId: order._id }, headers: order.shopper.headers })).json())
    .data as TrackingAnswer
  expect(view.tracking).toBeNull() // packed: nothing to track yet
  let riderContext: BrowserContext | undefined
  try {
    riderContext = await browser.newContext({
      javaScriptEnabled: true,
      viewport: { width: 360, height: 740 },
      geolocation: { latitude: 0, longitude: 0 },
    })
    await riderContext.grantPermissions(['geolocation'])
    const riderPage = await riderContext.newPage()
    await signInWithPassword(riderPage, rider)
    await riderPage.goto('/rider')
    const goOn = riderPage.getByRole('button', { name: 'Go on shift' })
    await waitForHydration(goOn)
    await goOn.click()
    await expect(toast(riderPage, 'You are on shift')).toBeVisible()
    const card = riderPage.locator(`[data-card="rider-order"][data-order-id="${order._id}"]`)
    await expect(card).toBeVisible()
    // Nothing out for delivery: nothing shared.
    await expect(riderPage.getByTestId('position-sharing')).toHaveCount(0)

    // The address point comes with the order out: read once picked up. Far first: 0.028° (3.1 km) north.
    await card.getByRole('button', { name: 'Picked up' }).click()
    await expect(toast(riderPage, 'Picked up: out for delivery')).toBeVisible()
    const live = (
      await (await request.post('/api/tracking/order', { data: { orderId: order._id }, headers: order.shopper.headers })).json()
    ).data as TrackingAnswer
    const address = live.tracking!.address
    await riderContext.setGeolocation({ latitude: address.lat + 0.028, longitude: address.lng, accuracy: 15 })
    // The page shares while the order is out (the first report at once after the first reading).
    await expect(riderPage.getByTestId('position-sharing')).toContainText('Sharing your location')
    // The reading set before the order went out may be sent first: wait for the far one (every 10 s).
    await expect
      .poll(
        async () => {
          const answer = await request.post('/api/tracking/order', { data: { orderId: order._id }, headers: order.shopper.headers })
          const position = ((await answer.json()).data as { tracking: { position: { lat: number } | null } }).tracking.position
          return position ? Math.round((position.lat - address.lat) * 1000) : null
        },
        { timeout: 30_000 },
      )
      .toBe(28)

    // The shopper's page: the rider's first name, the dot, the estimate and the last position's time.
    await page.setViewportSize({ width: 360, height: 740 })
    await signInWithPassword(page, order.shopper)
    await page.goto(`/dashboard/myorder/${order._id}`)
    const box = page.getByTestId('live-tracking')
    await expect(box).toBeVisible()
    await expect(box.locator('[data-field="rider"]')).toHaveText(`Ravi is on the way`)
    await expect(box.getByTestId('tracking-diagram').getByTestId('rider-dot')).toBeVisible()
    await expect(box.getByTestId('last-position')).toHaveText(/^Last position at \d{2}:\d{2}$/)
    await expect(box.getByTestId('distance')).toContainText('3.1 km away')
    // 3.1 km at the store's speed (20 km/h by default: 10 min); a few minutes at any speed it may have.
    expect(await etaOf(page)).toBeGreaterThan(2)
    await expectNoSidewaysScroll(page)
    // Nothing of the rider beyond the first name.
    await expect(page.locator('body')).not.toContainText(rider.email)
    await expect(page.locator('body')).not.toContainText(rider.name)

    // The rider rides on: its next report (every 10 s) moves the dot.
    await riderContext.setGeolocation({ latitude: address.lat + 0.002, longitude: address.lng, accuracy: 10 })
    if (js) {
      // Through the live stream, without a reload.
      await expect.poll(() => etaOf(page), { timeout: 30_000 }).toBe(1)
      await expect(box.getByTestId('distance')).toContainText('220 m away')
    } else {
      await expect
        .poll(
          async () => {
            await page.reload()
            return etaOf(page)
          },
          { timeout: 30_000, intervals: [3_000] },
        )
        .toBe(1)
      await expect(page.getByTestId('distance')).toContainText('220 m away')
    }

    // Delivered with the customer's code: the tracking box goes away.
    const shopperView = await request.post('/api/order/details', { data: { orderId: order._id }, headers: order.shopper.headers })
    const code = ((await shopperView.json()).data as { deliveryCode?: string }).deliveryCode
    expect(code).toMatch(/^\d{4}$/)
    await card.getByLabel('Delivery code from the customer').fill(code!)
    await card.getByRole('button', { name: 'Delivered' }).click()
    await expect(toast(riderPage, 'Delivered')).toBeVisible()
    await expect(riderPage.getByTestId('position-sharing')).toHaveCount(0)
    if (!js) await page.reload()
    await expect(page.getByTestId('live-tracking')).toHaveCount(0, { timeout: 15_000 })
    const after = (
      await (await request.post('/api/tracking/order', { data: { orderId: order._id }, headers: order.shopper.headers })).json()
    ).data as TrackingAnswer & { status: string }
    expect(after).toMatchObject({ status: 'delivered', tracking: null })
  } finally {
    await riderContext?.close()
  }
})
