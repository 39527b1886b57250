/**
 * Bad input is refused at the edge with the right status, never a 500, and nothing secret reaches
 * the log (OWASP Input Validation and Logging Cheat Sheets). On PGlite, and on PostgreSQL with
 * TEST_DATABASE_URL:
 *
 * - NUL and other control characters, unpaired surrogates, deep nesting: 400 with the field;
 * - bodies over the JSON cap: 413 while streaming (a chunked body is cut off, never buffered);
 * - a non-JSON content type: 415; bytes that are not UTF-8: 400;
 * - numbers checked exactly (a fractional stock, a price of 1e-9, a discount of 99.9999999999);
 * - the captured log of all of the above holds no argon2 hash, email or token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from './app.ts'
import { createRateLimits } from './lib/rate-limit.ts'
import { createTestApp, type TestApp } from './testing/app.ts'
import { captureLog } from './testing/log-capture.ts'
import { createAdmin } from './testing/auth.ts'
import { insertCategory, storeTestImage } from './testing/fixtures.ts'

const { logger, lines: logLines } = captureLog()

let t: TestApp
let admin: string
let product: Record<string, unknown>

beforeAll(async () => {
  t = await createTestApp({ logger, jsonBodyMaxBytes: 64 * 1024 })
  admin = (await createAdmin(t, { email: 'owner-admin@example.com' })).token
  const category = await insertCategory(t.db, { name: 'Dairy' })
  product = { name: 'Milk', image: [await storeTestImage(t)], category: [category.id], unit: '1 L', stock: 5, price: 60, discount: 0 }
})
afterAll(() => t?.close())

describe('text the database could not store is refused with a field message', () => {
  it('a NUL in the name of a registration is a 400 on name, and the log has no hash or email', async () => {
    const res = await t.call('user/register', {
      json: { name: 'Asha\u0000Rao', email: 'nul-name@example.com', password: 'Basmati-Rice-2024', confirmPassword: 'Basmati-Rice-2024' },
    })
    expect(res.status).toBe(400)
    expect(res.body.issues).toEqual([{ path: 'name', message: 'must not contain control characters' }])
  })

  it('an unpaired surrogate in more_details and a control character in an id are 400s', async () => {
    const details = await t.call('product/create', { token: admin, json: { ...product, more_details: { brand: 'Amul\ud83e' } } })
    expect(details.status).toBe(400)
    expect(details.body.issues[0]).toEqual({ path: 'more_details.brand', message: 'must not contain unpaired surrogate characters' })
    const id = await t.call('product/get-product-details', { json: { productId: 'abc\u0000' } })
    expect(id.status).toBe(400)
    expect(id.body.issues[0].path).toBe('productId')
  })

  it('a body nested deeper than 32 levels is a 400, not a stack overflow', async () => {
    const deep = `${'['.repeat(5_000)}${']'.repeat(5_000)}`
    const res = await t.call('product/get', { json: `{"search":${deep}}` })
    expect(res.status).toBe(400)
  })

  it('bytes that are not UTF-8 are a 400', async () => {
    const res = await t.app.request('/api/product/get', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: new Uint8Array([0x7b, 0x22, 0x73, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
    })
    expect(res.status).toBe(400)
    expect((await res.json()).message).toBe('Request body must be UTF-8 encoded JSON')
  })
})

describe('bodies are capped and typed', () => {
  it('a declared body over the cap is a 413 before it is read', async () => {
    const res = await t.call('product/get', { json: JSON.stringify({ search: 'x'.repeat(70 * 1024) }) })
    expect(res.status).toBe(413)
  })

  it('a chunked body is cut off at the cap while streaming', async () => {
    let sent = 0
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        // Up to 100 MB if nobody stops reading; the API must stop after 64 KB.
        if (sent >= 100 * 1024 * 1024) return controller.close()
        sent += 16 * 1024
        controller.enqueue(new Uint8Array(16 * 1024).fill(0x20))
      },
    })
    const res = await t.app.request('/api/product/get', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit)
    expect(res.status).toBe(413)
    expect(sent).toBeLessThan(1024 * 1024)
  })

  it('a form or text body is a 415 (a cross-site form cannot speak JSON)', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
      const res = await t.app.request('/api/user/login', {
        method: 'POST',
        headers: { 'Content-Type': type },
        body: '{"email":"a@example.com","password":"x"}',
      })
      expect(res.status, type).toBe(415)
    }
  })
})

describe('numbers are exact', () => {
  it.each([
    [{ stock: 1e-7 }, 'stock', 'Stock must be a whole number'],
    [{ stock: '0.0000001' }, 'stock', 'Stock must be a whole number'],
    [{ price: 1e-9 }, 'price', 'Price can have at most 2 decimal places'],
    [{ discount: 12.12345678901 }, 'discount', 'Discount can have at most 10 decimal places'],
  ])('%j is a 400 on the field, and nothing is stored', async (over, path, message) => {
    const before = (await t.call('product/get', { json: { limit: 100 } })).body.totalCount
    const res = await t.call('product/create', { token: admin, json: { ...product, ...over } })
    expect(res.status).toBe(400)
    expect(res.body.issues[0]).toEqual({ path, message })
    t.deps.cache.invalidate()
    expect((await t.call('product/get', { json: { limit: 100 } })).body.totalCount).toBe(before)
  })
})

describe('the log', () => {
  it('holds no password hash, email or token from any of the requests above', () => {
    const log = logLines.join('')
    expect(log).not.toMatch(/\$argon2/)
    expect(log).not.toMatch(/@example\.com/)
    expect(log).not.toContain(admin)
    expect(log).not.toMatch(/eyJ[\w-]+\.[\w-]+\./)
  })
})

describe('writes authenticated by the API cookie must come from this site', () => {
  const write = (headers: Record<string, string>) =>
    t.app.request('http://shop.test/api/category/add-category', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify({ name: 'Cross Site', image: '/uploads/none.webp' }),
    })

  it('refuses a foreign Origin or Referer, or none, with the admin cookie', async () => {
    const cookie = `accessToken=${admin}`
    expect((await write({ Cookie: cookie, Origin: 'https://evil.example' })).status).toBe(403)
    expect((await write({ Cookie: cookie, Referer: 'https://evil.example/page' })).status).toBe(403)
    expect((await write({ Cookie: cookie })).status).toBe(403)
    // A text/plain body (what a cross-site form can send) is refused whatever its origin.
    const plain = await t.app.request('http://shop.test/api/category/add-category', {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain', Cookie: cookie, Origin: 'http://shop.test' },
      body: '{"name":"x","image":"/uploads/none.webp"}',
    })
    expect(plain.status).toBe(415)
  })

  it('without Origin, refuses a cross-site Referer or Sec-Fetch-Site, and Origin: null', async () => {
    const cookie = `accessToken=${admin}`
    expect((await write({ Cookie: cookie, Origin: 'null' })).status).toBe(403)
    expect((await write({ Cookie: cookie, 'Sec-Fetch-Site': 'cross-site' })).status).toBe(403)
    expect((await write({ Cookie: cookie, 'Sec-Fetch-Site': 'same-site' })).status).toBe(403)
    expect((await write({ Cookie: cookie, Referer: 'http://shop.test/x', 'Sec-Fetch-Site': 'cross-site' })).status).toBe(403)
    expect((await write({ Cookie: cookie, Referer: 'https://evil.example/x', 'Sec-Fetch-Site': 'same-origin' })).status).toBe(403)
  })

  it('without Origin, lets a same-origin Referer or Sec-Fetch-Site: same-origin through', async () => {
    const cookie = `accessToken=${admin}`
    expect((await write({ Cookie: cookie, Referer: 'http://shop.test/dashboard' })).status).toBe(400)
    expect((await write({ Cookie: cookie, 'Sec-Fetch-Site': 'same-origin' })).status).toBe(400)
  })

  it('lets the same site, and Bearer-authenticated clients, through to the handler', async () => {
    // 400: the image is not one the store holds, which shows the request reached the handler.
    expect((await write({ Cookie: `accessToken=${admin}`, Origin: 'http://shop.test' })).status).toBe(400)
    expect((await write({ Authorization: `Bearer ${admin}`, Origin: 'https://evil.example' })).status).toBe(400)
  })
})

describe('GET /api/user/logout signed by the cookie (the original client signs it with a Bearer token)', () => {
  const signIn = async (email: string) => {
    await t.call('user/register', {
      json: { name: 'Asha', email, password: 'Basmati-Rice-2024', confirmPassword: 'Basmati-Rice-2024' },
    })
    return (await t.call('user/login', { json: { email, password: 'Basmati-Rice-2024' } })).body.data as {
      accessToken: string
      refreshToken: string
    }
  }
  const logout = (headers: Record<string, string>) => t.app.request('http://shop.test/api/user/logout', { headers })

  it('from another site (a link or redirect: no Origin) does not end the session', async () => {
    const session = await signIn('asha-logout-cross@example.com')
    const cookie = `accessToken=${session.accessToken}; refreshToken=${session.refreshToken}`
    expect((await logout({ Cookie: cookie, 'Sec-Fetch-Site': 'cross-site', Referer: 'https://evil.example/' })).status).toBe(403)
    expect((await logout({ Cookie: cookie, Referer: 'https://evil.example/' })).status).toBe(403)
    expect((await logout({ Cookie: cookie, 'Sec-Fetch-Site': 'cross-site' })).status).toBe(403)
    expect((await logout({ Cookie: cookie })).status).toBe(403)
    expect((await t.call('user/user-details', { token: session.accessToken })).status).toBe(200)
    // From a page of this site it still works.
    expect((await logout({ Cookie: cookie, 'Sec-Fetch-Site': 'same-origin', Referer: 'http://shop.test/' })).status).toBe(200)
    expect((await t.call('user/user-details', { token: session.accessToken })).status).toBe(401)
  })

  it('with a Bearer token ends the session from anywhere, as the original client calls it', async () => {
    const session = await signIn('asha-logout-bearer@example.com')
    const res = await logout({
      Authorization: `Bearer ${session.accessToken}`,
      'Sec-Fetch-Site': 'cross-site',
      Origin: 'https://client.example',
    })
    expect(res.status).toBe(200)
    expect((await t.call('user/user-details', { token: session.accessToken })).status).toBe(401)
  })
})

describe('signing out ends the session at once', () => {
  it('refuses the access token of a signed-out session, while another session of the same user goes on', async () => {
    await t.call('user/register', {
      json: { name: 'Meera', email: 'meera-session@example.com', password: 'Basmati-Rice-2024', confirmPassword: 'Basmati-Rice-2024' },
    })
    const login = () => t.call('user/login', { json: { email: 'meera-session@example.com', password: 'Basmati-Rice-2024' } })
    const phone = (await login()).body.data
    const laptop = (await login()).body.data
    expect((await t.call('user/user-details', { token: phone.accessToken })).status).toBe(200)

    const out = await t.call('user/logout', { token: phone.accessToken, json: { refreshToken: phone.refreshToken } })
    expect(out.status).toBe(200)
    // The access token has 15 minutes left on its clock, but its session is over.
    const after = await t.call('user/user-details', { token: phone.accessToken })
    expect(after.status).toBe(401)
    expect(after.body.message).toBe('Your session has ended: sign in again')
    expect((await t.call('user/user-details', { token: laptop.accessToken })).status).toBe(200)
  })
})

describe('search cost is bounded per client', () => {
  it('limits searches the cache cannot answer per address, not cached ones', async () => {
    const limited = createApp({ ...t.deps, rateLimits: createRateLimits({ searchByIp: { points: 2, duration: 60 } }) }).app
    const search = (q: string, ip: string) =>
      limited.request('/api/product/search-product', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Client-Ip': ip },
        body: JSON.stringify({ search: q }),
      })
    expect((await search('qwerty zxcvb', '198.51.100.61')).status).toBe(200)
    expect((await search('asdfg hjkl', '198.51.100.61')).status).toBe(200)
    const third = await search('poiuy lkjhg mnbvc', '198.51.100.61')
    expect(third.status).toBe(429)
    expect(Number(third.headers.get('Retry-After'))).toBeGreaterThan(0)
    // A search already in the catalogue cache costs nothing and is answered; other addresses are not affected.
    expect((await search('qwerty zxcvb', '198.51.100.61')).status).toBe(200)
    expect((await search('poiuy lkjhg mnbvc', '198.51.100.62')).status).toBe(200)
  })
})
