/**
 * Spliced pages (app/.server/page-cache.ts; docs/decisions/0032-personal-parts-spliced.md) in an
 * Express app like server.ts, with stand-ins for React Router (a page whose slots are marked as
 * app/components/personal-slot.tsx marks them), for the API's cart summary
 * and for app/entry.server.tsx's slot render. Proves: a shopper with a cart or an account gets the
 * one shared render with only their own slots and their data script; the gzip body is the identity
 * body to the byte wherever the changed slots are; under concurrency nobody gets another's name or
 * cart; a flash message, an admin, or a page that does not declare its slots gets a page rendered for
 * that request (and such a page is not rendered shared again); a refreshed cookie is passed on.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Server } from 'node:http'
import { gunzipSync } from 'node:zlib'
import express from 'express'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createPageCache, PAGE_LOCATION_HEADER, PERSONAL_SLOTS_HEADER, type PageCache } from './page-cache.ts'
import { WHOLE_CART_ANSWER } from './testing/cart-answers.ts'
import { sessionStorage } from './session.ts'
import { inProcessWiring } from './api-context.ts'
import { PERSONAL_DATA_ID, type Personal } from '../lib/personal.ts'
import { SLOT_CLOSE, slotOpenText, type PersonalSlotDescriptor } from '../lib/personal-slots.ts'

interface Harness {
  base: string
  cache: PageCache
  /** Shared renders of pages. */
  pageRenders: string[]
  /** Guest cart ids the stand-in API was asked a summary for. */
  summaryCalls: string[]
  slotRenders: number
  close(): Promise<void>
}

let harness: Harness

/** The carts the stand-in API holds, by guest cart id: product id → quantity. */
const carts = new Map<string, Record<string, number>>()
/** A long stretch of markup, so that some parts are longer than the head a splice compresses again. */
const FILLER = '<p class="filler">Fresh fruits and vegetables, delivered in ten minutes.</p>'.repeat(120)

/** A slot as a page render for the cache marks it, around its HTML for nobody. */
const marked = (slot: PersonalSlotDescriptor, nobody: string) => `${slotOpenText(slot)}${nobody}${SLOT_CLOSE}`
const add = (productId: string): PersonalSlotDescriptor => ({ kind: 'add', productId, name: `Name & "${productId}"`, stock: 5, size: 'sm' })

/** The stand-in page: header account slot, three products (one after a long part), the cart bar. */
function page(pathname: string): string {
  return (
    `<!DOCTYPE html><html><head><title>${pathname}</title></head><body><header>` +
    marked({ kind: 'account' }, '<a href="/login">Login</a>') +
    `</header><main>${FILLER}` +
    ['p1', 'p2', 'p3']
      .map((id, i) => `<article>${id}${i === 2 ? FILLER : ''}${marked(add(id), `<form>ADD ${id}</form>`)}</article>`)
      .join('') +
    `</main>${marked({ kind: 'cart-bar' }, '<!-- -->')}<script>window.x=1</script></body></html>`
  )
}

/** The stand-in slot render: each slot's HTML names what it shows for the visitor. */
async function renderSlots(
  _url: string,
  personal: Personal,
  slots: PersonalSlotDescriptor[],
  pageLocation?: string | null,
): Promise<string[]> {
  harness.slotRenders++
  return slots.map((slot) => {
    if (slot.kind === 'cart-page') {
      const store = (JSON.parse(decodeURIComponent(pageLocation ?? 'null')) as { store: { name: string } } | null)?.store.name
      const lines = personal.wholeCart?.lines.map((line) => `<li>${line.quantity} of ${line.productId._id}</li>`).join('')
      return `<ol>${lines}</ol><p>at ${store}</p>`
    }
    if (slot.kind === 'account')
      return `<a href="/user">Account of ${personal.user?.name ?? 'guest'}</a><b>${personal.cart.count} items</b>`
    if (slot.kind === 'cart-bar') return `<div>${personal.cart.count} items · ₹${personal.cart.total}</div>`
    if (slot.kind === 'buy-again') return `<section>Buy again: ${(personal.buyAgain ?? []).map((card) => card.name).join(', ')}</section>`
    return `<div class="stepper">${personal.cart.lines[slot.productId]?.qty ?? 0} of ${slot.productId}</div>`
  })
}

/**
 * The stand-in API the cache reads through: GET /api/cart/summary of the `X-Guest-Cart` cart, 401 for the
 * guest id `g-expired`.
 */
