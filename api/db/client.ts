/**
 * Opens the database: PGlite persisted under `DATA_DIR/pglite` when no `DATABASE_URL` is given,
 * otherwise a node-postgres pool on that URL. Both get the same Drizzle schema and the same SQL
 * migrations (api/db/migrations), applied by `migrateDb`.
 */
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { seedSynonyms } from './seed/synonyms.ts'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator'
import type { Db } from './db.ts'
import pg from 'pg'
import * as schema from './schema.ts'
import { logger } from '../../server-shared/logger.ts'
import { FolderLockedError, lockFolder } from './folder-lock.ts'
import { applyFunctionFiles } from './function-files.ts'

export type { Db, Schema } from './db.ts'

/** An open database with its driver kind and a `close()` that must be awaited before exit. */
export interface Database {
  db: Db
  kind: 'pglite' | 'postgres'
  /** The node-postgres pool (PostgreSQL only) every request's queries and transactions use. */
  pool?: pg.Pool
  /**
   * A pool of its own (PostgreSQL only, COUNTER_POOL_MAX connections) for the rate-limit counters
   * (api/lib/rate-limit.ts). The order budget is spent inside the placement's transaction: from
   * `pool`, that query waited for a second connection while the transaction held its first, and a
   * burst of placements held every connection so (docs/decisions/0043-flash-sale-and-busy-pool.md).
   */
  counterPool?: pg.Pool
  /** The connection URL (PostgreSQL only), for connections of their own (LISTEN). */
  url?: string
  /**
   * PGlite only: calls `onNotice` with the payload of each notice on `channel` (PGlite docs,
   * "listen"), delivered before the committing statement's promise resolves. PostgreSQL listens on
   * a connection of its own instead (api/lib/cache-bus.ts).
   */
  listen?(channel: string, onNotice: (payload: string) => void): Promise<void>
  close(): Promise<void>
}

export const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations')

/**
 * Opens a database.
 * @param opts.url a `postgres://` URL; when absent PGlite is used
 * @param opts.dataDir PGlite data folder (created if missing); absent = in-memory PGlite
 * @param opts.loadDataDir a PGlite data folder as a tar archive (PGlite's `dumpDataDir`) to start an
 *   in-memory PGlite from, instead of an empty one (PGlite docs, "loadDataDir"): the test databases
 *   copy a migrated template this way (api/testing/pglite-template.ts)
 * @returns the open database (not yet migrated: call `migrateDb`)
 * @throws FolderLockedError (db/folder-lock.ts) when another live process has `dataDir` open
 */
export async function openDatabase(opts: {
  url?: string
  dataDir?: string
  loadDataDir?: Blob
  pool?: { max: number; connectTimeoutMs: number }
}): Promise<Database> {
  if (opts.url) {
    const url = opts.url
    const makePool = (max: number) => {
      const made = new pg.Pool({
        connectionString: url,
        max,
        // A request waits at most this long for a connection (then 429 "busy" when every connection
        // is in use, 503 when none can be made: api/lib/faults.ts), instead of hanging while the
        // server is down; a dead connection is noticed by TCP keep-alive, not only by the next query.
        connectionTimeoutMillis: opts.pool?.connectTimeoutMs ?? 5000,
        keepAlive: true,
      })
      watchPool(made)
      return made
    }
    const pool = makePool(opts.pool?.max ?? 10)
    const counterPool = makePool(COUNTER_POOL_MAX)
    const db = drizzlePg(pool, { schema }) as unknown as Db
    return {
      db,
      kind: 'postgres',
      pool,
      counterPool,
      url,
      close: async () => {
        await Promise.all([endPool(pool), endPool(counterPool)])
      },
    }
  }
  // One process per folder (db/folder-lock.ts): taken before PGlite touches the files.
  const lock = opts.dataDir ? lockFolder(opts.dataDir) : null
  try {
    if (opts.dataDir) fs.mkdirSync(opts.dataDir, { recursive: true })
    // One options object: the two-argument form `new PGlite(dataDir, options)` ignores the options,
    // so pg_trgm would not load (docs/stack.md, "PGlite").
    const client = new PGlite({ dataDir: opts.dataDir, loadDataDir: opts.loadDataDir, extensions: { pg_trgm } })
    await client.waitReady
    const db = drizzlePglite(client, { schema }) as unknown as Db
    return {
      db,
      kind: 'pglite',
      listen: async (channel, onNotice) => {
        await client.listen(channel, onNotice)
      },
      close: async () => {
        try {
          await client.close()
        } finally {
          lock?.release()
        }
      },
    }
  } catch (err) {
    lock?.release()
    throw err
  }
}

