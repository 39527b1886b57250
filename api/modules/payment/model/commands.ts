/**
 * The commands of the payment model test (docs/payments.md, "The payment model test"): what
 * shoppers, admins, the provider and the job runner do, each driving the real API app
 * (./world.ts) and each followed by every invariant (./invariants.ts). Commands pick their order,
 * webhook or refund by an index taken modulo what exists when they run, so any generated sequence
 * is valid and shrinks well; several commands fire N copies of one request at once (Promise.all)
 * to reach the interleavings a sequence cannot.
 */
import fc from 'fast-check'
import { REFUND_MAX_FAILURES } from '../refunds.ts'
import { runPaymentSweeps, expireReservations, reconcilePendingPayments } from '../service.ts'
import { sendPendingRefunds } from '../refunds.ts'
import { sql } from 'drizzle-orm'
import { queryRows } from '../../../db/query.ts'
import { newId } from '../../../lib/ids.ts'
import { checkInvariants } from './invariants.ts'
import {
  deliverWebhook,
  emptyCart,
  MODEL_RESERVATION_MS,
  providerWebhook,
  startPayment,
  type Harness,
  type ModelOrder,
  type QueuedWebhook,
  type World,
} from './world.ts'

type Answer = { status: number; body: { data?: Record<string, unknown>; message?: string } | null }

/** How many times each command ran in this process (printed by the test: what the budget reached). */
export const commandCounts = new Map<string, number>()

/** A command: its action, then every invariant. */
abstract class ModelCommand implements fc.AsyncCommand<World, Harness> {
  check(world: Readonly<World>): boolean {
    return this.applies(world)
  }
  protected applies(_world: Readonly<World>): boolean {
    return true
  }
  protected abstract act(world: World, h: Harness): Promise<void>
  async run(world: World, h: Harness): Promise<void> {
    commandCounts.set(this.constructor.name, (commandCounts.get(this.constructor.name) ?? 0) + 1)
    await this.act(world, h)
    await checkInvariants(h, world)
  }
  abstract toString(): string
}

/** Records an answer that breaks the API's rules: a 5xx anywhere, or a status the request cannot get. */
function expectStatus(world: World, what: string, res: Answer, allowed: number[]) {
  if (!allowed.includes(res.status)) world.violations.push(`${what} answered ${res.status} ${res.body?.message ?? ''}`.trim())
}

/** A command on one of the run's orders (picked by index modulo the orders there are). */
abstract class OrderCommand extends ModelCommand {
  constructor(readonly order: number) {
    super()
  }
  protected applies(world: Readonly<World>) {
    return hasOrders(world)
  }
}

const orderAt = (world: Readonly<World>, i: number): ModelOrder => world.orders[i % world.orders.length]!
const hasOrders = (world: Readonly<World>) => world.orders.length > 0

/** The shopper fills the cart (q0 of the first product, q1 of the second) and starts an online payment. */
export class StartPayment extends ModelCommand {
  constructor(
    readonly shopper: number,
    readonly q0: number,
    readonly q1: number,
  ) {
    super()
  }
  protected applies() {
    return this.q0 + this.q1 > 0
  }
  protected async act(world: World, h: Harness) {
    const who = h.shoppers[this.shopper % h.shoppers.length]!
    await emptyCart(h.t, who.user.id)
    for (const [i, q] of [this.q0, this.q1].entries())
      for (let n = 0; n < q; n++) {
        const res = await h.t.call('cart/create', { method: 'POST', json: { productId: world.products[i]!.id }, token: who.token })
        expectStatus(world, 'cart/create', res, [200, 409, 422])
      }
    const res = await startPayment(h.t, who)
    expectStatus(world, 'payment/start', res, [201, 400, 409, 422])
    if (res.status !== 201) return
    const { order, checkout } = res.body.data
    world.orders.push({
      id: order._id,
      orderNumber: order.orderId,
      providerOrderId: checkout.providerOrderId,
      amount: checkout.amount,
      shopper: this.shopper % h.shoppers.length,
      providerStatus: 'created',
    })
  }
  toString() {
    return `StartPayment(shopper ${this.shopper}, ${this.q0}+${this.q1})`
  }
}

/**
 * The shopper pays (captured) or the bank declines (failed) on the provider's page: the provider
 * makes the payment and queues its webhooks; with `callback` the shopper's browser returns to the
 * callback. A provider order already paid takes no second payment (Razorpay refuses it).
 */
