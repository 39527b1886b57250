/**
 * /rider/position (app/routes/rider/position.ts; docs/delivery.md, "Live tracking") against the REAL
 * API in process (api/testing/app.ts, PGlite or PostgreSQL with TEST_DATABASE_URL): the rider's
 * page's report reaches POST /api/rider/position and answers JSON; a bad point is a 400 before the
 * API; a shopper is refused with the API's 403; an order not out for delivery with its 409.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createTestApp, type TestApp } from '../../../api/testing/app.ts'
import { createAdmin, createRider, createShopper, type SignedIn } from '../../../api/testing/auth.ts'
import { SEEDED_DEFAULT_STORE } from '../../../api/testing/fixtures.ts'
import { placeTestOrder } from '../../../api/testing/orders.ts'
import { apiClientContext, apiContext, inProcessWiring, sessionApi, type ApiWiring } from '../../.server/api-context.ts'

const envBefore = { ...process.env }
let t: TestApp
let wiring: ApiWiring
let admin: SignedIn
let route: typeof import('./position.ts')
let sessionModule: typeof import('../../.server/session.ts')
let contextModule: typeof import('../../.server/context.ts')

beforeAll(async () => {
  t = await createTestApp()
  admin = await createAdmin(t)
  delete process.env.API_URL
  process.env.SESSION_SECRET = 'test-session-secret-0123456789abcdef'
  vi.resetModules()
  route = await import('./position.ts')
  sessionModule = await import('../../.server/session.ts')
  contextModule = await import('../../.server/context.ts')
  wiring = inProcessWiring(async (request) => t.app.fetch(request))
}, 180_000)

afterAll(async () => {
  process.env = { ...envBefore }
  await t?.close()
})

/** Posts `fields` to the route's action as `who`, as React Router would; returns the status and JSON. */
async function post(who: SignedIn, fields: Record<string, string | string[]>) {
  const { RouterContextProvider } = await import('react-router')
  const session = await sessionModule.RequestSession.fromRequest(new Request('http://shop.test/'))
  session.setTokens({ accessToken: who.token, refreshToken: 'not-used-here' })
  const u = who.user
  session.setUser({ _id: u.id, name: u.name, email: u.email ?? '', mobile: null, avatar: '', role: u.role as 'USER' | 'ADMIN' })
  const context = new RouterContextProvider()
  context.set(contextModule.sessionContext, session)
  context.set(apiContext, wiring)
  context.set(apiClientContext, sessionApi(wiring, session))
  const body = new URLSearchParams()
  for (const [name, value] of Object.entries(fields)) for (const v of [value].flat()) body.append(name, v)
  const url = new URL('http://shop.test/rider/position')
  const request = new Request(url, { method: 'POST', body, headers: { 'Content-Type': 'application/x-www-form-urlencoded' } })
  const answer = (await route.action({ context, params: {}, request, url } as never)) as { data: unknown; init: { status?: number } | null }
  return { status: answer.init?.status ?? 200, data: answer.data as { ok: boolean; stored?: boolean; message?: string } }
}

describe('POST /rider/position', () => {
  it('passes the rider’s report to the API; refuses a bad point, a shopper and an order not out', async () => {
    const rider = await createRider(t, SEEDED_DEFAULT_STORE)
    await t.call('rider/shift', { method: 'POST', json: { onShift: true }, token: rider.token })
    const { order } = await placeTestOrder(t)
    await t.call('order/update-status', { method: 'PUT', json: { orderId: order._id, status: 'packed' }, token: admin.token })
    const point = { lat: '12.9719', lng: '77.6412', accuracyM: '14.6' }

    const packed = await post(rider, { orderId: order._id, ...point })
    expect(packed).toMatchObject({ status: 409, data: { ok: false } })

    expect((await t.call('rider/picked-up', { method: 'POST', json: { orderId: order._id }, token: rider.token })).status).toBe(200)
    expect(await post(rider, { orderId: order._id, ...point })).toEqual({ status: 200, data: { ok: true, stored: true } })
    expect(await post(rider, { orderId: order._id, ...point })).toEqual({ status: 200, data: { ok: true, stored: false } })
    const view = await t.call('tracking/order', { method: 'POST', json: { orderId: order._id }, token: admin.token })
    expect(view.body.data.tracking.position).toMatchObject({ lat: 12.9719, lng: 77.6412, accuracyM: 15 })

    expect(await post(rider, { orderId: order._id, ...point, lat: '95' })).toMatchObject({ status: 400, data: { ok: false } })
    expect(await post(rider, { orderId: order._id, ...point, lng: 'east' })).toMatchObject({ status: 400 })
    expect(await post(rider, { ...point })).toMatchObject({ status: 400, data: { message: 'No order to share the position for' } })
    expect(await post(await createShopper(t), { orderId: order._id, ...point })).toMatchObject({ status: 403, data: { ok: false } })
  })
})
