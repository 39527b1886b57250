/**
 * The live order stream (routes/dashboard/myorder/$orderId/events.ts, app/.server/order-stream.ts) against the
 * REAL API in process (api/testing/app.ts, PGlite or PostgreSQL with TEST_DATABASE_URL), wired as
 * server.ts wires it: the owner's stream carries each status change as `event: status`; another
 * shopper (or an admin on the shopper's page) gets a 404; an aborted request closes the stream and
 * leaves no subscriber; streams per user are capped; with the API apart (no hub) the stream polls.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createTestApp, type TestApp } from '../../../../../api/testing/app.ts'
import { createAdmin, createShopper, type SignedIn } from '../../../../../api/testing/auth.ts'
import { insertProduct } from '../../../../../api/testing/fixtures.ts'
import { apiClientContext, apiContext, inProcessWiring, sessionApi, type ApiWiring } from '../../../../.server/api-context.ts'

const envBefore = { ...process.env }

let t: TestApp
/** The API in process with its order event hub, as server.ts wires it (app/.server/api-context.ts). */
let wiring: ApiWiring
let admin: SignedIn
let route: typeof import('./events.ts')
let stream: typeof import('../../../../.server/order-stream.ts')
let sessionModule: typeof import('../../../../.server/session.ts')
let contextModule: typeof import('../../../../.server/context.ts')

beforeAll(async () => {
  t = await createTestApp()
  admin = await createAdmin(t)
  delete process.env.API_URL
  process.env.SESSION_SECRET = 'test-session-secret-0123456789abcdef'
  vi.resetModules()
  route = await import('./events.ts')
  stream = await import('../../../../.server/order-stream.ts')
  sessionModule = await import('../../../../.server/session.ts')
  contextModule = await import('../../../../.server/context.ts')
  wiring = inProcessWiring(async (request) => t.app.fetch(request), { orderHub: t.deps.orderEvents })
})

afterAll(async () => {
  process.env = { ...envBefore }
  await t?.close()
})

const address = { address_line: '12, Old Airport Road', city: 'Bengaluru', state: 'Karnataka', pincode: '560008', mobile: '9845012345' }
let keySeq = 0

async function placeOrder(who: SignedIn): Promise<{ _id: string; version: number }> {
  const addr = await t.call('address/create', { method: 'POST', json: address, token: who.token })
  const product = await insertProduct(t.db, { name: 'Basmati Rice', unit: '1 kg', price: 200, sellingPrice: 160, stock: 10 })
  await t.call('cart/create', { method: 'POST', json: { productId: product.id }, token: who.token })
  const res = await t.call('order/cash-on-delivery', {
    method: 'POST',
    json: { addressId: addr.body.data._id },
    token: who.token,
    headers: { 'Idempotency-Key': `stream-key-${process.pid}-${++keySeq}` },
  })
  expect(res.status).toBe(201)
  return res.body.data
}

/** Calls the route's loader as React Router would (with server.ts's load context), for `who`, with `signal`. */
async function open(who: SignedIn, orderId: string, signal: AbortSignal, headers: Record<string, string> = {}): Promise<Response> {
  const { RouterContextProvider } = await import('react-router')
  const session = await sessionModule.RequestSession.fromRequest(new Request('http://shop.test/'))
  session.setTokens({ accessToken: who.token, refreshToken: 'not-used-here' })
  const u = who.user
  session.setUser({ _id: u.id, name: u.name, email: u.email ?? '', mobile: null, avatar: '', role: u.role as 'USER' | 'ADMIN' })
  const context = new RouterContextProvider()
  context.set(contextModule.sessionContext, session)
  context.set(apiContext, wiring)
  // The request's Api, as the root middleware sets it (app/.server/location.server.ts `apiMiddleware`).
  context.set(apiClientContext, sessionApi(wiring, session))
  const request = new Request(`http://shop.test/dashboard/myorder/${orderId}/events`, { signal, headers })
  try {
    return (await route.loader({ context, params: { orderId }, request } as never)) as Response
  } catch (thrown) {
    // data() thrown by the loader: its status is what React Router answers.
    const init = (thrown as { init?: { status?: number } }).init
    if (init?.status) return new Response(null, { status: init.status })
    throw thrown
  }
}

/** Reads the stream until `until` matches its text so far (or `ms`, default 5 s, pass). */
/** A stream's reader and its read under way, kept across `readUntil` calls on the same response. */
const readers = new WeakMap<
  Response,
  { reader: ReadableStreamDefaultReader<Uint8Array>; pending: Promise<ReadableStreamReadResult<Uint8Array>> | null }
>()

