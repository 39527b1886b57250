/**
 * The migrated template the test databases are copied from (docs/decisions/0035-test-database-template.md).
 * A new empty PGlite runs initdb (about 3 s on 2 cores) and then every migration (0.4 s); starting
 * one from a dump of a migrated PGlite takes 0.6-1 s. So a test run migrates about once and each
 * test file starts from the result:
 *
 * - PGlite: vitest's global setup (api/testing/global-setup.ts) names a file in
 *   `TEST_PGLITE_TEMPLATE`; the first test file to need a database migrates one and writes its data
 *   folder there as an uncompressed tar (PGlite docs, "dumpDataDir"), the later ones start from it
 *   ("loadDataDir"). A run without a database test (unit tests only) pays nothing.
 * - PostgreSQL (`TEST_DATABASE_URL`): the global setup migrates a database named in
 *   `TEST_PG_TEMPLATE`, copied with `CREATE DATABASE … TEMPLATE …` (PostgreSQL docs, "Template
 *   Databases").
 *
 * Without those variables (a script, the scale-out config) createTestDatabase migrates as before.
 */
import fs from 'node:fs'
import pg from 'pg'
import type { PGlite } from '@electric-sql/pglite'
import { migrateDb, openDatabase, type Database } from '../db/client.ts'
import { newId } from '../lib/ids.ts'

/** Environment variable holding the path of the PGlite template's tar file. */
export const PGLITE_TEMPLATE_ENV = 'TEST_PGLITE_TEMPLATE'
/** Environment variable holding the name of the PostgreSQL template database. */
export const PG_TEMPLATE_ENV = 'TEST_PG_TEMPLATE'

/** `serverUrl` with its database replaced by `name`. */
export function urlOfDatabase(serverUrl: string, name: string): string {
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return url.toString()
}

/** Runs one statement on the server's own database (CREATE/DROP DATABASE cannot run in a pool's transaction). */
export async function onServer(serverUrl: string, statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl })
  await admin.connect()
  try {
    await admin.query(statement)
  } finally {
    await admin.end()
  }
}

/**
 * Writes the data folder of the migrated PGlite `database` to `file` as a tar, unless another test
 * process did first: written beside it and renamed, so a reader never sees half a file.
 */
export async function writePgliteTemplate(database: Database, file: string): Promise<void> {
  if (fs.existsSync(file)) return
  // The PGlite client behind Drizzle (`$client`, Drizzle docs, "Connect: access the driver").
  const client = (database.db as unknown as { $client: PGlite }).$client
  const dump = await client.dumpDataDir('none')
  const partial = `${file}.${process.pid}.partial`
  fs.writeFileSync(partial, Buffer.from(await dump.arrayBuffer()))
  fs.renameSync(partial, file)
}

/**
 * Creates and migrates a template database on the server; no connection is left open on it (a
 * template with a session cannot be copied).
 * @returns its name (`test_template_<id>`); drop it with `dropPgTemplate`
 */
export async function createPgTemplate(serverUrl: string): Promise<string> {
  const name = `test_template_${newId()}`
  await onServer(serverUrl, `CREATE DATABASE ${name}`)
  const database = await openDatabase({ url: urlOfDatabase(serverUrl, name) })
  try {
    await migrateDb(database)
  } finally {
    await database.close()
  }
  return name
}

/** Drops the template database `name` (closing any session left on it). */
export function dropPgTemplate(serverUrl: string, name: string): Promise<void> {
  return onServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
}

/**
 * A migrated in-memory PGlite: a copy of the template tar at `file` when it exists; otherwise a new
 * one, migrated, whose dump becomes the template for the test files that start later.
 */
export async function openPgliteFromTemplate(file: string): Promise<Database> {
  if (fs.existsSync(file)) return openDatabase({ loadDataDir: new Blob([fs.readFileSync(file)]) })
  const database = await openDatabase({})
  await migrateDb(database)
  await writePgliteTemplate(database, file)
  return database
}
