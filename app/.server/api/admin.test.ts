/**
 * The BFF's admin calls (app/.server/api/admin.ts) and the admin check `requireAdmin`
 * (app/.server/auth.ts) against a fake upstream (msw): the request each call sends (method, path,
 * Bearer token, body shape of docs/api-contract.md, "Catalogue") and how answers and failures come back.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { apiClientContext, networkWiring, apiFor, type Api, type UpstreamSettings } from '../api-context.ts'

import type { Category } from '../../../contract/category.ts'
import type { SubCategory } from '../../../contract/subcategory.ts'
import type { User } from '../../../contract/user.ts'
const API = 'http://upstream.test'

type AdminModule = typeof import('./admin.ts')
type SessionModule = typeof import('../session.ts')
type AuthModule = typeof import('../auth.ts')
type ContextModule = typeof import('../context.ts')
let adminApi: AdminModule
let sessionModule: SessionModule
let auth: AuthModule
let contextModule: ContextModule
const envBefore = { ...process.env }

const ok = (message: string, data: unknown, init?: ResponseInit) => HttpResponse.json({ message, error: false, success: true, data }, init)
const fail = (status: number, message: string, issues?: unknown) =>
  HttpResponse.json({ message, error: true, success: false, ...(issues ? { issues } : {}) }, { status })

// Answers exactly as the real API gives them (typed by contract/; app/.server/api/real-api.test.ts
// runs the same calls against the real API).
const at = '2026-01-01T00:00:00.000Z'
const dairy: Category = { _id: 'c1', name: 'Dairy', image: '/uploads/a.webp', createdAt: at, updatedAt: at }
const milk: SubCategory = {
  _id: 's1',
  name: 'Milk',
  image: '/uploads/b.webp',
  category: [{ _id: 'c1', name: 'Dairy', image: '/uploads/a.webp' }],
  createdAt: at,
  updatedAt: at,
}
const userDoc: Omit<User, 'role'> = {
  _id: 'u1',
  name: 'Asha',
  email: 'a@x.in',
  avatar: '',
  mobile: null,
  mobile_verified: false,
  sms_order_updates: false,
  verify_email: true,
  last_login_date: null,
  status: 'Active',
  address_details: [],
  shopping_cart: [],
  orderHistory: [],
  storeId: null,
  createdAt: at,
  updatedAt: at,
}

let seen: Array<{ method: string; path: string; authorization: string | null; contentType: string | null; body: unknown }> = []
let pending: Promise<void>[] = []
let role = 'ADMIN'
let userDetailsStatus = 200

const server = setupServer(
  http.get(`${API}/api/user/user-details`, () =>
    userDetailsStatus === 200 ? ok('User details', { ...userDoc, role }) : fail(userDetailsStatus, 'Upstream broke'),
  ),
  http.post(`${API}/api/file/upload`, async ({ request }) => {
    const form = await request.formData()
    const file = form.get('image')
    if (!(file instanceof File)) return fail(400, 'Attach a file in the field "image"', [{ path: 'image', message: 'A file is required' }])
    if (file.type === 'image/svg+xml') return fail(415, 'Only images can be uploaded: JPEG, PNG, WebP, AVIF or GIF')
    return ok('Upload done', { url: '/uploads/0123456789abcdef01234567.webp', width: 512, height: 512, format: 'webp', bytes: 1234 })
  }),
  http.post(`${API}/api/category/add-category`, () => ok('Category added successfully', dairy)),
  http.put(`${API}/api/category/update`, () => ok('Category updated successfully', { ...dairy, name: 'Milk' })),
  http.delete(`${API}/api/category/delete`, () =>
    fail(409, 'Category is still used by 1 sub category: remove it from them or delete them first'),
  ),
  http.post(`${API}/api/subcategory/create`, () => ok('Sub Category Created', milk)),
  http.put(`${API}/api/subcategory/update`, () =>
    fail(400, 'Unknown category: zz', [{ path: 'category.0', message: 'Unknown category: zz' }]),
  ),
  http.delete(`${API}/api/subcategory/delete`, () => ok('Sub Category deleted successfully', null)),
)

// The BFF of these tests runs apart from its API (API_URL), as server.ts wires one (app/.server/api-context.ts).
let settings: UpstreamSettings
let api: Api

beforeAll(async () => {
  process.env.API_URL = API
  process.env.SESSION_SECRET = 'test-session-secret-0123456789abcdef'
  process.env.JWT_SECRET = 'test-jwt-secret-0123456789abcdef'
  vi.resetModules()
  settings = (await import('../env.ts')).env
  api = apiFor(networkWiring(settings))
  adminApi = await import('./admin.ts')
  sessionModule = await import('../session.ts')
  auth = await import('../auth.ts')
  contextModule = await import('../context.ts')
  server.listen({ onUnhandledRequest: 'error' })
  server.events.on('request:start', ({ request }) => {
    const entry = {
      method: request.method,
      path: new URL(request.url).pathname,
      authorization: request.headers.get('Authorization'),
      contentType: request.headers.get('Content-Type'),
      body: undefined as unknown,
    }
    seen.push(entry)
    if (entry.contentType?.startsWith('application/json')) {
      pending.push(
        request
          .clone()
          .json()
          .then((body) => void (entry.body = body)),
      )
    }
  })
})

beforeEach(() => {
  seen = []
  pending = []
  role = 'ADMIN'
  userDetailsStatus = 200
})
afterEach(() => server.resetHandlers())
afterAll(() => {
  server.close()
  process.env = envBefore
})

async function session(summaryRole: 'ADMIN' | 'USER' = 'ADMIN') {
  const s = await sessionModule.RequestSession.fromRequest(new Request('http://shop.test/'))
  s.setTokens({ accessToken: 'access-1', refreshToken: 'refresh-1' })
  s.setUser({ _id: 'u1', name: 'Asha', email: 'a@x.in', mobile: null, avatar: '', role: summaryRole })
  s.dirty = false
  return s
}
async function recorded() {
  await Promise.all(pending)
  return seen
}

describe('admin calls', () => {
  it('uploadImage sends the file as multipart field `image` with the Bearer token and answers the url', async () => {
    const file = new File([new Uint8Array([0x89, 0x50])], 'a.png', { type: 'image/png' })
    const result = await adminApi.uploadImage(api, await session(), file)
    expect(result).toMatchObject({ ok: true, data: { url: '/uploads/0123456789abcdef01234567.webp', width: 512 } })
    const [call] = await recorded()
    expect(call).toMatchObject({ method: 'POST', path: '/api/file/upload', authorization: 'Bearer access-1' })
    expect(call!.contentType).toMatch(/^multipart\/form-data/)
  })

  it('uploadFormImage refuses a file over 5 MB without calling the API, and passes on a 415', async () => {
    const big = new File([new Uint8Array(5 * 1024 * 1024 + 1)], 'big.png', { type: 'image/png' })
    expect(await adminApi.uploadFormImage(api, await session(), big)).toMatchObject({ ok: false, status: 413 })
    expect(await recorded()).toHaveLength(0)
    const svg = new File(['<svg/>'], 'x.svg', { type: 'image/svg+xml' })
    expect(await adminApi.uploadFormImage(api, await session(), svg)).toEqual({
      ok: false,
      status: 415,
      message: 'Only images can be uploaded: JPEG, PNG, WebP, AVIF or GIF',
    })
  })

  it('addCategory and updateCategory send the documented bodies', async () => {
    const s = await session()
    expect(await adminApi.addCategory(api, s, { name: 'Dairy', image: '/uploads/a.webp' })).toMatchObject({
      ok: true,
      message: 'Category added successfully',
    })
    expect(await adminApi.updateCategory(api, s, { _id: 'c1', name: 'Milk', image: '/uploads/a.webp' })).toMatchObject({
      ok: true,
      data: { name: 'Milk' },
    })
    const calls = await recorded()
    expect(calls.map((c) => [c.method, c.path, c.body])).toEqual([
      ['POST', '/api/category/add-category', { name: 'Dairy', image: '/uploads/a.webp' }],
      ['PUT', '/api/category/update', { _id: 'c1', name: 'Milk', image: '/uploads/a.webp' }],
    ])
  })

  it('deleteCategory sends DELETE with a JSON `_id` and passes on the 409 message', async () => {
    const result = await adminApi.deleteCategory(api, await session(), { _id: 'c1' })
    expect(result).toMatchObject({
      ok: false,
      status: 409,
      message: 'Category is still used by 1 sub category: remove it from them or delete them first',
    })
    const [call] = await recorded()
    expect(call).toMatchObject({ method: 'DELETE', path: '/api/category/delete', body: { _id: 'c1' } })
  })

  it('createSubCategory sends category ids and answers the sub category with its categories expanded', async () => {
    const result = await adminApi.createSubCategory(api, await session(), { name: 'Milk', image: '/uploads/b.webp', category: ['c1'] })
    expect(result).toMatchObject({ ok: true, data: { category: [{ _id: 'c1', name: 'Dairy' }] } })
    expect((await recorded())[0]!.body).toEqual({ name: 'Milk', image: '/uploads/b.webp', category: ['c1'] })
  })

  it('updateSubCategory passes on 400 issues; deleteSubCategory succeeds', async () => {
    const s = await session()
    const updated = await adminApi.updateSubCategory(api, s, { _id: 's1', name: 'Milk', image: 'u', category: ['zz'] })
    expect(updated).toMatchObject({ ok: false, status: 400, issues: [{ path: 'category.0', message: 'Unknown category: zz' }] })
    expect(await adminApi.deleteSubCategory(api, s, { _id: 's1' })).toMatchObject({
      ok: true,
      message: 'Sub Category deleted successfully',
    })
  })
})

describe('requireAdmin (docs/product.md, "Roles and permissions")', () => {
  async function contextWith(s: Awaited<ReturnType<typeof session>>) {
    const { RouterContextProvider } = await import('react-router')
    const context = new RouterContextProvider()
    context.set(contextModule.sessionContext, s)
    // The request's Api, as the root middleware sets it (app/.server/location.server.ts `apiMiddleware`).
    context.set(apiClientContext, api)
    return context
  }

  it('trusts the fresh role, not the session summary, and updates the summary', async () => {
    const s = await session('USER')
    const user = await auth.requireAdmin(await contextWith(s), new Request('http://shop.test/dashboard/category'))
    expect(user.role).toBe('ADMIN')
    expect(s.user?.role).toBe('ADMIN')
    expect(s.dirty).toBe(true)
  })

  it('throws 403 "Do not have permission" for a demoted admin, and keeps the fresh role in the session', async () => {
    role = 'USER'
    const s = await session('ADMIN')
    const thrown = await auth.requireAdmin(await contextWith(s), new Request('http://shop.test/dashboard/category')).catch((e) => e)
    expect(thrown).toMatchObject({ data: 'Do not have permission', init: { status: 403 } })
    expect(s.user?.role).toBe('USER')
  })

  it('throws 403 for staff too: the catalogue pages are the admin’s', async () => {
    role = 'STAFF'
    const thrown = await auth
      .requireAdmin(await contextWith(await session('USER')), new Request('http://shop.test/dashboard/audit'))
      .catch((e) => e)
    expect(thrown).toMatchObject({ init: { status: 403 } })
  })

  it('sends a signed-out visitor to /login with the way back, without calling the API', async () => {
    const s = await sessionModule.RequestSession.fromRequest(new Request('http://shop.test/'))
    const thrown = await auth
      .requireAdmin(await contextWith(s), new Request('http://shop.test/dashboard/subcategory?page=2'))
      .catch((e) => e)
    expect(thrown).toBeInstanceOf(Response)
    expect((thrown as Response).headers.get('Location')).toBe('/login?redirectTo=%2Fdashboard%2Fsubcategory%3Fpage%3D2')
    expect(await recorded()).toHaveLength(0)
  })

  it('throws 502 when the API fails', async () => {
    userDetailsStatus = 500
    const thrown = await auth
      .requireAdmin(await contextWith(await session()), new Request('http://shop.test/dashboard/category'))
      .catch((e) => e)
    expect(thrown).toMatchObject({ init: { status: 502 } })
  })
})