function summaryApi(calls: string[]) {
  return inProcessWiring(async (request: Request) => {
    const guest = request.headers.get('x-guest-cart') ?? ''
    // The cart page reads the whole cart: the same two lines for any guest.
    if (new URL(request.url).pathname.endsWith('/cart/get')) {
      calls.push(`whole:${guest}`)
      return Response.json(WHOLE_CART_ANSWER)
    }
    // The cart page's offers, read beside the whole cart for a signed-in shopper.
    if (new URL(request.url).pathname.endsWith('/cart/offers')) {
      calls.push('offers')
      return Response.json({ success: true, error: false, message: 'Offers', data: [] })
    }
    // The cart page's "You might have missed" row, asked for the whole cart's products.
    if (new URL(request.url).pathname.endsWith('/recommend/missed')) {
      const { productIds } = (await request.json()) as { productIds: string[] }
      calls.push(`missed:${productIds.join(',')}`)
      return Response.json({
        success: true,
        error: false,
        message: 'You might have missed',
        data: { products: [], source: 'best-sellers' },
      })
    }
    calls.push(guest)
    if (guest === 'g-expired') return Response.json({ success: false, error: true, message: 'Your cart has expired' }, { status: 401 })
    const lines = Object.entries(carts.get(guest) ?? {})
    return Response.json({
      success: true,
      error: false,
      message: 'Cart summary',
      data: {
        lines: lines.map(([productId, quantity]) => ({ _id: `line-${productId}`, productId, quantity })),
        itemCount: lines.reduce((n, [, qty]) => n + qty, 0),
        itemsTotal: lines.reduce((n, [, qty]) => n + qty * 10, 0),
        maxQtyPerLine: 12,
      },
    })
  })
}

async function start(): Promise<Harness> {
  const pageRenders: string[] = []
  const summaryCalls: string[] = []
  const cache = createPageCache({
    wiring: summaryApi(summaryCalls),
    render: async (request) => {
      const { pathname } = new URL(request.url)
      pageRenders.push(pathname)
      const headers: Record<string, string> = {
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Security-Policy': "script-src 'self' 'sha256-x'",
      }
      // Only pages under /p/ declare that they differ between visitors in their slots alone.
      if (pathname.startsWith('/p/')) headers[PERSONAL_SLOTS_HEADER] = '1'
      if (pathname === '/cart') {
        headers[PERSONAL_SLOTS_HEADER] = '1'
        headers[PAGE_LOCATION_HEADER] = encodeURIComponent(JSON.stringify({ store: { name: 'Indiranagar' } }))
        const body = `<!DOCTYPE html><html><body><main>${marked({ kind: 'cart-page' }, '<p>Your cart is empty</p>')}</main></body></html>`
        return new Response(body, { headers })
      }
      return new Response(page(pathname), { headers })
    },
    renderPersonalSlots: renderSlots,
    maxBytes: 8 * 1024 * 1024,
    ttlMs: 0,
    publicUrl: null,
  })
  const app = express()
  app.use(cache.serve)
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
    pageRenders,
    summaryCalls,
    slotRenders: 0,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** A signed session cookie holding `data` (and a flash toast when asked). */
async function sessionCookie(data: Record<string, unknown>, flashToast = false): Promise<string> {
  const session = await sessionStorage.getSession()
  for (const [key, value] of Object.entries(data)) session.set(key as 'guestCartId', value as string)
  if (flashToast) session.flash('toast', { type: 'success', message: 'Added to cart' })
  return (await sessionStorage.commitSession(session)).split(';')[0]!
}

const shopper = (name: string, role: 'USER' | 'ADMIN' = 'USER') => ({
  _id: `u-${name}`,
  name,
  email: `${name}@example.com`,
  mobile: null,
  avatar: '',
  role,
})

/**
 * GETs `path` with `cookie` in `encoding` over node:http (fetch would decode gzip itself); answers
 * status, headers and the body as text, gunzipped here when it came gzip.
 */
function get(path: string, cookie?: string, encoding: 'gzip' | 'identity' = 'identity') {
  return new Promise<{ status: number; headers: Headers; body: string }>((resolve, reject) => {
    const req = http.get(`${harness.base}${path}`, { headers: { 'accept-encoding': encoding, ...(cookie ? { cookie } : {}) } }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => {
        const raw = Buffer.concat(chunks)
        const headers = new Headers()
        for (const [name, value] of Object.entries(res.headers)) if (typeof value === 'string') headers.set(name, value)
        if (Array.isArray(res.headers['set-cookie'])) headers.set('set-cookie', res.headers['set-cookie'].join(', '))
        const body = res.headers['content-encoding'] === 'gzip' ? gunzipSync(raw).toString('utf8') : raw.toString('utf8')
        resolve({ status: res.statusCode ?? 0, headers, body })
      })
      res.on('error', reject)
    })
    req.on('error', reject)
  })
}

/** The `Personal` embedded in a page, or null. */
function embedded(body: string): Personal | null {
  const match = new RegExp(`<script type="application/json" id="${PERSONAL_DATA_ID}">(.*?)</script>`).exec(body)
  return match ? (JSON.parse(match[1]!) as Personal) : null
}

