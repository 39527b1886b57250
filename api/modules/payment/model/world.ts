/**
 * The world of the payment model test (api/modules/payment/model.test.ts; docs/payments.md, "The
 * payment model test"): one API app for the whole file (a fresh database costs seconds on PGlite),
 * the test provider (api/modules/payment/test-provider.ts) with its refunds played by the model, and
 * per run a `World`: the run's products, orders and provider-side records, the webhooks the provider
 * has produced and not yet delivered, and what every delivery answered. Commands read and change a
 * World; the invariants (./invariants.ts) read the database and compare it with the World.
 *
 * Amounts are integer paise everywhere, as on the wire and in the database.
 */
import pino from 'pino'
import { sql } from 'drizzle-orm'
import { queryRows } from '../../../db/query.ts'
import { createRateLimits } from '../../../lib/rate-limit.ts'
import { createTestApp, type TestApp } from '../../../testing/app.ts'
import { createAdmin, createShopper, type SignedIn } from '../../../testing/auth.ts'
import { insertProduct } from '../../../testing/fixtures.ts'
import { TEST_ADDRESS } from '../../../testing/orders.ts'
import { startSession } from '../../user/service.ts'
import { hmacHex, ProviderError, type ProviderRefund } from '../provider.ts'
import { testPaymentSettings } from '../settings.ts'
import { createTestProvider, type SignedWebhook, type TestProvider } from '../test-provider.ts'

/** The hold of an unpaid online order in the model (ms): the clock commands step around it. */
export const MODEL_RESERVATION_MS = 15 * 60_000
/** Reconciliation asks the provider about a payment unconfirmed this long (ms). */
export const MODEL_RECONCILE_AFTER_MS = 5 * 60_000

const KEY_SECRET = 'model-key-secret-0123456789'
const WEBHOOK_SECRET = 'model-webhook-secret-0123456789'
const URLS = { callbackUrl: 'http://shop.test/checkout/payment/callback', cancelUrl: 'http://shop.test/checkout' }

/** A refund as the provider holds it (the model decides when it is processed or failed). */
export interface ProviderRefundRecord extends ProviderRefund {
  receipt: string
  status: 'pending' | 'processed' | 'failed'
}

/** A payment the provider captured, as the model knows it. */
export interface CaptureRecord {
  paymentId: string
  providerOrderId: string
  amount: number
  currency: string
  /** True when amount and currency are the order's (a capture the shop must apply or refund). */
  correct: boolean
  /** True once the shop was told of it and answered (a webhook answered 200, or a callback that settled). */
  delivered: boolean
}

/** An order the model started. */
export interface ModelOrder {
  id: string
  orderNumber: string
  providerOrderId: string
  amount: number
  /** Index of the shopper (Harness.shoppers) who placed it. */
  shopper: number
  /** The provider order's status at the provider: `paid` once a correct capture was made there. */
  providerStatus: 'created' | 'paid'
}

/** A webhook the provider produced: its signed body and its type. */
export interface QueuedWebhook extends SignedWebhook {
  type: string
}

/** One run's state: the model's view and the answers the app gave. */
export interface World {
  run: number
  products: { id: string; start: number }[]
  orders: ModelOrder[]
  captures: CaptureRecord[]
  /** Webhooks produced by the provider and not delivered yet (delivered in any order). */
  outbox: QueuedWebhook[]
  /** Webhooks delivered at least once (replayed by the replay command). */
  delivered: QueuedWebhook[]
  /** Per event id: how many deliveries were answered 200 as applied (not `duplicate`). */
  applied: Map<string, number>
  /** Receipts (our refund ids) of refund sends the provider refused (an outage). */
  failedSends: Set<string>
  /** Broken rules seen in answers (a 5xx, a signed webhook refused); the invariants report them. */
  violations: string[]
  /** The provider's refunds (Harness.providerRefunds: every run's), for the commands' checks. */
  providerRefunds: ProviderRefundRecord[]
  /** Refund sends still to fail (a provider outage). */
  outage: number
  seq: number
}

