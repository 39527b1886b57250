/**
 * The rendered-page cache (app/.server/page-cache.ts, docs/decisions/0018-page-cache.md), with
 * JavaScript on and off:
 * - what a signed-in shopper with a cart and a flash message saw is never served to another visitor
 *   (their name, the cart count, the toast), and the shopper never gets the visitors' cached page;
 * - a cached page has no nonce, a policy with the hashes of its scripts, `private, no-cache` and
 *   `Vary: Cookie`, revalidates with 304, and works as a page rendered per request does (the ADD
 *   button, with JavaScript through the hydrated app, without it through the form);
 * - a catalogue write shows on the next visit.
 * Each test uses URLs of its own (an unused query parameter), so no other test filled them before.
 */
import { expect, test, type APIRequestContext, type Page, type TestInfo } from '@playwright/test'
import { ADMIN, addFirstOnPage, api, findListing, isJs, newUser, registerViaApi, slug, waitForHydration } from './helpers.ts'

/** A query value no other test or run uses. */
const stampOf = (testInfo: TestInfo) => `${testInfo.project.name}${Date.now()}${Math.floor(Math.random() * 1e6)}`

/** The URL `path` answers at in the end (a listing or product slug may redirect to its canonical form). */
async function canonical(request: APIRequestContext, path: string): Promise<string> {
  const res = await request.get(path)
  expect(res.status()).toBe(200)
  const url = new URL(res.url())
  return url.pathname
}

/** Home, a listing, a product page and a search, each with `probe=<stamp>` so their cache slots are new. */
async function probePages(request: APIRequestContext, stamp: string): Promise<string[]> {
  const listing = await findListing(request, 'Fruits & Vegetables', 'Exotic Vegetables')
  const [product] = (await api<Array<{ _id: string; name: string }>>(request, '/product/get', { page: 1, limit: 1, search: 'milk' })).data
  const listingPath = await canonical(request, listing.path)
  const productPath = await canonical(request, `/product/${encodeURIComponent(slug(product!.name, product!._id))}`)
  return [`/?probe=${stamp}`, `${listingPath}?probe=${stamp}`, `${productPath}?probe=${stamp}`, `/search?q=milk&probe=${stamp}`]
}

/** A browser page of its own, with no cookies, JavaScript as in this project. */
async function freshVisitor(page: Page, testInfo: TestInfo): Promise<Page> {
  const context = await page
    .context()
    .browser()!
    .newContext({ baseURL: testInfo.project.use.baseURL, javaScriptEnabled: isJs(testInfo), locale: 'en-IN' })
  return context.newPage()
}

const cartButton = (page: Page) => page.getByTestId('cart-button')

test('what a signed-in shopper saw is never served to another visitor, and the other way round', async ({ page, request }, testInfo) => {
  test.setTimeout(90_000)
  const js = isJs(testInfo)
  const stamp = stampOf(testInfo)
  const user = { ...newUser(testInfo, 'privacy'), name: `Quillfeather ${js ? 'Jay' : 'Noel'}` }
  await registerViaApi(request, user)
  const pages = await probePages(request, stamp)

  // The shopper signs in, landing on a probe page with the sign-in toast, and puts a product in the cart.
  await page.goto(`/login?${new URLSearchParams({ redirectTo: pages[0]! })}`)
  const form = page.getByRole('main')
  await form.getByLabel('Email', { exact: true }).fill(user.email)
  await form.getByLabel('Password', { exact: true }).fill(user.password)
  await form.getByRole('button', { name: 'Login', exact: true }).click()
  await expect(page.getByRole('status').or(page.getByRole('alert')).filter({ hasText: 'Login successfully' }).first()).toBeVisible()
  await addFirstOnPage(page, js)
  // Every probe page as the shopper: the shared page with their own slots spliced in
  // (docs/decisions/0032-personal-parts-spliced.md): their name in the header, their cart count.
  for (const path of pages) {
    const response = await page.goto(path)
    expect(response!.headers()['x-page-cache']).toBe('spliced')
    expect(await page.content()).toContain(user.name)
    await expect(cartButton(page)).toContainText('1 item')
  }

  // Another visitor, no cookies: the same pages from the cache, rendered once without anyone's cookie
  // when the shopper's pages were spliced.
  const visitor = await freshVisitor(page, testInfo)
  for (const path of pages) {
    for (const expected of ['hit', 'hit']) {
      const response = await visitor.goto(path)
      expect(response!.status()).toBe(200)
      expect(response!.headers()['x-page-cache']).toBe(expected)
      const html = await response!.text()
      expect(html).not.toContain(user.name)
      expect(html).not.toContain('Login successfully')
      expect(html).not.toContain(user.email)
      await expect(cartButton(visitor)).toHaveText(/^\s*My Cart\s*$/)
      await expect(
        visitor
          .getByRole('banner')
          .getByRole('link', { name: /^log\s*in$/i })
          .filter({ visible: true }),
      ).toBeVisible()
    }
  }
  await visitor.context().close()

  // The shopper, after the visitors' pages were cached, still gets their own.
  for (const path of pages) {
    const response = await page.goto(path)
    expect(response!.headers()['x-page-cache']).toBe('spliced')
    expect(await response!.text()).toContain(user.name)
    await expect(cartButton(page)).toContainText('1 item')
  }
})

