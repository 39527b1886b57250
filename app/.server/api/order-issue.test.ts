/**
 * The BFF's help-after-delivery calls (./order-issue.ts) against the REAL API in process, as
 * real-api.test.ts does: the photo upload, the report, the list, the admin's queue and decision, each
 * answer parsed by contract/order-issue.ts on both sides (docs/help-after-delivery.md).
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createTestApp, type TestApp } from '../../../api/testing/app.ts'
import { createAdmin } from '../../../api/testing/auth.ts'
import { testPng } from '../../../api/testing/fixtures.ts'
import { placeTestOrder } from '../../../api/testing/orders.ts'
import { inProcessWiring, apiFor } from '../api-context.ts'

const envBefore = { ...process.env }
let t: TestApp
let issues: typeof import('./order-issue.ts')
let sessionModule: typeof import('../session.ts')

beforeAll(async () => {
  t = await createTestApp()
  delete process.env.API_URL
  process.env.SESSION_SECRET = 'test-session-secret-0123456789abcdef'
  vi.resetModules()
  issues = await import('./order-issue.ts')
  sessionModule = await import('../session.ts')
})

afterAll(async () => {
  process.env = { ...envBefore }
  await t?.close()
})

const api = apiFor(inProcessWiring(async (request) => t.app.fetch(request)))

async function sessionWith(token: string) {
  const s = await sessionModule.RequestSession.fromRequest(new Request('http://shop.test/'))
  s.setTokens({ accessToken: token, refreshToken: 'not-used-here' })
  return s
}

describe('help after delivery through the BFF', () => {
  it('uploads a photo, reports a line, lists it; the admin finds a pending one and rejects it', async () => {
    const { who, order } = await placeTestOrder(t)
    await t.db.execute(sql`update orders set status = 'delivered', delivered_at = now() where id = ${order._id}`)
    const shopper = await sessionWith(who.token)

    const options = await issues.issueOptions(api, shopper, order._id)
    expect(options.ok && options.data).toMatchObject({ open: true, lines: [{ quantity: 1, unitsLeft: 1 }], issues: [] })
    if (!options.ok) return
    const photo = await issues.uploadIssuePhoto(api, shopper, new File([new Uint8Array(await testPng())], 'bag.png', { type: 'image/png' }))
    expect(photo.ok && photo.data.url).toMatch(/\.webp$/)
    if (!photo.ok) return

    // ₹150 is under the ₹200 cap: refunded at once, as a note for this cash order.
    const reported = await issues.reportIssue(api, shopper, {
      orderId: order._id,
      lineId: options.data.lines[0]!.lineId,
      kind: 'missing',
      units: 1,
      photo: photo.data.url,
    })
    expect(reported.ok && reported.message).toBe('₹150 will be paid back to you by the store in cash')
    const again = await issues.reportIssue(api, shopper, {
      orderId: order._id,
      lineId: options.data.lines[0]!.lineId,
      kind: 'missing',
      units: 1,
    })
    expect(again).toMatchObject({ ok: false, status: 409 })

    // A pending one (inserted as the cap would leave it) in the admin's queue, then rejected.
    const adminSession = await sessionWith((await createAdmin(t)).token)
    await t.db.execute(sql`update order_issues set status = 'pending', auto = false, refund_method = null where order_id = ${order._id}`)
    const queue = await issues.issueQueue(api, adminSession)
    const pending = queue.ok ? queue.data.find((i) => i.orderId === order._id) : undefined
    expect(pending).toMatchObject({ status: 'pending', value: 150, photo: photo.data.url })
    const decided = await issues.decideIssue(api, adminSession, { issueId: pending!._id, decision: 'reject', reason: 'Delivered in full' })
    expect(decided.ok && decided.data).toMatchObject({ status: 'rejected', rejectReason: 'Delivered in full' })
  })
})
