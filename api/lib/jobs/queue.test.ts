/**
 * The job queue (api/lib/jobs/queue.ts) on PGlite and on PostgreSQL (TEST_DATABASE_URL): a job runs
 * its handler with the parsed payload; a failed attempt is retried later with backoff; a job written
 * in a transaction exists only once it commits; a running queue takes a new job at once (even one
 * committed while its fetch is under way), and at stop
 * lets a running job finish within the grace; two queues
 * on one database take each of N jobs exactly once; intervals become cron schedules, recorded once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import { ZodError } from 'zod'
import { openDatabase, type Database } from '../../db/client.ts'
import { queryRows } from '../../db/query.ts'
import { createTestDatabase } from '../../testing/db.ts'
import { logger } from '../../../server-shared/logger.ts'
import type { OrderMailJob } from './definitions.ts'
import { createJobQueue, intervalToCron, type JobQueue } from './queue.ts'

let database: Database
const queues: JobQueue[] = []
/** A queue over the test database, stopped in afterAll. */
const queue = (opts: { runner?: boolean; pollMs?: number; db?: Database } = {}) => {
  const q = createJobQueue({ db: (opts.db ?? database).db, logger, runner: opts.runner ?? false, pollMs: opts.pollMs })
  queues.push(q)
  return q
}

beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(async () => {
  for (const q of queues) await q.stop(1000)
  await database?.close()
})

async function until(check: () => boolean, ms: number): Promise<number> {
  const started = Date.now()
  while (Date.now() - started < ms) {
    if (check()) return Date.now() - started
    await new Promise((r) => setTimeout(r, 10))
  }
  throw new Error(`not within ${ms} ms`)
}

describe('intervalToCron', () => {
  it('turns whole minutes dividing an hour and whole hours dividing a day into cron, refuses the rest', () => {
    expect(intervalToCron(60_000)).toBe('* * * * *')
    expect(intervalToCron(5 * 60_000)).toBe('*/5 * * * *')
    expect(intervalToCron(60 * 60_000)).toBe('0 * * * *')
    expect(intervalToCron(6 * 60 * 60_000)).toBe('0 */6 * * *')
    expect(intervalToCron(24 * 60 * 60_000)).toBe('0 0 * * *')
    expect(intervalToCron('15 3 * * *')).toBe('15 3 * * *')
    expect(() => intervalToCron(90_000)).toThrow(/no cron/)
    expect(() => intervalToCron(7 * 60_000)).toThrow(/no cron/)
    expect(() => intervalToCron(30_000)).toThrow(/no cron/)
  })
})