test('a cached page has no nonce, a hash policy, private revalidation, and works as any page', async ({ page }, testInfo) => {
  const js = isJs(testInfo)
  const path = `/?probe=${stampOf(testInfo)}`
  const violations: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) violations.push(message.text())
  })
  expect((await page.request.get(path)).headers()['x-page-cache']).toBe('miss')

  const response = await page.goto(path)
  const headers = response!.headers()
  expect(headers['x-page-cache']).toBe('hit')
  expect(headers['cache-control']).toBe('private, no-cache')
  expect(headers['vary']).toMatch(/\bCookie\b/)
  const policy = headers['content-security-policy']!
  expect(policy).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')+;/)
  expect(policy).not.toContain('nonce-')
  expect(await response!.text()).not.toMatch(/\snonce="/)

  // The browser revalidates with the ETag: unchanged, 304.
  const again = await page.request.get(path, { headers: { 'if-none-match': headers['etag']! } })
  expect(again.status()).toBe(304)

  // The page works from the cache: ADD puts the product in the cart, hydrated or by the form.
  await addFirstOnPage(page, js)
  expect(violations).toEqual([])

  // Now with a cart: the same shared page with this visitor's slots spliced in, under the same
  // hash policy (the visitor's data rides in a JSON script, which no policy runs).
  const own = await page.goto(path)
  expect(own!.headers()['x-page-cache']).toBe('spliced')
  expect(own!.headers()['content-security-policy']).toBe(policy)
  await expect(cartButton(page)).toContainText('1 item')
  expect(violations).toEqual([])
})

/**
 * A page's markup up to React Router's scripts at the end of the body, without what differs between
 * two renders of one page (nonces, module preloads). The scripts themselves differ by design: a render
 * for one browser streams its data, a spliced page carries the shared render's and the shopper's.
 */
function visibleMarkup(html: string): string {
  const markup = html
    .replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, '<script/>')
    .replace(/ nonce="[^"]*"/g, '')
    .replace(/<link rel="modulepreload"[^>]*>/g, '')
  return markup.slice(0, markup.indexOf('<script/>', markup.indexOf('</footer>')))
}

