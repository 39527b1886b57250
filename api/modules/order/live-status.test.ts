/**
 * Live order status (docs/product.md, "Order page"; docs/scale-out.md, "Live order status across
 * instances"), on a fresh database (PGlite, or PostgreSQL with TEST_DATABASE_URL): an admin's status
 * change publishes one event after the commit and mails the shopper once with the status in words and
 * a link to the order page (an `order.mail` job, run here by `drain()`); a refused mail never fails
 * the change and is sent by a later retry; an order placed while the mail server hangs answers at
 * once; on PostgreSQL an event published on one instance reaches the watchers of another through
 * LISTEN/NOTIFY.
 */
import pg from 'pg'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startCacheBus } from '../../lib/cache-bus.ts'
import { createCatalogCache } from '../../lib/cache.ts'
import type { MailMessage } from '../../lib/mail.ts'
import { createOrderEvents, type OrderStatusEvent } from '../../lib/order-events.ts'
import { logger } from '../../../server-shared/logger.ts'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { createAdmin, type SignedIn } from '../../testing/auth.ts'
import { placeTestOrder } from '../../testing/orders.ts'

let t: TestApp
let admin: SignedIn
const sent: MailMessage[] = []
let failMail = false
const orderEvents = createOrderEvents()
let published = 0
const publish = orderEvents.publish
orderEvents.publish = (e) => {
  published++
  publish(e)
}

beforeAll(async () => {
  t = await createTestApp({
    publicUrl: 'https://shop.example',
    orderEvents,
    mailer: {
      send: async (m) => {
        if (failMail) throw new Error('SMTP refused')
        sent.push(m)
      },
    },
  })
  admin = await createAdmin(t)
})
afterAll(() => t?.close())

const placeOrder = () => placeTestOrder(t)

/** Changes the status as an admin, then runs the jobs it wrote (its email) as the runner would. */
const changeStatus = async (orderId: string, status: string) => {
  const res = await t.call('order/update-status', { method: 'PUT', json: { orderId, status }, token: admin.token })
  await t.deps.jobs.drain()
  return res
}
/**
 * Makes every job waiting for its retry delay due now (as if the delay had passed). A second back:
 * pg-boss takes a job when `start_after < now()`, and PGlite's clock ticks in milliseconds, so an
 * update and a fetch in the same millisecond would leave the job not yet due.
 */
const retryDelayPassed = () => t.db.execute(sql`update pgboss.job set start_after = now() - interval '1 second' where state = 'retry'`)

describe('a status change', () => {
  it('publishes one event after the commit and sends one email with the status and a link to the order', async () => {
    const { who, order } = await placeOrder()
    await t.deps.jobs.drain()
    const seen: OrderStatusEvent[] = []
    const stop = orderEvents.subscribe(order._id, (e) => seen.push(e))
    sent.length = 0
    published = 0

    const res = await changeStatus(order._id, 'out_for_delivery')
    expect(res.status).toBe(409) // not an arrow from placed: nothing published, nothing mailed
    expect(published).toBe(0)
    expect(sent).toHaveLength(0)

    expect((await changeStatus(order._id, 'packed')).status).toBe(200)
    stop()
    expect(published).toBe(1)
    expect(seen).toEqual([{ orderId: order._id, status: 'packed', version: order.version + 1 }])
    expect(sent).toHaveLength(1)
    const mail = sent[0]!
    expect(mail.to).toBe(who.user.email)
    expect(mail.subject).toBe(`Your order ${order.orderId} is packed`)
    expect(mail.text).toContain(`https://shop.example/dashboard/myorder/${order._id}`)
    expect(mail.html).toContain(`href="https://shop.example/dashboard/myorder/${order._id}"`)
    expect(orderEvents.subscriberCount()).toBe(0)
  })

  it('says "out for delivery" in words', async () => {
    const { order } = await placeOrder()
    await changeStatus(order._id, 'packed')
    sent.length = 0
    await changeStatus(order._id, 'out_for_delivery')
    expect(sent.map((m) => m.subject)).toEqual([`Your order ${order.orderId} is out for delivery`])
  })

  it('stands when the mail is refused; the email is sent when a retry finds the mail server back', async () => {
    const { order } = await placeOrder()
    await t.deps.jobs.drain()
    published = 0
    sent.length = 0
    failMail = true
    try {
      const res = await changeStatus(order._id, 'packed')
      expect(res.status).toBe(200)
      expect(res.body.data.status).toBe('packed')
      expect(sent).toHaveLength(0)
      // Still refused at the first retry: nothing sent, the job waits again.
      await retryDelayPassed()
      expect(await t.deps.jobs.drain()).toBe(1)
      expect(sent).toHaveLength(0)
    } finally {
      failMail = false
    }
    expect(published).toBe(1)
    // Not due before its delay; sent once at the retry after the server is back.
    expect(await t.deps.jobs.drain()).toBe(0)
    await retryDelayPassed()
    expect(await t.deps.jobs.drain()).toBe(1)
    expect(sent.map((m) => m.subject)).toEqual([`Your order ${order.orderId} is packed`])
  })
})

