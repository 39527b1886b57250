/**
 * Register, sign in, sign out (docs/product.md, "Auth screens", "States and transitions",
 * "Validation rules" and "Error catalogue": registering signs the new account in with a success toast
 * and goes to redirectTo or /, the account menu shows the name, logout is a POST that toasts and goes to /).
 *
 * Toast texts are the API's messages (docs/product.md, "Toasts").
 */
import { test, expect, type Page } from '@playwright/test'
import {
  expectSignedInAs,
  guestCartToSignIn,
  isJs,
  loginLink,
  newUser,
  openAccountMenu,
  registerViaApi,
  signIn,
  submitLogin,
  toast,
} from './helpers.ts'

async function submitRegister(page: Page, user: { name: string; email: string; password: string }, confirmPassword: string) {
  await page.goto('/register')
  const form = page.getByRole('main')
  await form.getByLabel('Name', { exact: true }).fill(user.name)
  await form.getByLabel('Email', { exact: true }).fill(user.email)
  await form.getByLabel('Password', { exact: true }).fill(user.password)
  await form.getByLabel('Confirm Password', { exact: true }).fill(confirmPassword)
  await form.getByRole('button', { name: 'Register', exact: true }).click()
}

test('registering signs in; then sign out, and sign in again', async ({ page }, testInfo) => {
  // Seven page loads and three password hashes (argon2id): more than the default 30 s on a busy 2-core machine.
  test.slow()
  const user = newUser(testInfo, 'journey')

  await submitRegister(page, user, user.password)
  await expect(page).toHaveURL(/\/$/)
  await expect(toast(page, /registered successfully/i)).toBeVisible()
  await expectSignedInAs(page, user.name)

  const menu = await openAccountMenu(page)
  await menu.getByRole('button', { name: 'Log Out', exact: true }).click()
  await expect(page).toHaveURL(/\/$/)
  await expect(toast(page, /logout successfully/i)).toBeVisible()
  await expect(loginLink(page)).toBeVisible()
  await expect(page.getByRole('banner').getByText(user.name)).toHaveCount(0)

  // The session is really over: the next page load is still signed out.
  await page.reload()
  await expect(loginLink(page)).toBeVisible()

  // The account is real: it signs in with the password it was registered with.
  await signIn(page, user)
  await expect(loginLink(page)).toHaveCount(0)
})

test('a visitor who registers from "Proceed" is signed in and lands on /checkout with the cart', async ({ page }, testInfo) => {
  test.slow()
  const js = isJs(testInfo)
  const user = newUser(testInfo, 'proceed')
  await guestCartToSignIn(page, js)
  // Enter on the link: this test is about where registering leads; whether a click lands while the
  // focused email field validates on blur is the login form's own test.
  await page.getByRole('main').getByRole('link', { name: 'Register', exact: true }).press('Enter')
  await expect(page).toHaveURL(/\/register\?redirectTo=%2Fcheckout$/)
  const form = page.getByRole('main')
  await form.getByLabel('Name', { exact: true }).fill(user.name)
  await form.getByLabel('Email', { exact: true }).fill(user.email)
  await form.getByLabel('Password', { exact: true }).fill(user.password)
  await form.getByLabel('Confirm Password', { exact: true }).fill(user.password)
  await form.getByRole('button', { name: 'Register', exact: true }).click()

  // Signed in at once, on the checkout, with the cart filled as a visitor (merged into the new account).
  await expect(page).toHaveURL(/\/checkout$/)
  await expect(toast(page, /registered successfully/i)).toBeVisible()
  await expect(page.getByTestId('cart-button')).toContainText('1 item')
  // The account is new: its one line can only be the visitor's, merged at sign-in.
  await expect(page.getByRole('main')).toContainText('1 item')
  await expect(page.getByRole('main')).toContainText(/Basmati Rice/i)
  await expectSignedInAs(page, user.name)
})

test('register with mismatched passwords shows the mismatch message', async ({ page }, testInfo) => {
  const user = newUser(testInfo, 'mismatch')
  await submitRegister(page, user, `${user.password}-other`)
  await expect(page.getByRole('main').getByText('password and confirm password must be same').first()).toBeVisible()
  await expect(page).toHaveURL(/\/register$/)
  // Nothing was created: signing in with that email fails.
  await submitLogin(page, user.email, user.password)
  await expect(page.getByRole('alert').filter({ hasText: 'Check your email or password' }).first()).toBeVisible()
  await expect(page).toHaveURL(/\/login$/)
})

test('a wrong password shows an error and stays on /login', async ({ page, request }, testInfo) => {
  const user = newUser(testInfo, 'wrongpw')
  await registerViaApi(request, user)
  await submitLogin(page, user.email, `${user.password}-wrong`)
  await expect(page.getByRole('alert').filter({ hasText: 'Check your email or password' }).first()).toBeVisible()
  await expect(page).toHaveURL(/\/login$/)
  await expect(loginLink(page)).toBeVisible()
})

test('/login while signed in redirects to /', async ({ page, request }, testInfo) => {
  const user = newUser(testInfo, 'redirect')
  await registerViaApi(request, user)
  await signIn(page, user)
  await page.goto('/login')
  await expect(page).toHaveURL(/\/$/)
  await expectSignedInAs(page, user.name)
})
