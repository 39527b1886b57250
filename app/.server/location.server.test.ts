/**
 * The shopper's location in the BFF (app/.server/location.server.ts; docs/stores.md, "Location
 * (BFF)"): what the session keeps, what the pages are told (served, default store, not served), the
 * toasts, the cart changes trimmed for the cookie, the session's `location`, and `X-Store-Id` added
 * to every upstream call from the request's store scope (app/.server/store-scope.ts).
 */
import { describe, expect, it } from 'vitest'
import { RouterContextProvider } from 'react-router'
import {
  apiMiddleware,
  CART_CHANGES_SHOWN,
  defaultShopperLocation,
  locationToastMessage,
  toSessionLocation,
  toShopperLocation,
  trimCartChanges,
} from './location.server.ts'
import { RequestSession, sessionStorage } from './session.ts'
import { upstream } from './upstream.ts'
import { apiClientContext, apiContext, apiOf, inProcessWiring } from './api-context.ts'
import { sessionContext } from './context.ts'
import { changeLocationHref, locationLabel } from '../lib/location-labels.ts'
import type { Location, StoreSummary } from '../../contract/location.ts'

const indiranagar: StoreSummary = {
  _id: 'storeBlrIndiranagar',
  name: 'Indiranagar store',
  area: 'Indiranagar',
  city: 'Bengaluru',
  pincode: '560038',
  opensAt: '00:00',
  closesAt: '24:00',
  open: true,
  closedNote: null,
}
const koramangala: StoreSummary = {
  ...indiranagar,
  _id: 'storeBlrKoramangala',
  name: 'Koramangala store',
  area: 'Koramangala',
  pincode: '560034',
}

const served: Location = {
  pincode: '560034',
  area: 'Koramangala',
  district: 'Bangalore',
  state: 'Karnataka',
  serviceable: true,
  store: koramangala,
  deliveryMinutes: 9,
  distanceKm: 0,
  nearest: null,
}
const agartala: Location = {
  pincode: '799001',
  area: 'Agartala',
  district: 'West Tripura',
  state: 'Tripura',
  serviceable: false,
  store: null,
  deliveryMinutes: null,
  distanceKm: null,
  nearest: { area: 'Indiranagar', pincode: '560038', city: 'Bengaluru', distanceKm: 2700 },
}

describe('the shopper location', () => {
  it('keeps the PIN code and the serving store in the session; none when not served', () => {
    expect(toSessionLocation(served)).toEqual({ pincode: '560034', storeId: 'storeBlrKoramangala' })
    expect(toSessionLocation(agartala)).toEqual({ pincode: '799001', storeId: null })
  })

  it('shows the serving store and minutes; not served shows the default store, browsing; none chosen is the default', () => {
    expect(toShopperLocation(served, null)).toMatchObject({
      pincode: '560034',
      area: 'Koramangala',
      serviceable: true,
      isDefault: false,
      deliveryMinutes: 9,
      store: { id: 'storeBlrKoramangala', area: 'Koramangala' },
    })
    expect(toShopperLocation(agartala, indiranagar)).toMatchObject({
      pincode: '799001',
      serviceable: false,
      deliveryMinutes: null,
      store: { id: 'storeBlrIndiranagar' },
      nearest: { area: 'Indiranagar' },
    })
    expect(() => toShopperLocation(agartala, null)).toThrow()
    expect(defaultShopperLocation(indiranagar)).toMatchObject({
      pincode: null,
      area: null,
      isDefault: true,
      store: { id: 'storeBlrIndiranagar' },
    })
  })

  it('says where and how fast, or that the place is not served and what is nearest', () => {
    expect(locationToastMessage(served)).toBe('Delivering to Koramangala, 560034 in 9 minutes')
    expect(locationToastMessage(agartala)).toBe("We don't deliver to Agartala yet. Nearest: Indiranagar, Bengaluru")
    expect(locationToastMessage({ ...agartala, nearest: null })).toBe("We don't deliver to Agartala yet.")
  })

  it('labels the header for each case', () => {
    expect(locationLabel(toShopperLocation(served, null))).toEqual({
      headline: 'Delivery in 9 minutes',
      detail: 'Koramangala, 560034',
      browsing: false,
    })
    expect(locationLabel(defaultShopperLocation(indiranagar))).toEqual({
      headline: 'Choose your location',
      detail: 'to see delivery time',
      browsing: false,
    })
    expect(locationLabel(toShopperLocation(agartala, indiranagar))).toEqual({
      headline: "We don't deliver to Agartala yet",
      detail: 'Browsing Indiranagar store',
      browsing: true,
    })
    const closed = toShopperLocation({ ...served, store: { ...koramangala, open: false, opensAt: '06:00' } }, null)
    expect(locationLabel(closed).headline).toBe('Closed now, opens at 06:00')
    const paused = toShopperLocation({ ...served, store: { ...koramangala, open: false, closedNote: 'Closed for stock-taking' } }, null)
    expect(locationLabel(paused)).toMatchObject({ headline: 'Closed for stock-taking', browsing: false })
  })

  it('links to /location coming back to the page', () => {
    expect(changeLocationHref('/')).toBe('/location')
    expect(changeLocationHref('/location?redirectTo=%2Fcart')).toBe('/location')
    expect(changeLocationHref('/search?q=milk')).toBe('/location?redirectTo=%2Fsearch%3Fq%3Dmilk')
  })

  it('trims the cart changes to fit the cookie', () => {
    const many = Array.from({ length: 20 }, (_, i) => ({
      productId: `p${i}`,
      name: 'x'.repeat(200),
      kind: 'stock' as const,
      before: 3,
      after: 0,
    }))
    const trimmed = trimCartChanges(many)
    expect(trimmed).toHaveLength(CART_CHANGES_SHOWN)
    expect(trimmed[0]!.name).toHaveLength(60)
    expect(trimmed[0]!.name.endsWith('…')).toBe(true)
  })
})