test('a spliced page is the page React renders for that shopper, hydrates without a mismatch, and its stepper works', async ({
  page,
}, testInfo) => {
  test.setTimeout(90_000)
  const js = isJs(testInfo)
  const stamp = stampOf(testInfo)
  const pages = await probePages(page.request, stamp)
  const errors: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text())
  })
  page.on('pageerror', (error) => errors.push(error.message))

  // A visitor puts the first product of the home page in a guest cart.
  await page.goto(pages[0]!)
  const name = await addFirstOnPage(page, js)

  // The cart page too: its heading and contents are one slot (the whole cart).
  for (const path of [...pages, `/cart?probe=${stamp}`]) {
    // The page spliced from the shared render, and the same page rendered whole for this shopper: a
    // URL longer than the cache keeps (2,048 characters) is rendered per request.
    const spliced = await page.request.get(path)
    expect(spliced.headers()['x-page-cache']).toBe('spliced')
    const pad = 'x'.repeat(2100)
    const whole = await page.request.get(`${path}&pad=${pad}`)
    expect(whole.headers()['x-page-cache']).toBeUndefined()
    // The padding is left out wherever the page names its own URL (plain, as HTML, or URL-encoded).
    const wholeMarkup = visibleMarkup(
      (await whole.text()).replaceAll(`&amp;pad=${pad}`, '').replaceAll(`&pad=${pad}`, '').replaceAll(`%26pad%3D${pad}`, ''),
    )
    const splicedMarkup = visibleMarkup(await spliced.text())
    expect(splicedMarkup).toContain('</footer>')
    expect(splicedMarkup).toBe(wholeMarkup)
  }

  // The spliced home page shows the stepper, hydrates without a mismatch, and "+" adds one more.
  const response = await page.goto(pages[0]!)
  expect(response!.headers()['x-page-cache']).toBe('spliced')
  const plus = page.getByRole('button', { name: `Add one more ${name}` }).first()
  await expect(plus).toBeVisible()
  if (js) await waitForHydration(plus)
  await plus.click()
  await expect(cartButton(page)).toContainText('2 items')
  await expect(page.getByRole('main').getByText('2 in cart').first()).toBeAttached()

  // The spliced cart page lists the line, hydrates without a mismatch, and its "−" takes one off.
  const cart = await page.goto(`/cart?probe=${stamp}`)
  expect(cart!.headers()['x-page-cache']).toBe('spliced')
  await expect(page.getByRole('heading', { name: /My Cart/ })).toContainText('2 items')
  const less = page.getByRole('main').getByRole('button', { name: `Remove one ${name}` })
  if (js) await waitForHydration(less)
  await less.click()
  await expect(page.getByRole('heading', { name: /My Cart/ })).toContainText('1 item')
  expect(errors.filter((text) => !/favicon|Failed to load resource/.test(text))).toEqual([])
})

test('a catalogue write shows on the next visit of a cached page', async ({ page, request }, testInfo) => {
  const stamp = stampOf(testInfo)
  const [product] = (
    await api<Array<{ _id: string; name: string; price: number; sellingPrice: number }>>(request, '/product/get', {
      page: 1,
      limit: 1,
      search: 'atta',
    })
  ).data
  const path = `${await canonical(request, `/product/${encodeURIComponent(slug(product!.name, product!._id))}`)}?probe=${stamp}`
  await page.request.get(path)
  expect((await page.request.get(path)).headers()['x-page-cache']).toBe('hit')

  const login = await api<{ accessToken: string }>(request, '/user/login', { email: ADMIN.email, password: ADMIN.password })
  // A new price in whole rupees that no other test sets, within the product's MRP.
  const newPrice = Math.max(1, Math.floor(product!.price) - 1 - (Number(stamp.slice(-2)) % 5))
  const changed = await request.put('/api/product/update-product-details', {
    headers: { authorization: `Bearer ${login.data.accessToken}` },
    data: { _id: product!._id, sellingPrice: newPrice },
  })
  expect(changed.status()).toBe(200)
  try {
    const response = await page.goto(path)
    expect(response!.headers()['x-page-cache']).toBe('miss')
    await expect(
      page
        .getByRole('main')
        .getByText(`₹${new Intl.NumberFormat('en-IN').format(newPrice)}`)
        .first(),
    ).toBeVisible()
  } finally {
    await request.put('/api/product/update-product-details', {
      headers: { authorization: `Bearer ${login.data.accessToken}` },
      data: { _id: product!._id, sellingPrice: product!.sellingPrice },
    })
  }
})
