/**
 * The BFF's cart reads (app/.server/api/cart.ts): a page whose loader reads the whole cart (the cart
 * page, checkout) costs one cart call for the root loader's summary and the page alike, and that
 * summary is the one the API's own summary would give; any other page reads the summary alone.
 */
import { describe, expect, it } from 'vitest'
import { handNotices } from '../testing/hand-notices.ts'
import { addToCart, getCart, getCartForLoaders, getCartSummary } from './cart.ts'
import { createCartCache } from '../cart-cache.ts'
import { cartOwnerKey } from '../../../server-shared/cart-owner-key.ts'
import { RequestSession, sessionStorage } from '../session.ts'
import { apiFor, inProcessWiring, type Api, type ApiWiring } from '../api-context.ts'
import { WHOLE_CART_ANSWER as wholeCart } from '../testing/cart-answers.ts'

/** A fake API counting the calls per path; answers the cart above and its summary. */
function fakeApi() {
  const calls: string[] = []
  const wiring = inProcessWiring(async (request: Request) => {
    const path = new URL(request.url).pathname
    calls.push(path)
    if (path.endsWith('/cart/get')) return Response.json(wholeCart)
    return Response.json({
      success: true,
      error: false,
      message: 'Cart summary',
      data: {
        lines: [
          { _id: 'line1', productId: 'p1', quantity: 2 },
          { _id: 'line2', productId: 'p2', quantity: 1 },
        ],
        itemCount: 3,
        itemsTotal: 112,
        maxQtyPerLine: 12,
      },
    })
  })
  return { wiring, calls }
}

async function guestSession(): Promise<RequestSession> {
  const session = new RequestSession(await sessionStorage.getSession())
  session.setGuestCartId('g'.repeat(43))
  return session
}

/** Runs `fn` with an `Api` through `wiring` (no store named). */
const withApi = <T>(wiring: ApiWiring, fn: (api: Api) => T): T => fn(apiFor(wiring))

describe('cart reads of one request', () => {
  it('the cart page: the root summary and the page share one cart call, and the summary is the API’s', async () => {
    const { wiring, calls } = fakeApi()
    const session = await guestSession()
    const [fromCart, cart] = await withApi(wiring, (api) =>
      Promise.all([getCartSummary(api, session, {}, true), getCartForLoaders(api, session)]),
    )
    expect(calls).toEqual(['/api/cart/get'])
    expect(cart.ok && cart.data.lines.map((line) => line._id)).toEqual(['line1', 'line2'])
    const fromSummary = await withApi(fakeApi().wiring, (api) => getCartSummary(api, session))
    expect(fromCart).toEqual(fromSummary)
    expect(fromCart).toEqual({
      count: 3,
      total: 112,
      lines: { p1: { lineId: 'line1', qty: 2 }, p2: { lineId: 'line2', qty: 1 } },
      maxQtyPerLine: 12,
    })
  })

  it('another page reads the summary alone; each request reads the whole cart once', async () => {
    const { wiring, calls } = fakeApi()
    const first = await guestSession()
    await withApi(wiring, (api) => getCartSummary(api, first))
    expect(calls).toEqual(['/api/cart/summary'])
    await withApi(wiring, (api) => Promise.all([getCartForLoaders(api, first), getCartForLoaders(api, first)]))
    expect(calls.filter((path) => path.endsWith('/cart/get'))).toHaveLength(1)
    await withApi(wiring, async (api) => getCartForLoaders(api, await guestSession()))
    expect(calls.filter((path) => path.endsWith('/cart/get'))).toHaveLength(2)
  })
})

describe('cart summaries kept in memory (app/.server/cart-cache.ts)', () => {
  it('a second page of the same guest reads no summary until a notice of that cart or a write of theirs', async () => {
    const notices = handNotices()
    const { wiring, calls } = fakeApi()
    wiring.cartCache = createCartCache({ notices })
    const session = await guestSession()
    const summaries = () => calls.filter((path) => path.endsWith('/cart/summary')).length
    const first = await withApi(wiring, (api) => getCartSummary(api, session))
    expect(await withApi(wiring, (api) => getCartSummary(api, session))).toEqual(first)
    expect(summaries()).toBe(1)
    // Another cart's notice leaves this one kept; its own drops it.
    notices.send(cartOwnerKey({ guestCartId: 'h'.repeat(43) }))
    await withApi(wiring, (api) => getCartSummary(api, session))
    expect(summaries()).toBe(1)
    notices.send(cartOwnerKey({ guestCartId: session.guestCartId! }))
    await withApi(wiring, (api) => getCartSummary(api, session))
    expect(summaries()).toBe(2)
    // The shopper's own write through this BFF drops it at once, before any notice.
    await withApi(wiring, (api) => addToCart(api, session, 'p3'))
    await withApi(wiring, (api) => getCartSummary(api, session))
    expect(summaries()).toBe(3)
    // A catalogue change (everything) too.
    notices.send(null)
    await withApi(wiring, (api) => getCartSummary(api, session))
    expect(summaries()).toBe(4)
  })

  it('the cart page and checkout read the whole cart once, until a notice of that cart or a stock move of its products', async () => {
    const notices = handNotices()
    const { wiring, calls } = fakeApi()
    const cache = createCartCache({ notices })
    wiring.cartCache = cache
    const session = await guestSession()
    const wholes = () => calls.filter((path) => path.endsWith('/cart/get')).length
    const first = await withApi(wiring, (api) => getCart(api, session))
    const again = await withApi(wiring, (api) => getCart(api, session))
    expect(again).toEqual(first)
    expect(wholes()).toBe(1)
    // Shared by requests: nobody may change it.
    expect(() => {
      if (again.ok) (again.data.lines as unknown[]).push('x')
    }).toThrow(TypeError)
    cache.productsMoved(['p9'])
    await withApi(wiring, (api) => getCart(api, session))
    expect(wholes()).toBe(1)
    cache.productsMoved(['p2'])
    await withApi(wiring, (api) => getCart(api, session))
    expect(wholes()).toBe(2)
    notices.send(cartOwnerKey({ guestCartId: session.guestCartId! }))
    await withApi(wiring, (api) => getCart(api, session))
    expect(wholes()).toBe(3)
  })

  it('without the cache (the API apart) every page reads the summary', async () => {
    const { wiring, calls } = fakeApi()
    const session = await guestSession()
    await withApi(wiring, (api) => getCartSummary(api, session))
    await withApi(wiring, (api) => getCartSummary(api, session))
    expect(calls.filter((path) => path.endsWith('/cart/summary'))).toHaveLength(2)
  })
})