describe('a job queue', () => {
  it('runs a sent job once with its parsed payload, and refuses a payload that does not fit', async () => {
    const q = queue()
    const seen: OrderMailJob[] = []
    q.work('order.mail', async (data) => void seen.push(data))
    await q.start()
    await expect(q.send('order.mail', { kind: 'status', orderId: 'o1', status: 'nope' as never })).rejects.toBeInstanceOf(ZodError)
    const id = await q.send('order.mail', { kind: 'placed', orderId: 'o1' })
    expect(id).toBeTruthy()
    expect(await q.drain()).toBe(1)
    expect(seen).toEqual([{ kind: 'placed', orderId: 'o1' }])
    expect((await q.find('order.mail', id!))?.state).toBe('completed')
    expect(await q.drain()).toBe(0)
  })

  it('retries a failed attempt after its delay, with backoff, and never before', async () => {
    const q = queue()
    let attempts = 0
    q.work('order.mail', async () => {
      attempts++
      throw new Error('SMTP down')
    })
    await q.start()
    const before = Date.now()
    const id = (await q.send('order.mail', { kind: 'placed', orderId: 'o2' }))!
    expect(await q.drain()).toBe(1)
    const job = (await q.find('order.mail', id))!
    expect(job.state).toBe('retry')
    // pg-boss counts a retry when it starts: none yet.
    expect(job.retryCount).toBe(0)
    // First retry: 30 s to 60 s later (definitions.ts, MAIL_RETRY), so nothing is due now.
    expect(job.startAfter.getTime() - before).toBeGreaterThanOrEqual(29_000)
    expect(job.startAfter.getTime() - before).toBeLessThanOrEqual(61_000 + (Date.now() - before))
    expect(await q.drain()).toBe(0)
    expect(attempts).toBe(1)
    // Due again (as if the delay passed): the second attempt waits about twice as long.
    await database.db.execute(sql`update pgboss.job set start_after = now() - interval '1 second' where id = ${id}::uuid`)
    const second = Date.now()
    expect(await q.drain()).toBe(1)
    const again = (await q.find('order.mail', id))!
    expect(again).toMatchObject({ state: 'retry', retryCount: 1 })
    expect(again.startAfter.getTime() - second).toBeGreaterThanOrEqual(59_000)
  })

  it('writes a job in the caller’s transaction: gone with a rollback, there after the commit', async () => {
    const q = queue()
    const seen: string[] = []
    q.work('order.mail', async (data) => void seen.push(data.orderId))
    await q.start()
    await expect(
      database.db.transaction(async (tx) => {
        await q.send('order.mail', { kind: 'placed', orderId: 'rolled-back' }, { tx })
        throw new Error('the order failed')
      }),
    ).rejects.toThrow('the order failed')
    await database.db.transaction(async (tx) => {
      await q.send('order.mail', { kind: 'status', orderId: 'committed', status: 'packed' }, { tx })
    })
    await q.drain()
    expect(seen).toEqual(['committed'])
  })

  it('drops a second job with the same singleton key within its window', async () => {
    const q = queue()
    q.work('order.mail', async () => undefined)
    await q.start()
    expect(await q.send('order.mail', { kind: 'placed', orderId: 'o3' }, { singletonKey: 'o3', singletonSeconds: 600 })).toBeTruthy()
    expect(await q.send('order.mail', { kind: 'placed', orderId: 'o3' }, { singletonKey: 'o3', singletonSeconds: 600 })).toBeNull()
    expect(await q.drain()).toBe(1)
  })

  it('when running, takes a job sent outside or inside a transaction at once, not at the next poll', async () => {
    const q = queue({ runner: true, pollMs: 60_000 })
    const seen: string[] = []
    q.work('order.mail', async (data) => void seen.push(data.orderId))
    await q.start()
    await q.send('order.mail', { kind: 'placed', orderId: 'now' })
    expect(await until(() => seen.includes('now'), 10_000)).toBeLessThan(10_000)
    await database.db.transaction(async (tx) => {
      await q.send('order.mail', { kind: 'placed', orderId: 'in-tx' }, { tx })
    })
    expect(await until(() => seen.includes('in-tx'), 10_000)).toBeLessThan(10_000)
    await q.stop(1000)
  })

  it('does not lose the wake of a send that commits while the runner’s fetch is under way', async () => {
    // The runner's first fetch answers 300 ms after it ran, so the send below commits and wakes the
    // runner while that (empty) answer is on its way; with a 60 s poll only the wake can start the job.
    const client = (database.db as unknown as { $client: Record<string, unknown> }).$client as {
      query(text: string, values?: unknown[]): Promise<unknown>
      exec?: unknown
      connect?: unknown
    }
    let slowFetches = 0
    const slow = {
      async query(text: string, values?: unknown[]) {
        const result = await client.query(text, values)
        if (/SKIP LOCKED/i.test(text) && values?.[0] === 'order.mail' && slowFetches++ === 0) await new Promise((r) => setTimeout(r, 300))
        return result
      },
      exec: typeof client.exec === 'function' ? (client.exec as (t: string) => unknown).bind(client) : undefined,
      connect: typeof client.connect === 'function' ? () => undefined : undefined,
    }
    const q = queue({ runner: true, pollMs: 60_000, db: { db: { $client: slow } } as unknown as Database })
    const seen: string[] = []
    q.work('order.mail', async (data) => void seen.push(data.orderId))
    await q.start()
    await until(() => slowFetches > 0, 5000)
    await q.send('order.mail', { kind: 'placed', orderId: 'during-fetch' })
    expect(await until(() => seen.includes('during-fetch'), 10_000)).toBeLessThan(10_000)
    await q.stop(1000)
  })

  it('at stop, lets a running job finish (then completed); past the grace it is left active, to expire and retry', async () => {
    const q = queue({ runner: true, pollMs: 60_000 })
    const started: string[] = []
    q.work('order.mail', async (data) => {
      started.push(data.orderId)
      await new Promise((r) => setTimeout(r, data.orderId === 'slow' ? 3000 : 300))
    })
    await q.start()
    const id = (await q.send('order.mail', { kind: 'placed', orderId: 'short' }))!
    // A generous wait: this test is about stop, not about how soon a local send wakes the runner
    // (a loaded machine was seen to take over 2 s).
    await until(() => started.includes('short'), 10_000)
    await q.stop(2000)
    expect((await q.find('order.mail', id))?.state).toBe('completed')

    const r = queue({ runner: true, pollMs: 60_000 })
    r.work('order.mail', async (data) => {
      started.push(data.orderId)
      await new Promise((resolve) => setTimeout(resolve, 3000))
    })
    await r.start()
    const slow = (await r.send('order.mail', { kind: 'placed', orderId: 'slow' }))!
    await until(() => started.includes('slow'), 10_000)
    const stopping = Date.now()
    await r.stop(200)
    expect(Date.now() - stopping).toBeLessThan(1500)
    expect((await r.find('order.mail', slow))?.state).toBe('active')
  })

  it('records the schedules, replacing stale ones', async () => {
    const first = queue()
    first.schedule('images.sweep', 6 * 60 * 60_000)
    first.schedule('carts.purge-idle-guests', 60 * 60_000)
    await first.start()
    const second = queue()
    second.schedule('images.sweep', '0 */3 * * *')
    await second.start()
    const rows = await queryRows<{ name: string; cron: string }>(database.db, sql`select name, cron from pgboss.schedule order by name`)
    expect(rows).toEqual([{ name: 'images.sweep', cron: '0 */3 * * *' }])
  })
})

