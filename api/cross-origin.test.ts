/**
 * Cross-origin clients (api/lib/cors.ts, api/lib/public-urls.ts) and the methods of a path
 * (api/lib/allow.ts): CORS answers for the listed origins only, Bearer tokens without cookies, image
 * urls absolute on PUBLIC_URL, and 405 with `Allow` for a wrong method on every documented path.
 */
import { eq } from 'drizzle-orm'
import type { OpenAPIV3_1 } from 'openapi-types'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { categories } from './db/schema.ts'
import { createApp } from './app.ts'
import { createTestApp, type TestApp } from './testing/app.ts'
import { createAdmin, type SignedIn, TEST_PASSWORD } from './testing/auth.ts'
import { insertCategory, storeTestImage } from './testing/fixtures.ts'
import { absolutizeImagePaths, relativizeImageUrls } from './lib/public-urls.ts'
import { pathPattern } from './lib/allow.ts'
import { STORE_HEADER } from '../contract/store-header.ts'

const CLIENT = 'https://client.example'
const PUBLIC = 'https://shop.example'

let t: TestApp
let admin: SignedIn

beforeAll(async () => {
  t = await createTestApp({ allowedOrigins: [`${CLIENT}/`], publicUrl: PUBLIC })
  admin = await createAdmin(t)
})
afterAll(() => t?.close())

const accessControl = (headers: Headers) => [...headers.keys()].filter((k) => k.startsWith('access-control-'))

