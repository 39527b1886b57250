/**
 * The BFF against malformed requests, on the real server (docs/security.md): every form action
 * answers a client's mistake with a 4xx (405, 413, 415, 400), never a 500; a signed-out session's
 * cookie cannot be replayed; unknown methods are 405. The last test is a seeded fast-check fuzzer over
 * every form action, as a visitor and as an admin.
 *
 * These are HTTP-level checks: they run once, in the "js" project only (the browser plays no part).
 */
import fc from 'fast-check'
import { test, expect, type APIRequestContext } from '@playwright/test'
import { ADMIN, isJs, loginLink, newUser, openAccountMenu, registerViaApi, signIn } from './helpers.ts'

const ACTIONS = [
  '/login',
  '/register',
  '/forgot-password',
  '/verification-otp',
  '/reset-password',
  '/logout',
  '/dashboard/profile',
  '/dashboard/category',
  '/dashboard/subcategory',
  '/dashboard/upload-product',
  '/dashboard/product',
]

/**
 * The header a browser's form post from one of the site's pages carries: the BFF refuses a write
 * that no header places on this site (app/.server/csrf.ts), so these HTTP-level posts send it too.
 */
function fromOurPage(baseURL: string | undefined): Record<string, string> {
  return { Origin: new URL(baseURL!).origin }
}

// Playwright reads fixtures from an object pattern in the first parameter: none are needed here.
// eslint-disable-next-line no-empty-pattern
test.beforeEach(({}, testInfo) => {
  test.skip(!isJs(testInfo), 'HTTP-level checks: run once')
})

test('form actions answer malformed bodies and other methods with a 4xx', async ({ request, baseURL }) => {
  const headers = fromOurPage(baseURL)
  // The code and new-password steps send a visitor without a recovery under way elsewhere first (302).
  for (const path of ['/verification-otp', '/reset-password']) {
    const json = await request.post(path, { data: { email: 'a@example.com' }, headers, maxRedirects: 0 })
    expect([302, 415], `${path} JSON`).toContain(json.status())
  }
  for (const path of ['/login', '/register', '/forgot-password']) {
    const json = await request.post(path, { data: { email: 'a@example.com' }, headers, maxRedirects: 0 })
    expect(json.status(), `${path} JSON`).toBe(415)
    const broken = await request.post(path, {
      headers: { ...headers, 'Content-Type': 'multipart/form-data; boundary=x' },
      data: 'not multipart',
      maxRedirects: 0,
    })
    expect(broken.status(), `${path} broken multipart`).toBe(400)
    for (const method of ['PUT', 'PATCH', 'DELETE']) {
      const res = await request.fetch(path, { method, headers, maxRedirects: 0 })
      expect(res.status(), `${path} ${method}`).toBeLessThan(500)
      expect(res.status(), `${path} ${method}`).toBeGreaterThanOrEqual(400)
    }
  }
  const big = await request.post('/login', {
    form: { email: 'a@example.com', password: 'x'.repeat(70 * 1024) },
    headers,
    maxRedirects: 0,
  })
  expect(big.status()).toBe(413)
  const trace = await fetch(`${baseURL}/`, { method: 'TRACE' }).catch(() => null)
  // Node's fetch refuses to send TRACE itself; the server's answer is checked by api/lib/methods.test.ts.
  if (trace) expect(trace.status).toBe(405)
})

test('a tampered product form field is a form error, not a 500', async ({ page }) => {
  await page.goto('/login')
  await page.getByRole('main').getByLabel('Email', { exact: true }).fill(ADMIN.email)
  await page.getByRole('main').getByLabel('Password', { exact: true }).fill(ADMIN.password)
  await page.getByRole('main').getByRole('button', { name: 'Login', exact: true }).click()
  await expect(page).toHaveURL(/\/$/)
  const res = await page.request.post('/dashboard/upload-product', {
    form: { intent: 'save', name: 'x', more_details: 'x', 'image.0': 'y', stock: '1e-7' },
    headers: { Origin: new URL(page.url()).origin },
    maxRedirects: 0,
  })
  expect(res.status()).toBeLessThan(500)
})

