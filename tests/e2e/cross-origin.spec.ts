/**
 * A separately hosted client (docs/api-contract.md, "Cross-origin clients"): a page on another origin
 * (`http://127.0.0.1:<port>`, listed in API_ALLOWED_ORIGINS by scripts/e2e-server.mjs, while the API
 * answers on `http://localhost:<port>`) signs up, signs in with a Bearer token and no cookies, fills a
 * cart (naming its store in `X-Store-Id`, asking `Prefer: return=minimal`) and places a cash-on-delivery order through the API with `fetch`, and shows a product image
 * from `/uploads`, all in Chromium, which enforces CORS and Cross-Origin-Resource-Policy.
 *
 * The client's page is the server's own `/healthz` opened on 127.0.0.1, so no second server runs (a
 * page Playwright fulfils itself counts as a public address, from which Chromium's Private Network
 * Access refuses calls to localhost). JavaScript only: the client is a script.
 */
import { test, expect } from '@playwright/test'
import { newUser, waitForOtp } from './helpers.ts'

test('a page on another origin signs in, fills a cart and places an order through the API', async ({ page, baseURL }, testInfo) => {
  test.skip(testInfo.project.name === 'no-js', 'a cross-origin client is a script calling the API with fetch')
  test.setTimeout(60_000)
  const api = new URL(baseURL!)
  const clientOrigin = `http://127.0.0.1:${api.port}`
  expect(clientOrigin).not.toBe(api.origin)
  // Any document of that origin will do as the client's page: /healthz is a plain JSON answer, without
  // the storefront's scripts or its Content-Security-Policy.
  await page.goto(`${clientOrigin}/healthz`)

  const user = newUser(testInfo, 'cors')
  const result = await page.evaluate(
    async ({ base, user }) => {
      const call = async (
        path: string,
        init: { method?: string; body?: unknown; token?: string; headers?: Record<string, string> } = {},
      ) => {
        const headers: Record<string, string> = { ...init.headers }
        if (init.body !== undefined) headers['Content-Type'] = 'application/json'
        if (init.token) headers.Authorization = `Bearer ${init.token}`
        // `omit`: a Bearer token alone signs the requests (the API's cookies are not the client's).
        const res = await fetch(`${base}/api${path}`, {
          method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
          headers,
          body: init.body === undefined ? undefined : JSON.stringify(init.body),
          credentials: 'omit',
        })
        const body = await res.json()
        if (!res.ok) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(body)}`)
        return body
      }
      await call('/user/register', { body: { ...user, confirmPassword: user.password } })
      const login = await call('/user/login', { body: { email: user.email, password: user.password } })
      const token: string = login.data.accesstoken
      const products = await call('/product/get', { body: { page: 1, limit: 20 } })
      const product = products.data.find((p: { stock: number; image: string[] }) => p.stock > 5 && p.image.length > 0)
      // The shopper's store and a minimal answer: two request headers a preflight must allow (api/lib/cors.ts).
      const store = await call('/location/default-store')
      const added = await call('/cart/create', {
        body: { productId: product._id },
        token,
        headers: { 'X-Store-Id': store.data._id, Prefer: 'return=minimal' },
      })
      const cart = await call('/cart/get', { token })
      const address = await call('/address/create', {
        body: {
          address_line: '12 MG Road',
          city: 'Bengaluru',
          state: 'Karnataka',
          pincode: '560008',
          country: 'India',
          mobile: '9876543210',
        },
        token,
      })
      const order = await call('/order/cash-on-delivery', {
        body: { addressId: address.data._id },
        token,
        headers: { 'Idempotency-Key': crypto.randomUUID() },
      })
      const orders = await call('/order/order-list', { token })
      // The product's picture, as a page of this origin would show it.
      const img = document.createElement('img')
      img.src = new URL(product.image[0], base).href
      document.body.append(img)
      const loaded = await new Promise<boolean>((resolve) => {
        img.onload = () => resolve(img.naturalWidth > 0)
        img.onerror = () => resolve(false)
      })
      return {
        cartLines: cart.data.length,
        addedAnswer: added.data,
        orderId: order.data.orderId ?? order.data._id,
        listed: orders.data.length,
        imageLoaded: loaded,
      }
    },
    { base: api.origin, user },
  )
  expect(result.cartLines).toBe(1)
  expect(result.addedAnswer).toBeNull()
  expect(result.orderId).toBeTruthy()
  expect(result.listed).toBe(1)
  expect(result.imageLoaded).toBe(true)
})

test('the original client on another site keeps its cookie session and resets a password through the reset cookie', async ({
  page,
  baseURL,
}, testInfo) => {
  test.skip(testInfo.project.name === 'no-js', 'a cross-origin client is a script calling the API with fetch')
  test.setTimeout(60_000)
  const api = new URL(baseURL!)
  // 127.0.0.1 and localhost are two sites to the browser: only SameSite=None cookies travel between
  // them, and Chromium, which blocks third-party cookies, keeps them because they are Partitioned.
  await page.goto(`http://127.0.0.1:${api.port}/healthz`)
  const user = newUser(testInfo, 'xsite')
  const call = (path: string, method: string, body?: unknown) =>
    page.evaluate(
      async ({ url, method, body }) => {
        // `include` and no Authorization header: the session is the API's cookies alone, as the
        // original client has it once it has cleared its storage.
        const res = await fetch(url, {
          method,
          headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
          credentials: 'include',
        })
        return { status: res.status, body: await res.json() }
      },
      { url: `${api.origin}/api${path}`, method, body },
    )
  expect((await call('/user/register', 'POST', { ...user, confirmPassword: user.password })).status).toBe(201)
  expect((await call('/user/login', 'POST', { email: user.email, password: user.password })).status).toBe(200)
  const details = await call('/user/user-details', 'GET')
  expect(details.status, JSON.stringify(details.body)).toBe(200)
  expect(details.body.data.email).toBe(user.email)
  // A cookie-signed write from the listed origin passes the cross-site check.
  const updated = await call('/user/update-user', 'PUT', { name: `${user.name} X`, email: user.email, mobile: '9876543210' })
  expect(updated.status, JSON.stringify(updated.body)).toBe(200)

  // Password reset: the code by mail, then the reset token rides in its own cookie from verify to reset.
  const since = Date.now()
  expect((await call('/user/forgot-password', 'PUT', { email: user.email })).status).toBe(200)
  const otp = await waitForOtp(user.email, since)
  expect((await call('/user/verify-forgot-password-otp', 'PUT', { email: user.email, otp })).status).toBe(200)
  const newPassword = `${user.password}-2`
  const reset = await call('/user/reset-password', 'PUT', { email: user.email, newPassword, confirmPassword: newPassword })
  expect(reset.status, JSON.stringify(reset.body)).toBe(200)
  expect((await call('/user/login', 'POST', { email: user.email, password: newPassword })).status).toBe(200)
})
