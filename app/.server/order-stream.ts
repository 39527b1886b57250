/**
 * The live order page's event stream (docs/product.md, "Order page"; docs/scale-out.md, "Live order
 * status across instances"): server-sent events (remix-utils' `eventStream`, WHATWG HTML, "Server-sent
 * events") carrying each new status of one order as `event: status` with `{orderId, status, version}`,
 * and each new position of its rider as `event: position` with `{orderId, lat, lng, accuracyM,
 * recordedAt}` (docs/delivery.md, "Live tracking"; positions carry no `id`: a reconnecting page reads
 * the last one through its loader).
 *
 * Where the events come from:
 * - API in this process (no `API_URL`): the API's order event hub (api/lib/order-events.ts), which
 *   PostgreSQL LISTEN/NOTIFY feeds from every instance; server.ts hands it to the route through the
 *   router context (app/.server/api-context.ts, `orderHub`).
 * - API apart (`API_URL`): no hub here, so the stream asks the API for the order every
 *   POLL_INTERVAL_MS with the access token as it was (never refreshing: a rotated refresh token could
 *   not reach the browser's cookie from inside a stream). A 401 or 404 ends the stream; the browser's
 *   EventSource reconnects through the loader, which refreshes as any page load does.
 *
 * Catching up (WHATWG HTML, "Server-sent events", the `id` field and `Last-Event-ID`): every status
 * event carries the order's version as its `id`, and a stream opens with the order's current status
 * (as the loader just read it), unless the browser's `Last-Event-ID` says it has that version
 * already. So a page whose stream was away (a network drop, an instance that shut down) while the
 * status changed is told at once when it reconnects, to whichever instance; a version at or below the
 * one the browser holds is never sent.
 *
 * Shutdown (docs/scale-out.md, "Rolling restarts"): `endOrderStreams` ends every open stream of this
 * process at once when a shutdown begins, and a stream opened after that sends its catch-up event and
 * ends, so open streams never hold a shutdown; the browser reconnects, through the balancer, to an
 * instance that stays.
 *
 * Bounds: at most MAX_STREAMS_PER_USER open streams per user on an instance (429 beyond), a heartbeat
 * every HEARTBEAT_MS so proxies keep the connection, and a stream lives MAX_STREAM_MS at most before
 * the browser reconnects (which checks the session again).
 */
import { eventStream } from 'remix-utils/sse/server'

/** One status change as the stream sends it. */
export interface OrderStatusEvent {
  orderId: string
  status: string
  version: number
  /** A live-tracking report rather than a status change (api/lib/order-events.ts). */
  position?: { lat: number; lng: number; accuracyM: number; recordedAt: string }
}

/** The rider's newest position as the poll reads it (API apart), or null. */
export type PositionPoll = () => Promise<{ lat: number; lng: number; accuracyM: number; recordedAt: string } | null>

/** What the stream needs of the API's hub (api/lib/order-events.ts `OrderEvents`). */
export interface OrderEventHub {
  subscribe(orderId: string, listener: (event: OrderStatusEvent) => void): () => void
}

export const HEARTBEAT_MS = 25_000
export const POLL_INTERVAL_MS = 5_000
export const MAX_STREAM_MS = 10 * 60_000
export const MAX_STREAMS_PER_USER = 5

const openByUser = new Map<string, number>()
/**
 * The `end` of every open stream of this process, and whether a shutdown began (`endOrderStreams`).
 * Kept in the global registry: server.ts (run by tsx) and the built server bundle each load their own
 * copy of this module, and server.ts's shutdown must reach the streams the bundle's route opened.
 */
const STREAMS_KEY = Symbol.for('grocery.order-streams')
const registry = globalThis as Record<symbol, { ends: Set<() => void>; shuttingDown: boolean } | undefined>
const streams = (registry[STREAMS_KEY] ??= { ends: new Set(), shuttingDown: false })
const openStreamEnds = streams.ends

/**
 * Ends every open stream of this process now, and every stream opened from now on right after its
 * catch-up event (a shutdown began: server.ts calls it from the shutdown's start, api/lib/graceful.ts).
 * @returns how many streams were open
 */
export function endOrderStreams(): number {
  streams.shuttingDown = true
  const ends = [...openStreamEnds]
  for (const end of ends) end()
  return ends.length
}

/** How many streams are open in this process (all users). */
export function openStreamCount(): number {
  return openStreamEnds.size
}

/**
 * The version a reconnecting browser holds: its `Last-Event-ID` header (the `id` of the last event
 * it received, WHATWG HTML, "Server-sent events"), when that is a whole number; otherwise null.
 */
export function lastEventVersion(request: Request): number | null {
  const value = request.headers.get('Last-Event-ID')?.trim() ?? ''
  return /^\d{1,15}$/.test(value) ? Number(value) : null
}

/** How many streams `userId` holds open on this instance. */
export function openStreams(userId: string): number {
  return openByUser.get(userId) ?? 0
}

