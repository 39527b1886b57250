/**
 * The signed-in shopper's account pages (docs/product.md, "Dashboard", "Profile" and "Account menu";
 * docs/product.md, "Validation rules": name, email and mobile required, mobile numeric; the guarded
 * pages of docs/product.md, "States and transitions"): the sign-in redirect and return, the profile
 * form, the avatar upload, the order and address pages and the mobile account menu (/user).
 *
 * One shopper per project is registered for the file (the API allows 20 sign-ups per IP and hour,
 * api/lib/rate-limit.ts, and the whole suite shares one IP); the profile edit, which renames its
 * user, registers its own.
 */
import { test, expect, type APIRequestContext, type Page } from '@playwright/test'
import {
  ADMIN,
  FIXTURES,
  expectSignedInAs,
  fillLogin,
  isJs,
  loginLink,
  newUser,
  openAccountMenu,
  registerViaApi,
  signIn,
  toast,
  waitForHydration,
} from './helpers.ts'

type User = ReturnType<typeof newUser>
let shopper: User

test.beforeAll(async ({ playwright }, testInfo) => {
  shopper = newUser(testInfo, 'account')
  const request: APIRequestContext = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL })
  await registerViaApi(request, shopper)
  await request.dispose()
})

/** The profile form of /dashboard/profile. */
function profileForm(page: Page) {
  const main = page.getByRole('main')
  return {
    name: main.getByLabel('Name', { exact: true }),
    email: main.getByLabel('Email', { exact: true }),
    mobile: main.getByLabel('Mobile', { exact: true }),
    submit: main.getByRole('button', { name: 'Submit', exact: true }),
  }
}

test('a signed-out visitor is sent to /login and comes back after signing in', async ({ page, context }) => {
  await page.goto('/dashboard/profile')
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fdashboard%2Fprofile$/)
  await expect(loginLink(page)).toBeVisible()

  await fillLogin(page, shopper.email, shopper.password)
  await expect(page).toHaveURL(/\/dashboard\/profile$/)
  await expect(profileForm(page).email).toHaveValue(shopper.email)
  await expectSignedInAs(page, shopper.name)

  // Only same-site paths are followed (docs/security.md, "Sign-in and sessions"): another site's
  // address lands on / instead.
  await context.clearCookies()
  await page.goto(`/login?redirectTo=${encodeURIComponent('//evil.example/steal')}`)
  await fillLogin(page, shopper.email, shopper.password)
  await expect(page).toHaveURL(/^http:\/\/localhost:\d+\/$/)
  await expectSignedInAs(page, shopper.name)
})

test('the profile form saves name and mobile; the header shows the new name', async ({ page, request }, testInfo) => {
  test.slow()
  const user = newUser(testInfo, 'profile')
  await registerViaApi(request, user)
  await signIn(page, user)
  await page.goto('/dashboard/profile')
  const form = profileForm(page)
  await expect(form.name).toHaveValue(user.name)
  await expect(form.email).toHaveValue(user.email)
  await expect(form.mobile).toHaveValue('')

  // docs/product.md, "Validation rules": name and mobile are required; nothing is saved without them.
  await form.name.fill('')
  await form.submit.click()
  await expect(page.getByRole('main').getByText('Enter your name', { exact: true })).toBeVisible()
  await expect(page.getByRole('main').getByText('Enter your mobile number', { exact: true })).toBeVisible()

  const newName = `${user.name} Renamed`
  await form.name.fill(newName)
  await form.mobile.fill('9876543210')
  await form.submit.click()
  await expect(toast(page, 'Updated successfully')).toBeVisible()
  await expect(page).toHaveURL(/\/dashboard\/profile$/)

  // Stored, not just shown: a fresh load has the new values, and the header names the new name.
  await page.reload()
  await expect(form.name).toHaveValue(newName)
  await expect(form.mobile).toHaveValue('9876543210')
  await expectSignedInAs(page, newName)
  await expect(page.getByRole('banner').getByText(user.name, { exact: true })).toHaveCount(0)
})

test('an email that belongs to another account is refused with a clear message', async ({ page }) => {
  await signIn(page, shopper)
  await page.goto('/dashboard/profile')
  const form = profileForm(page)
  await form.mobile.fill('9123456780')
  // The demo admin's address: certainly taken.
  await form.email.fill(ADMIN.email)
  await form.submit.click()
  await expect(page.getByRole('main').getByText('Email already in use', { exact: true }).first()).toBeVisible()
  await expect(form.email).toHaveAttribute('aria-invalid', 'true')
  await expect(page).toHaveURL(/\/dashboard\/profile$/)

  // Nothing changed. (A fresh GET: reloading the refused POST would send it again.)
  await page.goto('/dashboard/profile')
  await expect(form.email).toHaveValue(shopper.email)
})