/** The app and its actors, shared by every run of the file. */
export interface Harness {
  t: TestApp
  provider: TestProvider
  admin: SignedIn
  shoppers: (SignedIn & { addressId: string })[]
  /** Every refund the provider was asked for, of every run (its `refund` and `fetchRefunds` read it). */
  providerRefunds: ProviderRefundRecord[]
  /** Warnings and errors the app logged (a sweep step that failed is one). */
  log: string[]
  /** The run the provider's webhooks and refunds belong to now. */
  world?: World
  /**
   * Keys of invariants not checked (api/modules/payment/model.test.ts reads them from
   * PAYMENT_MODEL_IGNORE): only to explore past a known bug with a fuzz run; the normal run checks all.
   */
  ignoredInvariants?: ReadonlySet<string>
  /** Moves the app's clock forward (ms; it never goes back) and signs the actors in again (their tokens expire). */
  advance(ms: number): Promise<void>
  close(): Promise<void>
}

/** The webhook signature the provider sends (HMAC-SHA256 of the raw body with the webhook secret). */
export const signWebhook = (rawBody: string) => hmacHex(WEBHOOK_SECRET, rawBody)

/**
 * Builds the app with the test provider whose refunds the model plays: a refund is answered
 * `pending` and settled only when a command says processed or failed (the test provider settles by
 * itself after 10 ms, which would make a run depend on timing); during an outage a send is refused
 * with a 503 before anything is made, and one past what is left of the payment with a 400, as
 * Razorpay refuses it. The provider's own webhooks go to the current run's outbox.
 */
export async function createHarness(): Promise<Harness> {
  const base = createTestProvider({ keySecret: KEY_SECRET, webhookSecret: WEBHOOK_SECRET })
  const providerRefunds: ProviderRefundRecord[] = []
  let offset = 0
  let refundSeq = 0
  const harness = {} as Harness
  const provider: TestProvider = {
    ...base,
    async refund(paymentId, input) {
      const world = harness.world
      if (world && world.outage > 0) {
        world.outage--
        world.failedSends.add(input.receipt)
        throw new ProviderError('The payment provider is down', 503, 'SERVER_ERROR')
      }
      const payment = await base.fetchPayment(paymentId).catch(() => undefined)
      if (!payment || payment.status !== 'captured') {
        world?.failedSends.add(input.receipt)
        throw new ProviderError('The payment cannot be refunded', 400, 'BAD_REQUEST_ERROR')
      }
      // Razorpay refuses a refund past what is left of the payment (https://razorpay.com/docs/api/refunds/).
      const done = providerRefunds.filter((r) => r.payment_id === paymentId && r.status !== 'failed').reduce((s, r) => s + r.amount, 0)
      if (input.amount > payment.amount - done) {
        world?.failedSends.add(input.receipt)
        throw new ProviderError('The total refund amount is greater than the refund payment amount', 400, 'BAD_REQUEST_ERROR')
      }
      const refund: ProviderRefundRecord = {
        id: `rfnd_M${String(++refundSeq).padStart(13, '0')}`,
        payment_id: paymentId,
        amount: input.amount,
        currency: 'INR',
        status: 'pending',
        receipt: input.receipt,
      }
      providerRefunds.unshift(refund)
      return { ...refund }
    },
    async fetchRefunds(paymentId) {
      return providerRefunds.filter((r) => r.payment_id === paymentId).map((r) => ({ ...r }))
    },
  }
  base.setSink(async (hook) => {
    const type = String((JSON.parse(hook.rawBody) as { event?: unknown }).event)
    harness.world?.outbox.push({ ...hook, type })
  })
  const log: string[] = []
  const t = await createTestApp({
    logger: pino({ level: 'warn' }, { write: (line: string) => void log.push(line) }),
    mailer: { send: async () => undefined },
    // The model sends many orders, carts and webhooks a minute from one address: limits are not under test here.
    rateLimits: createRateLimits(
      Object.fromEntries(
        ['cartWriteByCart', 'cartWriteByIp', 'orderByUser', 'paymentWebhookByIp', 'paymentCallbackByIp'].map((k) => [
          k,
          { points: 1_000_000, duration: 60 },
        ]),
      ),
    ),
    clock: () => new Date(Date.now() + offset),
    payments: {
      ...testPaymentSettings(),
      provider,
      testProvider: provider,
      reservationMs: MODEL_RESERVATION_MS,
      reconcileAfterMs: MODEL_RECONCILE_AFTER_MS,
    },
  })
  const shoppers: Harness['shoppers'] = []
  for (let i = 0; i < 2; i++) {
    const who = await createShopper(t)
    const res = await t.call('address/create', { method: 'POST', json: TEST_ADDRESS, token: who.token })
    shoppers.push({ ...who, addressId: res.body.data._id as string })
  }
  return Object.assign(harness, {
    t,
    provider,
    admin: await createAdmin(t),
    shoppers,
    providerRefunds,
    log,
    async advance(ms: number) {
      offset += ms
      for (const who of [harness.admin, ...shoppers])
        who.token = (
          await startSession(t.db, { db: t.db, jwtSecret: t.deps.jwtSecret, clock: t.deps.clock }, who.user, t.deps.clock())
        ).accessToken
    },
    close: () => t.close(),
  })
}

