/**
 * Test databases. Each call gives a fresh, migrated database: in-memory PGlite by default, or a new
 * database on the PostgreSQL server named by `TEST_DATABASE_URL` (dropped again by `close()`), so the
 * same integration tests run on both engines (README.md, "Running against PostgreSQL";
 * docs/decisions/0003-database-pglite-and-postgres.md). Under vitest the database is a copy of the
 * run's migrated template (api/testing/pglite-template.ts, docs/decisions/0035-test-database-template.md);
 * elsewhere it is migrated here.
 */
import { migrateDb, openDatabase, type Database } from '../db/client.ts'
import { newId } from '../lib/ids.ts'
import { onServer, openPgliteFromTemplate, PG_TEMPLATE_ENV, PGLITE_TEMPLATE_ENV, urlOfDatabase } from './pglite-template.ts'

/** @param opts.pool PostgreSQL only: the pool's size and wait for a connection (default: as the server's defaults) */
export async function createTestDatabase(opts: { pool?: { max: number; connectTimeoutMs: number } } = {}): Promise<Database> {
  const serverUrl = process.env.TEST_DATABASE_URL
  if (!serverUrl) {
    const template = process.env[PGLITE_TEMPLATE_ENV]
    const database = template ? await openPgliteFromTemplate(template) : await openDatabase({})
    // On a copy this applies nothing (about 40 ms): it keeps a template built before a migration
    // was added or a SQL function file edited (vitest's watch mode keeps its global setup) from
    // serving an old schema or an old function (api/db/function-files.ts compares checksums).
    await migrateDb(database)
    return database
  }
  const name = `test_${newId()}`
  const template = process.env[PG_TEMPLATE_ENV]
  await onServer(serverUrl, template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`)
  const database = await openDatabase({ url: urlOfDatabase(serverUrl, name), pool: opts.pool })
  await migrateDb(database)
  return {
    ...database,
    async close() {
      await database.close()
      await onServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    },
  }
}
