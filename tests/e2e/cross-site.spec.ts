/**
 * What another site can make a signed-in shopper's or admin's browser do (docs/security.md, "Sign-in
 * and sessions"), on the real server:
 * - a form post that no header places on this site (no `Origin`, a cross-site `Referer` or
 *   `Sec-Fetch-Site`, or none of them) changes nothing: cart add, checkout, order cancel, admin
 *   status change, category delete are refused with 403 (app/.server/csrf.ts);
 * - a `redirectTo` never sends the browser to another host after sign-in or a cart post
 *   (app/.server/request.ts `safeRedirect`).
 *
 * HTTP-level checks: they run once, in the "js" project only (the browser plays no part; a real
 * cross-site page in Chromium would send `Origin`, which React Router refuses by itself).
 */
import { test, expect, type APIRequestContext, type PlaywrightWorkerArgs } from '@playwright/test'
import { ADMIN, api, isJs, newUser, registerViaApi } from './helpers.ts'

// Playwright reads fixtures from an object pattern in the first parameter: none are needed here.
// eslint-disable-next-line no-empty-pattern
test.beforeEach(({}, testInfo) => {
  test.skip(!isJs(testInfo), 'HTTP-level checks: run once')
})

/** Headers of a post another site's page makes a browser send without `Origin` (older browsers, odd paths). */
const FORGED: Array<[string, Record<string, string>]> = [
  ['a cross-site Referer', { Referer: 'https://evil.example/win-a-prize' }],
  ['Sec-Fetch-Site: cross-site', { 'Sec-Fetch-Site': 'cross-site' }],
  ['Sec-Fetch-Site: same-site', { 'Sec-Fetch-Site': 'same-site', Referer: 'https://shop.evil.example/' }],
  ['no Origin, Referer or Sec-Fetch-Site at all', {}],
]

/** A request context signed in through the /login form (the BFF's cookie session), as a browser would be. */
async function signedIn(playwright: PlaywrightWorkerArgs['playwright'], baseURL: string, email: string, password: string) {
  const context = await playwright.request.newContext({ baseURL })
  const res = await context.post('/login', { form: { email, password }, headers: { Origin: new URL(baseURL).origin }, maxRedirects: 0 })
  expect(res.status(), 'signed in').toBe(302)
  return context
}

/** The user's cart lines through the API, with their own Bearer token. */
async function cartLines(request: APIRequestContext, user: { email: string; password: string }) {
  const token = (await api<{ accessToken: string }>(request, '/user/login', { email: user.email, password: user.password })).data
    .accessToken
  const res = await request.get('/api/cart/get', { headers: { Authorization: `Bearer ${token}` } })
  expect(res.ok()).toBe(true)
  return ((await res.json()) as { data: Array<{ quantity: number }> }).data
}

test("a post from another site changes nothing in a shopper's account; one from our pages does", async ({
  playwright,
  request,
  baseURL,
}, testInfo) => {
  const user = newUser(testInfo, 'forged')
  await registerViaApi(request, user)
  const shopper = await signedIn(playwright, baseURL!, user.email, user.password)
  const product = (await api<Array<{ _id: string }>>(request, '/product/search-product', { search: 'basmati rice', page: 1, limit: 1 }))
    .data[0]!

  for (const [how, headers] of FORGED) {
    const add = await shopper.post('/cart', { form: { intent: 'add', productId: product._id }, headers, maxRedirects: 0 })
    expect(add.status(), `cart add with ${how}`).toBe(403)
    const checkout = await shopper.post('/checkout', { form: { intent: 'place', addressId: 'a'.repeat(24) }, headers, maxRedirects: 0 })
    expect(checkout.status(), `checkout with ${how}`).toBe(403)
    const cancel = await shopper.post(`/dashboard/myorder/${'b'.repeat(24)}`, { form: { intent: 'cancel' }, headers, maxRedirects: 0 })
    expect(cancel.status(), `order cancel with ${how}`).toBe(403)
  }
  expect(await cartLines(request, user)).toHaveLength(0)

  // From one of our pages without Origin: its Referer, or the browser's Sec-Fetch-Site, says so.
  const origin = new URL(baseURL!).origin
  const viaReferer = await shopper.post('/cart', {
    form: { intent: 'add', productId: product._id },
    headers: { Referer: `${origin}/search?q=rice` },
    maxRedirects: 0,
  })
  expect(viaReferer.status()).toBe(302)
  const viaFetchSite = await shopper.post('/cart', {
    form: { intent: 'add', productId: product._id },
    headers: { 'Sec-Fetch-Site': 'same-origin' },
    maxRedirects: 0,
  })
  expect(viaFetchSite.status()).toBe(302)
  const lines = await cartLines(request, user)
  expect(lines).toHaveLength(1)
  expect(lines[0]!.quantity).toBe(2)
  await shopper.dispose()
})

test("a post from another site changes nothing with an admin's session", async ({ playwright, baseURL }) => {
  const admin = await signedIn(playwright, baseURL!, ADMIN.email, ADMIN.password)
  for (const [how, headers] of FORGED) {
    const status = await admin.post(`/dashboard/orders/${'c'.repeat(24)}`, { form: { status: 'Delivered' }, headers, maxRedirects: 0 })
    expect(status.status(), `order status change with ${how}`).toBe(403)
    const remove = await admin.post('/dashboard/category', {
      multipart: { intent: 'delete', _id: 'd'.repeat(24) },
      headers,
      maxRedirects: 0,
    })
    expect(remove.status(), `category delete with ${how}`).toBe(403)
  }
  await admin.dispose()
})

/** `redirectTo` values that name another host once a URL parser has read them. */
const OFFSITE = [
  '//evil.example',
  '/.//evil.example',
  '/a/..//evil.example',
  '/%2e//evil.example',
  '/\\evil.example',
  '/%2F%2Fevil.example',
  '/%5Cevil.example',
  '/\t/evil.example',
  '/\n/evil.example',
]

test('redirectTo never leaves the site after sign-in or a cart post', async ({ playwright, request, baseURL }, testInfo) => {
  const origin = new URL(baseURL!).origin
  const user = newUser(testInfo, 'redirect')
  await registerViaApi(request, user)
  const product = (await api<Array<{ _id: string }>>(request, '/product/search-product', { search: 'basmati rice', page: 1, limit: 1 }))
    .data[0]!
  for (const redirectTo of OFFSITE) {
    const visitor = await playwright.request.newContext({ baseURL })
    const login = await visitor.post('/login', {
      form: { email: user.email, password: user.password, redirectTo },
      headers: { Origin: origin },
      maxRedirects: 0,
    })
    expect(login.status(), `login ${JSON.stringify(redirectTo)}`).toBe(302)
    const afterLogin = login.headers()['location']!
    expect(new URL(afterLogin, baseURL).origin, `login ${JSON.stringify(redirectTo)} → ${afterLogin}`).toBe(origin)
    expect(afterLogin.startsWith('//')).toBe(false)

    const cart = await visitor.post('/cart', {
      form: { intent: 'add', productId: product._id, redirectTo },
      headers: { Origin: origin },
      maxRedirects: 0,
    })
    expect(cart.status(), `cart ${JSON.stringify(redirectTo)}`).toBe(302)
    const afterCart = cart.headers()['location']!
    expect(new URL(afterCart, baseURL).origin, `cart ${JSON.stringify(redirectTo)} → ${afterCart}`).toBe(origin)
    expect(afterCart.startsWith('//')).toBe(false)
    await visitor.dispose()
  }
})