let keySeq = 0

/** Empties the shopper's cart (straight in the database: a left-over unpaid cart is not the model's concern). */
export async function emptyCart(t: TestApp, userId: string): Promise<void> {
  await t.db.execute(sql`delete from cart_lines where cart_id in (select id from carts where user_id = ${userId})`)
}

/** `POST /api/payment/start` for the shopper's cart with a fresh idempotency key. */
export const startPayment = (t: TestApp, who: { token: string; addressId: string }) =>
  t.call('payment/start', {
    method: 'POST',
    json: { addressId: who.addressId, method: 'upi', ...URLS },
    token: who.token,
    headers: { 'Idempotency-Key': `model-${process.pid}-${++keySeq}` },
  })

/** Delivers a signed webhook to `POST /api/payment/webhook/razorpay` as the provider does. */
export const deliverWebhook = (t: TestApp, hook: SignedWebhook) =>
  t.call('payment/webhook/razorpay', {
    method: 'POST',
    body: hook.rawBody,
    headers: { 'Content-Type': 'application/json', 'X-Razorpay-Signature': hook.signature, 'x-razorpay-event-id': hook.eventId },
  })

/** A Razorpay-shaped event body (https://razorpay.com/docs/webhooks/payloads/payments/) with `entities` as its payload. */
export function eventBody(event: string, entities: Record<string, Record<string, unknown>>): string {
  return JSON.stringify({
    entity: 'event',
    event,
    contains: Object.keys(entities),
    payload: Object.fromEntries(Object.entries(entities).map(([k, v]) => [k, { entity: v }])),
    created_at: 1,
  })
}

/** A webhook the model makes as the provider would (signed with the webhook secret), with a run-unique event id. */
export function providerWebhook(world: World, event: string, entities: Record<string, Record<string, unknown>>): QueuedWebhook {
  const rawBody = eventBody(event, entities)
  return { rawBody, signature: signWebhook(rawBody), eventId: `evt_M${world.run}x${++world.seq}`, type: event }
}

/** A fresh World for run `run`: two products with a little stock each (so a late capture can find it gone). */
export async function newWorld(h: Harness, run: number): Promise<World> {
  const products = []
  for (const [i, [price, stock]] of [
    [120, 3],
    [45, 2],
  ].entries()) {
    const p = await insertProduct(h.t.db, { name: `Model item ${run}-${i}`, price: price!, sellingPrice: price!, stock: stock! })
    products.push({ id: p.id, start: stock! })
  }
  const world: World = {
    run,
    products,
    orders: [],
    captures: [],
    outbox: [],
    delivered: [],
    applied: new Map(),
    failedSends: new Set(),
    violations: [],
    providerRefunds: h.providerRefunds,
    outage: 0,
    seq: 0,
  }
  h.world = world
  return world
}

/** The grand total in paise of an order (for a mismatched capture's amount). */
export async function grandTotal(t: TestApp, orderId: string): Promise<number> {
  const [row] = await queryRows<{ g: number }>(t.db, sql`select grand_total_paise as g from orders where id = ${orderId}`)
  return row!.g
}
