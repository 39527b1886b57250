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
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import pg from 'pg'
import * as schema from './schema.ts'
import { logger } from '../lib/logger.ts'
import { FolderLockedError, lockFolder } from './folder-lock.ts'

export type Schema = typeof schema
/** The Drizzle database handle every service takes; identical API on PGlite and PostgreSQL. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>

/** An open database with its driver kind and a `close()` that must be awaited before exit. */
export interface Database {
  db: Db
  kind: 'pglite' | 'postgres'
  /** The node-postgres pool (PostgreSQL only): shared stores such as the rate limits use it. */
  pool?: pg.Pool
  close(): Promise<void>
}

export const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations')

/**
 * Opens a database.
 * @param opts.url a `postgres://` URL; when absent PGlite is used
 * @param opts.dataDir PGlite data folder (created if missing); absent = in-memory PGlite
 * @returns the open database (not yet migrated: call `migrateDb`)
 * @throws FolderLockedError (db/folder-lock.ts) when another live process has `dataDir` open
 */
export async function openDatabase(opts: { url?: string; dataDir?: string }): Promise<Database> {
  if (opts.url) {
    const pool = new pg.Pool({ connectionString: opts.url, max: Number(process.env.DATABASE_POOL_MAX ?? 10) })
    // An idle client dropped by the server (restart, failover, a test dropping its database) emits
    // 'error' on the pool; without a listener that would crash the process. The pool replaces it.
    pool.on('error', (err) => logger.warn({ err: err.message }, 'idle PostgreSQL client error'))
    const db = drizzlePg(pool, { schema }) as unknown as Db
    return { db, kind: 'postgres', pool, close: () => pool.end() }
  }
  // One process per folder (db/folder-lock.ts): taken before PGlite touches the files.
  const lock = opts.dataDir ? lockFolder(opts.dataDir) : null
  try {
    if (opts.dataDir) fs.mkdirSync(opts.dataDir, { recursive: true })
    // The one-argument form: the two-argument form ignores the options (stack notes).
    const client = new PGlite({ dataDir: opts.dataDir, extensions: { pg_trgm } })
    await client.waitReady
    const db = drizzlePglite(client, { schema }) as unknown as Db
    return {
      db,
      kind: 'pglite',
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
 * `openDatabase` for a command-line entry (server, admin, import): when another process holds the
 * embedded folder, prints why and what to do (no stack trace) and exits with code 1.
 */
export async function openDatabaseOrExit(opts: { url?: string; dataDir?: string }): Promise<Database> {
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

/** Applies every pending SQL migration; idempotent. Throws if a migration fails. */
export async function migrateDb(database: Database): Promise<void> {
  if (database.kind === 'postgres') {
    await migratePg(database.db as never, { migrationsFolder: MIGRATIONS_DIR })
  } else {
    await migratePglite(database.db as never, { migrationsFolder: MIGRATIONS_DIR })
  }
}
