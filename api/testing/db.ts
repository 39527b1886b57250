/**
 * Test databases. Each call gives a fresh, migrated database: in-memory PGlite by default, or a new
 * database on the PostgreSQL server named by `TEST_DATABASE_URL` (dropped again by `close()`), so the
 * same integration tests run on both engines (README.md, "Running against PostgreSQL";
 * docs/decisions/0003-database-pglite-and-postgres.md).
 */
import pg from 'pg'
import { migrateDb, openDatabase, type Database } from '../db/client.ts'
import { newId } from '../lib/ids.ts'

export async function createTestDatabase(): Promise<Database> {
  const serverUrl = process.env.TEST_DATABASE_URL
  if (!serverUrl) {
    const database = await openDatabase({})
    await migrateDb(database)
    return database
  }
  const name = `test_${newId()}`
  const admin = new pg.Client({ connectionString: serverUrl })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name}`)
  await admin.end()
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  const database = await openDatabase({ url: url.toString() })
  await migrateDb(database)
  return {
    ...database,
    async close() {
      await database.close()
      const dropper = new pg.Client({ connectionString: serverUrl })
      await dropper.connect()
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await dropper.end()
    },
  }
}