describe('placing an order while the mail server hangs and then fails', () => {
  it('answers at once (the mail is a job), and the confirmation is sent on a later retry', async () => {
    const slowAndFailing = { send: () => new Promise<void>((_, reject) => setTimeout(() => reject(new Error('SMTP timeout')), 3000)) }
    const mailer = t.deps.mailer
    failMail = true
    try {
      // The mailer would take 3 s and fail: the order must not wait for it.
      ;(t.deps as { mailer: typeof mailer }).mailer = slowAndFailing
      const started = Date.now()
      const { order } = await placeOrder()
      const tookMs = Date.now() - started
      console.log(`order placed with a hanging mail server in ${tookMs} ms (sign-up and cart included)`)
      expect(tookMs).toBeLessThan(2500)
      expect(await t.deps.jobs.drain()).toBe(1) // the attempt: 3 s, then refused
      ;(t.deps as { mailer: typeof mailer }).mailer = mailer
      failMail = false
      sent.length = 0
      await retryDelayPassed()
      expect(await t.deps.jobs.drain()).toBe(1)
      expect(sent.map((m) => m.subject)).toEqual([`Order ${order.orderId} placed`])
    } finally {
      ;(t.deps as { mailer: typeof mailer }).mailer = mailer
      failMail = false
    }
  })
})

describe.runIf(Boolean(process.env.TEST_DATABASE_URL))('across instances (PostgreSQL LISTEN/NOTIFY)', () => {
  it('an event published on one instance reaches the watchers of another, once, on the one bus connection', async () => {
    const url = t.database.url!
    const pools = [new pg.Pool({ connectionString: url, max: 2 }), new pg.Pool({ connectionString: url, max: 2 })]
    const hubs = [createOrderEvents(), createOrderEvents()]
    const buses = pools.map((pool, i) => startCacheBus({ url, pool, cache: createCatalogCache(), logger, orderEvents: hubs[i] }))
    try {
      await Promise.all(buses.map((b) => b.ready))
      const onA: OrderStatusEvent[] = []
      const onB: OrderStatusEvent[] = []
      hubs[0]!.subscribe('order-x', (e) => onA.push(e))
      hubs[1]!.subscribe('order-x', (e) => onB.push(e))
      hubs[1]!.subscribe('order-y', () => onB.push({ orderId: 'wrong', status: 'placed', version: 0 }))
      hubs[0]!.publish({ orderId: 'order-x', status: 'delivered', version: 4 })
      await expect.poll(() => onB.length, { timeout: 5000 }).toBe(1)
      await expect.poll(() => onA.length, { timeout: 5000 }).toBe(1)
      await new Promise((r) => setTimeout(r, 200))
      expect(onB).toEqual([{ orderId: 'order-x', status: 'delivered', version: 4 }])
      expect(onA).toEqual(onB)
    } finally {
      await Promise.all(buses.map((b) => b.close()))
      await Promise.all(pools.map((p) => p.end()))
    }
  })
})