export class Pay extends ModelCommand {
  constructor(
    readonly order: number,
    readonly outcome: 'captured' | 'failed',
    readonly callback: boolean,
  ) {
    super()
  }
  protected applies(world: Readonly<World>) {
    return hasOrders(world) && !(this.outcome === 'captured' && orderAt(world, this.order).providerStatus === 'paid')
  }
  protected async act(world: World, h: Harness) {
    const o = orderAt(world, this.order)
    const fields = await h.provider.complete(o.providerOrderId, this.outcome)
    const capture =
      this.outcome === 'captured'
        ? {
            paymentId: fields.razorpay_payment_id!,
            providerOrderId: o.providerOrderId,
            amount: o.amount,
            currency: 'INR',
            correct: true,
            delivered: false,
          }
        : undefined
    if (capture) {
      world.captures.push(capture)
      o.providerStatus = 'paid'
    }
    if (!this.callback) return
    const res = await h.t.call('payment/callback', {
      method: 'POST',
      json: capture
        ? fields
        : { razorpay_order_id: o.providerOrderId, error: { code: fields['error[code]'], description: fields['error[description]'] } },
    })
    expectStatus(world, 'payment/callback', res, [200])
    if (capture && res.status === 200 && res.body?.data?.outcome !== 'pending') capture.delivered = true
  }
  toString() {
    return `Pay(order ${this.order}, ${this.outcome}${this.callback ? ', callback' : ''})`
  }
}

/** The provider reports a capture of the wrong amount or currency (a `payment.captured` the model makes and queues). */
export class MismatchedCapture extends ModelCommand {
  constructor(
    readonly order: number,
    readonly kind: 'short' | 'over' | 'usd',
  ) {
    super()
  }
  protected applies(world: Readonly<World>) {
    return hasOrders(world)
  }
  protected async act(world: World) {
    const o = orderAt(world, this.order)
    const amount = this.kind === 'short' ? o.amount - 100 : this.kind === 'over' ? o.amount + 100 : o.amount
    const currency = this.kind === 'usd' ? 'USD' : 'INR'
    const paymentId = `pay_Mm${world.run}x${++world.seq}`
    world.captures.push({ paymentId, providerOrderId: o.providerOrderId, amount, currency, correct: false, delivered: false })
    world.outbox.push(
      providerWebhook(world, 'payment.captured', {
        payment: { id: paymentId, entity: 'payment', order_id: o.providerOrderId, amount, currency, status: 'captured', method: 'upi' },
      }),
    )
  }
  toString() {
    return `MismatchedCapture(order ${this.order}, ${this.kind})`
  }
}

/** Delivers `copies` copies of one webhook at once, all with its event id and signature. */
async function deliverCopies(world: World, h: Harness, hook: QueuedWebhook, copies: number) {
  const answers = await Promise.all(Array.from({ length: copies }, () => deliverWebhook(h.t, hook)))
  let applied = 0
  for (const res of answers) {
    expectStatus(world, `signed webhook ${hook.type} ${hook.eventId}`, res, [200])
    if (res.status === 200 && res.body?.data?.duplicate === false) applied++
  }
  world.applied.set(hook.eventId, (world.applied.get(hook.eventId) ?? 0) + applied)
  if (answers.some((a) => a.status === 200) && (hook.type === 'payment.captured' || hook.type === 'order.paid')) {
    const id = (JSON.parse(hook.rawBody) as { payload: { payment: { entity: { id: string } } } }).payload.payment.entity.id
    for (const c of world.captures) if (c.paymentId === id) c.delivered = true
  }
}

/**
 * The provider delivers one queued webhook (any of them: out of order), or with `replay` one it
 * delivered before again (a retry after a lost answer), in `copies` copies at once.
 */
export class Deliver extends ModelCommand {
  constructor(
    readonly pick: number,
    readonly copies: number,
    readonly replay = false,
  ) {
    super()
  }
  protected applies(world: Readonly<World>) {
    return (this.replay ? world.delivered : world.outbox).length > 0
  }
  protected async act(world: World, h: Harness) {
    const hook = this.replay
      ? world.delivered[this.pick % world.delivered.length]!
      : world.outbox.splice(this.pick % world.outbox.length, 1)[0]!
    if (!this.replay) world.delivered.push(hook)
    await deliverCopies(world, h, hook, this.copies)
  }
  toString() {
    return `${this.replay ? 'Replay' : 'Deliver'}(#${this.pick}, ×${this.copies})`
  }
}

