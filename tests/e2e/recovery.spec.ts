/**
 * Password recovery by a one-time code sent by real email (docs/product.md, "Password recovery";
 * docs/product.md, "One-time code" and "Reset password"; README.md, "Admins and mail").
 *
 * The code is read from the mail itself: the app sends it with nodemailer over SMTP to the local
 * smtp-server that scripts/e2e-server.mjs runs, which writes each message to a folder
 * (helpers.ts `waitForOtp`). Nothing reads the code from the database or a log.
 */
import { test, expect, type Locator, type Page } from '@playwright/test'
import { expectSignedInAs, isJs, newUser, otpOf, registerViaApi, submitLogin, toast, waitForHydration, waitForMail } from './helpers.ts'

/** docs/product.md, "Reset password", verbatim; its trailing space is not visible on a page. */
const MISMATCH_MESSAGE = 'New password and confirm password must be same.'
const WRONG_LOGIN_MESSAGE = 'Check your email or password'

/** The six code boxes of /verification-otp, in order (labelled "Digit n of 6"). */
function codeBoxes(page: Page): Locator[] {
  const group = page.getByRole('main').getByRole('group', { name: '6-digit code' })
  return Array.from({ length: 6 }, (_, i) => group.getByRole('textbox', { name: `Digit ${i + 1} of 6`, exact: true }))
}

/** Asks for a code on /forgot-password; returns when the page has moved on to /verification-otp. */
async function requestCode(page: Page, email: string) {
  await page.goto('/forgot-password')
  const main = page.getByRole('main')
  await main.getByLabel('Email', { exact: true }).fill(email)
  await main.getByRole('button', { name: 'Send Otp', exact: true }).click()
  await expect(page).toHaveURL(/\/verification-otp$/)
  // The email is carried in the server session, never in the address (docs/product.md, "Password
  // recovery").
  expect(page.url()).not.toContain(encodeURIComponent(email))
  expect(page.url()).not.toContain(email)
  await expect(page.getByRole('main').getByText(email, { exact: true })).toBeVisible()
}

/** Fills every box with one digit each, as a keyboard user (JS) or a plain form user (no JS) would. */
async function enterCode(page: Page, code: string, javaScript: boolean) {
  const boxes = codeBoxes(page)
  if (javaScript) {
    await waitForHydration(boxes[0])
    await boxes[0].click()
    // docs/product.md, "Password recovery": focus moves to the next box on entry, so the whole code
    // is typed in one go.
    for (let i = 0; i < 6; i++) {
      await expect(boxes[i]).toBeFocused()
      await page.keyboard.type(code[i])
    }
  } else {
    for (let i = 0; i < 6; i++) await boxes[i].fill(code[i])
  }
  for (let i = 0; i < 6; i++) await expect(boxes[i]).toHaveValue(code[i])
}

