/**
 * A page that answers 429 says how long to wait (RFC 6585 §4, RFC 9110 §10.2.3): the BFF passes the
 * API's `Retry-After` on, on the document answer without JavaScript and on the `.data` answer with it
 * (app/.server/failure.ts `retryAfterMiddleware`; React Router alone keeps only the routes' `headers`
 * exports). The sign-in form is the page: 10 failures of one email from one address block that pair
 * (docs/decisions/0009-rate-limits.md), whatever RATE_LIMIT_IP_MULTIPLIER says.
 */
import { expect, test } from '@playwright/test'
import { fillLogin, newUser, registerViaApi } from './helpers.ts'

test('a rate-limited sign-in answers 429 with Retry-After and names the wait', async ({ page, request }, testInfo) => {
  const user = newUser(testInfo, 'retry-after')
  await registerViaApi(request, user)
  const submit = async (password: string) => {
    // From the browser each time: the budget counts the (email, address) pair, and the browser's
    // address may differ from the test runner's (::1 or 127.0.0.1).
    const answer = page.waitForResponse((res) => res.request().method() === 'POST' && new URL(res.url()).pathname.startsWith('/login'))
    await page.goto('/login')
    await fillLogin(page, user.email, password)
    return answer
  }
  for (let i = 0; i < 10; i++) expect((await submit(`wrong-password-${i}`)).status(), `failure ${i + 1}`).toBe(400)

  const res = await submit(user.password)
  expect(res.status()).toBe(429)
  const wait = Number(res.headers()['retry-after'])
  expect(wait).toBeGreaterThanOrEqual(1)
  expect(wait).toBeLessThanOrEqual(15 * 60)
  await expect(
    page
      .getByRole('main')
      .getByText(/Please wait \d+ minutes?/)
      .first(),
  ).toBeVisible()
})
