/**
 * One order as the shopper and the admin see it (docs/commerce-api.md, "Orders"): the status
 * timeline, every line as sold (image, name, unit, quantity, price paid, MRP struck), the delivery
 * address as it was at order time with the shopper's delivery instructions, and the bill (its tip
 * line included: docs/commerce-api.md, "Tip and delivery instructions"). Amounts are the API's; nothing is recomputed. A
 * cancelled order says so, with the reason given when it was cancelled. The payment card says how it
 * is paid and follows its refunds (docs/payments.md).
 *
 * The dark store (docs/stores.md, "Shopper pages"): the store it comes from, the time promised at
 * placement ("Arriving by 21:47 (9 minutes)") with, under JavaScript, the minutes left (updated
 * every 30 s; without JavaScript the promised time alone), and once delivered whether it came late.
 */
import { useSyncExternalStore } from 'react'
import type { Order } from '../.server/api/order.ts'
import { arrivingByLabel, countdownLabel, deliveryVerdict, formatClock, minutesLeft } from '../lib/delivery.ts'
import { formatRupees, isDiscounted, orderLinePrice } from '../lib/money.ts'
import { formatOrderTime, ORDER_PROGRESS, statusLabel } from '../lib/order-status.ts'
import { ENDED_STATUSES, type OrderStatus } from '../../contract/order-status.ts'
import { addressLine } from '../lib/schemas/address.ts'
import { AddressLabelTag } from './address-label.tsx'
import { paymentMethodLabel, paymentStateLabel, refundStatusLabel } from '../lib/payment-state.ts'
import { BillSummary } from './bill-summary.tsx'
import { instructionsWords } from '../../contract/tip.ts'
import { ResponsiveImage } from './responsive-image.tsx'