/**
 * The event-stream response for one order already checked to be the user's.
 * @param opts.order the order as loaded just now: its status is sent first (id = its version) unless
 *   `opts.lastEventVersion` is that version or later; after it only newer versions are sent
 * @param opts.lastEventVersion the version the browser holds (`lastEventVersion(request)`), or null
 * @param opts.hub the in-process hub, or null to poll with `opts.poll`
 * @param opts.poll the order's current status, or null when the API refuses (the stream then ends)
 * @returns a `text/event-stream` response, or a 429 when the user holds MAX_STREAMS_PER_USER already
 */
export function orderEventStream(opts: {
  signal: AbortSignal
  userId: string
  order: { _id: string; status: string; version: number }
  lastEventVersion?: number | null
  hub: OrderEventHub | null
  poll: () => Promise<OrderStatusEvent | null>
  /** With the API apart: the rider's newest position, asked at each poll while the order is out for delivery. */
  pollPosition?: PositionPoll
  timing?: { heartbeatMs?: number; pollMs?: number; maxMs?: number }
}): Response {
  const { userId, order } = opts
  if (openStreams(userId) >= MAX_STREAMS_PER_USER) {
    return new Response('Too many open order pages', { status: 429, headers: { 'Retry-After': '30' } })
  }
  openByUser.set(userId, openStreams(userId) + 1)
  const response = eventStream(opts.signal, (send, close) => {
    // The newest version the browser has been sent (or says it holds).
    let version = opts.lastEventVersion ?? -1
    const timers: NodeJS.Timeout[] = []
    let unsubscribe = () => {}
    let ended = false
    // Ends this stream's work once: its timers, its subscription and its place in the user's count.
    const stop = () => {
      if (ended) return
      ended = true
      openStreamEnds.delete(end)
      unsubscribe()
      for (const t of timers) clearTimeout(t)
      const left = openStreams(userId) - 1
      if (left > 0) openByUser.set(userId, left)
      else openByUser.delete(userId)
    }
    // The response body can be cancelled without the request's signal aborting (a client gone
    // mid-write): the controller then throws on the next write, from a timer, where an uncaught
    // error would end the process. Such a write, or a close of a cancelled stream, stops the stream.
    const emit = (message: { id?: string; event: string; data: string }) => {
      if (ended) return
      try {
        send(message)
      } catch {
        stop()
      }
    }
    const end = () => {
      try {
        close()
      } catch {
        stop()
      }
    }
    const sendStatus = (event: OrderStatusEvent) => {
      if (event.version <= version) return
      version = event.version
      emit({ id: String(event.version), event: 'status', data: JSON.stringify(event) })
    }
    // A rider's position (live tracking): sent as it comes, once per report time.
    let positionAt = ''
    const sendPosition = (orderId: string, position: NonNullable<OrderStatusEvent['position']>) => {
      if (position.recordedAt === positionAt) return
      positionAt = position.recordedAt
      emit({ event: 'position', data: JSON.stringify({ orderId, ...position }) })
    }
    const onEvent = (event: OrderStatusEvent) => (event.position ? sendPosition(event.orderId, event.position) : sendStatus(event))
    openStreamEnds.add(end)
    // Catch-up first: the status as the loader read it, unless the browser holds it already.
    sendStatus({ orderId: order._id, status: order.status, version: order.version })
    if (streams.shuttingDown) {
      // Told where the order stands; the browser reconnects to an instance that is not stopping.
      queueMicrotask(end)
      return stop
    }
    if (opts.hub) {
      unsubscribe = opts.hub.subscribe(order._id, onEvent)
      // A change committed between the loader's read and this subscription reached no one here:
      // one read now closes that window (a newer version is sent, anything else is dropped).
      opts
        .poll()
        .then((event) => event && sendStatus(event))
        .catch(() => undefined)
    } else {
      let busy = false
      timers.push(
        setInterval(() => {
          if (busy) return
          busy = true
          opts
            .poll()
            .then(async (event) => {
              if (!event) return end()
              sendStatus(event)
              const position = event.status === 'out_for_delivery' && opts.pollPosition ? await opts.pollPosition() : null
              if (position) sendPosition(order._id, position)
            })
            .catch(() => end())
            .finally(() => (busy = false))
        }, opts.timing?.pollMs ?? POLL_INTERVAL_MS),
      )
    }
    timers.push(setInterval(() => emit({ event: 'heartbeat', data: 'ok' }), opts.timing?.heartbeatMs ?? HEARTBEAT_MS))
    timers.push(setTimeout(end, opts.timing?.maxMs ?? MAX_STREAM_MS))
    return stop
  })
  // Compression would hold events back in its window (expressjs/compression, "Server-Sent Events").
  response.headers.set('Cache-Control', 'no-cache, no-transform')
  response.headers.set('X-Accel-Buffering', 'no')
  return response
}
