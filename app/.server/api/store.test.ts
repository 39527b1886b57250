/**
 * The BFF's dark-store admin calls (app/.server/api/store.ts; docs/stores.md, "Admin") against a fake
 * upstream (msw): the request each call sends (method, path, Bearer token, body), answers parsed with
 * the schemas of contract/location.ts (off-contract answers become 502), paging read from beside
 * `data`, and the API's 409 passed on with its message.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { networkWiring, apiFor, type Api, type UpstreamSettings } from '../api-context.ts'
import type { InventoryRow, Store } from '../../../contract/location.ts'

const API = 'http://upstream.test'
type StoreModule = typeof import('./store.ts')
type SessionModule = typeof import('../session.ts')
let storeApi: StoreModule
let sessionModule: SessionModule
const envBefore = { ...process.env }

const ok = (message: string, data: unknown, extra: object = {}) =>
  HttpResponse.json({ message, error: false, success: true, data, ...extra })
const fail = (status: number, message: string) => HttpResponse.json({ message, error: true, success: false }, { status })

const at = '2026-01-01T00:00:00.000Z'
const store: Store = {
  _id: 'storeBlrKoramangala',
  name: 'Koramangala',
  area: 'Koramangala',
  city: 'Bengaluru',
  addressLine: '1, 80 Feet Road',
  pincode: '560034',
  lat: 12.9352,
  lng: 77.6245,
  coordinatesFromPincode: true,
  radiusKm: 3,
  opensAt: '06:00',
  closesAt: '24:00',
  pickers: 4,
  riderKmph: null,
  active: true,
  position: 2,
  openOrders: 0,
  gstin: '29AAAAA0000A1ZY',
  registeredAddress: null,
  invoiceCode: 'BLR2',
  pausedNote: null,
  version: 3,
  createdAt: at,
  updatedAt: at,
}
const row: InventoryRow = {
  storeId: store._id,
  productId: 'p1',
  name: 'Milk',
  unit: '1 l',
  brand: 'Amul',
  sku: null,
  image: '/uploads/m.webp',
  stock: 0,
  publish: true,
}

let seen: Array<{ method: string; path: string; authorization: string | null; body: unknown }> = []
let pending: Promise<void>[] = []
let listAnswer: unknown = [store]

const server = setupServer(
  http.get(`${API}/api/store/list`, () => ok('Stores', listAnswer)),
  http.put(`${API}/api/store/update`, () => fail(409, 'This store was changed by someone else. Reload it and try again.')),
  http.post(`${API}/api/inventory/list`, () => ok('Stock', [row], { totalCount: 41, totalNoPage: 3 })),
  http.put(`${API}/api/inventory/update`, () => ok('Stock updated', null)),
  http.post(`${API}/api/inventory/product`, () => ok('Stock', [{ storeId: store._id, storeName: store.name, active: true, stock: 7 }])),
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
  storeApi = await import('./store.ts')
  sessionModule = await import('../session.ts')
  server.listen({ onUnhandledRequest: 'error' })
  server.events.on('request:start', ({ request }) => {
    const entry = {
      method: request.method,
      path: new URL(request.url).pathname,
      authorization: request.headers.get('Authorization'),
      body: undefined as unknown,
    }
    seen.push(entry)
    if (request.headers.get('Content-Type')?.startsWith('application/json')) {
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
  listAnswer = [store]
})
afterEach(() => server.resetHandlers())
afterAll(() => {
  server.close()
  process.env = envBefore
})

async function session() {
  const s = await sessionModule.RequestSession.fromRequest(new Request('http://shop.test/'))
  s.setTokens({ accessToken: 'access-1', refreshToken: 'refresh-1' })
  return s
}

describe('store admin calls', () => {
  it('lists the stores with the Bearer token', async () => {
    const result = await storeApi.listStores(api, await session())
    expect(result).toMatchObject({ ok: true, data: [{ _id: store._id, radiusKm: 3 }] })
    expect(seen[0]).toMatchObject({ method: 'GET', path: '/api/store/list', authorization: 'Bearer access-1' })
  })

  it('an answer off contract is a 502', async () => {
    listAnswer = [{ ...store, radiusKm: 'three' }]
    expect(await storeApi.listStores(api, await session())).toMatchObject({ ok: false, status: 502 })
  })

  it("passes a stale edit's 409 on with the API's message", async () => {
    const result = await storeApi.updateStore(api, await session(), { _id: store._id, version: 2, radiusKm: 4.5 })
    expect(result).toMatchObject({ ok: false, status: 409, message: 'This store was changed by someone else. Reload it and try again.' })
    await Promise.all(pending)
    expect(seen[0]).toMatchObject({ method: 'PUT', path: '/api/store/update', body: { _id: store._id, version: 2, radiusKm: 4.5 } })
  })

  it('reads a page of stock and its totals', async () => {
    const result = await storeApi.listInventory(api, await session(), { storeId: store._id, filter: 'out', page: 2, limit: 20 })
    expect(result).toMatchObject({ ok: true, data: { rows: [{ productId: 'p1', stock: 0 }], totalCount: 41, totalNoPage: 3 } })
    await Promise.all(pending)
    expect(seen[0]).toMatchObject({
      method: 'POST',
      path: '/api/inventory/list',
      body: { storeId: store._id, filter: 'out', page: 2, limit: 20 },
    })
  })

  it('sets stock as one update and reads a product across stores', async () => {
    const s = await session()
    expect(await storeApi.updateInventory(api, s, [{ storeId: store._id, productId: 'p1', stock: 0 }])).toMatchObject({ ok: true })
    expect(await storeApi.productStocks(api, s, 'p1')).toMatchObject({ ok: true, data: [{ storeName: 'Koramangala', stock: 7 }] })
    await Promise.all(pending)
    expect(seen.map((r) => `${r.method} ${r.path}`)).toEqual(['PUT /api/inventory/update', 'POST /api/inventory/product'])
    expect(seen[0]?.body).toEqual({ rows: [{ storeId: store._id, productId: 'p1', stock: 0 }] })
  })
})