/** The provider settles one pending refund (processed or failed) and queues its webhook. */
export class SettleRefund extends ModelCommand {
  constructor(
    readonly pick: number,
    readonly outcome: 'processed' | 'failed',
  ) {
    super()
  }
  private pending(world: Readonly<World>) {
    return world.providerRefunds.filter((r) => r.status === 'pending' && world.captures.some((c) => c.paymentId === r.payment_id))
  }
  protected applies(world: Readonly<World>) {
    return this.pending(world).length > 0
  }
  protected async act(world: World) {
    const pending = this.pending(world)
    const refund = pending[this.pick % pending.length]!
    refund.status = this.outcome
    const capture = world.captures.find((c) => c.paymentId === refund.payment_id)!
    world.outbox.push(
      providerWebhook(world, `refund.${this.outcome}`, {
        refund: { ...refund, entity: 'refund', status: this.outcome },
        payment: {
          id: capture.paymentId,
          entity: 'payment',
          order_id: capture.providerOrderId,
          amount: capture.amount,
          currency: 'INR',
          status: 'captured',
        },
      }),
    )
  }
  toString() {
    return `SettleRefund(#${this.pick}, ${this.outcome})`
  }
}

/** The provider refuses the next `sends` refund calls (503) before making anything. */
export class RefundOutage extends ModelCommand {
  constructor(readonly sends: number) {
    super()
  }
  protected async act(world: World) {
    world.outage = this.sends
  }
  toString() {
    return `RefundOutage(${this.sends})`
  }
}

/** Time passes (the app's clock moves forward). */
export class Advance extends ModelCommand {
  constructor(readonly minutes: number) {
    super()
  }
  protected async act(_world: World, h: Harness) {
    await h.advance(this.minutes * 60_000)
  }
  toString() {
    return `Advance(${this.minutes} min)`
  }
}

const SWEEP_FAILED = /"msg":"(reservation expiry|payment reconciliation|refund retry) failed"/

/** The job runner: `copies` runners at once of the whole sweep, the hold expiry, reconciliation or the refund retry. */
export class Sweep extends ModelCommand {
  constructor(
    readonly which: 'all' | 'expiry' | 'reconcile' | 'refunds',
    readonly copies: number,
  ) {
    super()
  }
  protected async act(world: World, h: Harness) {
    const before = h.log.length
    const step: () => Promise<unknown> = {
      all: () => runPaymentSweeps(h.t.deps),
      expiry: () => expireReservations(h.t.deps),
      reconcile: () => reconcilePendingPayments(h.t.deps),
      refunds: () => sendPendingRefunds(h.t.deps),
    }[this.which]
    const results = await Promise.allSettled(Array.from({ length: this.copies }, step))
    for (const r of results) if (r.status === 'rejected') world.violations.push(`sweep ${this.which} threw ${String(r.reason)}`)
    for (const line of h.log.slice(before)) if (SWEEP_FAILED.test(line)) world.violations.push(`a sweep step failed: ${line.trim()}`)
  }
  toString() {
    return `Sweep(${this.which}, ×${this.copies})`
  }
}

/** The shopper cancels the order (allowed while placed: a paid order is refunded). */
export class ShopperCancel extends OrderCommand {
  protected async act(world: World, h: Harness) {
    const o = orderAt(world, this.order)
    const res = await h.t.call('order/cancel', { method: 'POST', json: { orderId: o.id }, token: h.shoppers[o.shopper]!.token })
    expectStatus(world, 'order/cancel', res, [200, 409])
  }
  toString() {
    return `ShopperCancel(order ${this.order})`
  }
}

/**
 * A second tab: the same order gets a second provider order (as api/modules/payment/payment.test.ts
 * "two payments for one order" makes one: the API reuses the open one, but two tabs, or a provider
 * order made again after a lost answer, can leave two), which the model may then pay as well.
 */
export class SecondTab extends OrderCommand {
  protected async act(world: World, h: Harness) {
    const o = orderAt(world, this.order)
    const [row] = await queryRows<{ status: string }>(h.t.db, sql`select status from orders where id = ${o.id}`)
    if (row?.status !== 'payment_pending') return
    const other = await h.provider.createOrder({ amount: o.amount, currency: 'INR', receipt: o.orderNumber, notes: {} })
    await h.t.db.execute(
      sql`insert into payments (id, order_id, provider, provider_order_id, method, amount_paise)
        values (${newId()}, ${o.id}, ${h.provider.name}, ${other.id}, 'card', ${o.amount})`,
    )
    world.orders.push({ ...o, providerOrderId: other.id, providerStatus: 'created' })
  }
  toString() {
    return `SecondTab(order ${this.order})`
  }
}

