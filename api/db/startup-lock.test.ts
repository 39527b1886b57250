/**
 * Start-up work under the advisory lock (api/db/client.ts `withStartupLock`): two "instances" opening
 * one empty PostgreSQL database at once both migrate without error, one after the other (their
 * critical sections never overlap), and the database ends up migrated once. PostgreSQL only: PGlite
 * is one process per folder by construction.
 */
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrateDb, openDatabase, withStartupLock, type Database } from './client.ts'
import { newId } from '../lib/ids.ts'

const serverUrl = process.env.TEST_DATABASE_URL
const name = `test_${newId()}`
let a: Database
let b: Database

describe.skipIf(!serverUrl)('start-up lock (PostgreSQL)', () => {
  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: serverUrl })
    await admin.connect()
    await admin.query(`CREATE DATABASE ${name}`)
    await admin.end()
    const url = new URL(serverUrl!)
    url.pathname = `/${name}`
    a = await openDatabase({ url: url.toString() })
    b = await openDatabase({ url: url.toString() })
  })
  afterAll(async () => {
    await a?.close()
    await b?.close()
    const admin = new pg.Client({ connectionString: serverUrl })
    await admin.connect()
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    await admin.end()
  })

  it('two instances starting together migrate one after the other, both without error', async () => {
    const spans: { start: number; end: number }[] = []
    const start = (database: Database) =>
      withStartupLock(database, async () => {
        const span = { start: performance.now(), end: 0 }
        await migrateDb(database)
        // Long enough that an unserialised pair would surely overlap.
        await new Promise((r) => setTimeout(r, 200))
        span.end = performance.now()
        spans.push(span)
      })
    await Promise.all([start(a), start(b)])
    expect(spans).toHaveLength(2)
    const [first, second] = spans.sort((x, y) => x.start - y.start)
    expect(second!.start).toBeGreaterThanOrEqual(first!.end)
    const { rows } = await a.pool!.query('select count(*)::int as n from drizzle.__drizzle_migrations')
    expect(rows[0].n).toBeGreaterThanOrEqual(5)
  })
})
