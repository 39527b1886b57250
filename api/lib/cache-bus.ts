/**
 * Catalogue cache invalidation across instances through PostgreSQL LISTEN/NOTIFY (no new service;
 * PostgreSQL docs, "NOTIFY"; docs/scale-out.md). Every instance listens on one channel on a
 * connection of its own (a pooled connection cannot hold a LISTEN). A catalogue write on any
 * instance (`cache.invalidate()`) sends a notice with the sender's id; every other instance clears
 * its cache on receipt, within milliseconds.
 *
 * A lost listening connection is made again (back-off from 250 ms to 5 s), and the cache is cleared
 * on every (re)connect, because notices sent while it was away are lost; the cache's TTL bounds
 * staleness should all of that fail.
 *
 * Given `orderEvents`, the same connection also listens on ORDER_CHANNEL (api/lib/order-events.ts),
 * so an instance holds one listening connection whatever the number of shoppers watching an order.
 */
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import type { CatalogCache } from './cache.ts'
import type { Logger } from './logger.ts'
import { ORDER_CHANNEL, parseOrderEvent, type OrderEvents } from './order-events.ts'

/** The channel of catalogue-changed notices. */
export const CATALOG_CHANNEL = 'catalog_changed'
/** The listening connection's `application_name` (visible in pg_stat_activity). */
export const CACHE_BUS_APPLICATION = 'grocery-cache-bus'

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
 * Connects `cache` to the other instances on the PostgreSQL server at `url`: its `invalidate()`
 * publishes (through `pool`), notices from others call `clearLocal()`.
 */
export function startCacheBus(opts: {
  url: string
  pool: pg.Pool
  cache: CatalogCache
  logger: Logger
  orderEvents?: OrderEvents
}): CacheBus {
  const instanceId = randomUUID()
  const { cache, logger, pool, orderEvents } = opts
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

  cache.onInvalidate(() => {
    if (closed) return
    pool
      .query('select pg_notify($1, $2)', [CATALOG_CHANNEL, instanceId])
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
      if (msg.channel === CATALOG_CHANNEL && msg.payload !== instanceId) cache.clearLocal()
      if (msg.channel === ORDER_CHANNEL && orderEvents) {
        const event = parseOrderEvent(msg.payload)
        if (event) orderEvents.deliver(event)
      }
    })
    try {
      await next.connect()
      await next.query(`LISTEN ${CATALOG_CHANNEL}`)
      if (orderEvents) await next.query(`LISTEN ${ORDER_CHANNEL}`)
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