/**
 * Connections of the rate-limit counters' own pool (`Database.counterPool`), per instance: each
 * counter is one short upsert, so two serve thousands a second. Count them against PostgreSQL's
 * `max_connections` (docs/scale-out.md, "Pool sizing").
 */
export const COUNTER_POOL_MAX = 2

/**
 * Keeps a connection error from crashing the process. An idle client dropped by the server (restart,
 * failover, a test dropping its database) emits 'error' on the pool, which replaces it. A client
 * checked out by a request emits 'error' itself when its connection is cut between two queries (a
 * restart under load): the query in flight fails (the request answers 503) and the pool discards the
 * client (node-postgres docs, "Pooling": "error" on a checked-out client).
 */
function watchPool(pool: pg.Pool): void {
  pool.on('error', (err) => logger.warn(describeConnectionError(err), 'idle PostgreSQL client error'))
  pool.on('connect', (client) => {
    client.on('error', (err) => logger.warn(describeConnectionError(err), 'PostgreSQL connection lost'))
  })
}

/** Longest wait for the pool to close (ms): a connection the server cut may never report its end. */
const POOL_END_TIMEOUT_MS = 5000

/** Ends `pool`, waiting at most POOL_END_TIMEOUT_MS: shutdown must not hang on a dead connection. */
async function endPool(pool: pg.Pool): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      logger.warn({ timeoutMs: POOL_END_TIMEOUT_MS }, 'PostgreSQL pool did not close in time; leaving it')
      resolve()
    }, POOL_END_TIMEOUT_MS)
    timer.unref()
  })
  await Promise.race([pool.end(), timeout])
  clearTimeout(timer)
}

/** The loggable facts of a connection error: its code and class, never its message's parameters. */
function describeConnectionError(err: Error & { code?: unknown }): Record<string, unknown> {
  return { errorClass: err.constructor.name, code: typeof err.code === 'string' ? err.code : undefined }
}

/**
 * `openDatabase` for a command-line entry (server, admin, import): when another process holds the
 * embedded folder, prints why and what to do (no stack trace) and exits with code 1.
 */
export async function openDatabaseOrExit(opts: Parameters<typeof openDatabase>[0]): Promise<Database> {
  try {
    return await openDatabase(opts)
  } catch (err) {
    if (err instanceof FolderLockedError) {
      console.error(err.message)
      process.exit(1)
    }
    throw err
  }
}

/**
 * Applies every pending SQL migration, then every SQL function file that is new or changed since it
 * was last applied (api/db/function-files.ts), then seeds the reference data a migration cannot read
 * from the repository (the search synonyms, api/db/seed/synonyms.ts: once per database); idempotent.
 * Throws if a migration or a function file fails.
 */
export async function migrateDb(database: Database): Promise<void> {
  if (database.kind === 'postgres') {
    await migratePg(database.db as never, { migrationsFolder: MIGRATIONS_DIR })
  } else {
    await migratePglite(database.db as never, { migrationsFolder: MIGRATIONS_DIR })
  }
  await applyFunctionFiles(database.db)
  await seedSynonyms(database.db)
}

/** The advisory-lock key of start-up work (an arbitrary constant: "grocery" on a phone keypad). */
export const STARTUP_LOCK_KEY = 4762379

/**
 * Runs `fn` (migrations, the first-start import, the demo admin) while holding a PostgreSQL
 * session-level advisory lock, so N instances started at once on an empty database do it one at a
 * time: the first migrates and imports, the others wait, then find the work done (PostgreSQL docs,
 * "Advisory Locks"). PGlite is one process by construction (db/folder-lock.ts): `fn` just runs.
 */
export async function withStartupLock<T>(database: Database, fn: () => Promise<T>): Promise<T> {
  if (database.kind !== 'postgres' || !database.pool) return fn()
  const client = await database.pool.connect()
  try {
    await client.query('select pg_advisory_lock($1)', [STARTUP_LOCK_KEY])
    try {
      return await fn()
    } finally {
      await client.query('select pg_advisory_unlock($1)', [STARTUP_LOCK_KEY]).catch(() => undefined)
    }
  } finally {
    client.release()
  }
}
