/**
 * The shopper's delivery location (docs/stores.md, "Location (BFF)"), with JavaScript on and off:
 * the header names the default store until a location is chosen; /location takes a PIN code
 * (refusing a malformed one with contract/location.ts `PINCODE_MESSAGE`), says where and how fast in the header,
 * or that the place is not served yet; goes back only to same-site paths; a visitor's choice is
 * saved to the account at sign-in and comes back at the next sign-in; at 360 px nothing scrolls
 * sideways.
 */
import { expect, test, type Page } from '@playwright/test'
import { isJs, newUser, registerViaApi, signIn, toast, waitForHydration } from './helpers.ts'

/** The header's location link. */
const locationLink = (page: Page) => page.getByRole('banner').getByTestId('location-link')

/** Submits `pincode` on the open /location page. */
async function choosePincode(page: Page, pincode: string, js: boolean) {
  const field = page.getByRole('main').getByLabel('Pincode')
  const submit = page.getByRole('main').getByRole('button', { name: 'Check and save' })
  if (js) await waitForHydration(submit)
  await field.fill(pincode)
  await submit.click()
}

/** True when the page is no wider than the window (nothing scrolls sideways). */
const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)

test.describe('location at 360 px', () => {
  test.use({ viewport: { width: 360, height: 780 } })

  test('the default store until chosen; a served pincode, a refused one and one not served', async ({ page }, testInfo) => {
    test.setTimeout(90_000)
    const js = isJs(testInfo)
    await page.goto('/')
    await expect(locationLink(page)).toContainText('Choose your location')
    await expect(locationLink(page)).toContainText('Showing Indiranagar store')
    expect(await fitsWidth(page)).toBe(true)

    await locationLink(page).click()
    await expect(page).toHaveURL(/\/location$/)
    await choosePincode(page, '12345', js)
    await expect(page.getByRole('main').getByText('Enter a valid 6-digit pincode')).toBeVisible()
    await expect(page).toHaveURL(/\/location/)
    expect(await fitsWidth(page)).toBe(true)

    await choosePincode(page, '560038', js)
    // A success toast lasts 2 s: it is checked first.
    await expect(toast(page, /Delivering to Indiranagar, 560038 in \d+ minutes?/)).toBeVisible()
    await expect(page).toHaveURL(/\/$/)
    await expect(locationLink(page)).toContainText('Indiranagar, 560038')
    await expect(locationLink(page)).toContainText(/Delivery in \d+ minutes?/)
    expect(await fitsWidth(page)).toBe(true)

    await page.goto('/location')
    await choosePincode(page, '799001', js)
    await expect(toast(page, "We don't deliver to Agartala yet. Nearest:")).toBeVisible()
    await expect(page).toHaveURL(/\/$/)
    await expect(locationLink(page)).toContainText("We don't deliver to Agartala yet")
    expect(await fitsWidth(page)).toBe(true)
    await page.goto('/location')
    expect(await fitsWidth(page)).toBe(true)
  })
})

test('goes back to the page it came from, only on this site', async ({ page }, testInfo) => {
  test.setTimeout(90_000)
  const js = isJs(testInfo)
  await page.goto('/cart')
  await locationLink(page).click()
  await expect(page).toHaveURL(/\/location\?redirectTo=%2Fcart$/)
  await choosePincode(page, '560034', js)
  await expect(page).toHaveURL(/\/cart$/)
  await expect(locationLink(page)).toContainText('Koramangala, 560034')

  await page.goto(`/location?${new URLSearchParams({ redirectTo: '//evil.example/x' })}`)
  await choosePincode(page, '560038', js)
  await expect(page).toHaveURL(/^http:\/\/localhost:\d+\/$/)
})

test("a visitor's location is saved to the account at sign-in and comes back at the next", async ({
  browser,
  page,
  playwright,
}, testInfo) => {
  test.setTimeout(120_000)
  const js = isJs(testInfo)
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL })
  const shopper = newUser(testInfo, 'location')
  await registerViaApi(request, shopper)
  await request.dispose()

  await page.goto('/location')
  await choosePincode(page, '560102', js)
  await expect(locationLink(page)).toContainText('560102')
  await signIn(page, shopper)
  await expect(locationLink(page)).toContainText('560102')

  const other = await browser.newContext({ baseURL: testInfo.project.use.baseURL, javaScriptEnabled: js, locale: 'en-IN' })
  const second = await other.newPage()
  await second.goto('/')
  await expect(locationLink(second)).toContainText('Choose your location')
  await signIn(second, shopper)
  await expect(locationLink(second)).toContainText('560102')
  await other.close()
})
