/**
 * Messages follow the form's state (docs/product.md, "Forms in general"): a refused
 * submission's messages (the form's alert, the field's message, the error toast) go as soon as the
 * shopper changes what they were about or sends the form again, and a success never shows beside a
 * stale error. With JavaScript the page stays, so the messages must be cleared; without it every
 * submission renders a fresh page, so the next page must simply not carry the old message.
 */
import { test, expect, type Locator, type Page } from '@playwright/test'
import {
  ADMIN,
  FIXTURES,
  api,
  isJs,
  newUser,
  otpOf,
  registerViaApi,
  signIn,
  submitLogin,
  toast,
  waitForHydration,
  waitForMail,
} from './helpers.ts'

const WRONG_LOGIN = 'Check your email or password'
const INVALID_OTP = 'Invalid OTP'

/**
 * How many places show `text` to the eye now: toasts and alert lists in the page that are not faded
 * out (react-hot-toast fades a dismissed toast to opacity 0 before it removes it, and a fading toast
 * is still "visible" to Playwright).
 */
function shownCount(page: Page, text: string): Promise<number> {
  return page.evaluate((wanted) => {
    const opacity = (el: Element | null): number => {
      let value = 1
      for (let node = el; node instanceof Element; node = node.parentElement) value *= Number(getComputedStyle(node).opacity)
      return value
    }
    return [...document.querySelectorAll('[role="status"], [role="alert"]')].filter(
      (el) => el.textContent?.includes(wanted) && el.getClientRects().length > 0 && opacity(el) > 0.05,
    ).length
  }, text)
}

/** Waits (briefly: well within a toast's 4 s life) until nothing shows `text`. */
async function expectGone(page: Page, text: string, timeout = 1500) {
  await expect.poll(() => shownCount(page, text), { message: `"${text}" is no longer shown`, timeout }).toBe(0)
}

/** A field's message in `scope` (an item of an error list; a toast may say the same). */
function fieldMessage(scope: Locator, text: string): Locator {
  return scope.getByRole('listitem').filter({ hasText: text })
}

/** The six code boxes of /verification-otp. */
function codeBoxes(page: Page): Locator[] {
  const group = page.getByRole('main').getByRole('group', { name: '6-digit code' })
  return Array.from({ length: 6 }, (_, i) => group.getByRole('textbox', { name: `Digit ${i + 1} of 6`, exact: true }))
}

async function typeCode(page: Page, code: string) {
  for (const [i, box] of codeBoxes(page).entries()) await box.fill(code[i]!)
}

/** A six-digit code that is certainly not `code`. */
const otherCode = (code: string) => [...code].map((digit) => String((Number(digit) + 1) % 10)).join('')

test('login: the refusal goes when the password is typed again, and the success shows alone', async ({ page, request }, testInfo) => {
  const user = newUser(testInfo, 'stale-login')
  await registerViaApi(request, user)
  await submitLogin(page, user.email, `${user.password}-wrong`)
  const main = page.getByRole('main')
  await expect(main.getByRole('alert').filter({ hasText: WRONG_LOGIN })).toBeVisible()

  const password = main.getByLabel('Password', { exact: true })
  if (isJs(testInfo)) {
    await waitForHydration(password)
    await password.fill(user.password)
    // The shopper is correcting: the form's message and the error toast go at once.
    await expectGone(page, WRONG_LOGIN)
  } else {
    await password.fill(user.password)
  }
  await main.getByRole('button', { name: 'Login', exact: true }).click()
  await expect(page).toHaveURL(/\/$/)
  await expect(toast(page, 'Login successfully')).toBeVisible()
  // The refusal's toast may still be fading out (react-hot-toast's exit animation, 0.4 s, when its
  // host mounted late); it must not stand: gone well within an error toast's 4 s life.
  await expectGone(page, WRONG_LOGIN, 1000)
})

test('verification-otp: "Invalid OTP" goes with a new code, and the success shows alone', async ({ page, request }, testInfo) => {
  test.slow()
  const javaScript = isJs(testInfo)
  const user = newUser(testInfo, 'stale-otp')
  await registerViaApi(request, user)

  const since = Date.now()
  await page.goto('/forgot-password')
  await page.getByRole('main').getByLabel('Email', { exact: true }).fill(user.email)
  await page.getByRole('main').getByRole('button', { name: 'Send Otp', exact: true }).click()
  await expect(page).toHaveURL(/\/verification-otp$/)
  const first = otpOf(await waitForMail(user.email, since))
  const main = page.getByRole('main')
  const verify = main.getByRole('button', { name: 'Verify OTP', exact: true })
  const invalid = main.getByRole('alert').filter({ hasText: INVALID_OTP })

  await typeCode(page, otherCode(first))
  await verify.click()
  await expect(invalid).toBeVisible()
  if (javaScript) {
    // Typing a new code is changing the form: the refusal of the last one goes.
    await waitForHydration(codeBoxes(page)[0]!)
    await codeBoxes(page)[0]!.fill(first[0]!)
    await expectGone(page, INVALID_OTP)
    await typeCode(page, otherCode(first))
    await verify.click()
    await expect(invalid).toBeVisible()
  }

  // (A resend also starts the code form afresh, but the API allows one code a minute per email.)
  await typeCode(page, first)
  await verify.click()
  await expect(page).toHaveURL(/\/reset-password$/)
  await expect(toast(page, 'OTP verified successfully')).toBeVisible()
  // As after sign-in: the refusal's toast may still be fading out; it must be gone within 1 s.
  await expectGone(page, INVALID_OTP, 1000)
})