/** A status badge: green when delivered, red when cancelled or the delivery failed, amber otherwise. */
export function StatusBadge({ status }: { status: string }) {
  const tone =
    status === 'delivered'
      ? 'bg-green-100 text-green-800'
      : status === 'cancelled' || status === 'delivery_failed'
        ? 'bg-red-100 text-red-800'
        : 'bg-amber-100 text-amber-900'
  return <span className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-bold ${tone}`}>{statusLabel(status)}</span>
}

/** The red "Late" badge of an order delivered after its promised time. */
export function LateBadge() {
  return <span className="inline-block rounded-full bg-red-100 px-2.5 py-0.5 text-xs font-bold text-red-800">Late</span>
}

/** How often the countdown moves on, ms. */
const COUNTDOWN_EVERY_MS = 30_000
const subscribeCountdown = (onTick: () => void) => {
  const timer = setInterval(onTick, COUNTDOWN_EVERY_MS)
  return () => clearInterval(timer)
}
// The current second: stable between two reads within a render, so React sees no change unless a tick came.
const currentSecond = () => Math.floor(Date.now() / 1000) * 1000
const noTimeOnServer = () => null

/**
 * "9 minutes left" (browser only): null on the server and while hydrating, so the server's HTML and
 * the first render agree; then the minutes left, every 30 s.
 */
function Countdown({ promisedAt }: { promisedAt: string }) {
  const now = useSyncExternalStore(subscribeCountdown, currentSecond, noTimeOnServer)
  if (now === null) return null
  return (
    <span data-testid="countdown" className="font-semibold text-slate-900">
      {' · '}
      {countdownLabel(minutesLeft(promisedAt, now))}
    </span>
  )
}

/**
 * Where the order comes from and when: "From Indiranagar store", "Arriving by 21:47 (9 minutes)"
 * and the countdown while it is on its way, "Delivered on time" or "Delivered late" once delivered
 * (with the admin's "Late" badge when `lateBadge`). Orders placed before stores had no promise.
 */
export function OrderDelivery({
  order,
  lateBadge = false,
}: {
  order: Pick<Order, 'status' | 'store' | 'promisedMinutes' | 'promisedAt' | 'deliveredAt' | 'late'>
  lateBadge?: boolean
}) {
  const promised = order.promisedAt !== null && order.promisedMinutes !== null
  return (
    <div data-testid="order-delivery" className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm break-words text-slate-700">
      <span>From {order.store.name} store</span>
      {promised && !ENDED_STATUSES.includes(order.status) ? (
        <span data-testid="promised-time">
          {arrivingByLabel(order.promisedAt!, order.promisedMinutes!)}
          <Countdown promisedAt={order.promisedAt!} />
        </span>
      ) : null}
      {order.status === 'delivered' && order.deliveredAt ? (
        <span data-testid="delivery-verdict" className={order.late ? 'font-semibold text-red-700' : 'font-semibold text-green-700'}>
          {deliveryVerdict(order.late)}
          {promised ? ` (promised by ${formatClock(order.promisedAt!)}, delivered ${formatClock(order.deliveredAt)})` : ''}
        </span>
      ) : null}
      {lateBadge && order.late ? <LateBadge /> : null}
    </div>
  )
}

/** The timeline: each step of the happy path with the time it was reached, or the cancellation (or failed delivery) that ended it. */
export function StatusTimeline({ order }: { order: Pick<Order, 'status' | 'statusHistory'> }) {
  const reached = new Map(order.statusHistory.map((h) => [h.status, h.at]))
  const ended = order.status === 'cancelled' || order.status === 'delivery_failed'
  const steps: OrderStatus[] = ended ? [...ORDER_PROGRESS.filter((s) => reached.has(s)), order.status] : [...ORDER_PROGRESS]
  return (
    <ol aria-label="Order status" className="grid gap-2 sm:grid-cols-4">
      {steps.map((step) => {
        const at = reached.get(step)
        return (
          <li
            key={step}
            data-card="order status"
            className={`rounded-lg border px-3 py-2 text-sm ${at ? (step === 'cancelled' || step === 'delivery_failed' ? 'border-red-200 bg-red-50' : 'border-green-200 bg-green-50') : 'border-slate-200 bg-white text-slate-500'}`}
          >
            <span className="block font-semibold">
              {at ? '✓ ' : ''}
              {statusLabel(step)}
            </span>
            <span className="text-xs">{at ? formatOrderTime(at) : 'Not yet'}</span>
          </li>
        )
      })}
    </ol>
  )
}

/** "This order was cancelled", with the reason given, if any; nothing for an order that was not cancelled. */
export function CancellationNote({ order }: { order: Pick<Order, 'status' | 'cancelReason'> }) {
  if (order.status !== 'cancelled') return null
  return (
    <p data-testid="cancellation-note" className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900">
      This order was cancelled.
      {order.cancelReason ? (
        <>
          {' '}
          Reason: <span className="whitespace-pre-line break-words">{order.cancelReason}</span>
        </>
      ) : null}
    </p>
  )
}

/**
 * How the order is paid (docs/payments.md, "Payment states"): the method and state, when it was
 * paid, while awaiting payment until when its items are held, and each refund with its status.
 */
export function PaymentSummary({ order }: { order: Pick<Order, 'payment'> }) {
  const { payment } = order
  return (
    <section aria-labelledby="order-payment" data-card="order payment" className="rounded-xl border border-slate-200 bg-white p-4 text-sm">
      <h2 id="order-payment" className="mb-1 text-base font-bold">
        Payment
      </h2>
      <p className="text-slate-700">
        {paymentMethodLabel(payment.method)} ·{' '}
        <span data-testid="payment-state" className="font-semibold">
          {paymentStateLabel(payment.state)}
        </span>
      </p>
      {payment.paidAt ? <p className="text-slate-600">Paid {formatOrderTime(payment.paidAt)}</p> : null}
      {payment.state === 'refund_failed' ? <p className="text-slate-600">Our team will contact you about your refund.</p> : null}
      {payment.reservationExpiresAt ? (
        <p className="text-slate-600">Items held until {formatOrderTime(payment.reservationExpiresAt)}</p>
      ) : null}
      {payment.refunds.length > 0 ? (
        <ul aria-label="Refunds" className="mt-2 grid gap-1">
          {payment.refunds.map((refund, i) => (
            <li key={`${refund.at}-${i}`} data-testid="refund" className="flex flex-wrap justify-between gap-x-3 text-slate-700">
              <span className="min-w-0 break-words">
                Refund {formatRupees(refund.amount)}: {refund.reason}
              </span>
              <span className="font-semibold">{refundStatusLabel(refund.status)}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  )
}

/** The order's lines, address and bill. */
export function OrderBody({ order }: { order: Order }) {
  return (
    <div className="grid gap-4 lg:grid-cols-[1fr_20rem]">
      <section aria-label="Items" data-card="order items" className="rounded-xl border border-slate-200 bg-white px-3">
        <ul className="divide-y divide-slate-100">
          {order.items.map((line, i) => {
            // An order line's wire `price` is the selling price paid: read through the view type.
            const price = orderLinePrice(line)
            return (
              <li key={`${line.productId ?? 'gone'}-${i}`} className="flex items-center gap-3 py-3">
                <ResponsiveImage
                  src={line.image}
                  alt=""
                  width={64}
                  height={64}
                  sizes="64px"
                  className="size-16 shrink-0 rounded-lg border border-slate-100 object-contain p-1"
                />
                <div className="min-w-0 flex-1">
                  <p className="text-sm font-semibold text-slate-800">
                    {line.brand ? <span className="text-slate-600">{line.brand} </span> : null}
                    {line.name}
                  </p>
                  <p className="text-xs text-slate-500">
                    {line.unit} · Qty {line.quantity} × {formatRupees(price.sellingPrice)}
                    {isDiscounted(price) ? (
                      <>
                        {' '}
                        <s>
                          <span className="sr-only">MRP </span>
                          {formatRupees(price.mrp)}
                        </s>
                      </>
                    ) : null}
                  </p>
                </div>
                <p className="text-sm font-bold">{formatRupees(line.lineTotal)}</p>
              </li>
            )
          })}
        </ul>
      </section>
      <div className="flex flex-col gap-4">
        <section aria-labelledby="order-address" data-card="order address" className="rounded-xl border border-slate-200 bg-white p-4">
          <h2 id="order-address" className="mb-1 text-base font-bold">
            Delivery address
          </h2>
          <p className="text-sm text-slate-700">
            <AddressLabelTag label={order.delivery_address.label} />
            {addressLine(order.delivery_address)}
          </p>
          <p className="text-sm text-slate-600">Mobile {order.delivery_address.mobile}</p>
          {order.deliveryInstructions ? (
            <p data-testid="delivery-instructions" className="mt-2 text-sm break-words text-slate-800">
              <span className="font-semibold">Instructions: </span>
              {instructionsWords(order.deliveryInstructions)}
            </p>
          ) : null}
        </section>
        <PaymentSummary order={order} />
        {/* Nothing can be added to an order: no "Add ₹… more for FREE delivery". */}
        <BillSummary bill={order.bill} freeDeliveryHint={false} />
      </div>
    </div>
  )
}