test('avatar upload: a renamed text file is refused, a real PNG becomes the avatar', async ({ page }, testInfo) => {
  test.slow()
  await signIn(page, shopper)
  await page.goto('/dashboard/profile')
  const main = page.getByRole('main')
  const avatarImage = (scope: typeof main) => scope.locator('img[src^="/uploads/"]').filter({ visible: true })
  await expect(avatarImage(main)).toHaveCount(0)

  const edit = main.getByRole('link', { name: 'Edit avatar' })
  if (isJs(testInfo)) await waitForHydration(edit)
  await edit.click()
  await expect(page).toHaveURL(/\/dashboard\/profile\?edit-avatar=1$/)
  // With JavaScript the upload opens as a modal dialog; without, as a plain form in the page.
  const upload = isJs(testInfo) ? page.getByRole('dialog', { name: 'Upload avatar' }) : main.getByRole('region', { name: 'Upload avatar' })
  await expect(upload).toBeVisible()

  // Checked by content, not by name (docs/product.md, "Profile").
  await upload.getByLabel('Choose an image').setInputFiles(FIXTURES.textAsPng)
  await upload.getByRole('button', { name: 'Upload', exact: true }).click()
  await expect(
    page
      .getByRole('alert')
      .filter({ hasText: /only images can be uploaded/i })
      .first(),
  ).toBeVisible()
  await expect(page).toHaveURL(/\/dashboard\/profile\?edit-avatar=1$/)
  await expect(avatarImage(main)).toHaveCount(0)

  await upload.getByLabel('Choose an image').setInputFiles(FIXTURES.png)
  if (isJs(testInfo)) await expect(upload.getByRole('img', { name: 'Preview of the new avatar' })).toBeVisible()
  await upload.getByRole('button', { name: 'Upload', exact: true }).click()
  await expect(page).toHaveURL(/\/dashboard\/profile$/)
  await expect(toast(page, 'Avatar updated successfully')).toBeVisible()

  // The profile shows the stored image (re-encoded under /uploads/), and it really loads.
  const stored = avatarImage(main).first()
  await expect(stored).toBeVisible()
  await expect(stored).toHaveAttribute('alt', `${shopper.name}'s avatar`)
  await expect.poll(() => stored.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true)
  // The header's account button shows it at once (docs/product.md, "Profile").
  await expect(avatarImage(page.getByRole('banner') as typeof main)).toHaveCount(1)

  // It stays after a fresh load.
  await page.reload()
  await expect(avatarImage(main).first()).toBeVisible()
})

test('My Order and Save Address show their titles', async ({ page }) => {
  await signIn(page, shopper)
  let menu = await openAccountMenu(page)
  await menu.getByRole('link', { name: 'My Order', exact: true }).click()
  await expect(page).toHaveURL(/\/dashboard\/myorder$/)
  await expect(page.getByRole('main').getByRole('heading', { level: 1, name: 'My Orders' })).toBeVisible()

  menu = await openAccountMenu(page)
  await menu.getByRole('link', { name: 'Save Address', exact: true }).click()
  await expect(page).toHaveURL(/\/dashboard\/address$/)
  await expect(page.getByRole('main').getByRole('heading', { level: 1, name: 'Address' })).toBeVisible()
  // A shopper's menu has no admin links (docs/product.md, "Roles and permissions").
  menu = await openAccountMenu(page)
  await expect(menu.getByRole('link', { name: 'Category', exact: true })).toHaveCount(0)
})

test('/user: the account menu page with a close link', async ({ page }, testInfo) => {
  await signIn(page, shopper)
  // Below 768 px the header's user icon leads to /user (docs/product.md, "Header").
  await page.setViewportSize({ width: 390, height: 844 })
  await page.goto('/dashboard/myorder')
  const icon = page.getByRole('banner').getByRole('link', { name: 'Account menu' })
  if (isJs(testInfo)) await waitForHydration(icon)
  await icon.click()
  await expect(page).toHaveURL(/\/user$/)

  const main = page.getByRole('main')
  const nav = main.getByRole('navigation', { name: 'Account' })
  await expect(main.getByText(shopper.name, { exact: true })).toBeVisible()
  for (const name of ['My Profile', 'My Order', 'Save Address']) await expect(nav.getByRole('link', { name, exact: true })).toBeVisible()
  await expect(nav.getByRole('button', { name: 'Log Out', exact: true })).toBeVisible()
  await expect(nav.getByRole('link', { name: 'Upload Product', exact: true })).toHaveCount(0)

  // The close button is a link to / (works without JavaScript); with JavaScript it goes back.
  const close = main.getByRole('link', { name: 'Close', exact: true })
  await expect(close).toHaveAttribute('href', '/')
  if (isJs(testInfo)) await waitForHydration(close)
  await close.click()
  await expect(page).toHaveURL(isJs(testInfo) ? /\/dashboard\/myorder$/ : /^http:\/\/localhost:\d+\/$/)
})
