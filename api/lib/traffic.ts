/**
 * The API requests this process is answering at this moment, so background work that holds the
 * server's thread can wait for a quiet moment first: a catalogue import's slice on the embedded
 * database runs its statements in this thread and holds the database for the whole slice
 * (docs/decisions/0061-imports-as-jobs.md, "Shoppers first").
 *
 * A request counts from the moment it reaches the API until its handler has answered (the answer's
 * bytes may still be on their way): a live status stream (text/event-stream) stops counting once its
 * stream is opened. Per process on purpose: it describes this process's thread, nothing any other
 * instance needs to know.
 */
import type { MiddlewareHandler } from 'hono'

/** The requests in flight, the middleware that counts them, and a wait for none. */
export interface Traffic {
  /** Counts each API request while its handler runs; mount it before every route. */
  middleware: MiddlewareHandler
  /** Requests whose handler is running now. */
  inFlight(): number
  /**
   * Resolves as soon as no request is in flight (at once when none is), or after `maxWaitMs` ms at
   * the latest, so work that waits here always goes on even under constant traffic.
   */
  quiet(maxWaitMs: number): Promise<void>
}

/** A fresh count (0 requests in flight). */
export function createTraffic(): Traffic {
  let inFlight = 0
  let waiters: Array<() => void> = []
  const wake = () => {
    const woken = waiters
    waiters = []
    for (const resolve of woken) resolve()
  }
  return {
    middleware: async (_c, next) => {
      inFlight++
      try {
        await next()
      } finally {
        inFlight--
        if (inFlight === 0) wake()
      }
    },
    inFlight: () => inFlight,
    quiet(maxWaitMs) {
      if (inFlight === 0) return Promise.resolve()
      return new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          waiters = waiters.filter((w) => w !== done)
          resolve()
        }, maxWaitMs)
        const done = () => {
          clearTimeout(timer)
          resolve()
        }
        waiters.push(done)
      })
    },
  }
}