test('forgot password: code by email, new password, old one refused', async ({ page, request }, testInfo) => {
  // Ten page loads, a mail round trip over SMTP and four password hashes.
  test.slow()
  const javaScript = isJs(testInfo)
  const user = newUser(testInfo, 'recover')
  await registerViaApi(request, user)
  const newPassword = 'Fresh-Password-77'

  const since = Date.now()
  await requestCode(page, user.email)
  await expect(toast(page, /OTP has been sent/i)).toBeVisible()
  // A real mail over SMTP, with a plain-text and an HTML body that both carry the code (README.md,
  // "Admins and mail").
  const mail = await waitForMail(user.email, since)
  const code = otpOf(mail)
  expect(mail.subject).toBe('Your password reset code')
  expect(mail.html).toContain(code)

  // A wrong code first: refused with the API's message, the boxes are emptied, the page stays.
  const wrong = [...code].map((digit) => String((Number(digit) + 1) % 10)).join('')
  await enterCode(page, wrong, javaScript)
  await page.getByRole('main').getByRole('button', { name: 'Verify OTP', exact: true }).click()
  await expect(page.getByRole('main').getByRole('alert').filter({ hasText: 'Invalid OTP' }).first()).toBeVisible()
  await expect(page).toHaveURL(/\/verification-otp$/)
  for (const box of codeBoxes(page)) await expect(box).toHaveValue('')

  // The right code.
  await enterCode(page, code, javaScript)
  await page.getByRole('main').getByRole('button', { name: 'Verify OTP', exact: true }).click()
  await expect(page).toHaveURL(/\/reset-password$/)
  const main = page.getByRole('main')
  // The email is carried over (docs/product.md, "Password recovery") and cannot be changed here.
  const email = main.getByLabel('Email', { exact: true })
  await expect(email).toHaveValue(user.email)
  await expect(email).not.toBeEditable()

  // Mismatch: the message of docs/product.md, "Reset password", and nothing changes.
  await main.getByLabel('New Password', { exact: true }).fill(newPassword)
  await main.getByLabel('Confirm Password', { exact: true }).fill(`${newPassword}-typo`)
  await main.getByRole('button', { name: 'Change Password', exact: true }).click()
  // `exact` still ignores leading and trailing white space, so the message's trailing space may or
  // may not be kept.
  await expect(main.getByText(MISMATCH_MESSAGE, { exact: true })).toBeVisible()
  await expect(page).toHaveURL(/\/reset-password$/)

  await main.getByLabel('New Password', { exact: true }).fill(newPassword)
  await main.getByLabel('Confirm Password', { exact: true }).fill(newPassword)
  await expect(main.getByText(MISMATCH_MESSAGE, { exact: true })).toHaveCount(javaScript ? 0 : 1)
  await main.getByRole('button', { name: 'Change Password', exact: true }).click()
  await expect(page).toHaveURL(/\/login$/)
  await expect(toast(page, 'Password updated successfully')).toBeVisible()

  // The recovery is over: neither step can be revisited (docs/product.md, "Password recovery").
  await page.goto('/reset-password')
  await expect(page).toHaveURL(/\/$/)
  await page.goto('/verification-otp')
  await expect(page).toHaveURL(/\/forgot-password$/)

  // The old password no longer works; the new one does.
  await submitLogin(page, user.email, user.password)
  await expect(page.getByRole('alert').filter({ hasText: WRONG_LOGIN_MESSAGE }).first()).toBeVisible()
  await expect(page).toHaveURL(/\/login$/)
  await submitLogin(page, user.email, newPassword)
  await expect(page).toHaveURL(/\/$/)
  await expectSignedInAs(page, user.name)
})

test('pasting a whole code fills all six boxes', async ({ page }, testInfo) => {
  test.skip(!isJs(testInfo), 'pasting is a JavaScript behaviour; without it each box is filled on its own')
  // An address with no account: the API answers alike (docs/api-contract.md, "Users"), so the page
  // moves on too.
  const { email } = newUser(testInfo, 'paste')
  await requestCode(page, email)
  const boxes = codeBoxes(page)
  await waitForHydration(boxes[0])

  // Typing one digit moves focus to the next box (docs/product.md, "Password recovery").
  await boxes[0].click()
  await page.keyboard.type('9')
  await expect(boxes[1]).toBeFocused()

  // A whole code pasted anywhere (here the second box) fills every box from the first.
  await boxes[1].evaluate((box) => {
    const clipboardData = new DataTransfer()
    clipboardData.setData('text/plain', ' 123 456 ')
    box.dispatchEvent(new ClipboardEvent('paste', { clipboardData, bubbles: true, cancelable: true }))
  })
  for (const [i, digit] of [...'123456'].entries()) await expect(boxes[i]).toHaveValue(digit)
  await expect(boxes[5]).toBeFocused()
})

test('/verification-otp without an email goes to /forgot-password', async ({ page }) => {
  await page.goto('/verification-otp')
  await expect(page).toHaveURL(/\/forgot-password$/)
  await expect(page.getByRole('main').getByRole('button', { name: 'Send Otp', exact: true })).toBeVisible()
})

test('/reset-password without a verified code goes to /', async ({ page }, testInfo) => {
  // No recovery at all.
  await page.goto('/reset-password')
  await expect(page).toHaveURL(/\/$/)

  // A code was asked for but not verified: still no way in.
  const { email } = newUser(testInfo, 'unverified')
  await requestCode(page, email)
  await page.goto('/reset-password')
  await expect(page).toHaveURL(/\/$/)
})
