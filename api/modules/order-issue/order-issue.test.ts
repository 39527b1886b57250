/**
 * Help after delivery (docs/help-after-delivery.md) through the API, on a fresh database (PGlite, or
 * PostgreSQL with TEST_DATABASE_URL, where the concurrent copies really race): the 48-hour window at
 * its edge on an injected clock, the value of a report (what was paid, coupon share off), automatic
 * refunds under the per-order and per-month caps and pending reports above them, the refund to the
 * online payment or the cash note, approve and reject with their audit rows and one mail each, who may
 * do what, bad input (400, never 500), and the races: duplicate reports of one line, one shopper's
 * reports of several orders at once, two admins approving at once.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryRows } from '../../db/query.ts'
import { newId } from '../../lib/ids.ts'
import { ISSUE_PHOTOS_PER_HOUR } from '../../lib/rate-limit.ts'
import type { MailMessage } from '../../lib/mail.ts'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { createAdmin, createShopper, createStaff, type SignedIn } from '../../testing/auth.ts'
import { insertProduct, SEEDED_DEFAULT_STORE, testPng } from '../../testing/fixtures.ts'
import { payOnline, TEST_ADDRESS } from '../../testing/orders.ts'
import { testPaymentSettings } from '../payment/settings.ts'
import { createTestProvider } from '../payment/test-provider.ts'
import { ISSUE_MESSAGES, ISSUE_NOTE_MAX } from '../../../contract/order-issue.ts'
import { sendIssueMail } from './mail.ts'

const provider = createTestProvider({ keySecret: 'test-key-secret-0123456789', webhookSecret: 'test-webhook-secret-0123456789' })
const HOUR = 3_600_000

let t: TestApp
let admin: SignedIn
/** The app's clock: a fixed moment when set, else the real time. */
let fixedNow: Date | null = null
const now = () => fixedNow ?? new Date()
const sent: MailMessage[] = []
let keySeq = 0

beforeAll(async () => {
  t = await createTestApp({
    mailer: { send: async (m) => void sent.push(m) },
    clock: now,
    payments: { ...testPaymentSettings(), provider, testProvider: provider },
    // Caps of the defaults: ₹200 an order, ₹500 a month, 48 hours.
  })
  admin = await createAdmin(t)
})
afterAll(() => t?.close())

type Shopper = SignedIn & { addressId: string }
async function shopper(): Promise<Shopper> {
  const who = await createShopper(t)
  const res = await t.call('address/create', { method: 'POST', json: TEST_ADDRESS, token: who.token })
  expect(res.status).toBe(201)
  return { ...who, addressId: res.body.data._id }
}

/**
 * A delivered order of `who` (a fresh shopper by default): `qty` units of a new product at `price`
 * rupees, paid by cash on delivery or online (UPI through the test provider), delivered `hoursAgo`
 * hours before the clock's now.
 */
async function delivered(opts: { price?: number; qty?: number; online?: boolean; hoursAgo?: number; who?: Shopper } = {}) {
  const who = opts.who ?? (await shopper())
  const price = opts.price ?? 150
  const product = await insertProduct(t.db, { name: `Toor Dal ${++keySeq}`, unit: '1 kg', price, sellingPrice: price, stock: 50 })
  for (let i = 0; i < (opts.qty ?? 1); i++)
    expect((await t.call('cart/create', { method: 'POST', json: { productId: product.id }, token: who.token })).status).toBe(200)
  const headers = { 'Idempotency-Key': `issue-key-${process.pid}-${++keySeq}` }
  let orderId: string
  if (opts.online) {
    orderId = (await payOnline(t, who, provider, headers['Idempotency-Key']))._id
  } else {
    const res = await t.call('order/cash-on-delivery', { method: 'POST', json: { addressId: who.addressId }, token: who.token, headers })
    expect(res.status).toBe(201)
    orderId = res.body.data._id
  }
  const at = new Date(now().getTime() - (opts.hoursAgo ?? 1) * HOUR)
  await t.db.execute(sql`update orders set status = 'delivered', delivered_at = ${at.toISOString()} where id = ${orderId}`)
  const options = await t.call('order-issue/list', { method: 'POST', json: { orderId }, token: who.token })
  expect(options.status).toBe(200)
  return { who, orderId, lineId: options.body.data.lines[0].lineId as string, productId: product.id }
}