beforeEach(async () => {
  carts.clear()
  harness = await start()
})
afterEach(async () => {
  await harness.close()
})

describe('a shopper with a cart or an account', () => {
  it("gets the one shared render with their own slots and data, every other slot nobody's", async () => {
    carts.set('g-asha', { p2: 3 })
    const cookie = await sessionCookie({ guestCartId: 'g-asha', user: shopper('Asha') })
    const res = await get('/p/milk', cookie)
    expect(res.status).toBe(200)
    expect(res.headers.get('x-page-cache')).toBe('spliced')
    expect(res.headers.get(PERSONAL_SLOTS_HEADER)).toBeNull()
    expect(res.body).toContain('<header><a href="/user">Account of Asha</a><b>3 items</b></header>')
    expect(res.body).toContain('<div class="stepper">3 of p2</div>')
    // Products not in the cart keep nobody's ADD; no mark is ever sent.
    expect(res.body).toContain('<form>ADD p1</form>')
    expect(res.body).toContain('<form>ADD p3</form>')
    expect(res.body).toContain('<div>3 items · ₹30</div>')
    expect(res.body).not.toMatch(/[\uE000-\uE003]/)
    expect(embedded(res.body)).toMatchObject({ user: { name: 'Asha' }, cart: { count: 3, lines: { p2: { qty: 3 } } } })
    // The data script sits just before </body>, after the page's own scripts.
    expect(res.body).toMatch(
      /<script>window.x=1<\/script><script type="application\/json" id="personal-data">.*<\/script><\/body><\/html>$/,
    )
    // A second shopper of the same page: no second render of the page.
    carts.set('g-ravi', { p1: 1 })
    const ravi = await get('/p/milk', await sessionCookie({ guestCartId: 'g-ravi' }))
    expect(ravi.body).toContain('<div class="stepper">1 of p1</div>')
    expect(ravi.body).toContain('<form>ADD p2</form>')
    expect(harness.pageRenders).toEqual(['/p/milk'])
    expect(harness.cache.stats.spliced).toBe(2)
  })

  it('the anonymous visitor of the same URL gets the page with every slot as nobody sees it, and no data script', async () => {
    const res = await get('/p/milk')
    expect(res.body).toBe(
      page('/p/milk')
        .replace(/\uE000[^\uE001]*\uE001/g, '')
        .replace(/\uE002/g, '')
        .replace('<!-- -->', ''),
    )
    expect(embedded(res.body)).toBeNull()
  })

  it('gets a gzip body that is its identity body to the byte, wherever the changed slots are', async () => {
    const cases: Array<Record<string, number>> = [{}, { p1: 1 }, { p3: 2 }, { p1: 1, p2: 2, p3: 12 }]
    for (const [i, lines] of cases.entries()) {
      carts.set(`g-${i}`, lines)
      const cookie = await sessionCookie({ guestCartId: `g-${i}`, ...(i % 2 ? { user: shopper(`Név ${i} <&>`) } : {}) })
      const identity = await get('/p/gzip', cookie, 'identity')
      const gzip = await get('/p/gzip', cookie, 'gzip')
      expect(gzip.headers.get('content-encoding')).toBe('gzip')
      expect(gzip.body).toBe(identity.body)
      for (const [id, qty] of Object.entries(lines)) expect(gzip.body).toContain(`${qty} of ${id}`)
    }
  })

  it('never gets another shopper’s name, cart or data, with 24 shoppers asking at once', async () => {
    const cookies = await Promise.all(
      Array.from({ length: 24 }, (_, i) => {
        carts.set(`g-${i}`, { [`p${(i % 3) + 1}`]: i + 1 })
        return sessionCookie({ guestCartId: `g-${i}`, user: shopper(`Shopper${i}x`) })
      }),
    )
    const pages = await Promise.all(cookies.map((cookie, i) => get('/p/crowd', cookie, i % 2 ? 'gzip' : 'identity')))
    pages.forEach((res, i) => {
      expect(res.body).toContain(`Account of Shopper${i}x`)
      expect(res.body).toContain(`${i + 1} of p${(i % 3) + 1}`)
      expect(embedded(res.body)?.user?.name).toBe(`Shopper${i}x`)
      for (let j = 0; j < 24; j++) if (j !== i) expect(res.body).not.toContain(`Shopper${j}x`)
    })
    expect(harness.pageRenders).toEqual(['/p/crowd'])
  })
})