/** An admin moves the order: cancel (placed or packed: refunded) or pack. */
export class AdminStatus extends ModelCommand {
  constructor(
    readonly order: number,
    readonly to: 'cancelled' | 'packed',
  ) {
    super()
  }
  protected applies(world: Readonly<World>) {
    return hasOrders(world)
  }
  protected async act(world: World, h: Harness) {
    const o = orderAt(world, this.order)
    const res = await h.t.call('order/update-status', { method: 'PUT', json: { orderId: o.id, status: this.to }, token: h.admin.token })
    expectStatus(world, `order/update-status ${this.to}`, res, [200, 409])
  }
  toString() {
    return `AdminStatus(order ${this.order}, ${this.to})`
  }
}

/** An admin refunds one line that cannot be delivered, `copies` times at once (a double click). */
export class RefundLine extends ModelCommand {
  constructor(
    readonly order: number,
    readonly product: number,
    readonly copies: number,
  ) {
    super()
  }
  protected applies(world: Readonly<World>) {
    return hasOrders(world)
  }
  protected async act(world: World, h: Harness) {
    const o = orderAt(world, this.order)
    const productId = world.products[this.product % world.products.length]!.id
    const answers = await Promise.all(
      Array.from({ length: this.copies }, () =>
        h.t.call('payment/refund-line', { method: 'POST', json: { orderId: o.id, productId }, token: h.admin.token }),
      ),
    )
    for (const res of answers) expectStatus(world, 'payment/refund-line', res, [200, 404, 409])
  }
  toString() {
    return `RefundLine(order ${this.order}, product ${this.product}, ×${this.copies})`
  }
}

/** How many copies of one request a concurrent command fires: mostly one, often the six of a provider's burst. */
const copies = fc.oneof({ weight: 3, arbitrary: fc.constant(1) }, { weight: 1, arbitrary: fc.integer({ min: 2, max: 6 }) })
const index = fc.nat({ max: 7 })

const start = fc.tuple(index, fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 2 })).map(([s, a, b]) => new StartPayment(s, a, b))
const pay = fc
  .tuple(index, fc.constantFrom('captured' as const, 'captured' as const, 'failed' as const), fc.constantFrom(true, true, false))
  .map(([o, outcome, cb]) => new Pay(o, outcome, cb))

/**
 * The command arbitraries, weighted toward what reaches deep states: paying, delivering and
 * settling refunds are the common steps; failures, duplicates and concurrency come often enough
 * to meet every rule within the CI budget. REFUND_MAX_FAILURES failures of one refund need several
 * SettleRefund(failed) and Sweep steps.
 */
export function paymentCommands(maxCommands: number, replayPath?: string) {
  const weighted: [number, fc.Arbitrary<ModelCommand>][] = [
    [2, start],
    [3, pay],
    [1, fc.tuple(index, fc.constantFrom('short' as const, 'over' as const, 'usd' as const)).map(([o, k]) => new MismatchedCapture(o, k))],
    [4, fc.tuple(index, copies).map(([p, n]) => new Deliver(p, n))],
    [1, fc.tuple(index, copies).map(([p, n]) => new Deliver(p, n, true))],
    [
      4,
      fc.tuple(index, fc.constantFrom('processed' as const, 'failed' as const, 'failed' as const)).map(([p, o]) => new SettleRefund(p, o)),
    ],
    [1, fc.integer({ min: 1, max: REFUND_MAX_FAILURES }).map((n) => new RefundOutage(n))],
    [1, fc.constantFrom(1, 2, 6, MODEL_RESERVATION_MS / 60_000 + 1).map((m) => new Advance(m))],
    [
      1,
      fc
        .tuple(
          fc.constantFrom('all' as const, 'all' as const, 'expiry' as const, 'reconcile' as const, 'refunds' as const),
          fc.integer({ min: 1, max: 3 }),
        )
        .map(([w, n]) => new Sweep(w, n)),
    ],
    [2, index.map((o) => new ShopperCancel(o))],
    [1, index.map((o) => new SecondTab(o))],
    [1, fc.tuple(index, fc.constantFrom('cancelled' as const, 'packed' as const)).map(([o, to]) => new AdminStatus(o, to))],
    [2, fc.tuple(index, fc.nat({ max: 1 }), copies).map(([o, p, n]) => new RefundLine(o, p, n))],
  ]
  return fc.commands(
    weighted.flatMap(([n, arb]) => Array.from({ length: n }, () => arb)),
    { maxCommands, size: 'medium', replayPath },
  )
}
