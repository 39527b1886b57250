/**
 * The Node entry: one process serves the upstream API under /api, the re-encoded images under
 * /uploads, the built assets, and the React Router app (the BFF). On start it opens the database
 * (PGlite under DATA_DIR, or DATABASE_URL), applies migrations and, on an empty catalogue, imports
 * the bundled real catalogue with its artwork.
 *
 * NODE_ENV=production serves build/; otherwise Vite runs in middleware mode for development.
 */
import path from 'node:path'
import { EventEmitter } from 'node:events'
import express from 'express'
import compression from 'compression'
import { getRequestListener } from '@hono/node-server'
import { createRequestHandler } from '@react-router/express'
import { sql } from 'drizzle-orm'
import { loadConfig } from './api/config.ts'
import { openDatabaseOrExit, migrateDb, withStartupLock } from './api/db/client.ts'
import { createApp } from './api/app.ts'
import { createDiskStorage } from './api/lib/storage.ts'
import { createMailer } from './api/lib/mail.ts'
import { createRateLimits } from './api/lib/rate-limit.ts'
import { SWEEP_GRACE_MS, sweepUnusedImages } from './api/lib/image-sweep.ts'
import { logger } from './api/lib/logger.ts'
import { describeFault } from './api/lib/faults.ts'
import { clientIpMiddleware } from './api/lib/client-ip.ts'
import { rejectUnknownMethods } from './api/lib/methods.ts'
import { createGate } from './api/lib/gate.ts'
import { startCacheBus } from './api/lib/cache-bus.ts'
import { closeConnectionsWhileDraining, createShutdown, tuneKeepAlive, type Lifecycle } from './api/lib/graceful.ts'
import { ensureCatalog } from './api/db/seed/ensure.ts'
import { ensureDemoAdmin } from './api/modules/user/admin-accounts.ts'
import { securityHeaders } from './app/.server/security-headers.ts'

const config = loadConfig()
const isProduction = config.isProduction

const database = await openDatabaseOrExit({ url: config.databaseUrl, dataDir: path.join(config.dataDir, 'pglite') })
const storage = createDiskStorage(path.join(config.dataDir, 'uploads'))
// N instances may start at once on one empty database: one migrates and imports, the others wait.
const demoAdmin = await withStartupLock(database, async () => {
  await migrateDb(database)
  await ensureCatalog({ db: database.db, storage, logger, isEmbedded: !config.databaseUrl, dataDir: config.dataDir })
  return ensureDemoAdmin(database.db, { isEmbedded: !config.databaseUrl, password: process.env.ADMIN_PASSWORD })
})
if (demoAdmin) {
  // Printed once to the operator's console, never through the logger (which may be shipped elsewhere).
  console.log(
    `\nDemo admin created: ${demoAdmin.email}` +
      (demoAdmin.generated ? ` / password: ${demoAdmin.password}  (shown once; set ADMIN_PASSWORD to choose it)\n` : ' (password from ADMIN_PASSWORD)\n'),
  )
}

const { app: api, deps } = createApp({
  db: database.db,
  jwtSecret: config.jwtSecret,
  storage,
  mailer: createMailer({ smtpUrl: config.smtpUrl, outboxDir: path.join(config.dataDir, 'outbox'), from: config.mailFrom, logger }),
  logger,
  secureCookies: isProduction && process.env.INSECURE_COOKIES !== '1',
  uploadMaxBytes: config.uploadMaxBytes,
  jsonBodyMaxBytes: config.jsonBodyMaxBytes,
  allowedOrigins: config.apiAllowedOrigins,
  commerce: config.commerce,
  // PGlite runs one query at a time: one search at a time keeps room for everything else.
  searchGate: createGate(database.kind === 'pglite' ? 1 : 4, 64),
  rateLimits: createRateLimits({}, Number(process.env.RATE_LIMIT_IP_MULTIPLIER ?? 1) || 1, database.pool),
})

// Abandoned uploads (older than a day, used by nothing) are removed at start and every 6 hours.
const sweep = () =>
  sweepUnusedImages({ db: database.db, storage, olderThan: new Date(Date.now() - SWEEP_GRACE_MS), logger }).catch((err) =>
    logger.warn(describeFault(err), 'image sweep failed'),
  )
void sweep()
const sweepTimer = setInterval(sweep, 6 * 60 * 60 * 1000)
sweepTimer.unref()
// Several instances on one PostgreSQL: a catalogue write on one clears every instance's cache
// (api/lib/cache-bus.ts). PGlite is one process: nothing to tell.
const cacheBus = database.kind === 'postgres' && database.pool && database.url ? startCacheBus({ url: database.url, pool: database.pool, cache: deps.cache, logger }) : null

