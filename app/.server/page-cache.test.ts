/**
 * The page cache (app/.server/page-cache.ts) in an Express app like server.ts, with a stand-in for
 * React Router that numbers its renders: what is kept (anonymous 200 HTML only), who gets it (no
 * session state), how it is sent (encodings, ETag, headers), and when it is dropped (a clear, even
 * one during a render; a change of availability of a product it shows, and only then; the TTL).
 * The stand-in reads products as a loader would (`/shows/p1,p2` shows products p1 and p2, `/search`
 * a list ordered by availability), and the page's record of them (app/.server/page-shows.ts) is
 * checked through the upstream client itself.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Server } from 'node:http'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import express from 'express'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createPageCache, hasNoSessionState, isPageCacheRender, type PageCache } from './page-cache.ts'
import { notePageAvailabilityOrdered, notePageProducts, notePageStore, recordPageShows } from './page-shows.ts'
import { stockKey } from '../../contract/availability.ts'
import { sessionStorage } from './session.ts'
import { upstream } from './upstream.ts'
import { apiFor, inProcessWiring } from './api-context.ts'

interface Harness {
  base: string
  cache: PageCache
  renders: Request[]
  /** Makes the next renders wait until `release()` is called. */
  hold(): { release(): void }
  /** How the next renders fail, as a render fails when the API is away: a 503 page, a throw, or not at all. */
  apiAway: false | 503 | 'throw'
  close(): Promise<void>
}

let harness: Harness