describe('the session location', () => {
  it('is kept across a commit, changes only when it differs, and can be dropped', async () => {
    const session = new RequestSession(await sessionStorage.getSession())
    expect(session.location).toBeNull()
    session.setLocation({ pincode: '560038', storeId: 'storeBlrIndiranagar' })
    expect(session.dirty).toBe(true)
    const again = await RequestSession.fromRequest(
      new Request('http://x/', { headers: { Cookie: (await session.commit()).split(';')[0]! } }),
    )
    expect(again.location).toEqual({ pincode: '560038', storeId: 'storeBlrIndiranagar' })
    again.setLocation({ pincode: '560038', storeId: 'storeBlrIndiranagar' })
    expect(again.dirty).toBe(false)
    again.setLocation(null)
    expect(again.location).toBeNull()
    expect(again.dirty).toBe(true)
  })

  it('flashes the cart changes once', async () => {
    const session = new RequestSession(await sessionStorage.getSession())
    session.flashCartChanges([{ productId: 'p1', name: 'Milk', kind: 'stock', before: 2, after: 1 }])
    const next = await RequestSession.fromRequest(
      new Request('http://x/', { headers: { Cookie: (await session.commit()).split(';')[0]! } }),
    )
    expect(next.takeCartChanges()).toHaveLength(1)
    const after = await RequestSession.fromRequest(new Request('http://x/', { headers: { Cookie: (await next.commit()).split(';')[0]! } }))
    expect(after.takeCartChanges()).toBeNull()
  })
})

describe('X-Store-Id', () => {
  it("is sent on every call of the request's Api from the session's store, read at each call, and not without one", async () => {
    const seen: Array<string | null> = []
    const wiring = inProcessWiring(async (request: Request) => {
      seen.push(request.headers.get('x-store-id'))
      return Response.json({ success: true, error: false, message: '', data: null })
    })
    // The root middleware's Api, as a loader reads it from its router context.
    const session = await RequestSession.fromRequest(new Request('http://shop.test/'))
    const context = new RouterContextProvider()
    context.set(apiContext, wiring)
    context.set(sessionContext, session)
    await apiMiddleware({ context } as never, async () => {
      const api = apiOf(context)
      await upstream(api, 'category/get')
      session.setLocation({ pincode: '560034', storeId: 'storeBlrKoramangala' })
      expect(api.storeId()).toBe('storeBlrKoramangala')
      await upstream(api, 'product/search-product', { json: {} })
      session.setLocation({ pincode: '999999', storeId: null })
      await upstream(api, 'cart/get')
      return new Response()
    })
    expect(seen).toEqual([null, 'storeBlrKoramangala', null])
    expect(context.get(apiClientContext)).toBeDefined()
  })
})
