/**
 * Order status events (docs/scale-out.md, "Live order status across instances"): after an order's
 * status change commits, `publish` tells everyone watching that order, on every instance.
 *
 * In one process (PGlite, or PostgreSQL without the bus) an event goes straight to this process's
 * subscribers. On PostgreSQL the cache bus (api/lib/cache-bus.ts) takes the transport over: a publish
 * becomes one `pg_notify` on ORDER_CHANNEL, and the bus's one listening connection per instance
 * (never one per shopper) hands every notice, its own included, to `deliver`. A lost notice is
 * not fatal: the order page shows the status as of its load and a refresh link.
 */
import type { OrderStatus } from '../../contract/order-status.ts'
import type { Logger } from '../../server-shared/logger.ts'

/** The channel of order-status notices. */
export const ORDER_CHANNEL = 'order_status'

/**
 * One status change: the order's `_id`, its new status, and its version after the change. With
 * `position`, a live-tracking report instead (docs/delivery.md, "Live tracking"): the rider's new
 * point (degrees, accuracy in metres, ISO time); status and version are the order's, unchanged.
 */
export interface OrderStatusEvent {
  orderId: string
  status: OrderStatus
  version: number
  position?: OrderPosition
}

/** The rider's point in a position event. */
export interface OrderPosition {
  lat: number
  lng: number
  accuracyM: number
  recordedAt: string
}

/** The position of a notice's payload when well formed, else undefined. */
function parsePosition(v: unknown): OrderPosition | undefined {
  if (!v || typeof v !== 'object') return undefined
  const p = v as Partial<OrderPosition>
  if (typeof p.lat === 'number' && typeof p.lng === 'number' && typeof p.accuracyM === 'number' && typeof p.recordedAt === 'string') {
    return { lat: p.lat, lng: p.lng, accuracyM: p.accuracyM, recordedAt: p.recordedAt }
  }
  return undefined
}

/** Called with each event of the order it subscribed to. */
export type OrderStatusListener = (event: OrderStatusEvent) => void

export interface OrderEvents {
  /** Announces a committed change to every instance (never throws; a failed notice is logged). */
  publish(event: OrderStatusEvent): void
  /** Hands an event that reached this instance to its subscribers of that order. */
  deliver(event: OrderStatusEvent): void
  /** Listens to one order's events; returns the unsubscribe function. */
  subscribe(orderId: string, listener: OrderStatusListener): () => void
  /** Replaces in-process delivery by `send` (the cache bus's pg_notify); null goes back. */
  useTransport(send: ((event: OrderStatusEvent) => Promise<void>) | null): void
  /** How many listeners are subscribed on this instance (health and tests). */
  subscriberCount(): number
}

/** Parses a notice's payload; null when it is not an event (a foreign or damaged notice). */
export function parseOrderEvent(payload: string | undefined): OrderStatusEvent | null {
  try {
    const v = JSON.parse(payload ?? '') as Partial<OrderStatusEvent>
    if (typeof v.orderId === 'string' && typeof v.status === 'string' && typeof v.version === 'number') {
      const position = parsePosition(v.position)
      return position
        ? { orderId: v.orderId, status: v.status, version: v.version, position }
        : { orderId: v.orderId, status: v.status, version: v.version }
    }
  } catch {
    // not JSON: ignored below
  }
  return null
}

/** Creates this process's hub (see the module comment). */
export function createOrderEvents(opts: { logger?: Pick<Logger, 'warn'> } = {}): OrderEvents {
  const byOrder = new Map<string, Set<OrderStatusListener>>()
  let transport: ((event: OrderStatusEvent) => Promise<void>) | null = null
  let count = 0

  const deliver = (event: OrderStatusEvent) => {
    for (const listener of [...(byOrder.get(event.orderId) ?? [])]) {
      try {
        listener(event)
      } catch (err) {
        opts.logger?.warn({ errorClass: (err as Error)?.name }, 'order event listener failed')
      }
    }
  }

  return {
    publish(event) {
      if (!transport) return deliver(event)
      transport(event).catch((err: Error & { code?: string }) =>
        opts.logger?.warn({ errorClass: err?.name, code: err?.code }, 'order status notice not sent (pages show a refresh link)'),
      )
    },
    deliver,
    subscribe(orderId, listener) {
      let set = byOrder.get(orderId)
      if (!set) byOrder.set(orderId, (set = new Set()))
      set.add(listener)
      count++
      let done = false
      return () => {
        if (done) return
        done = true
        count--
        set.delete(listener)
        if (set.size === 0 && byOrder.get(orderId) === set) byOrder.delete(orderId)
      }
    },
    useTransport(send) {
      transport = send
    },
    subscriberCount: () => count,
  }
}
