/**
 * Resilient database access (api/db/client.ts, api/lib/faults.ts): when PostgreSQL cuts every
 * connection (what a restart or a failover does to its clients), a connection checked out between
 * two queries does not crash the process, a request in flight answers 503 (never a 500), and the
 * next requests reconnect by themselves. PostgreSQL only.
 */
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../testing/app.ts'

const serverUrl = process.env.TEST_DATABASE_URL
let t: TestApp

/** Cuts every connection to the test's database from outside, as a server restart does. */
async function cutConnections(database: string) {
  const admin = new pg.Client({ connectionString: serverUrl })
  await admin.connect()
  await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [database])
  await admin.end()
}

describe.skipIf(!serverUrl)('losing every database connection (PostgreSQL)', () => {
  let database = ''
  beforeAll(async () => {
    t = await createTestApp()
    const [row] = ((await t.db.execute(sql`select current_database() as name`)) as unknown as { rows: { name: string }[] }).rows
    database = row!.name
  })
  afterAll(() => t?.close())

  it('a connection cut between two queries of a transaction fails that work only; the process lives on', async () => {
    const work = t.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`)
      await new Promise((r) => setTimeout(r, 300))
      await tx.execute(sql`select 1`)
    })
    await new Promise((r) => setTimeout(r, 100))
    await cutConnections(database)
    await expect(work).rejects.toBeTruthy()
    // Give an unhandled 'error' event the time to crash the worker, were it unhandled.
    await new Promise((r) => setTimeout(r, 200))
    expect((await t.call('category/get')).status).toBe(200)
  })

  it('requests during the cut answer 503 or succeed, never 500; the next ones reconnect by themselves', async () => {
    await t.call('category/get')
    const statuses: number[] = []
    const load = Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        await new Promise((r) => setTimeout(r, i * 10))
        statuses.push((await t.call('product/get', { method: 'POST', json: { page: 1, limit: 5, search: `x${i}` } })).status)
      }),
    )
    await new Promise((r) => setTimeout(r, 50))
    await cutConnections(database)
    await load
    expect(statuses.every((s) => s === 200 || s === 503)).toBe(true)
    const started = Date.now()
    let status = 0
    while (Date.now() - started < 5000) {
      status = (await t.call('product/get', { method: 'POST', json: { page: 1, limit: 5, search: 'again' } })).status
      if (status === 200) break
    }
    expect(status).toBe(200)
  })
})
