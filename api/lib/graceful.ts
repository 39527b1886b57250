/**
 * Graceful shutdown of the HTTP server (docs/scale-out.md, "Rolling restarts"), the sequence container
 * orchestrators and load balancers expect:
 *
 * 1. readiness turns false at once (`/readyz` answers 503, so a balancer stops sending new work) and
 *    `onDraining` runs: it ends the long-lived responses (the live order page's event streams,
 *    app/.server/order-stream.ts), which would otherwise hold step 3 for the whole grace period; their
 *    browsers reconnect through the balancer;
 * 2. after `delayMs` (time for the balancer to notice), the listener closes: no new connections;
 *    requests on open connections are answered with `Connection: close` (ending them), and
 *    connections left idle are closed once a second;
 * 3. in-flight requests finish (at most `graceMs`; then the remaining connections are cut);
 * 4. `onDrained` runs (stop the job runner, letting running jobs finish, docs/jobs.md; close the
 *    database pool), then the process exits.
 *
 * Keep-alive: `keepAliveTimeout` 65 s, longer than the idle timeout of the usual proxies (nginx 60 s,
 * AWS ALB 60 s), so a proxy never reuses a connection this server is closing; `headersTimeout` above
 * it, as Node's docs require.
 */
import type { Server } from 'node:http'
import type { Logger } from '../../server-shared/logger.ts'

/** While draining, how often connections left idle are closed (ms). */
export const IDLE_SWEEP_MS = 1000

/** Idle keep-alive timeout of the server, ms. */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000

/** The state the server's handlers read: `draining` once a shutdown began. */
export interface Lifecycle {
  draining: boolean
}

/** Sets the server's keep-alive and header timeouts (see the module comment). */
export function tuneKeepAlive(server: Server): void {
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1000
}

/**
 * Express middleware: while draining, every response says `Connection: close`, so a client or proxy
 * opens its next request elsewhere instead of on a connection about to close.
 */
export function closeConnectionsWhileDraining(lifecycle: Lifecycle) {
  return (_req: unknown, res: { setHeader(name: string, value: string): void }, next: () => void) => {
    if (lifecycle.draining) res.setHeader('Connection', 'close')
    next()
  }
}

/**
 * Runs the shutdown sequence once (a second signal is ignored); resolves when `onDrained` is done.
 * @param opts.delayMs wait between "not ready" and closing the listener (SHUTDOWN_DELAY_MS)
 * @param opts.graceMs longest wait for in-flight requests (SHUTDOWN_GRACE_MS, default 25 s)
 * @param opts.onDraining run at the start (see step 1 of the module comment)
 */
export function createShutdown(opts: {
  server: Server
  lifecycle: Lifecycle
  logger: Logger
  onDrained: () => Promise<void>
  /** Runs as the shutdown begins (ends long-lived streams; never awaited, must not throw). */
  onDraining?: () => void
  delayMs?: number
  graceMs?: number
}): (signal: string) => Promise<void> {
  let running: Promise<void> | null = null
  return (signal) => {
    running ??= (async () => {
      const { server, lifecycle, logger } = opts
      lifecycle.draining = true
      logger.info({ signal, delayMs: opts.delayMs ?? 0 }, 'shutting down: not ready')
      opts.onDraining?.()
      if (opts.delayMs) await new Promise((r) => setTimeout(r, opts.delayMs))
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      // Open connections still carry requests after the listener closed, each answered with
      // `Connection: close`, which ends it cleanly. Closing an idle one instead races a proxy that is
      // sending on it that very moment, so idle connections are closed only once a second: by then a
      // busy proxy has used (and so ended) every one of them.
      const sweeper = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS)
      const grace = opts.graceMs ?? 25_000
      let timer: NodeJS.Timeout | undefined
      const timedOut = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), grace)
      })
      if ((await Promise.race([closed, timedOut])) === 'timeout') {
        logger.warn({ graceMs: grace }, 'in-flight requests still running after the grace period: closing them')
        server.closeAllConnections()
      }
      clearTimeout(timer)
      clearInterval(sweeper)
      await opts.onDrained()
      logger.info('shut down')
    })()
    return running
  }
}
