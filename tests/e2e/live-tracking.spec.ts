/**
 * Live tracking (docs/delivery.md, "Live tracking"), in two browsers: the rider's (JavaScript on whatever the project, its
 * location granted and set with `context.setGeolocation`) and the shopper's (JavaScript on or off, the
 * project's), at 360 px. Order → packed → given to the rider → picked up: the rider's page shares its
 * position; the shopper's order page shows the rider's first name, the diagram with the rider's dot,
 * "Arriving in about N min" and "Last position at HH:MM". The rider moves nearer: with JavaScript
 * the shopper's page follows through the live stream without a reload; without, a reload shows the
 * new estimate. Then "Delivered" with the customer's code: the tracking box goes away.
 * The e2e servers name a tile server under `.invalid` (scripts/e2e-server.mjs, MAP_TILE_URL) and the
 * shopper's page answers its tile requests here with a small PNG (`page.route`): with JavaScript the
 * page draws the Leaflet map (its three named markers, the credit, tiles loaded through the CSP, the
 * rider's marker moving with the stream, under the sticky header when scrolled); without, the server's
 * SVG diagram, and no tile is asked for.
 */
import { expect, test, type BrowserContext, type Page } from '@playwright/test'
import sharp from 'sharp'
import { axeViolations } from './a11y-helpers.ts'
import { ADMIN, isJs, signInWithPassword, toast, waitForHydration } from './helpers.ts'
import { emptyQueue, invitedRider, login, placedOrder } from './rider-fixtures.ts'

interface TrackingAnswer {
  tracking: { address: { lat: number; lng: number }; store: { lat: number; lng: number } } | null
}

async function expectNoSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
  expect(overflow).toBeLessThanOrEqual(0)
}

/** The e2e servers' tile URLs (scripts/e2e-server.mjs MAP_TILE_URL, `{s}` one of Leaflet's a, b, c). */
const TILE_REQUESTS = /^https:\/\/[abc]\.tiles\.e2e\.invalid\/\d+\/\d+\/\d+\.png$/

/** One plain 256 px tile (Leaflet's default tile size), made once. */
const tile = sharp({ create: { width: 256, height: 256, channels: 3, background: '#e2e8f0' } })
  .png()
  .toBuffer()

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
    // Its tiles are answered here (no tile server is reached from this machine).
    const tilesAsked: string[] = []
    const body = await tile
    await page.route(TILE_REQUESTS, async (route) => {
      tilesAsked.push(route.request().url())
      await route.fulfill({ status: 200, contentType: 'image/png', body })
    })
    const consoleErrors: string[] = []
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text())
    })
    await page.setViewportSize({ width: 360, height: 740 })
    await signInWithPassword(page, order.shopper)
    await page.goto(`/dashboard/myorder/${order._id}`)
    const box = page.getByTestId('live-tracking')
    await expect(box).toBeVisible()
    await expect(box.locator('[data-field="rider"]')).toHaveText(`Ravi is on the way`)
    const map = box.getByTestId('tracking-map')
    const riderMarker = map.getByRole('img', { name: 'Ravi', exact: true })
    if (js) {
      // The Leaflet map in place of the diagram: the three points named, the tiles' credit, a tile drawn.
      await expect(riderMarker).toBeVisible()
      await expect(box.getByTestId('tracking-diagram')).toHaveCount(0)
      await expect(map.getByRole('img', { name: /^Store: / })).toBeVisible()
      await expect(map.getByRole('img', { name: 'Your address', exact: true })).toBeVisible()
      await expect(map.locator('.leaflet-control-attribution')).toContainText('Test tiles (e2e)')
      // Leaflet's stylesheet came with it (loaded lazily beside the script): its panes are laid out.
      expect(await map.locator('.leaflet-map-pane').evaluate((pane) => getComputedStyle(pane).position)).toBe('absolute')
      await expect
        .poll(() =>
          map
            .locator('img.leaflet-tile-loaded')
            .evaluateAll((tiles) => tiles.filter((t) => (t as HTMLImageElement).naturalWidth === 256).length),
        )
        .toBeGreaterThan(0)
      expect(tilesAsked.length).toBeGreaterThan(0)
      // The tile host is in the CSP's img-src: nothing refused.
      expect(consoleErrors.filter((text) => /Content Security Policy|Refused to/i.test(text))).toEqual([])
      // Scrolled under the sticky header, the map stays beneath it (Leaflet's own z-indexes kept inside the map).
      const covered = await page.evaluate(() => {
        const header = document.querySelector('header')!
        const zoom = document.querySelector('[data-testid="tracking-map"] .leaflet-control-zoom-in')!
        window.scrollBy(0, zoom.getBoundingClientRect().top - header.getBoundingClientRect().top - 4)
        const at = zoom.getBoundingClientRect()
        const under = at.bottom <= header.getBoundingClientRect().bottom
        return { under, hit: header.contains(document.elementFromPoint(at.left + at.width / 2, at.top + at.height / 2)) }
      })
      expect(covered).toEqual({ under: true, hit: true })
      await page.evaluate(() => window.scrollTo(0, 0))
    } else {
      // Leaflet needs JavaScript: the server's diagram, and no tile asked for.
      await expect(box.getByTestId('tracking-diagram').getByTestId('rider-dot')).toBeVisible()
      await expect(map).toBeHidden()
      expect(tilesAsked).toEqual([])
    }
    expect(await axeViolations(page, '[data-testid="live-tracking"]')).toEqual([])
    await expect(box.getByTestId('last-position')).toHaveText(/^Last position at \d{2}:\d{2}$/)
    await expect(box.getByTestId('distance')).toContainText('3.1 km away')
    // 3.1 km at the store's speed (20 km/h by default: 10 min); a few minutes at any speed it may have.
    expect(await etaOf(page)).toBeGreaterThan(2)
    await expectNoSidewaysScroll(page)
    // Nothing of the rider beyond the first name.
    await expect(page.locator('body')).not.toContainText(rider.email)
    await expect(page.locator('body')).not.toContainText(rider.name)

    // The rider rides on: its next report (every 10 s) moves the dot.
    const far = js ? await riderMarker.getAttribute('d') : null
    await riderContext.setGeolocation({ latitude: address.lat + 0.002, longitude: address.lng, accuracy: 10 })
    if (js) {
      // Through the live stream, without a reload: the marker moves on the map too.
      await expect.poll(() => etaOf(page), { timeout: 30_000 }).toBe(1)
      await expect(box.getByTestId('distance')).toContainText('220 m away')
      expect(far).toBeTruthy()
      await expect(riderMarker).not.toHaveAttribute('d', far!)
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