/** Stops the background work before the pool closes. */
async function stopBackground() {
  clearInterval(sweepTimer)
  await cacheBus?.close()
}

// The BFF calls the API in-process unless API_URL points elsewhere (app/.server/upstream.ts).
;(globalThis as Record<symbol, unknown>)[Symbol.for('grocery.api.fetch')] = (request: Request) => api.fetch(request)

const lifecycle: Lifecycle = { draining: false }
const app = express()
app.disable('x-powered-by')
// The client address, decided once (api/lib/client-ip.ts): TRUST_PROXY hops from the right of
// X-Forwarded-For, or the socket; a client-sent X-Client-Ip is overwritten unless our own BFF
// forwards it with API_INTERNAL_TOKEN.
app.set('trust proxy', config.trustProxy)
app.use(rejectUnknownMethods)
app.use(clientIpMiddleware(config.apiInternalToken))
// compression() wraps res.on only, so React's streaming 'drain' waits pile up on the zlib stream and
// trip Node's default limit of 10 listeners (expressjs/compression#135); they are released when the
// response ends, so a higher limit is the fix, not a leak.
EventEmitter.defaultMaxListeners = 64
app.use(compression())
app.use(securityHeaders)
app.use(closeConnectionsWhileDraining(lifecycle))

// Liveness and readiness, as container orchestrators expect them apart: /healthz says the process
// serves (no database round trip, so a slow database never gets a live process restarted);
// /readyz says it can do useful work (the database answers; migrations and the first import ran
// before the server started listening).
app.get('/healthz', (_req, res) => {
  res.json({ status: 'ok' })
})
app.get('/readyz', async (_req, res) => {
  if (lifecycle.draining) {
    res.status(503).json({ status: 'draining' })
    return
  }
  try {
    await database.db.execute(sql`select 1`)
    res.json({ status: 'ready', database: database.kind })
  } catch {
    res.status(503).json({ status: 'unavailable' })
  }
})
if (process.env.EXPOSE_METRICS === '1') {
  app.get('/metrics.json', (_req, res) => {
    res.json({
      upstreamCalls: ((globalThis as Record<symbol, unknown>)[Symbol.for('grocery.upstream.calls')] as number) ?? 0,
      cache: deps.cache.stats,
    })
  })
}

const apiListener = getRequestListener(api.fetch)
app.use((req, res, next) => (req.path === '/api' || req.path.startsWith('/api/') ? apiListener(req, res) : next()))

// Stored images are content-addressed: their bytes never change, so they may be cached for a year.
app.use('/uploads', express.static(path.join(config.dataDir, 'uploads'), { immutable: true, maxAge: '1y', index: false }))

if (isProduction) {
  const clientDir = path.resolve('build/client')
  app.use('/assets', express.static(path.join(clientDir, 'assets'), { immutable: true, maxAge: '1y' }))
  app.use(express.static(clientDir, { maxAge: '1h', index: false }))
  const build = await import(path.resolve('build/server/index.js'))
  app.all('/{*splat}', createRequestHandler({ build }))
} else {
  const vite = await import('vite')
  const viteServer = await vite.createServer({ server: { middlewareMode: true } })
  app.use(viteServer.middlewares)
  app.all('/{*splat}', async (req, res, next) => {
    try {
      const ssr = viteServer.environments.ssr as unknown as { runner: { import(id: string): Promise<unknown> } }
      const build = await ssr.runner.import('virtual:react-router/server-build')
      return createRequestHandler({ build: build as never })(req, res, next)
    } catch (err) {
      next(err)
    }
  })
}

const server = app.listen(config.port, () => {
  logger.info({ port: config.port, database: database.kind, dataDir: config.dataDir }, `storefront on http://localhost:${config.port}`)
})
tuneKeepAlive(server)

// SIGTERM (a rolling deploy): not ready at once, stop accepting after SHUTDOWN_DELAY_MS, let
// in-flight requests finish (SHUTDOWN_GRACE_MS at most), then close the pool (api/lib/graceful.ts).
const shutdown = createShutdown({
  server,
  lifecycle,
  logger,
  delayMs: Number(process.env.SHUTDOWN_DELAY_MS ?? 0),
  graceMs: Number(process.env.SHUTDOWN_GRACE_MS ?? 25_000),
  onDrained: async () => {
    await stopBackground()
    await database.close()
  },
})
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    void shutdown(signal).then(
      () => process.exit(0),
      (err) => {
        logger.error(describeFault(err), 'shutdown failed')
        process.exit(1)
      },
    )
  })
}