test('a session cookie saved before sign-out no longer opens the account', async ({ page, request, context }, testInfo) => {
  const user = newUser(testInfo, 'replay')
  await registerViaApi(request, user)
  await signIn(page, user)
  const saved = await context.cookies()
  const menu = await openAccountMenu(page)
  await menu.getByRole('button', { name: 'Log Out', exact: true }).click()
  await expect(page).toHaveURL(/\/$/)
  await expect(loginLink(page)).toBeVisible()
  // Replay the old session cookie, as someone who copied it before the sign-out would.
  await context.clearCookies()
  await context.addCookies(saved)
  await page.goto('/dashboard/profile')
  await expect(page).toHaveURL(/\/login/)
})

async function asAdmin(request: APIRequestContext, baseURL: string | undefined) {
  const res = await request.post('/login', {
    form: { email: ADMIN.email, password: ADMIN.password },
    headers: fromOurPage(baseURL),
    maxRedirects: 0,
  })
  expect([200, 302, 303]).toContain(res.status())
}

test('fuzzing every form action gives no 5xx', async ({ request, playwright, baseURL }) => {
  test.setTimeout(180_000)
  const admin = await playwright.request.newContext({ baseURL })
  await asAdmin(admin, baseURL)
  const field = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 30 }),
    fc.constantFrom(
      '',
      '\u0000',
      '\ud800',
      '__proto__',
      '1e-7',
      '-1',
      '99.9999999999',
      'x'.repeat(2000),
      '{"$ne":null}',
      '/%09/evil.example',
    ),
  )
  const names = fc.constantFrom(
    'intent',
    'email',
    'password',
    'confirmPassword',
    'name',
    'mobile',
    'otp0',
    'otp1',
    'newPassword',
    'image',
    'image[0]',
    'category',
    'subCategory',
    'stock',
    'price',
    'discount',
    'unit',
    'description',
    'more_details',
    'more_details[0].key',
    'more_details[0].value',
    '_id',
    'redirectTo',
    'page',
    '__proto__',
  )
  const input = fc.record({
    path: fc.constantFrom(...ACTIONS),
    asAdmin: fc.boolean(),
    encoding: fc.constantFrom('form', 'multipart', 'json', 'text'),
    fields: fc.dictionary(names, field, { maxKeys: 6 }),
  })
  const statuses = new Map<number, number>()
  await fc.assert(
    fc.asyncProperty(input, async ({ path, asAdmin: admined, encoding, fields }) => {
      // Signing the admin out would leave the rest of the run without an admin.
      const client = admined && path !== '/logout' ? admin : request
      const options =
        encoding === 'form'
          ? { form: fields }
          : encoding === 'multipart'
            ? { multipart: fields }
            : encoding === 'json'
              ? { data: fields }
              : { data: JSON.stringify(fields), headers: { 'Content-Type': 'text/plain' } }
      const headers = { ...('headers' in options ? options.headers : {}), ...fromOurPage(baseURL) }
      const res = await client.post(path, { ...options, headers, maxRedirects: 0 })
      statuses.set(res.status(), (statuses.get(res.status()) ?? 0) + 1)
      expect(res.status(), `${path} ${encoding} ${JSON.stringify(fields).slice(0, 200)}`).toBeLessThan(500)
    }),
    { seed: 20261122, numRuns: Number(process.env.FUZZ_FORM_RUNS ?? 300), endOnFailure: true },
  )
  console.log(`form fuzz: statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`)
  expect((await request.get('/healthz')).ok()).toBe(true)
  await admin.dispose()
})

test('liveness and readiness are separate', async ({ request }) => {
  expect(await (await request.get('/healthz')).json()).toEqual({ status: 'ok' })
  const ready = await request.get('/readyz')
  expect(ready.ok()).toBe(true)
  expect(await ready.json()).toEqual({ status: 'ready', database: 'pglite' })
})
