/**
 * Catalogue cache invalidation across instances through PostgreSQL LISTEN/NOTIFY (no new service;
 * PostgreSQL docs, "NOTIFY"; docs/scale-out.md, "Shared settings (the same value on every instance)"). Every instance listens on one channel on a
 * connection of its own (a pooled connection cannot hold a LISTEN). A catalogue write on any
 * instance (`cache.invalidate()`) sends a notice whose payload is the sender's id; every other
 * instance clears its cache on receipt, within milliseconds. A stock change (`cache.stockChanged()`,
 * an order) sends JSON naming the products, `{"from":id,"moved":[ids],"crossed":[ids],"restocked":[ids]}`,
 * and the others drop the same entries only (docs/decisions/0019-stock-changes-and-the-caches.md). A payload
 * that is not such JSON reads as "everything changed", so an instance of the previous release, which
 * sends its id alone, is still understood, and one of the previous release clears everything on
 * either notice. A notice without `restocked` (a release before it) counts every crossed product as
 * restocked, which drops at least what the sender meant.
 *
 * A lost listening connection is made again (back-off from 250 ms to 5 s), and the cache is cleared
 * on every (re)connect, because notices sent while it was away are lost; the cache's TTL bounds
 * staleness should all of that fail.
 *
 * Given `orderEvents`, the same connection also listens on ORDER_CHANNEL (api/lib/order-events.ts),
 * so an instance holds one listening connection whatever the number of shoppers watching an order;
 * given `cartNotices`, on CART_CHANNEL too (api/lib/cart-notices.ts), whose listeners hear `null`
 * ("everything") on every (re)connect, as the cache is cleared.
 */
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import type { CatalogCache, CatalogChange } from './cache.ts'
import type { Logger } from '../../server-shared/logger.ts'
import { ORDER_CHANNEL, parseOrderEvent, type OrderEvents } from './order-events.ts'
import { CART_CHANNEL, readCartNotice, type CartNotices } from './cart-notices.ts'

/** The channel of catalogue-changed notices. */
export const CATALOG_CHANNEL = 'catalog_changed'
/** The listening connection's `application_name` (visible in pg_stat_activity). */
export const CACHE_BUS_APPLICATION = 'grocery-cache-bus'
/** Longest payload sent; PostgreSQL refuses 8000 bytes or more (PostgreSQL docs, "NOTIFY"). */
const MAX_PAYLOAD_BYTES = 7900

/**
 * The payload of a notice of `change` from `instanceId`: the id alone for everything, JSON naming
 * the products for a stock change; a stock change too large for one payload becomes "everything".
 */
export function noticePayload(instanceId: string, change: CatalogChange): string {
  if (change.kind === 'all') return instanceId
  const json = JSON.stringify({ from: instanceId, moved: change.moved, crossed: change.crossed, restocked: change.restocked })
  return Buffer.byteLength(json) < MAX_PAYLOAD_BYTES ? json : instanceId
}

/** The sender and the change of a notice's payload (see `noticePayload`); anything else means everything. */
export function readNotice(payload: string): { from: string; change: CatalogChange } {
  if (payload.startsWith('{')) {
    try {
      const parsed = JSON.parse(payload) as { from?: unknown; moved?: unknown; crossed?: unknown; restocked?: unknown }
      const ids = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string')
      if (typeof parsed.from === 'string' && ids(parsed.moved) && ids(parsed.crossed)) {
        const restocked = ids(parsed.restocked) ? parsed.restocked : parsed.crossed
        return { from: parsed.from, change: { kind: 'stock', moved: parsed.moved, crossed: parsed.crossed, restocked } }
      }
    } catch {
      // Not ours: read as everything below.
    }
  }
  return { from: payload, change: { kind: 'all' } }
}

export interface CacheBus {
  /** This instance's id, the payload of its notices. */
  readonly instanceId: string
  /** Resolves once the listening connection is up (the first time). */
  readonly ready: Promise<void>
  /** True while the listening connection is up. */
  isListening(): boolean
  /** Stops listening and publishing. */
  close(): Promise<void>
}