/** What the stand-in answers for a path: `/redirect` a 302, `/missing` a 404, `/cookie` a Set-Cookie, else a page. */
function respond(request: Request, n: number): Response {
  const { pathname } = new URL(request.url)
  const policy = isPageCacheRender(request) ? "script-src 'self' 'sha256-x'" : "script-src 'nonce-abc'"
  const headers = { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': policy }
  if (pathname === '/redirect') return new Response(null, { status: 302, headers: { Location: '/' } })
  if (pathname === '/missing') return new Response('<p>not found</p>', { status: 404, headers })
  if (pathname === '/cookie') return new Response(`<p>render ${n}</p>`, { headers: { ...headers, 'Set-Cookie': '__session=x; Path=/' } })
  if (pathname === '/json') return new Response('{}', { headers: { 'Content-Type': 'application/json' } })
  return new Response(`<html><body>render ${n} of ${pathname}${'.'.repeat(2000)}</body></html>`, { headers })
}

async function start(options: { maxBytes?: number; ttlMs?: number; staleIfErrorMs?: number } = {}): Promise<Harness> {
  const renders: Request[] = []
  let gate: Promise<void> | null = null
  const cache = createPageCache({
    render: async (request) => {
      renders.push(request)
      if (harness.apiAway === 'throw') throw new Error('API away')
      if (harness.apiAway === 503)
        return new Response('<p>Back in a moment</p>', { status: 503, headers: { 'Content-Type': 'text/html', 'Retry-After': '5' } })
      const n = renders.length
      // What a loader's upstream answers would note: products as the API answers them.
      const { pathname } = new URL(request.url)
      // The root loader notes the store of the session's location (app/.server/location.server.ts).
      const location = (await sessionStorage.getSession(request.headers.get('cookie'))).get('location')
      if (location) notePageStore(location.storeId ?? 'default-store')
      if (pathname.startsWith('/shows/'))
        notePageProducts({
          data: pathname
            .slice('/shows/'.length)
            .split(',')
            .map((_id) => ({ _id, name: _id, stock: 5 })),
        })
      if (pathname === '/search') notePageAvailabilityOrdered()
      if (gate) await gate
      return respond(request, n)
    },
    maxBytes: options.maxBytes ?? 1024 * 1024,
    ttlMs: options.ttlMs ?? 0,
    staleIfErrorMs: options.staleIfErrorMs,
    publicUrl: null,
  })
  const app = express()
  app.use(cache.serve)
  // What React Router would answer for a visitor with a session: a page of their own.
  app.all('/{*splat}', cache.fill, (_req, res) => {
    res.setHeader('Content-Type', 'text/html')
    res.end('<p>rendered for this request</p>')
  })
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s))
  })
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    cache,
    renders,
    apiAway: false,
    hold() {
      let release = () => {}
      gate = new Promise<void>((resolve) => (release = resolve))
      return {
        release: () => {
          gate = null
          release()
        },
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${harness.base}${path}`, { headers: { 'accept-encoding': 'identity', ...headers } })

async function sessionCookie(data: Record<string, unknown>, flash?: { toast: { type: 'success'; message: string } }): Promise<string> {
  const session = await sessionStorage.getSession()
  for (const [key, value] of Object.entries(data)) session.set(key as 'guestCartId', value as string)
  if (flash) session.flash('toast', flash.toast)
  return (await sessionStorage.commitSession(session)).split(';')[0]!
}

beforeEach(async () => {
  harness = await start()
})
afterEach(async () => {
  await harness.close()
})

describe('hasNoSessionState', () => {
  it('is true without a session cookie, or with one that holds nothing or was not signed by us', async () => {
    expect(await hasNoSessionState(undefined)).toBe(true)
    expect(await hasNoSessionState('theme=dark')).toBe(true)
    expect(await hasNoSessionState(await sessionCookie({}))).toBe(true)
    expect(await hasNoSessionState('__session=eyJndWVzdENhcnRJZCI6IngifQ%3D%3D.forged')).toBe(true)
  })

  it('is false with a guest cart, a signed-in user or a flash message', async () => {
    expect(await hasNoSessionState(await sessionCookie({ guestCartId: 'c1' }))).toBe(false)
    expect(await hasNoSessionState(await sessionCookie({ user: { _id: 'u', name: 'Asha' } }))).toBe(false)
    expect(await hasNoSessionState(await sessionCookie({}, { toast: { type: 'success', message: 'Saved' } }))).toBe(false)
  })
})

describe('the page cache', () => {
  it('renders a page once for visitors without a session, without their cookie, and marks that render', async () => {
    const first = await get('/a?x=1', { cookie: 'theme=dark' })
    expect(first.headers.get('x-page-cache')).toBe('miss')
    expect(await first.text()).toContain('render 1 of /a')
    const second = await get('/a?x=1')
    expect(second.headers.get('x-page-cache')).toBe('hit')
    expect(await second.text()).toContain('render 1 of /a')
    expect(harness.renders).toHaveLength(1)
    expect(harness.renders[0]!.headers.get('cookie')).toBeNull()
    expect(isPageCacheRender(harness.renders[0]!)).toBe(true)
    // Another query is another page.
    expect(await (await get('/a?x=2')).text()).toContain('render 2 of /a')
  })

  it('never serves or stores a page for a visitor with session state', async () => {
    await get('/b')
    const cookie = await sessionCookie({ guestCartId: 'c1' })
    const own = await get('/b', { cookie })
    expect(own.headers.get('x-page-cache')).toBeNull()
    expect(await own.text()).toBe('<p>rendered for this request</p>')
    const fresh = await get('/c', { cookie })
    expect(await fresh.text()).toBe('<p>rendered for this request</p>')
    expect(harness.renders).toHaveLength(1)
    expect((await get('/c')).headers.get('x-page-cache')).toBe('miss')
  })

  it('keeps only 200 HTML without Set-Cookie, rendered the cache way', async () => {
    for (const path of ['/redirect', '/missing', '/cookie', '/json']) {
      const first = await fetch(`${harness.base}${path}`, { redirect: 'manual' })
      expect(first.headers.get('x-page-cache')).toBeNull()
      await first.arrayBuffer()
    }
    expect((await get('/missing')).status).toBe(404)
    expect(harness.renders).toHaveLength(5)
    // Data requests of the client router and non-GET methods pass by.
    expect(await (await get('/a.data')).text()).toBe('<p>rendered for this request</p>')
    const post = await fetch(`${harness.base}/a`, { method: 'POST' })
    expect(await post.text()).toBe('<p>rendered for this request</p>')
  })

  it('sends private, revalidated pages with an ETag that answers 304, in brotli or gzip as asked', async () => {
    const first = await get('/d')
    const body = await first.text()
    expect(first.headers.get('cache-control')).toBe('private, no-cache')
    expect(first.headers.get('vary')).toBe('Cookie, Accept-Encoding')
    expect(first.headers.get('content-security-policy')).toBe("script-src 'self' 'sha256-x'")
    const etag = first.headers.get('etag')!
    expect(etag).toMatch(/^"[\w-]+"$/)
    const revalidated = await get('/d', { 'if-none-match': `W/${etag}` })
    expect(revalidated.status).toBe(304)

    const br = await fetch(`${harness.base}/d`, { headers: { 'accept-encoding': 'br, gzip' } })
    expect(br.headers.get('content-encoding')).toBe('br')
    const gz = await fetch(`${harness.base}/d`, { headers: { 'accept-encoding': 'gzip' } })
    expect(gz.headers.get('content-encoding')).toBe('gzip')
    // fetch decodes both: the text is the same page.
    expect(await br.text()).toBe(body)
    expect(await gz.text()).toBe(body)
    const head = await fetch(`${harness.base}/d`, { method: 'HEAD', headers: { 'accept-encoding': 'identity' } })
    expect(head.headers.get('x-page-cache')).toBe('hit')
    expect(Number(head.headers.get('content-length'))).toBe(Buffer.byteLength(body))
  })

  it('stores bodies that decompress to the page', async () => {
    await get('/e')
    const raw = (encoding: string) =>
      new Promise<Buffer>((resolve, reject) => {
        http
          .get(`${harness.base}/e`, { headers: { 'accept-encoding': encoding } }, (res) => {
            const chunks: Buffer[] = []
            res.on('data', (c: Buffer) => chunks.push(c))
            res.on('end', () => resolve(Buffer.concat(chunks)))
          })
          .on('error', reject)
      })
    expect(gunzipSync(await raw('gzip')).toString()).toContain('render 1 of /e')
    expect(brotliDecompressSync(await raw('br')).toString()).toContain('render 1 of /e')
  })

  it('drops every page on clear, and does not keep a render that a clear overtook', async () => {
    await get('/f')
    harness.cache.clear()
    expect((await get('/f')).headers.get('x-page-cache')).toBe('miss')

    const held = harness.hold()
    const during = get('/g')
    await new Promise((r) => setTimeout(r, 50))
    harness.cache.clear()
    held.release()
    expect(await (await during).text()).toContain('of /g')
    const after = await get('/g')
    expect(after.headers.get('x-page-cache')).toBe('miss')
    expect(await after.text()).toContain('render 4 of /g')
  })

  it('on a change of availability drops only the pages showing those products and the pages ordered by availability', async () => {
    for (const path of ['/shows/p1,p2', '/shows/p2', '/shows/p3,p1', '/search?q=milk', '/about']) await get(path)
    expect(harness.cache.stats.pages).toBe(5)
    harness.cache.availabilityChanged([])
    harness.cache.availabilityChanged(['p9'])
    harness.cache.availabilityChanged(['p1'])
    const hit = async (path: string) => (await get(path)).headers.get('x-page-cache')
    expect(await hit('/shows/p2')).toBe('hit')
    expect(await hit('/about')).toBe('hit')
    expect(await hit('/shows/p1,p2')).toBe('miss')
    expect(await hit('/shows/p3,p1')).toBe('miss')
    expect(await hit('/search?q=milk')).toBe('miss')
    expect(harness.cache.stats.clears).toBe(0)
    // A change without saying which products came back counts them all as back: the search goes.
    harness.cache.availabilityChanged(['p9'])
    expect(await hit('/search?q=milk')).toBe('miss')
    expect(await hit('/shows/p1,p2')).toBe('hit')
  })

  it('keeps a page ordered by availability when a product it does not show runs out, and drops it when one comes back', async () => {
    await get('/search?q=milk')
    const hit = async (path: string) => (await get(path)).headers.get('x-page-cache')
    expect(await hit('/search?q=milk')).toBe('hit')
    // p9 ran out: it only moves further back in the ranking, behind what the page shows.
    harness.cache.availabilityChanged(['p9'], [])
    expect(await hit('/search?q=milk')).toBe('hit')
    // p9 came back in stock: it may now rank among the shown products.
    harness.cache.availabilityChanged(['p9'], ['p9'])
    expect(await hit('/search?q=milk')).toBe('miss')
  })

  it('does not keep a render that a change of availability of a product it shows overtook, and keeps one of other products', async () => {
    const held = harness.hold()
    const showsP1 = get('/shows/p1')
    const showsP2 = get('/shows/p2')
    await new Promise((r) => setTimeout(r, 50))
    harness.cache.availabilityChanged(['p1'])
    held.release()
    expect(await (await showsP1).text()).toContain('of /shows/p1')
    expect(await (await showsP2).text()).toContain('of /shows/p2')
    expect((await get('/shows/p1')).headers.get('x-page-cache')).toBe('miss')
    expect((await get('/shows/p2')).headers.get('x-page-cache')).toBe('hit')
  })

  it('records the products of every upstream answer read during a render, and nothing outside one', async () => {
    const wiring = inProcessWiring(async () =>
      Response.json({
        success: true,
        error: false,
        message: '',
        data: [{ categoryId: 'c1', products: [{ _id: 'p7', stock: 0, category: [{ _id: 'c1', name: 'Dairy' }] }] }],
      }),
    )
    const api = apiFor(wiring)
    // Outside a render nothing is recorded, and nothing fails.
    expect((await upstream(api, 'product/get-product-by-category')).ok).toBe(true)
    const { shows } = await recordPageShows(async () => {
      await new Promise((r) => setTimeout(r, 5))
      return upstream(api, 'product/get-product-by-category')
    })
    // Products only: the category inside has no stock.
    expect([...shows.products]).toEqual(['p7'])
    expect(shows.availabilityOrdered).toBe(false)
  })

  it('shares one render among visitors asking for the same page at once', async () => {
    const held = harness.hold()
    const answers = Promise.all([get('/h'), get('/h'), get('/h')])
    await new Promise((r) => setTimeout(r, 50))
    held.release()
    const texts = await Promise.all((await answers).map((r) => r.text()))
    expect(new Set(texts).size).toBe(1)
    expect(harness.renders).toHaveLength(1)
  })
})

describe('dark stores', () => {
  const koramangala = { pincode: '560034', storeId: 'storeBlrKoramangala' }
  const indiranagar = { pincode: '560038', storeId: 'storeBlrIndiranagar' }

  it('keeps a page per store and PIN code for sessions holding only a location, rendered with that location alone', async () => {
    const atK = await sessionCookie({ location: koramangala })
    const atI = await sessionCookie({ location: indiranagar })
    const hit = async (path: string, cookie?: string) => (await get(path, cookie ? { cookie } : {})).headers.get('x-page-cache')
    expect(await hit('/shows/p1', atK)).toBe('miss')
    expect(await hit('/shows/p1', atI)).toBe('miss')
    expect(await hit('/shows/p1')).toBe('miss')
    expect(await hit('/shows/p1', atK)).toBe('hit')
    expect(await hit('/shows/p1', atI)).toBe('hit')
    expect(harness.renders).toHaveLength(3)
    const rendered = await sessionStorage.getSession(harness.renders[0]!.headers.get('cookie'))
    expect(rendered.data).toEqual({ location: koramangala })
    // A location with anything else (a guest cart) is the shopper's own page.
    const withCart = await sessionCookie({ location: koramangala, guestCartId: 'c1' })
    expect(await (await get('/shows/p1', { cookie: withCart })).text()).toBe('<p>rendered for this request</p>')
  })

  it("drops only the pages of the store whose product crossed, and that store's pages ordered by availability", async () => {
    const atK = await sessionCookie({ location: koramangala })
    const atI = await sessionCookie({ location: indiranagar })
    for (const cookie of [atK, atI]) for (const path of ['/shows/p1', '/search?q=milk']) await get(path, { cookie })
    expect(harness.cache.stats.pages).toBe(4)
    harness.cache.availabilityChanged([stockKey('storeBlrKoramangala', 'p1')])
    const hit = async (path: string, cookie: string) => (await get(path, { cookie })).headers.get('x-page-cache')
    expect(await hit('/shows/p1', atI)).toBe('hit')
    expect(await hit('/search?q=milk', atI)).toBe('hit')
    expect(await hit('/shows/p1', atK)).toBe('miss')
    expect(await hit('/search?q=milk', atK)).toBe('miss')
    harness.cache.availabilityChanged([stockKey('storeBlrIndiranagar', 'p2')])
    expect(await hit('/shows/p1', atI)).toBe('hit')
    expect(await hit('/search?q=milk', atI)).toBe('miss')
  })
})

describe('limits', () => {
  it('keeps pages for ttlMs at most', async () => {
    await harness.close()
    harness = await start({ ttlMs: 100 })
    await get('/i')
    expect((await get('/i')).headers.get('x-page-cache')).toBe('hit')
    await new Promise((r) => setTimeout(r, 150))
    expect((await get('/i')).headers.get('x-page-cache')).toBe('miss')
  })

  it('past ttlMs, sends the kept page (200, stale, with its Age) while renders fail for want of the API, up to staleIfErrorMs', async () => {
    await harness.close()
    harness = await start({ ttlMs: 100, staleIfErrorMs: 400 })
    const first = await get('/home')
    const page = await first.text()
    await new Promise((r) => setTimeout(r, 150))
    for (const away of [503, 'throw'] as const) {
      harness.apiAway = away
      const res = await get('/home')
      expect(res.status).toBe(200)
      expect(res.headers.get('x-page-cache')).toBe('stale')
      expect(res.headers.get('age')).toMatch(/^\d+$/)
      expect(await res.text()).toBe(page)
    }
    expect(harness.cache.stats.staleServed).toBe(2)
    // A page never kept has nothing to fall back on: the failure is answered as rendered.
    harness.apiAway = 503
    const never = await get('/never-kept')
    expect(never.status).toBe(503)
    expect(never.headers.get('retry-after')).toBe('5')
    // The API back: rendered and kept again.
    harness.apiAway = false
    const back = await get('/home')
    expect(back.headers.get('x-page-cache')).toBe('miss')
    expect(await back.text()).not.toBe(page)
    // Past ttlMs + staleIfErrorMs nothing old is sent: the failure is answered.
    await new Promise((r) => setTimeout(r, 550))
    harness.apiAway = 503
    expect((await get('/home')).status).toBe(503)
  })

  it('never sends a stale page without staleIfErrorMs', async () => {
    await harness.close()
    harness = await start({ ttlMs: 100 })
    await get('/plain')
    await new Promise((r) => setTimeout(r, 150))
    harness.apiAway = 503
    expect((await get('/plain')).status).toBe(503)
  })

  it('stays under maxBytes, dropping the least recently used pages; 0 turns it off', async () => {
    await harness.close()
    harness = await start({ maxBytes: 6000 })
    for (const path of ['/j1', '/j2', '/j3', '/j4']) await get(path)
    expect(harness.cache.stats.bytes).toBeLessThanOrEqual(6000)
    expect((await get('/j1')).headers.get('x-page-cache')).toBe('miss')
    await harness.close()
    harness = await start({ maxBytes: 0 })
    await get('/k')
    expect(await (await get('/k')).text()).toBe('<p>rendered for this request</p>')
  })
})