describe('two queues on one database', () => {
  it('take each of N jobs exactly once', async () => {
    // On PostgreSQL each queue has its own pool, as two instances would; PGlite is one process.
    const other = process.env.TEST_DATABASE_URL ? await openDatabase({ url: database.url! }) : database
    try {
      const a = queue({ runner: true, pollMs: 20 })
      const b = queue({ runner: true, pollMs: 20, db: other })
      const handled = new Map<string, string[]>()
      for (const [q, who] of [
        [a, 'a'],
        [b, 'b'],
      ] as const) {
        q.work('order.mail', async (data) => {
          // Only this test's jobs: one left over by an earlier test of the file may still be retried.
          if (!data.orderId.startsWith('many-')) return
          handled.set(data.orderId, [...(handled.get(data.orderId) ?? []), who])
          await new Promise((r) => setTimeout(r, 2))
        })
      }
      const sender = queue()
      await sender.start()
      const n = 60
      for (let i = 0; i < n; i++) await sender.send('order.mail', { kind: 'placed', orderId: `many-${i}` })
      await Promise.all([a.start(), b.start()])
      await until(() => handled.size === n, 30_000)
      await new Promise((r) => setTimeout(r, 200))
      await a.stop(2000)
      await b.stop(2000)
      expect([...handled.values()].every((by) => by.length === 1)).toBe(true)
      expect(handled.size).toBe(n)
      const byA = [...handled.values()].filter((by) => by[0] === 'a').length
      console.log(`two queues, ${n} jobs: a took ${byA}, b took ${n - byA}`)
    } finally {
      if (other !== database) await other.close()
    }
  })
})