/**
 * Connects `cache` to the other instances on the PostgreSQL server at `url`: its `invalidate()` and
 * `stockChanged()` publish (through `pool`), notices from others call `applyLocal()`.
 */
export function startCacheBus(opts: {
  url: string
  pool: pg.Pool
  cache: CatalogCache
  logger: Logger
  orderEvents?: OrderEvents
  cartNotices?: CartNotices
}): CacheBus {
  const instanceId = randomUUID()
  const { cache, logger, pool, orderEvents, cartNotices } = opts
  // Every instance's watchers, this one's included, hear an order event from the notice.
  orderEvents?.useTransport(async (event) => {
    if (closed) return
    await pool.query('select pg_notify($1, $2)', [ORDER_CHANNEL, JSON.stringify(event)])
  })
  let client: pg.Client | null = null
  let closed = false
  let listening = false
  let delay = 250
  let timer: NodeJS.Timeout | undefined
  let markReady: () => void = () => undefined
  const ready = new Promise<void>((resolve) => (markReady = resolve))

  cache.onInvalidate((change) => {
    if (closed) return
    pool
      .query('select pg_notify($1, $2)', [CATALOG_CHANNEL, noticePayload(instanceId, change)])
      .catch((err: Error & { code?: string }) =>
        logger.warn(
          { errorClass: err.constructor.name, code: err.code },
          'catalogue change notice not sent (other instances catch up by TTL)',
        ),
      )
  })

  const reconnect = () => {
    listening = false
    if (closed || timer) return
    timer = setTimeout(() => {
      timer = undefined
      void connect()
    }, delay)
    delay = Math.min(delay * 2, 5000)
  }

  const connect = async () => {
    const next = new pg.Client({ connectionString: opts.url, application_name: CACHE_BUS_APPLICATION, keepAlive: true })
    next.on('error', (err: Error & { code?: string }) => {
      logger.warn({ errorClass: err.constructor.name, code: err.code }, 'cache bus connection lost')
      reconnect()
    })
    next.on('end', reconnect)
    next.on('notification', (msg) => {
      if (msg.channel === CATALOG_CHANNEL) {
        const notice = readNotice(msg.payload ?? '')
        if (notice.from !== instanceId) cache.applyLocal(notice.change)
      }
      if (msg.channel === ORDER_CHANNEL && orderEvents) {
        const event = parseOrderEvent(msg.payload)
        if (event) orderEvents.deliver(event)
      }
      if (msg.channel === CART_CHANNEL && cartNotices) {
        const ownerKey = readCartNotice(msg.payload)
        if (ownerKey) cartNotices.deliver(ownerKey)
      }
    })
    try {
      await next.connect()
      await next.query(`LISTEN ${CATALOG_CHANNEL}`)
      if (orderEvents) await next.query(`LISTEN ${ORDER_CHANNEL}`)
      if (cartNotices) await next.query(`LISTEN ${CART_CHANNEL}`)
    } catch (err) {
      const e = err as Error & { code?: string }
      logger.warn({ errorClass: e.constructor.name, code: e.code }, 'cache bus could not listen yet')
      next.removeAllListeners('end')
      await next.end().catch(() => undefined)
      reconnect()
      return
    }
    if (closed) {
      await next.end().catch(() => undefined)
      return
    }
    client = next
    listening = true
    delay = 250
    // Notices sent while no connection listened are lost: start from a clean cache.
    cache.clearLocal()
    cartNotices?.deliver(null)
    markReady()
  }
  void connect()

  return {
    instanceId,
    ready,
    isListening: () => listening,
    async close() {
      closed = true
      orderEvents?.useTransport(null)
      clearTimeout(timer)
      const current = client
      client = null
      if (current) {
        current.removeAllListeners('end')
        await current.end().catch(() => undefined)
      }
    },
  }
}