describe('the cart page', () => {
  it("is the shared page with the shopper's whole cart in its slot and data, read once, at the page's store", async () => {
    const cookie = await sessionCookie({ guestCartId: 'g-asha', user: shopper('Asha') })
    const res = await get('/cart', cookie)
    expect(res.headers.get('x-page-cache')).toBe('spliced')
    expect(res.headers.get(PAGE_LOCATION_HEADER)).toBeNull()
    expect(res.body).toContain('<main><ol><li>2 of p1</li><li>1 of p2</li></ol><p>at Indiranagar</p></main>')
    expect(res.body).not.toContain('Your cart is empty')
    // One whole-cart read gives the slot, the data script and the header's summary, with the offers
    // read beside it; then the row "You might have missed" is asked for its products.
    expect([...harness.summaryCalls].sort()).toEqual(['missed:p1,p2', 'offers', 'whole:g-asha'])
    const data = embedded(res.body)
    expect(data?.wholeCart?.lines.map((line) => line._id)).toEqual(['line1', 'line2'])
    expect(data?.cart).toMatchObject({ count: 3, total: 112 })
    // Nobody's cart page: the empty cart, no data script.
    const anonymous = await get('/cart')
    expect(anonymous.body).toContain('<main><p>Your cart is empty</p></main>')
    expect(embedded(anonymous.body)).toBeNull()
    expect(harness.pageRenders).toEqual(['/cart'])
  })
})

describe('a page rendered for the request instead', () => {
  it('for a pending flash message, which a full render shows and takes', async () => {
    const res = await get('/p/flash', await sessionCookie({ guestCartId: 'g-1' }, true))
    expect(res.body).toBe('<p>rendered for this request</p>')
  })

  it('for an admin (their pages show more than the slots)', async () => {
    const res = await get('/p/admin', await sessionCookie({ user: shopper('Root', 'ADMIN') }))
    expect(res.body).toBe('<p>rendered for this request</p>')
    expect(harness.cache.stats.spliced).toBe(0)
  })

  it('for a page that does not declare its slots, rendered shared only once to find out', async () => {
    const cookie = await sessionCookie({ guestCartId: 'g-1' })
    expect((await get('/account', cookie)).body).toBe('<p>rendered for this request</p>')
    expect((await get('/account', cookie)).body).toBe('<p>rendered for this request</p>')
    expect(harness.pageRenders).toEqual(['/account'])
  })
})

describe("a visitor's data read through the API wiring", () => {
  it('gets the spliced page from one summary call', async () => {
    carts.set('g-ravi', { p1: 2 })
    const cookie = await sessionCookie({ guestCartId: 'g-ravi' })
    const res = await get('/p/milk', cookie)
    expect(res.headers.get('x-page-cache')).toBe('spliced')
    expect(res.body).toContain('<div class="stepper">2 of p1</div>')
    expect(embedded(res.body)).toMatchObject({ user: null, cart: { count: 2, lines: { p1: { lineId: 'line-p1', qty: 2 } } } })
    expect(harness.summaryCalls).toEqual(['g-ravi'])
  })

  it('a signed-in shopper too; a read that changes the session (an expired cart) sends its cookie', async () => {
    carts.set('g-asha', { p2: 1 })
    const signedIn = await get('/p/milk', await sessionCookie({ guestCartId: 'g-asha', user: shopper('Asha') }))
    expect(signedIn.headers.get('x-page-cache')).toBe('spliced')
    expect(signedIn.body).toContain('Account of Asha')
    expect(signedIn.headers.get('set-cookie')).toBeNull()
    const expired = await get('/p/milk', await sessionCookie({ guestCartId: 'g-expired' }))
    expect(expired.headers.get('x-page-cache')).toBe('spliced')
    expect(embedded(expired.body)?.cart.count).toBe(0)
    // The session without the expired cart id, as the session middleware would commit it.
    const cookie = expired.headers.get('set-cookie')!
    expect(cookie).toMatch(/^__session=/)
    const session = await sessionStorage.getSession(cookie.split(';')[0])
    expect(session.get('guestCartId')).toBeUndefined()
    expect(harness.summaryCalls).toEqual(['g-asha', 'g-expired'])
  })

  it('never gets another guest’s cart, with 24 guests asking at once', async () => {
    const cookies = await Promise.all(
      Array.from({ length: 24 }, (_, i) => {
        carts.set(`g-${i}`, { [`p${(i % 3) + 1}`]: i + 1 })
        return sessionCookie({ guestCartId: `g-${i}` })
      }),
    )
    const pages = await Promise.all(cookies.map((cookie, i) => get('/p/crowd', cookie, i % 2 ? 'gzip' : 'identity')))
    pages.forEach((page, i) => {
      expect(page.headers.get('x-page-cache')).toBe('spliced')
      expect(page.body).toContain(`<div class="stepper">${i + 1} of p${(i % 3) + 1}</div>`)
      expect(embedded(page.body)?.cart.count).toBe(i + 1)
    })
    expect(new Set(harness.summaryCalls).size).toBe(24)
  })
})