test('profile: a taken email stays refused while it is unchanged and goes when it changes', async ({ page, request }, testInfo) => {
  const user = newUser(testInfo, 'stale-profile')
  await registerViaApi(request, user)
  await signIn(page, user)
  await page.goto('/dashboard/profile')
  const main = page.getByRole('main')
  const email = main.getByLabel('Email', { exact: true })
  const submit = main.getByRole('button', { name: 'Submit', exact: true })
  if (isJs(testInfo)) await waitForHydration(submit)
  await main.getByLabel('Mobile', { exact: true }).fill('9123456780')
  await email.fill(ADMIN.email)
  await submit.click()
  const taken = main.getByText('Email already in use', { exact: true })
  await expect(taken.first()).toBeVisible()

  if (isJs(testInfo)) {
    // Another field changes: the email still holds what was refused, so its message stays.
    await main.getByLabel('Name', { exact: true }).fill(`${user.name} B`)
    await expect(taken.first()).toBeVisible()
    await expect(email).toHaveAttribute('aria-invalid', 'true')
    // The email changes: its message and the error toast go.
    await email.fill(user.email)
    await expectGone(page, 'Email already in use')
    await expect(main.getByText('Email already in use', { exact: true })).toHaveCount(0)
  } else {
    await email.fill(user.email)
  }
  await submit.click()
  await expect(toast(page, 'Updated successfully')).toBeVisible()
  await expect(main.getByText('Email already in use', { exact: true })).toHaveCount(0)
})

test.describe('category dialog', () => {
  let name = ''
  test.afterEach(async ({ request }) => {
    const category = (await api<Array<{ _id: string; name: string }>>(request, '/category/get')).data.find((c) => c.name === name)
    if (!category) return
    const login = await api<{ accessToken: string }>(request, '/user/login', { email: ADMIN.email, password: ADMIN.password })
    const response = await request.delete('/api/category/delete', {
      data: { _id: category._id },
      headers: { Authorization: `Bearer ${login.data.accessToken}` },
    })
    expect(response.ok()).toBe(true)
  })

  test('"Name is required" goes once a name is typed; a save shows its success alone', async ({ page }, testInfo) => {
    test.slow()
    const javaScript = isJs(testInfo)
    name = `E2E Stale ${testInfo.project.name} ${Date.now().toString(36)}`
    await submitLogin(page, ADMIN.email, ADMIN.password)
    await expect(page).toHaveURL(/\/$/)
    await page.goto('/dashboard/category?dialog=add')
    const dialog = page.getByRole('dialog', { name: 'Add Category' })
    const submit = dialog.getByRole('button', { name: 'Submit', exact: true })
    if (javaScript) await waitForHydration(submit)

    // With JavaScript the button only looks inactive (aria-disabled) until the form is complete; a click still explains what is missing.
    await submit.click({ force: javaScript })
    await expect(fieldMessage(dialog, 'Name is required')).toBeVisible()
    await expect(fieldMessage(dialog, 'Image is required')).toBeVisible()

    await dialog.getByLabel('Name', { exact: true }).fill(name)
    if (javaScript) {
      // Checked as it is typed with the server's own rules: the name's message goes, the image's stays.
      await expect(fieldMessage(dialog, 'Name is required')).toHaveCount(0)
      await expect(fieldMessage(dialog, 'Image is required')).toBeVisible()
    } else {
      await submit.click()
      // A fresh page: the name typed is kept and only what is still missing is said.
      await expect(fieldMessage(dialog, 'Image is required')).toBeVisible()
      await expect(dialog.getByLabel('Name', { exact: true })).toHaveValue(name)
      expect(await shownCount(page, 'Name is required')).toBe(0)
      await expect(fieldMessage(dialog, 'Name is required')).toHaveCount(0)
    }

    await dialog.getByLabel('Image', { exact: true }).setInputFiles(FIXTURES.png)
    if (javaScript) {
      await expect(dialog.getByRole('img', { name: 'Preview of the image' })).toHaveAttribute('src', /^\/uploads\//)
      // The upload filled the image: its message goes without another submit.
      await expect(fieldMessage(dialog, 'Image is required')).toHaveCount(0)
    }
    await submit.click()
    await expect(page).toHaveURL(/\/dashboard\/category$/)
    await expect(toast(page, 'Category added successfully')).toBeVisible()
    expect(await shownCount(page, 'Image is required')).toBe(0)
    expect(await shownCount(page, 'Name is required')).toBe(0)
  })
})
