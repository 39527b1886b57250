/**
 * Order emails at least once, delivered once (docs/jobs.md, "Order emails"): a job run again after
 * the database failed right after the send (its acknowledgement lost) finds the mail recorded in
 * `sent_mails` and sends nothing; a send whose record was lost goes out again with the same stable
 * Message-ID (RFC 5322 §3.6.4), which mail clients fold; each event has its own id.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq, sql } from 'drizzle-orm'
import { users } from '../../db/schema.ts'
import type { MailMessage } from '../../lib/mail.ts'
import type { SmsMessage } from '../../lib/sms.ts'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { createAdmin, type SignedIn } from '../../testing/auth.ts'
import { placeTestOrder } from '../../testing/orders.ts'
import { sendOrderMail } from './mail.ts'

let t: TestApp
let admin: SignedIn
const sent: MailMessage[] = []
const texts: SmsMessage[] = []

beforeAll(async () => {
  t = await createTestApp({
    publicUrl: 'https://shop.example',
    mailer: { send: async (m) => void sent.push(m) },
    sms: { send: async (m) => void texts.push(m) },
  })
  admin = await createAdmin(t)
})
afterAll(() => t?.close())

describe('an order email job run twice', () => {
  it('sends once: the second run (the first one’s acknowledgement lost) finds the send recorded', async () => {
    const { order } = await placeTestOrder(t)
    sent.length = 0
    // The runner's first attempt: sent and recorded; then the database fails before the job is
    // acknowledged, so the job is taken again: the same handler with the same payload.
    await sendOrderMail(t.deps, { kind: 'placed', orderId: order._id })
    await sendOrderMail(t.deps, { kind: 'placed', orderId: order._id })
    expect(sent).toHaveLength(1)
    expect(sent[0]!.messageId).toMatch(new RegExp(`^<order\\.${order._id}\\.placed\\.v\\d+@shop\\.example>$`))
  })

  it('a send whose record was lost goes out again with the same Message-ID', async () => {
    const { order } = await placeTestOrder(t)
    sent.length = 0
    await sendOrderMail(t.deps, { kind: 'placed', orderId: order._id })
    // The send succeeded, the record did not (the window docs/jobs.md names).
    await t.db.execute(sql`delete from sent_mails where message_id = ${sent[0]!.messageId!}`)
    await sendOrderMail(t.deps, { kind: 'placed', orderId: order._id })
    expect(sent).toHaveLength(2)
    expect(sent[1]!.messageId).toBe(sent[0]!.messageId)
  })

  it('every event of an order has its own Message-ID, the same on every run of its job', async () => {
    const { order } = await placeTestOrder(t)
    expect(
      (await t.call('order/update-status', { method: 'PUT', json: { orderId: order._id, status: 'packed' }, token: admin.token })).status,
    ).toBe(200)
    sent.length = 0
    await t.deps.jobs.drain()
    await sendOrderMail(t.deps, { kind: 'status', orderId: order._id, status: 'packed' })
    await sendOrderMail(t.deps, { kind: 'placed', orderId: order._id })
    // The placed mail and the packed mail, each once; the second runs sent nothing.
    expect(sent.map((m) => m.subject).sort()).toEqual([`Order ${order.orderId} placed`, `Your order ${order.orderId} is packed`])
    expect(new Set(sent.map((m) => m.messageId)).size).toBe(2)
    expect(sent.find((m) => m.subject.includes('packed'))!.messageId).toContain('.status-packed.')
  })
})

describe('order updates by SMS (docs/api-contract.md, "Phone sign-in")', () => {
  it('texts each status once to a verified mobile with the switch on; an account without email gets no mail', async () => {
    const { order, who } = await placeTestOrder(t)
    const mobile = '9123456780'
    await t.db.update(users).set({ email: null, mobile, mobileVerified: true, smsOrderUpdates: true }).where(eq(users.id, who.user.id))
    sent.length = 0
    texts.length = 0
    await sendOrderMail(t.deps, { kind: 'placed', orderId: order._id })
    await sendOrderMail(t.deps, { kind: 'status', orderId: order._id, status: 'packed' })
    await sendOrderMail(t.deps, { kind: 'status', orderId: order._id, status: 'packed' })
    expect(sent).toHaveLength(0)
    expect(texts).toEqual([
      {
        to: mobile,
        template: 'order-status',
        text: `Your order ${order.orderId} is packed. See your order: https://shop.example/dashboard/myorder/${order._id}`,
      },
    ])
    // Switched off, or not verified: no SMS.
    await t.db.update(users).set({ smsOrderUpdates: false }).where(eq(users.id, who.user.id))
    await sendOrderMail(t.deps, { kind: 'status', orderId: order._id, status: 'out_for_delivery' })
    expect(texts).toHaveLength(1)
  })
})
