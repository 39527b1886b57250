/**
 * Phone sign-in and mobile verification (docs/decisions/0054-phone-sign-in-pages.md): a newcomer signs
 * in with a number and the code from the SMS outbox and lands on redirectTo with the guest cart
 * merged; a wrong code is said inline; "Change" goes back to the number; the profile verifies a
 * number (409 for one linked to another account) and then allows the SMS switch.
 */
import { test, expect, type Page } from '@playwright/test'
import { expectSignedInAs, guestCartToSignIn, isJs, newUser, registerViaApi, signIn, toast, waitForHydration } from './helpers.ts'
import { newMobile, smsCount, waitForSmsCode } from './sms.ts'

/** Fills step 1 of a code flow in `scope` and sends it. */
async function sendNumber(page: Page, mobile: string, button: string) {
  const main = page.getByRole('main')
  await main.getByRole('textbox', { name: 'Mobile number', exact: true }).fill(mobile)
  await main.getByRole('button', { name: button, exact: true }).click()
}

/** Types `code` in step 2 (with JavaScript the sixth digit submits; without, the button does). */
async function enterCode(page: Page, code: string, js: boolean, button: string) {
  const main = page.getByRole('main')
  const field = main.getByLabel('Enter OTP', { exact: true })
  if (js) {
    await waitForHydration(field)
    await field.pressSequentially(code)
  } else {
    await field.fill(code)
    await main.getByRole('button', { name: button, exact: true }).click()
  }
}

test('a newcomer signs in with a mobile number and lands on the checkout with the guest cart', async ({ page }, testInfo) => {
  test.slow()
  const js = isJs(testInfo)
  const mobile = newMobile(testInfo)
  await guestCartToSignIn(page, js)
  await page.getByRole('main').getByRole('link', { name: 'Continue with mobile number' }).click()
  await expect(page).toHaveURL(/\/login\/phone\?redirectTo=%2Fcheckout$/)
  // The phone page fits a 360 px screen.
  const desktop = page.viewportSize()!
  await page.setViewportSize({ width: 360, height: 740 })
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
  await page.setViewportSize(desktop)

  // A wrong number is refused with the shared message.
  await sendNumber(page, '12345', 'Continue')
  await expect(page.getByRole('main').getByText('Enter a valid 10-digit mobile number')).toBeVisible()

  // "Change" goes back to the number, which is kept (from the session, not the URL).
  const before = smsCount(mobile)
  await sendNumber(page, mobile, 'Continue')
  await expect(page).toHaveURL(/\/login\/phone\?step=code&redirectTo=%2Fcheckout$/)
  expect(page.url()).not.toContain(mobile)
  await expect(page.getByTestId('code-sent-to')).toContainText(`${mobile.slice(0, 5)} ${mobile.slice(5)}`)
  const code = await waitForSmsCode(mobile, before)
  await page.getByRole('link', { name: 'Change mobile number' }).click()
  await expect(page).toHaveURL(/\/login\/phone\?redirectTo=%2Fcheckout$/)
  await expect(page.getByRole('main').getByLabel('Mobile number', { exact: true })).toHaveValue(mobile)
  await page.goBack()
  await expect(page).toHaveURL(/step=code/)

  // A wrong code: the API's message inline, the field empty again.
  const wrong = code === '000000' ? '111111' : '000000'
  await enterCode(page, wrong, js, 'Verify and sign in')
  await expect(
    page
      .getByRole('main')
      .getByText(/Incorrect OTP/)
      .first(),
  ).toBeVisible()

  await enterCode(page, code, js, 'Verify and sign in')
  await expect(page).toHaveURL(/\/checkout$/)
  await expect(page.getByTestId('cart-button')).toContainText('1 item')
  await expect(page.getByRole('main')).toContainText(/Basmati Rice/i)
  // A new account has no name: asked, never blocking.
  await expect(page.getByRole('heading', { name: 'Add your name' })).toBeVisible()
  await page.getByRole('main').getByLabel('Name', { exact: true }).first().fill('Phone Shopper')
  await page.getByRole('main').getByRole('button', { name: 'Save', exact: true }).click()
  await expect(toast(page, /updated/i)).toBeVisible()
  await expectSignedInAs(page, 'Phone Shopper')

  // At 360 px the profile of an account without an email saves with the email left empty, and no page scrolls sideways.
  await page.setViewportSize({ width: 360, height: 740 })
  await page.goto('/dashboard/profile')
  const profile = page
    .getByRole('main')
    .locator('form')
    .filter({ has: page.getByRole('button', { name: 'Submit' }) })
  await expect(profile.getByLabel('Email (optional)')).toHaveValue('')
  await profile.getByLabel('Name', { exact: true }).fill('Phone Shopper Rao')
  await profile.getByRole('button', { name: 'Submit' }).click()
  await expect(toast(page, /updated/i)).toBeVisible()
  await expect(profile.getByLabel('Name', { exact: true })).toHaveValue('Phone Shopper Rao')
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
})

test('the profile verifies a mobile number; a number of another account is refused; then the SMS switch works', async ({
  page,
  browser,
  request,
}, testInfo) => {
  test.slow()
  const js = isJs(testInfo)
  // Another account owns this number (signed in by phone in its own browser context).
  const taken = newMobile(testInfo)
  const other = await browser.newContext({ javaScriptEnabled: false })
  const otherPage = await other.newPage()
  await otherPage.goto('/login/phone')
  const otherBefore = smsCount(taken)
  await sendNumber(otherPage, taken, 'Continue')
  await enterCode(otherPage, await waitForSmsCode(taken, otherBefore), false, 'Verify and sign in')
  await expect(otherPage).toHaveURL(/\/$/)
  await other.close()

  const user = newUser(testInfo, 'verify')
  await registerViaApi(request, user)
  await signIn(page, user)
  await page.goto('/dashboard/profile')
  const section = page.getByRole('region', { name: 'Mobile number' })
  await expect(section.getByRole('switch', { name: 'Order updates by SMS' })).toBeDisabled()
  await section.getByRole('link', { name: 'Add mobile number' }).click()
  await sendNumber(page, taken, 'Send OTP')
  await expect(section.getByRole('listitem').filter({ hasText: 'This mobile number is already linked to another account' })).toBeVisible()

  const mobile = newMobile(testInfo)
  const before = smsCount(mobile)
  await sendNumber(page, mobile, 'Send OTP')
  await expect(page).toHaveURL(/\/dashboard\/profile\?mobile=code$/)
  await enterCode(page, await waitForSmsCode(mobile, before), js, 'Verify')
  await expect(page).toHaveURL(/\/dashboard\/profile$/)
  await expect(section.getByText('Verified', { exact: true })).toBeVisible()

  const smsSwitch = section.getByRole('switch', { name: 'Order updates by SMS' })
  await expect(smsSwitch).toBeEnabled()
  if (js) await waitForHydration(smsSwitch)
  await smsSwitch.check()
  if (!js) await section.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(toast(page, 'Order updates by SMS are on')).toBeVisible()
  await page.reload()
  await expect(section.getByRole('switch', { name: 'Order updates by SMS' })).toBeChecked()
})