const report = (who: SignedIn, body: Record<string, unknown>) =>
  t.call('order-issue/report', { method: 'POST', json: body, token: who.token })
const decide = (who: SignedIn, body: Record<string, unknown>) =>
  t.call('order-issue/decide', { method: 'POST', json: body, token: who.token })
const auditRows = (orderId: string) =>
  queryRows<{ action: string; actor_id: string | null; after: Record<string, unknown> }>(
    t.db,
    sql`select action, actor_id, after from audit_log where entity_id = ${orderId} and after ? 'issue' order by at, id`,
  )
const refundRows = (orderId: string) =>
  queryRows<{ id: string; amount_paise: number; reason: string }>(
    t.db,
    sql`select id, amount_paise, reason from refunds where order_id = ${orderId} order by created_at`,
  )

describe('reporting a problem', () => {
  it('refunds a missing item of a cash order at once as a note the store pays back, audited and mailed once', async () => {
    const { who, orderId, lineId } = await delivered({ price: 150, qty: 2 })
    const res = await report(who, { orderId, lineId, kind: 'missing', units: 1, note: 'Not in the bag' })
    expect(res.status).toBe(200)
    expect(res.body.message).toBe('₹150 will be paid back to you by the store in cash')
    expect(res.body.data).toMatchObject({
      status: 'refunded',
      auto: true,
      refundMethod: 'cod_note',
      value: 150,
      units: 1,
      kind: 'missing',
      note: 'Not in the bag',
    })
    // No refund row for cash: the note is the report itself.
    expect(await refundRows(orderId)).toEqual([])
    const audit = await auditRows(orderId)
    expect(audit).toHaveLength(1)
    expect(audit[0]).toMatchObject({ action: 'refund', actor_id: null, after: { decision: 'auto', amount: 150, method: 'cod_note' } })
    // Mailed once, even when the job runs twice.
    await t.deps.jobs.drain()
    await sendIssueMail(t.deps, res.body.data._id)
    const mails = sent.filter((m) => m.subject === `Refund for order ${res.body.data.orderNumber}`)
    expect(mails).toHaveLength(1)
    expect(mails[0]!.text).toContain('will be paid back to you by the store in cash')
    // The order page's list shows it, the line has 1 unit left.
    const list = await t.call('order-issue/list', { method: 'POST', json: { orderId }, token: who.token })
    expect(list.body.data.lines[0].unitsLeft).toBe(1)
    expect(list.body.data.issues).toHaveLength(1)
  })

  it('refunds an online order to its payment: a refunds row of exactly the paid share, shown on the order', async () => {
    const { who, orderId, lineId } = await delivered({ price: 99.99, qty: 3, online: true })
    const res = await report(who, { orderId, lineId, kind: 'damaged', units: 1 })
    expect(res.status).toBe(200)
    expect(res.body.message).toBe('Refunded ₹99.99 to your UPI')
    expect(res.body.data).toMatchObject({ status: 'refunded', refundMethod: 'online', paymentMethod: 'upi', value: 99.99 })
    const rows = await refundRows(orderId)
    expect(rows).toMatchObject([{ amount_paise: 9999, reason: 'Help: damaged 1 × ' + (await lineName(orderId)) }])
    const details = await t.call('order/details', { method: 'POST', json: { orderId }, token: who.token })
    expect(details.body.data.payment.refunds[0]).toMatchObject({ amount: 99.99 })
  })

  it('values units at what was paid: pro rata rounded down, the last units take the rest (never more than the line)', async () => {
    // ₹33.34 × 3 = 10,002 paise: one unit is 3,334, two are 6,668, and all three add up to exactly 10,002.
    const { who, orderId, lineId } = await delivered({ price: 33.34, qty: 3 })
    const a = await report(who, { orderId, lineId, kind: 'missing', units: 1 })
    const b = await report(who, { orderId, lineId, kind: 'missing', units: 2 })
    expect([a.body.data.value, b.body.data.value]).toEqual([33.34, 66.68])
    const c = await report(who, { orderId, lineId, kind: 'missing', units: 1 })
    expect(c.status).toBe(409)
    expect(c.body.message).toBe(ISSUE_MESSAGES.nothingLeft)
  })

  it('values a line of a coupon order at its total less its coupon share (docs/offers.md, "Refunds")', async () => {
    const a = await insertProduct(t.db, { name: 'Cashews help', price: 300, sellingPrice: 300, stock: 3 })
    const b = await insertProduct(t.db, { name: 'Dates help', price: 100, sellingPrice: 100, stock: 3 })
    const who = await shopper()
    for (const p of [a, b])
      expect((await t.call('cart/create', { method: 'POST', json: { productId: p.id }, token: who.token })).status).toBe(200)
    expect((await t.call('cart/coupon', { method: 'POST', json: { code: 'WELCOME50' }, token: who.token })).status).toBe(200)
    const placed = await t.call('order/cash-on-delivery', {
      method: 'POST',
      json: { addressId: who.addressId },
      token: who.token,
      headers: { 'Idempotency-Key': `issue-coupon-${process.pid}-${++keySeq}` },
    })
    expect(placed.status).toBe(201)
    // Shares by largest remainder: 5,000 × 300/400 = 3,750 and 5,000 × 100/400 = 1,250 paise.
    expect(placed.body.data.items.map((l: { couponShare: number }) => l.couponShare)).toEqual([37.5, 12.5])
    const orderId = placed.body.data._id
    await t.db.execute(sql`update orders set status = 'delivered', delivered_at = ${new Date().toISOString()} where id = ${orderId}`)
    const lines = (await t.call('order-issue/list', { method: 'POST', json: { orderId }, token: who.token })).body.data.lines
    const dates = lines.find((l: { name: string }) => l.name === 'Dates help')
    const res = await report(who, { orderId, lineId: dates.lineId, kind: 'missing', units: 1 })
    expect(res.body.data).toMatchObject({ value: 87.5, status: 'refunded' })
  })

  it('is open until exactly HELP_WINDOW_HOURS (48) after delivery, then closed (injected clock)', async () => {
    fixedNow = new Date('2026-11-20T10:00:00.000Z')
    try {
      const { who, orderId, lineId } = await delivered({ hoursAgo: 48 })
      const edge = await report(who, { orderId, lineId, kind: 'expired', units: 1 })
      expect(edge.status).toBe(200)
      const late = await delivered({ hoursAgo: 48 })
      fixedNow = new Date(fixedNow.getTime() + 1)
      const closed = await report(late.who, { orderId: late.orderId, lineId: late.lineId, kind: 'expired', units: 1 })
      expect(closed.status).toBe(409)
      expect(closed.body.message).toBe(ISSUE_MESSAGES.windowClosed(48))
      const list = await t.call('order-issue/list', { method: 'POST', json: { orderId: late.orderId }, token: late.who.token })
      expect(list.body.data).toMatchObject({ open: false, openUntil: '2026-11-20T10:00:00.000Z' })
    } finally {
      fixedNow = null
    }
  })

  it('refuses an order not delivered (409), more units than the line has (409), and another shopper’s order (404)', async () => {
    const { who, orderId, lineId } = await delivered({ qty: 2 })
    expect((await report(who, { orderId, lineId, kind: 'missing', units: 3 })).body.message).toBe(ISSUE_MESSAGES.tooManyUnits(2))
    const stranger = await shopper()
    expect((await report(stranger, { orderId, lineId, kind: 'missing', units: 1 })).status).toBe(404)
    expect((await t.call('order-issue/list', { method: 'POST', json: { orderId }, token: stranger.token })).status).toBe(404)
    expect((await report(admin, { orderId, lineId, kind: 'missing', units: 1 })).status).toBe(404)
    expect((await report(who, { orderId, lineId: 'nosuchline', kind: 'missing', units: 1 })).status).toBe(404)
    await t.db.execute(sql`update orders set status = 'out_for_delivery', delivered_at = null where id = ${orderId}`)
    const early = await report(who, { orderId, lineId, kind: 'missing', units: 1 })
    expect(early.status).toBe(409)
    expect(early.body.message).toBe(ISSUE_MESSAGES.notDelivered)
    expect((await t.call('order-issue/report', { method: 'POST', json: { orderId, lineId, kind: 'missing', units: 1 } })).status).toBe(401)
  })

  it('answers bad input with 400, never 500', async () => {
    const { who, orderId, lineId } = await delivered()
    const bad: unknown[] = [
      {},
      { orderId, lineId, kind: 'stolen', units: 1 },
      { orderId, lineId, kind: 'missing', units: 0 },
      { orderId, lineId, kind: 'missing', units: 1.5 },
      { orderId, lineId, kind: 'missing', units: '1' },
      { orderId, lineId, kind: 'missing', units: 1, note: 'x'.repeat(ISSUE_NOTE_MAX + 1) },
      { orderId, lineId, kind: 'missing', units: 1, note: 'bell\u0007' },
      { orderId, lineId, kind: 'missing', units: 1, photo: 'javascript:alert(1)' },
      { orderId, lineId, kind: 'missing', units: 1, photo: '/uploads/0123456789abcdef01234567.webp' },
      { orderId: ['x'], lineId, kind: 'missing', units: 1 },
      'not json',
    ]
    for (const body of bad) expect((await report(who, body as Record<string, unknown>)).status, JSON.stringify(body)).toBe(400)
    for (const body of [
      {},
      { issueId: 'x', decision: 'maybe' },
      { issueId: 'x', decision: 'reject' },
      { issueId: 'x', decision: 'reject', reason: '  ' },
    ])
      expect((await decide(admin, body)).status, JSON.stringify(body)).toBe(400)
    expect((await decide(admin, { issueId: 'nosuchissue', decision: 'approve' })).status).toBe(404)
  })

  it('keeps a photo uploaded through the upload path (WebP), and refuses a file that is not an image (415)', async () => {
    const { who, orderId, lineId } = await delivered()
    const upload = (bytes: Buffer, type: string) => {
      const fd = new FormData()
      fd.append('photo', new Blob([new Uint8Array(bytes)], { type }), 'photo')
      return t.call('order-issue/photo', { method: 'POST', body: fd, token: who.token })
    }
    expect((await upload(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/svg+xml')).status).toBe(415)
    const up = await upload(await testPng({ width: 40, height: 30 }), 'image/png')
    expect(up.status).toBe(201)
    expect(up.body.data.url).toMatch(/\.webp$/)
    const res = await report(who, { orderId, lineId, kind: 'damaged', units: 1, photo: up.body.data.url })
    expect(res.status).toBe(200)
    expect(res.body.data.photo).toBe(up.body.data.url)
  })

  it('limits each shopper to ISSUE_PHOTOS_PER_HOUR uploads an hour (429 with Retry-After); another shopper is not refused', async () => {
    const [who, other] = [await createShopper(t), await createShopper(t)]
    const upload = (token: string) => {
      const fd = new FormData()
      fd.append('photo', new Blob([new Uint8Array(Buffer.from('not an image'))], { type: 'image/png' }), 'photo')
      return t.call('order-issue/photo', { method: 'POST', body: fd, token })
    }
    // Refused files count too: the budget is spent before the body is decoded.
    for (let i = 0; i < ISSUE_PHOTOS_PER_HOUR; i++) expect((await upload(who.token)).status).toBe(415)
    const refused = await upload(who.token)
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(refused.body.message).toBe('Too many photos uploaded: try again later')
    expect((await upload(other.token)).status).toBe(415)
  })
})

describe('caps and decisions', () => {
  it('waits above the per-order cap (₹200 of automatic refunds an order); an admin approves it once, audited and mailed', async () => {
    const { who, orderId, lineId } = await delivered({ price: 150, qty: 2, online: true })
    expect((await report(who, { orderId, lineId, kind: 'missing', units: 1 })).body.data.status).toBe('refunded')
    const second = await report(who, { orderId, lineId, kind: 'missing', units: 1 })
    expect(second.body.message).toBe("We'll review this within 24 hours")
    expect(second.body.data).toMatchObject({ status: 'pending', auto: false, refundMethod: null })
    const issueId = second.body.data._id
    // In the queue, oldest first; a shopper may not see it.
    const queue = await t.call('order-issue/queue', { token: admin.token })
    expect(queue.body.data.map((i: { _id: string }) => i._id)).toContain(issueId)
    // Oldest first.
    const times = queue.body.data.map((i: { createdAt: string }) => i.createdAt)
    expect([...times].sort()).toEqual(times)
    // Staff see their store's reports only.
    const elsewhere = await createStaff(t)
    await t.db.execute(sql`update users set store_id = null where id = ${elsewhere.user.id}`)
    expect((await t.call('order-issue/queue', { token: elsewhere.token })).body.data).toEqual([])
    expect((await t.call('order-issue/queue', { token: who.token })).status).toBe(403)
    // Staff may not approve (a refund moves money); the shopper may not decide at all.
    const staff = await createStaff(t)
    await t.db.execute(sql`update users set store_id = ${SEEDED_DEFAULT_STORE} where id = ${staff.user.id}`)
    expect((await decide(staff, { issueId, decision: 'approve' })).status).toBe(403)
    expect((await decide(who, { issueId, decision: 'approve' })).status).toBe(403)
    await t.deps.jobs.drain()
    const before = sent.length
    const ok = await decide(admin, { issueId, decision: 'approve' })
    expect(ok.status).toBe(200)
    expect(ok.body.data).toMatchObject({ status: 'refunded', auto: false, refundMethod: 'online' })
    expect((await decide(admin, { issueId, decision: 'approve' })).status).toBe(409)
    expect((await refundRows(orderId)).map((r) => r.amount_paise)).toEqual([15000, 15000])
    const audit = await auditRows(orderId)
    expect(audit.map((a) => [a.action, a.actor_id, a.after.decision])).toEqual([
      ['refund', null, 'auto'],
      ['refund', admin.user.id, 'approved'],
    ])
    await t.deps.jobs.drain()
    await t.deps.jobs.drain()
    expect(sent.slice(before).filter((m) => m.subject === `Refund for order ${ok.body.data.orderNumber}`)).toHaveLength(1)
  })

  it('rejects with a reason (staff of the store or an admin): the units may be reported again, mailed with the reason', async () => {
    const { who, orderId, lineId } = await delivered({ price: 250 })
    const pending = await report(who, { orderId, lineId, kind: 'wrong_item', units: 1 })
    expect(pending.body.data.status).toBe('pending')
    const otherStore = await createStaff(t)
    await t.db.execute(sql`update users set store_id = null where id = ${otherStore.user.id}`)
    expect((await decide(otherStore, { issueId: pending.body.data._id, decision: 'reject', reason: 'No' })).status).toBe(404)
    await t.deps.jobs.drain()
    const before = sent.length
    const res = await decide(admin, { issueId: pending.body.data._id, decision: 'reject', reason: 'The photo shows the right item' })
    expect(res.body.data).toMatchObject({ status: 'rejected', rejectReason: 'The photo shows the right item' })
    expect((await auditRows(orderId))[0]).toMatchObject({ action: 'reject', actor_id: admin.user.id })
    await t.deps.jobs.drain()
    const mails = sent.slice(before).filter((m) => m.subject === `Your report on order ${res.body.data.orderNumber}`)
    expect(mails).toHaveLength(1)
    expect(mails[0]!.text).toContain('The photo shows the right item')
    expect(await refundRows(orderId)).toEqual([])
    const list = await t.call('order-issue/list', { method: 'POST', json: { orderId }, token: who.token })
    expect(list.body.data.lines[0].unitsLeft).toBe(1)
  })

  it('lists every report of one order, whatever its status, to an admin and the staff who may open the order (POST /of-order); 404 to another store’s staff, 403 to the shopper', async () => {
    const { who, orderId, lineId } = await delivered({ price: 150, qty: 3, online: true })
    const refunded = await report(who, { orderId, lineId, kind: 'missing', units: 1 })
    const pending = await report(who, { orderId, lineId, kind: 'damaged', units: 1, note: 'Crushed box' })
    const rejected = await report(who, { orderId, lineId, kind: 'expired', units: 1 })
    await decide(admin, { issueId: rejected.body.data._id, decision: 'reject', reason: 'Within its date' })
    const ofOrder = (token: string, id = orderId) => t.call('order-issue/of-order', { method: 'POST', json: { orderId: id }, token })

    const answer = await ofOrder(admin.token)
    expect(answer.status).toBe(200)
    expect(answer.body.data.map((i: { _id: string; status: string }) => [i._id, i.status])).toEqual([
      [refunded.body.data._id, 'refunded'],
      [pending.body.data._id, 'pending'],
      [rejected.body.data._id, 'rejected'],
    ])
    expect(answer.body.data[1]).toMatchObject({ kind: 'damaged', units: 1, note: 'Crushed box', value: 150, orderId })
    expect(answer.body.data[2]).toMatchObject({ rejectReason: 'Within its date' })
    // Staff of the order's store read them, as does a staff account with no store (it runs every
    // store, as for the order itself); staff of another store get the same 404 as an unknown order.
    const staff = await createStaff(t)
    await t.db.execute(sql`update users set store_id = ${SEEDED_DEFAULT_STORE} where id = ${staff.user.id}`)
    expect((await ofOrder(staff.token)).body.data).toHaveLength(3)
    const anyStore = await createStaff(t)
    await t.db.execute(sql`update users set store_id = null where id = ${anyStore.user.id}`)
    expect((await ofOrder(anyStore.token)).body.data).toHaveLength(3)
    const elsewhere = await createStaff(t)
    await t.db.execute(sql`update users set store_id = 'storeBlrKoramangala' where id = ${elsewhere.user.id}`)
    const hidden = await ofOrder(elsewhere.token)
    expect(hidden.status).toBe(404)
    expect(hidden.body.message).toBe((await ofOrder(admin.token, newId())).body.message)
    expect((await ofOrder(admin.token, 'not an id')).status).toBe(404)
    expect((await ofOrder(who.token)).status).toBe(403)
    // An order with no report answers an empty list.
    expect((await ofOrder(admin.token, (await delivered({ price: 90 })).orderId)).body.data).toEqual([])
  })

  it('waits above the per-month cap (₹500 of one shopper’s automatic refunds in the IST month), and starts afresh next month', async () => {
    fixedNow = new Date('2026-10-31T18:25:00.000Z') // 23:55 IST on 31 October
    try {
      const who = await shopper()
      const outcomes: string[] = []
      for (let i = 0; i < 4; i++) {
        const o = await delivered({ who, price: 150 })
        outcomes.push((await report(who, { orderId: o.orderId, lineId: o.lineId, kind: 'missing', units: 1 })).body.data.status)
      }
      expect(outcomes).toEqual(['refunded', 'refunded', 'refunded', 'pending'])
      fixedNow = new Date('2026-10-31T18:30:00.000Z') // 00:00 IST on 1 November
      const o = await delivered({ who, price: 150 })
      expect((await report(who, { orderId: o.orderId, lineId: o.lineId, kind: 'missing', units: 1 })).body.data.status).toBe('refunded')
    } finally {
      fixedNow = null
    }
  })
})

describe('races (PostgreSQL: the copies really run at once)', () => {
  it('duplicate reports of one line never report more units than were delivered', async () => {
    const { who, orderId, lineId } = await delivered({ price: 40, qty: 3, online: true })
    const answers = await Promise.all(Array.from({ length: 6 }, () => report(who, { orderId, lineId, kind: 'missing', units: 2 })))
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409, 409, 409])
    const [row] = await queryRows<{ units: number }>(
      t.db,
      sql`select coalesce(sum(units), 0)::int as units from order_issues where order_line_id = ${lineId}`,
    )
    expect(row!.units).toBe(2)
    expect(await refundRows(orderId)).toHaveLength(1)
  })

  it('one shopper’s reports of several orders at once keep the per-month cap', async () => {
    const who = await shopper()
    const orders = []
    for (let i = 0; i < 5; i++) orders.push(await delivered({ who, price: 150 }))
    const answers = await Promise.all(orders.map((o) => report(who, { orderId: o.orderId, lineId: o.lineId, kind: 'missing', units: 1 })))
    expect(answers.every((a) => a.status === 200)).toBe(true)
    expect(answers.filter((a) => a.body.data.auto).length).toBe(3)
    const [row] = await queryRows<{ paise: number }>(
      t.db,
      sql`select sum(value_paise)::int as paise from order_issues where user_id = ${who.user.id} and auto`,
    )
    expect(row!.paise).toBe(45_000)
  })

  it('two admins approving at once refund once', async () => {
    const { who, orderId, lineId } = await delivered({ price: 300, online: true })
    const pending = await report(who, { orderId, lineId, kind: 'damaged', units: 1 })
    const admin2 = await createAdmin(t)
    const answers = await Promise.all(
      [admin, admin2, admin, admin2].map((a) => decide(a, { issueId: pending.body.data._id, decision: 'approve' })),
    )
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409])
    expect(await refundRows(orderId)).toHaveLength(1)
    expect((await auditRows(orderId)).filter((a) => a.after.decision === 'approved')).toHaveLength(1)
  })
})

async function lineName(orderId: string): Promise<string> {
  const [row] = await queryRows<{ name: string }>(t.db, sql`select name from order_lines where order_id = ${orderId}`)
  return row!.name
}