describe('CORS for API_ALLOWED_ORIGINS', () => {
  it('answers a preflight from a listed origin with 204, the origin echoed, credentials, headers, methods and max-age', async () => {
    const res = await t.app.request('/api/order/cash-on-delivery', {
      method: 'OPTIONS',
      headers: {
        Origin: CLIENT,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization,content-type,idempotency-key',
      },
    })
    expect(res.status).toBe(204)
    expect(res.headers.get('access-control-allow-origin')).toBe(CLIENT)
    expect(res.headers.get('access-control-allow-credentials')).toBe('true')
    const allowHeaders = (res.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(',')
    expect(allowHeaders).toEqual(expect.arrayContaining(['authorization', 'content-type', 'idempotency-key', 'x-guest-cart']))
    expect((res.headers.get('access-control-allow-methods') ?? '').split(',')).toEqual(
      expect.arrayContaining(['GET', 'POST', 'PUT', 'DELETE']),
    )
    expect(Number(res.headers.get('access-control-max-age'))).toBeGreaterThan(0)
    expect(res.headers.get('vary')).toMatch(/origin/i)
  })

  it('lets a listed origin send X-Store-Id and Prefer (a cart write in a chosen store, answered minimal)', async () => {
    // The browser's preflight for such a write asks for both headers by name (Fetch standard, "CORS-preflight fetch").
    const preflight = await t.app.request('/api/cart/update-qty', {
      method: 'OPTIONS',
      headers: { Origin: CLIENT, 'Access-Control-Request-Method': 'PUT', 'Access-Control-Request-Headers': `prefer,${STORE_HEADER}` },
    })
    expect(preflight.status).toBe(204)
    const allowHeaders = (preflight.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(',')
    expect(allowHeaders).toEqual(expect.arrayContaining(['prefer', 'x-store-id']))
  })

  it('echoes a listed origin on answers, failures included, and lets a Bearer token sign in without cookies', async () => {
    const login = await t.app.request('/api/user/login', {
      method: 'POST',
      headers: { Origin: CLIENT, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: admin.user.email, password: TEST_PASSWORD }),
    })
    expect(login.status).toBe(200)
    expect(login.headers.get('access-control-allow-origin')).toBe(CLIENT)
    const token = ((await login.json()) as { data: { accesstoken: string } }).data.accesstoken
    const details = await t.app.request('/api/user/user-details', { headers: { Origin: CLIENT, Authorization: `Bearer ${token}` } })
    expect(details.status).toBe(200)
    expect(details.headers.get('access-control-allow-origin')).toBe(CLIENT)
    const refused = await t.app.request('/api/user/user-details', { headers: { Origin: CLIENT } })
    expect(refused.status).toBe(401)
    expect(refused.headers.get('access-control-allow-origin')).toBe(CLIENT)
    expect(refused.headers.get('access-control-expose-headers')).toMatch(/Retry-After/)
  })

  it('gives another origin, or none, no Access-Control-* header at all: not on a preflight, not on an answer', async () => {
    for (const headers of [{ Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST' }, {}] as Record<string, string>[]) {
      const preflight = await t.app.request('/api/cart/create', { method: 'OPTIONS', headers })
      expect(accessControl(preflight.headers), JSON.stringify(headers)).toEqual([])
      // OPTIONS itself is answered (RFC 9110 §9.3.7), with the path's methods.
      expect(preflight.status).toBe(204)
      expect(preflight.headers.get('allow')).toBe('POST, OPTIONS')
      const read = await t.app.request('/api/category/get', { headers })
      expect(read.status).toBe(200)
      expect(accessControl(read.headers)).toEqual([])
      expect(read.headers.get('vary')).toMatch(/origin/i)
    }
  })

  it('answers no CORS at all when no origin is listed', async () => {
    const { app } = createApp({ db: t.db, jwtSecret: t.deps.jwtSecret })
    const res = await app.request('/api/category/get', {
      method: 'OPTIONS',
      headers: { Origin: CLIENT, 'Access-Control-Request-Method': 'GET' },
    })
    expect(accessControl(res.headers)).toEqual([])
    const read = await app.request('/api/category/get', { headers: { Origin: CLIENT } })
    expect(accessControl(read.headers)).toEqual([])
  })
})

describe('image urls on PUBLIC_URL', () => {
  it('answers stored images absolute on PUBLIC_URL, and takes the absolute url back in a write, storing the path', async () => {
    const category = await insertCategory(t.db, { name: 'Dairy' })
    t.deps.cache.clearLocal()
    const listed = (await t.call('category/get')).body.data as { _id: string; image: string }[]
    expect(listed.find((c) => c._id === category.id)?.image).toBe(`${PUBLIC}${category.image}`)
    const image = await storeTestImage(t)
    const res = await t.call('category/update', {
      method: 'PUT',
      json: { _id: category.id, name: 'Dairy & Eggs', image: `${PUBLIC}${image}` },
      token: admin.token,
    })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.data.image).toBe(`${PUBLIC}${image}`)
    // Stored as the site-relative path: an origin change never touches rows.
    const [row] = await t.db.select().from(categories).where(eq(categories.id, category.id))
    expect(row?.image).toBe(image)
  })

  it('rewrites only whole string values that are an /uploads/ path, never keys or text that merely starts so', () => {
    const json = JSON.stringify({
      image: ['/uploads/a.webp', '/uploads/b-w256.webp'],
      avatar: '/uploads/c.webp',
      description: '/uploads/a.webp is the picture',
      quoted: 'x:"/uploads/a.webp"',
      more_details: { '/uploads/k.webp': 'v' },
    })
    const out = JSON.parse(absolutizeImagePaths(json, PUBLIC))
    expect(out.image).toEqual([`${PUBLIC}/uploads/a.webp`, `${PUBLIC}/uploads/b-w256.webp`])
    expect(out.avatar).toBe(`${PUBLIC}/uploads/c.webp`)
    expect(out.description).toBe('/uploads/a.webp is the picture')
    expect(out.quoted).toBe('x:"/uploads/a.webp"')
    expect(out.more_details).toEqual({ '/uploads/k.webp': 'v' })
    expect(relativizeImageUrls({ image: [`${PUBLIC}/uploads/a.webp`, 'https://other.example/uploads/b.webp'], n: 1 }, PUBLIC)).toEqual({
      image: ['/uploads/a.webp', 'https://other.example/uploads/b.webp'],
      n: 1,
    })
  })
})

describe('a wrong method on a path that exists', () => {
  const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] as const

  it('answers 405 with the path’s methods in Allow on every documented path, and OPTIONS 204 with the same Allow', async () => {
    const doc = (await (await t.app.request('/api/openapi.json')).json()) as OpenAPIV3_1.Document
    const paths = Object.entries(doc.paths ?? {})
    expect(paths.length).toBeGreaterThan(40)
    for (const [path, item] of paths) {
      const documented = METHODS.filter((m) => item?.[m.toLowerCase() as 'get'])
      const allow = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'].filter(
        (m) => documented.includes(m as never) || (m === 'HEAD' && documented.includes('GET')) || m === 'OPTIONS',
      )
      const url = path.replace(/\{\w+\}/g, 'x')
      for (const method of METHODS.filter((m) => !documented.includes(m))) {
        const res = await t.app.request(url, {
          method,
          headers: { 'Content-Type': 'application/json' },
          body: method === 'GET' ? undefined : '{}',
        })
        expect(res.status, `${method} ${path}`).toBe(405)
        expect(res.headers.get('allow'), `${method} ${path}`).toBe(allow.join(', '))
        expect(await res.json()).toMatchObject({ success: false, error: true })
      }
      const options = await t.app.request(url, { method: 'OPTIONS' })
      expect(options.status, `OPTIONS ${path}`).toBe(204)
      expect(options.headers.get('allow'), `OPTIONS ${path}`).toBe(allow.join(', '))
    }
  })

  it('answers HEAD like GET where GET exists, 405 where it does not; an unknown path stays a 404', async () => {
    expect((await t.app.request('/api/category/get', { method: 'HEAD' })).status).toBe(200)
    const head = await t.app.request('/api/cart/create', { method: 'HEAD' })
    expect(head.status).toBe(405)
    expect(head.headers.get('allow')).toBe('POST, OPTIONS')
    for (const method of ['GET', 'POST', 'OPTIONS']) {
      const res = await t.app.request('/api/no-such-thing', { method })
      expect(res.status, method).toBe(404)
      expect(res.headers.get('allow')).toBeNull()
    }
    expect((await t.app.request('/api/user/login/', { method: 'GET' })).status).toBe(404)
  })

  it('reads Hono paths with parameters', () => {
    expect(pathPattern('/api/x/:id').test('/api/x/42')).toBe(true)
    expect(pathPattern('/api/x/:id').test('/api/x/42/y')).toBe(false)
    expect(pathPattern('/api/x/:id{[0-9]+}').test('/api/x/ab')).toBe(false)
    expect(pathPattern('/api/x/*').test('/api/x/a/b')).toBe(true)
    expect(pathPattern('/api/a.b').test('/api/aXb')).toBe(false)
  })
})