async function readUntil(res: Response, until: (text: string) => boolean, ms = 5000): Promise<{ text: string; done: boolean }> {
  let state = readers.get(res)
  if (!state) readers.set(res, (state = { reader: res.body!.getReader(), pending: null }))
  const decoder = new TextDecoder()
  let text = ''
  const deadline = Date.now() + ms
  // One read at a time, kept across the 100 ms ticks and across calls: a read dropped when the tick
  // wins would lose the chunk it later resolves with (a slow machine lost the poll's event so).
  while (!until(text) && Date.now() < deadline) {
    state.pending ??= state.reader.read()
    const chunk = await Promise.race([state.pending, new Promise<null>((r) => setTimeout(() => r(null), 100))])
    if (chunk === null) continue
    state.pending = null
    if (chunk.done) return { text, done: true }
    text += decoder.decode(chunk.value)
  }
  return { text, done: false }
}

const changeStatus = (orderId: string, status: string) =>
  t.call('order/update-status', { method: 'PUT', json: { orderId, status }, token: admin.token })

describe('GET /dashboard/myorder/:orderId/events', () => {
  it('gives the owner each status change as it happens, then closes on abort leaving no subscriber', async () => {
    const who = await createShopper(t)
    const order = await placeOrder(who)
    const abort = new AbortController()
    const res = await open(who, order._id, abort.signal)
    expect(res.status).toBe(200)
    expect(res.headers.get('Content-Type')).toBe('text/event-stream')
    expect(res.headers.get('Cache-Control')).toContain('no-transform')
    expect(t.deps.orderEvents.subscriberCount()).toBe(1)

    expect((await changeStatus(order._id, 'packed')).status).toBe(200)
    const first = await readUntil(res, (s) => s.includes('packed'))
    expect(first.text).toContain(
      `id: ${order.version}\nevent: status\ndata: {"orderId":"${order._id}","status":"placed","version":${order.version}}\n\n`,
    )
    expect(first.text).toContain(
      `id: ${order.version + 1}\nevent: status\ndata: {"orderId":"${order._id}","status":"packed","version":${order.version + 1}}\n\n`,
    )

    abort.abort()
    const rest = await readUntil(res, () => false)
    expect(rest.done).toBe(true)
    expect(t.deps.orderEvents.subscriberCount()).toBe(0)
    expect(stream.openStreams(who.user.id)).toBe(0)
  })

  it('is a 404 for another shopper, and for an admin (the stream is the shopper’s page)', async () => {
    const owner = await createShopper(t)
    const order = await placeOrder(owner)
    const other = await createShopper(t)
    expect((await open(other, order._id, new AbortController().signal)).status).toBe(404)
    expect((await open(admin, order._id, new AbortController().signal)).status).toBe(404)
    expect((await open(owner, 'no-such-order', new AbortController().signal)).status).toBe(404)
    expect(t.deps.orderEvents.subscriberCount()).toBe(0)
  })

  it(`caps a user's open streams at ${5} (429 beyond)`, async () => {
    const who = await createShopper(t)
    const order = await placeOrder(who)
    const abort = new AbortController()
    for (let i = 0; i < stream.MAX_STREAMS_PER_USER; i++) expect((await open(who, order._id, abort.signal)).status).toBe(200)
    expect((await open(who, order._id, abort.signal)).status).toBe(429)
    abort.abort()
    expect(stream.openStreams(who.user.id)).toBe(0)
    expect((await open(who, order._id, new AbortController().signal)).status).toBe(200)
  })
})

describe('orderEventStream without a hub (API apart: polling)', () => {
  it('sends a newer version found by polling, and ends when the API refuses', async () => {
    const answers = [{ orderId: 'o1', status: 'placed', version: 1 }, { orderId: 'o1', status: 'packed', version: 2 }, null]
    const res = stream.orderEventStream({
      signal: new AbortController().signal,
      userId: 'poller',
      order: { _id: 'o1', status: 'placed', version: 1 },
      hub: null,
      poll: async () => answers.shift() ?? null,
      timing: { pollMs: 20 },
    })
    const { text, done } = await readUntil(res, () => false)
    expect(done).toBe(true)
    // The catch-up event (the status as loaded), then the newer version the poll found; never twice.
    expect(text.match(/event: status/g)).toHaveLength(2)
    expect(text).toContain('id: 1\nevent: status\ndata: {"orderId":"o1","status":"placed","version":1}\n\n')
    expect(text).toContain('id: 2\nevent: status\ndata: {"orderId":"o1","status":"packed","version":2}\n\n')
    expect(stream.openStreams('poller')).toBe(0)
  })
})

