/**
 * The API as the server process runs it (server.ts) when no `API_URL` points elsewhere: opens the
 * database (PGlite under DATA_DIR, or DATABASE_URL), does the start-up work under the advisory lock
 * (migrations, first-start catalogue import, demo admin), builds the Hono app, and starts the
 * background work: this process's job runner (docs/jobs.md: emails, the payment sweeps, the image
 * sweep every 6 hours, the hourly guest-cart purge) and, on PostgreSQL, the cross-instance cache bus.
 *
 * With `API_URL` set, server.ts never calls this: the BFF then needs no database at all
 * (docs/scale-out.md, "API and BFF apart").
 */
import { parseAssociationThresholds } from './modules/recommend/thresholds.ts'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { localPaths, type LocalPaths, type ServerConfig } from './config.ts'
import { openDatabaseOrExit, migrateDb, withStartupLock } from './db/client.ts'
import { createApp } from './app.ts'
import { createDiskStorage, type Storage } from './lib/storage.ts'
import { createIllustrationDrawer, type IllustrationDrawer } from './lib/illustration-store.ts'
import { createMailer } from './lib/mail.ts'
import { createSmsSender } from './lib/sms.ts'
import { createRateLimits } from './lib/rate-limit.ts'
import { createJobQueue } from './lib/jobs/queue.ts'
import type { Logger } from '../server-shared/logger.ts'
import { describeFault } from './lib/faults.ts'
import { createGate } from './lib/gate.ts'
import { startCacheBus } from './lib/cache-bus.ts'
import { CART_CHANNEL, createCartNotices, readCartNotice, type CartNotices } from './lib/cart-notices.ts'
import { ensureCatalog, maintainCatalog } from './db/seed/ensure.ts'
import { ensureDemoAdmin } from './modules/user/admin-accounts.ts'

/** The running API: the Hono app, its dependencies, and its readiness and stop hooks. */
export interface EmbeddedApi {
  api: ReturnType<typeof createApp>['app']
  deps: ReturnType<typeof createApp>['deps']
  storage: Storage & { publicUrl?: string }
  /** True when images live on local disk (served from DATA_DIR/uploads). */
  diskStorage: boolean
  /** Draws and stores a product picture on its first request (api/lib/illustration-store.ts). */
  drawIllustration: IllustrationDrawer
  databaseKind: 'pglite' | 'postgres'
  /** The local paths it opened (api/config.ts `localPaths`), for the start-up log. */
  paths: LocalPaths
  /** Whose cart summary may have changed, from the database's notices (api/lib/cart-notices.ts). */
  cartNotices: CartNotices
  /**
   * The start-up work not needed to serve, run once the server listens (never throws; logged): the
   * catalogue's data fixes and artwork probe (api/db/seed/ensure.ts `maintainCatalog`).
   */
  afterReady(): Promise<void>
  /** Resolves when the database answers a query; rejects otherwise. */
  ping(): Promise<void>
  /** Stops the background work and closes the database (after in-flight requests finished). */
  stop(): Promise<void>
}

