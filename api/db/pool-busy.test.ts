/**
 * A busy pool is not a database that is down (docs/decisions/0043-flash-sale-and-busy-pool.md):
 * with every connection of the pool held by slow transactions, a request that gets none within the
 * pool's wait answers 429 "busy" with `Retry-After`, never 503 "database unavailable", and the log
 * line says "pool busy"; once the transactions end, requests are served again. A placement whose
 * order committed answers 201 even when the pool is busy right after its COMMIT. PostgreSQL only
 * (PGlite has no pool).
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../testing/app.ts'
import { captureLog } from '../testing/log-capture.ts'
import { insertProduct } from '../testing/fixtures.ts'
import { DATABASE_UNAVAILABLE, POOL_BUSY } from '../lib/faults.ts'
import { queryRows } from './query.ts'
import { placeWithKey, shopperWithLine } from '../testing/orders.ts'

const serverUrl = process.env.TEST_DATABASE_URL
const log = captureLog()
let t: TestApp

/** Resolves once the pool has every connection checked out (the holders' transactions began). */
async function untilPoolFull(): Promise<void> {
  const pool = t.database.pool!
  while (!(pool.totalCount === pool.options.max && pool.idleCount === 0)) await new Promise((r) => setTimeout(r, 10))
}

describe.skipIf(!serverUrl)('a pool with every connection in use (PostgreSQL)', () => {
  beforeAll(async () => {
    // Two connections, a wait of 300 ms for one: the server's pool in small.
    t = await createTestApp({ logger: log.logger }, { pool: { max: 2, connectTimeoutMs: 300 } })
  })
  afterAll(() => t?.close())

  it('answers 429 busy with Retry-After, logs "pool busy", and serves again once the slow transactions end', async () => {
    const slow = () => t.db.transaction(async (tx) => void (await tx.execute(sql`select pg_sleep(1.5)`)))
    const holders = Promise.all([slow(), slow()])
    await untilPoolFull()
    log.lines.length = 0
    const res = await t.call('category/get')
    expect(res.status).toBe(429)
    expect(res.headers.get('retry-after')).toBe('1')
    expect(res.body.message).toBe(POOL_BUSY)
    expect(res.body.message).not.toBe(DATABASE_UNAVAILABLE)
    const logged = log.lines.join('')
    expect(logged).toContain('pool busy')
    expect(logged).not.toContain('database unavailable')
    await holders
    expect((await t.call('category/get')).status).toBe(200)
  })

  it('a placement whose order committed answers 201 although the pool is busy right after its COMMIT', async () => {
    const product = await insertProduct(t.db, { name: 'Filter Coffee Powder', unit: '500 g', price: 320, stock: 5 })
    const who = await shopperWithLine(t, product.id)
    // Just before the COMMIT (the confirmation job is written in the placement's transaction), two
    // slow transactions ask for the pool's two connections: one takes the idle one, the other queues
    // and takes the one the COMMIT frees. Whatever the placement still asked the database after its
    // COMMIT waited longer than the pool's 300 ms (the old order read answered 503 so).
    const slow = () => t.db.transaction(async (tx) => void (await tx.execute(sql`select pg_sleep(0.8)`)))
    let queued: Promise<unknown> = Promise.resolve()
    const send = t.deps.jobs.send.bind(t.deps.jobs)
    t.deps.jobs.send = ((...args: Parameters<typeof send>) => {
      if (args[0] === 'order.mail') queued = Promise.all([slow(), slow()])
      return send(...args)
    }) as typeof send
    const res = await placeWithKey(t, who, `pool-busy-${process.pid}`)
    t.deps.jobs.send = send
    await queued
    const [row] = await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from orders where user_id = ${who.user.id}`)
    expect(row!.n).toBe(1)
    expect(res.status).toBe(201)
  })
})