describe('orderEventStream when the client goes away mid-stream', () => {
  it('a body cancelled without the signal aborting stops the timers and frees the place; nothing throws', async () => {
    const res = stream.orderEventStream({
      signal: new AbortController().signal,
      userId: 'leaver',
      order: { _id: 'o2', status: 'placed', version: 1 },
      hub: null,
      poll: async () => ({ orderId: 'o2', status: 'placed', version: 1 }),
      timing: { heartbeatMs: 5, pollMs: 5 },
    })
    const reader = res.body!.getReader()
    await reader.cancel()
    // Heartbeats keep firing into the cancelled body; before, the first one threw from its timer
    // ("Controller is already closed"), an uncaught error that ended the server.
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(stream.openStreams('leaver')).toBe(0)
  })
})

/** The status events in a stream's text, in order: `{id, status, version}`. */
const statusEvents = (text: string) =>
  [...text.matchAll(/id: (\d+)\nevent: status\ndata: (.*)\n\n/g)].map((m) => {
    const data = JSON.parse(m[2]!) as { status: string; version: number }
    return { id: Number(m[1]), status: data.status, version: data.version }
  })

describe('catching up after a disconnect (Last-Event-ID)', () => {
  it('a reconnect after a change it missed gets the current status first; an up-to-date one gets nothing again', async () => {
    const who = await createShopper(t)
    const order = await placeOrder(who)
    const subscribersBefore = t.deps.orderEvents.subscriberCount()
    // Connected: the current status first, its version as the event id.
    const away = new AbortController()
    const first = await open(who, order._id, away.signal)
    const seen = await readUntil(first, (s) => s.includes('\n\n'))
    expect(statusEvents(seen.text)).toEqual([{ id: order.version, status: 'placed', version: order.version }])
    away.abort()
    await readUntil(first, () => false, 500)

    // Changed while the page's stream was away: the reconnect (the browser sends the last id) says so at once.
    expect((await changeStatus(order._id, 'packed')).status).toBe(200)
    const back = new AbortController()
    const again = await open(who, order._id, back.signal, { 'Last-Event-ID': String(order.version) })
    const caughtUp = await readUntil(again, (s) => s.includes('packed'))
    expect(statusEvents(caughtUp.text)).toEqual([{ id: order.version + 1, status: 'packed', version: order.version + 1 }])
    back.abort()

    // Up to date (its last id is the current version), or ahead of what this read found: nothing re-sent.
    for (const lastId of [order.version + 1, order.version + 5]) {
      const current = new AbortController()
      const res = await open(who, order._id, current.signal, { 'Last-Event-ID': String(lastId) })
      expect(res.status).toBe(200)
      expect(statusEvents((await readUntil(res, () => false, 300)).text)).toEqual([])
      current.abort()
    }
    // A stream that sent nothing at first still carries the next change.
    const live = new AbortController()
    const res = await open(who, order._id, live.signal, { 'Last-Event-ID': String(order.version + 1) })
    expect((await changeStatus(order._id, 'out_for_delivery')).status).toBe(200)
    const next = await readUntil(res, (s) => s.includes('out_for_delivery'))
    expect(statusEvents(next.text)).toEqual([{ id: order.version + 2, status: 'out_for_delivery', version: order.version + 2 }])
    live.abort()
    expect(t.deps.orderEvents.subscriberCount()).toBe(subscribersBefore)
  })

  it('an unreadable Last-Event-ID counts as none: the current status is sent', async () => {
    const who = await createShopper(t)
    const order = await placeOrder(who)
    const abort = new AbortController()
    const res = await open(who, order._id, abort.signal, { 'Last-Event-ID': 'abc' })
    expect(statusEvents((await readUntil(res, (s) => s.includes('\n\n'))).text)).toEqual([
      { id: order.version, status: 'placed', version: order.version },
    ])
    abort.abort()
  })
})

// Last: a shutdown's start is for the rest of the process (this file's module instance).
describe('endOrderStreams (a shutdown began)', () => {
  it('ends every open stream at once; a stream opened after it sends the current status and ends', async () => {
    const who = await createShopper(t)
    const order = await placeOrder(who)
    // Earlier tests left one stream open (the one opened after the cap's); it is ended too.
    const before = stream.openStreamCount()
    const open1 = await open(who, order._id, new AbortController().signal)
    const open2 = await open(who, order._id, new AbortController().signal)
    expect(stream.openStreamCount()).toBe(before + 2)
    expect(stream.endOrderStreams()).toBe(before + 2)
    for (const res of [open1, open2]) expect((await readUntil(res, () => false, 2000)).done).toBe(true)
    expect(stream.openStreamCount()).toBe(0)
    expect(stream.openStreams(who.user.id)).toBe(0)
    expect(t.deps.orderEvents.subscriberCount()).toBe(0)

    const late = await open(who, order._id, new AbortController().signal)
    const { text, done } = await readUntil(late, () => false, 2000)
    expect(done).toBe(true)
    expect(statusEvents(text)).toEqual([{ id: order.version, status: 'placed', version: order.version }])
    expect(stream.openStreamCount()).toBe(0)
  })
})