/** Opens, prepares and builds the API for `config` (see the module comment). */
export async function startEmbeddedApi(config: ServerConfig, logger: Logger): Promise<EmbeddedApi> {
  const phases = startupPhases()
  // Every local path from one place: what is opened here is what the start-up log names.
  const paths = localPaths(config)
  const database = await openDatabaseOrExit({ url: config.databaseUrl, dataDir: paths.pglite, pool: config.databasePool })
  phases.done('open database')
  // The S3 client is loaded only when a bucket is configured (half a second of start-up otherwise).
  const storage = config.s3 ? (await import('./lib/storage-s3.ts')).createS3Storage(config.s3) : createDiskStorage(paths.uploads)
  // One runner per process; on PostgreSQL each job is taken by one process only (docs/jobs.md).
  const jobs = createJobQueue({ db: database.db, logger })
  // N instances may start at once on one empty database: one migrates and imports, the others wait.
  let catalogPresent = false
  const demoAdmin = await withStartupLock(database, async () => {
    await migrateDb(database)
    phases.done('migrations and search vocabulary')
    // The job tables and queues: two processes creating queues at once could deadlock.
    await jobs.prepare()
    phases.done('job tables')
    const catalog = await ensureCatalog({
      db: database.db,
      storage,
      logger,
      isEmbedded: !config.databaseUrl,
      dataDir: config.dataDir,
      uploadsAt: paths.uploads,
      seed: config.seedCatalog,
      // Data fixes and the artwork probe wait until the server is ready (`afterReady`).
      deferMaintenance: true,
    })
    catalogPresent = catalog.action === 'present'
    phases.done('catalogue check (the import on an empty database)')
    return ensureDemoAdmin(database.db, { isEmbedded: !config.databaseUrl, password: config.adminPassword })
  })
  phases.done('demo admin')
  if (demoAdmin) {
    // Printed once to the operator's console, never through the logger (which may be shipped elsewhere).
    console.log(
      `\nDemo admin created: ${demoAdmin.email}` +
        (demoAdmin.generated
          ? ` / password: ${demoAdmin.password}  (shown once; set ADMIN_PASSWORD to choose it)\n`
          : ' (password from ADMIN_PASSWORD)\n'),
    )
  }

  const { app: api, deps } = createApp({
    db: database.db,
    jwtSecret: config.jwtSecret,
    storage,
    mailer: createMailer({
      smtpUrl: config.smtpUrl,
      outboxDir: paths.outbox ?? path.join(config.dataDir, 'outbox'),
      from: config.mailFrom,
      logger,
    }),
    // The dev SMS outbox sits beside the mail outbox: DATA_DIR/outbox/sms (README.md, "Configuration").
    sms: createSmsSender(config.sms, { outboxDir: path.join(config.dataDir, 'outbox', 'sms'), logger }),
    smsStoreName: config.smsStoreName,
    jobs,
    logger,
    secureCookies: config.secureCookies,
    uploadMaxBytes: config.uploadMaxBytes,
    jsonBodyMaxBytes: config.jsonBodyMaxBytes,
    allowedOrigins: config.apiAllowedOrigins,
    publicUrl: config.publicUrl,
    commerce: config.commerce,
    recommend: parseAssociationThresholds(process.env),
    invoice: config.invoice,
    payments: config.payments,
    // PGlite runs one query at a time: one search at a time keeps room for everything else.
    searchGate: createGate(database.kind === 'pglite' ? 1 : 4, 64),
    // Counted on a pool of their own: the order budget is spent inside a transaction (api/db/client.ts).
    rateLimits: createRateLimits({}, config.rateLimitIpMultiplier, database.counterPool),
  })

  phases.done('build the app')
  // Emails, the image sweep and the guest-cart purge run as jobs (api/jobs.ts). Abandoned uploads
  // are also swept once at start: one sweep for N processes starting together (singleton key).
  await deps.jobs.start()
  await deps.jobs
    .send('images.sweep', {}, { singletonKey: 'at-start', singletonSeconds: 10 * 60 })
    .catch((err: unknown) => logger.warn(describeFault(err), 'start-up image sweep not queued'))
  // Several instances on one PostgreSQL: a catalogue write on one clears every instance's cache
  // (api/lib/cache-bus.ts), and an order's status change reaches its watchers on every instance
  // (api/lib/order-events.ts). PGlite is one process: nothing to tell.
  // Cart-change notices: from the embedded database itself, or from the bus's connection.
  const cartNotices = createCartNotices({ onError: (err) => logger.warn(describeFault(err), 'cart notice listener failed') })
  const cacheBus =
    database.kind === 'postgres' && database.pool && database.url
      ? startCacheBus({ url: database.url, pool: database.pool, cache: deps.cache, logger, orderEvents: deps.orderEvents, cartNotices })
      : null
  await database.listen?.(CART_CHANNEL, (payload) => {
    const ownerKey = readCartNotice(payload)
    if (ownerKey) cartNotices.deliver(ownerKey)
  })

  phases.done('job runner, cache bus')
  logger.info({ phasesMs: phases.ms, sinceProcessStartMs: Math.round(performance.now()) }, 'API started')

  return {
    api,
    deps,
    storage,
    diskStorage: !config.s3,
    drawIllustration: createIllustrationDrawer({ db: database.db, storage, logger }),
    databaseKind: database.kind,
    paths,
    cartNotices,
    async afterReady() {
      if (!catalogPresent) return
      const started = performance.now()
      try {
        const done = await maintainCatalog({ db: database.db, storage, logger, dataDir: config.dataDir, uploadsAt: paths.uploads })
        // A fix changed prices or pictures: cached answers and pages of them are dropped everywhere.
        if (done.fixedRows > 0) deps.cache.invalidate()
        logger.info({ ...done, ms: Math.round(performance.now() - started) }, 'catalogue maintenance after start-up done')
      } catch (err) {
        logger.warn(describeFault(err), 'catalogue maintenance after start-up failed (runs again at the next start)')
      }
    },
    async ping() {
      await database.db.execute(sql`select 1`)
    },
    async stop() {
      await deps.jobs.stop()
      await cacheBus?.close()
      await database.close()
    },
  }
}

/** Milliseconds spent in each named start-up phase, in order (logged once as "API started"). */
function startupPhases(): { ms: Record<string, number>; done(name: string): void } {
  const ms: Record<string, number> = {}
  let last = performance.now()
  return {
    ms,
    done(name) {
      const now = performance.now()
      ms[name] = Math.round(now - last)
      last = now
    },
  }
}
