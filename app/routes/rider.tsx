/**
 * /rider (RIDER; docs/delivery.md, "The rider's pages"): the rider's shift and the orders in hand,
 * phone-first (one column from 360 px). Every control is a plain POST form answered by a redirect
 * back here with a toast (Post/Redirect/Get), so the page works the same with JavaScript off
 * (docs/decisions/0007-progressive-enhancement.md).
 *
 * - Guard: signed out goes to sign-in; the loader asks the API for the rider's state, which answers
 *   403 to anyone but a RIDER (shown as "Do not have permission"). The API also checks, on every
 *   action, that the order is this rider's.
 * - Forms by `intent`: `shift` (`onShift` "true"/"false"), `picked-up`, `delivered` (`cash` in
 *   rupees, prefilled with the amount to collect, only for cash on delivery; `deliveryCode`, the
 *   customer's 4 digits, only for an order that needs one) and `could-not-deliver` (`reason` from the
 *   fixed list, `note` for "Other": the order ends delivery failed, returned to the store).
 * - Each order shows the shopper's delivery instructions when given (docs/delivery.md).
 * - With JavaScript, while an order is out for delivery, the page shares the rider's position
 *   (app/components/position-sharer.tsx; docs/delivery.md, "Live tracking"); without, nothing is sent.
 */
import { instructionsWords } from '../../contract/tip.ts'
import { data, Form, useNavigation, type ShouldRevalidateFunction } from 'react-router'
import type { Route } from './+types/rider'
import * as riderApi from '../.server/api/rider.ts'
import { requireUser } from '../.server/auth.ts'
import { apiOf } from '../.server/api-context.ts'
import { getSession } from '../.server/context.ts'
import { throwFailure } from '../.server/failure.ts'
import { readText, tryReadForm } from '../.server/form.ts'
import { redirectWithToast } from '../.server/toast.ts'
import { AdminErrorBoundary } from '../components/admin-guard.tsx'
import { SHOP_NAME } from '../components/header.tsx'
import { Button } from '../components/ui/button.tsx'
import { Input, Label } from '../components/ui/input.tsx'
import { formatPaise } from '../lib/money.ts'
import { formatOrderTime } from '../lib/order-status.ts'
import { POSITION_ACTION, PositionSharer } from '../components/position-sharer.tsx'
import { CashRupeesSchema, DeliveryCodeSchema, RIDER_MESSAGES, RiderCouldNotDeliverSchema, type RiderOrder } from '../../contract/rider.ts'
import {
  DELIVERY_FAILURE_MESSAGES,
  DELIVERY_FAILURE_NOTE_MAX,
  DELIVERY_FAILURE_REASONS,
  DELIVERY_FAILURE_WORDS,
} from '../../contract/delivery-failure.ts'

export const meta: Route.MetaFunction = () => [
  { title: `Deliveries | ${SHOP_NAME}` },
  { name: 'description', content: "The rider's shift and orders." },
  { name: 'robots', content: 'noindex' },
]

const RIDER_PATH = '/rider'
/** The forms here are a few short fields: 16 KiB is far more than any of them. */
const FORM_MAX_BYTES = 16 * 1024

/** The rider's state; signed out: the sign-in redirect; anyone but a RIDER: the API's 403. */
export async function loader({ context, url }: Route.LoaderArgs) {
  requireUser(context, url)
  const state = await riderApi.riderState(apiOf(context), getSession(context))
  if (!state.ok) throwFailure(state)
  return data(state.data, { headers: { 'Cache-Control': 'no-store' } })
}

/** A position report (every 10 s) changes nothing the page shows: no reload of its data after one. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formAction, defaultShouldRevalidate }) =>
  formAction === POSITION_ACTION ? false : defaultShouldRevalidate

/** One of the page's forms (see the module's list), answered by a redirect here with a toast. */
export async function action({ request, context, url }: Route.ActionArgs) {
  requireUser(context, url)
  const api = apiOf(context)
  const session = getSession(context)
  const read = await tryReadForm(request, { multipartMaxBytes: FORM_MAX_BYTES })
  if (!read.ok) return redirectWithToast(session, RIDER_PATH, { type: 'error', message: read.message })
  const form = read.formData
  const intent = readText(form, 'intent')
  const orderId = readText(form, 'orderId')
  const fail = (message: string) => redirectWithToast(session, RIDER_PATH, { type: 'error', message })

  let result: Awaited<ReturnType<typeof riderApi.setShift>>
  let success: string
  if (intent === 'shift') {
    const onShift = readText(form, 'onShift') === 'true'
    result = await riderApi.setShift(api, session, onShift)
    success = onShift ? 'You are on shift' : 'You are off shift'
  } else if (intent === 'picked-up') {
    result = await riderApi.pickedUp(api, session, orderId)
    success = 'Picked up: out for delivery'
  } else if (intent === 'delivered') {
    const collect = readText(form, 'collect') === 'true'
    let cashCollectedPaise: number | undefined
    if (collect) {
      const cash = CashRupeesSchema.safeParse(readText(form, 'cash'))
      if (!cash.success) return fail(cash.error.issues[0]?.message ?? 'Enter the cash you collected')
      cashCollectedPaise = cash.data
    }
    // The customer's delivery code, for an order that needs one (docs/delivery.md, "Delivery code").
    let deliveryCode: string | undefined
    if (readText(form, 'needsCode') === 'true') {
      const code = DeliveryCodeSchema.safeParse(readText(form, 'deliveryCode'))
      if (!code.success) return fail(code.error.issues[0]?.message ?? RIDER_MESSAGES.codeRequired)
      deliveryCode = code.data
    }
    result = await riderApi.delivered(api, session, { orderId, cashCollectedPaise, deliveryCode })
    success = 'Delivered'
  } else if (intent === 'could-not-deliver') {
    const note = readText(form, 'note').trim()
    const parsed = RiderCouldNotDeliverSchema.safeParse({ orderId, reason: readText(form, 'reason'), ...(note ? { note } : {}) })
    if (!parsed.success) return fail(parsed.error.issues[0]?.message ?? DELIVERY_FAILURE_MESSAGES.reasonRequired)
    result = await riderApi.couldNotDeliver(api, session, parsed.data)
    success = 'Delivery failed: return the order to the store'
  } else {
    return fail('Unknown action')
  }
  if (!result.ok) return fail(result.message)
  return redirectWithToast(session, RIDER_PATH, { type: 'success', message: success })
}

export default function RiderPage({ loaderData }: Route.ComponentProps) {
  const { onShift, store, orders, freeSince } = loaderData
  const navigation = useNavigation()
  const busy = navigation.state !== 'idle'
  return (
    <section className="mx-auto w-full max-w-xl p-4">
      <h1 className="text-xl font-semibold text-slate-900">Deliveries</h1>
      <p className="mt-1 text-sm text-slate-600" data-field="store">
        {store ? `${store.name}, ${store.area}` : 'Not attached to a store yet: ask an admin'}
      </p>

      <div className="mt-4 flex flex-wrap items-center justify-between gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
        <p data-field="shift" className="font-medium text-slate-900">
          {onShift ? 'On shift' : 'Off shift'}
          {freeSince ? <span className="block text-sm font-normal text-slate-600">Waiting since {formatOrderTime(freeSince)}</span> : null}
        </p>
        <Form method="post" action={RIDER_PATH}>
          <input type="hidden" name="intent" value="shift" />
          <input type="hidden" name="onShift" value={onShift ? 'false' : 'true'} />
          <Button type="submit" variant={onShift ? 'secondary' : 'primary'} disabled={busy}>
            {onShift ? 'Go off shift' : 'Go on shift'}
          </Button>
        </Form>
      </div>

      <PositionSharer orderIds={orders.filter((o) => o.status === 'out_for_delivery').map((o) => o._id)} />

      <h2 className="mt-6 text-lg font-semibold text-slate-900">Your orders</h2>
      {orders.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">
          {onShift ? 'No order yet: the next packed order of your store comes to you.' : 'Go on shift to get orders.'}
        </p>
      ) : (
        <ul aria-label="Your orders" className="mt-2 grid gap-3">
          {orders.map((order) => (
            <OrderCard key={order._id} order={order} busy={busy} />
          ))}
        </ul>
      )}
      <p className="mt-6 text-sm">
        <a href={RIDER_PATH} className="text-accent underline">
          Refresh
        </a>
      </p>
    </section>
  )
}

/** One order in hand: where to, for whom, what to collect, and the one or two next steps. */
function OrderCard({ order, busy }: { order: RiderOrder; busy: boolean }) {
  const { address } = order
  const out = order.status === 'out_for_delivery'
  return (
    <li data-card="rider-order" data-order-id={order._id} className="min-w-0 rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <div className="flex items-start justify-between gap-2">
        <h3 className="font-semibold break-words text-slate-900">Order {order.orderId}</h3>
        <span data-field="status" className="shrink-0 rounded-full bg-slate-100 px-2 py-0.5 text-xs font-semibold text-slate-800">
          {out ? 'Out for delivery' : 'Packed: pick up'}
        </span>
      </div>
      <dl className="mt-2 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
        <dt className="text-slate-500">Pick up at</dt>
        <dd className="break-words">{order.store.name}</dd>
        <dt className="text-slate-500">Customer</dt>
        <dd data-field="customer" className="break-words">
          {order.customerFirstName || '—'}
        </dd>
        <dt className="text-slate-500">Address</dt>
        <dd data-field="address" className="break-words">
          {address.line}
          {address.floor ? `, floor ${address.floor}` : ''}
          {address.landmark ? ` (near ${address.landmark})` : ''}, {address.city} {address.pincode}
        </dd>
        {order.deliveryInstructions ? (
          <>
            <dt className="text-slate-500">Instructions</dt>
            <dd data-field="instructions" className="font-semibold break-words">
              {instructionsWords(order.deliveryInstructions)}
            </dd>
          </>
        ) : null}
        <dt className="text-slate-500">Items</dt>
        <dd>{order.itemCount}</dd>
        <dt className="text-slate-500">Collect</dt>
        <dd data-field="collect" className="font-semibold">
          {order.collectPaise > 0 ? `${formatPaise(order.collectPaise)} cash` : 'Nothing: paid online'}
        </dd>
      </dl>

      {out ? (
        <div className="mt-3 grid gap-3">
          <Form method="post" action={RIDER_PATH} className="grid gap-2" aria-label={`Delivered ${order.orderId}`}>
            <input type="hidden" name="intent" value="delivered" />
            <input type="hidden" name="orderId" value={order._id} />
            <input type="hidden" name="collect" value={order.collectPaise > 0 ? 'true' : 'false'} />
            <input type="hidden" name="needsCode" value={order.needsCode ? 'true' : 'false'} />
            {order.needsCode ? (
              <div>
                <Label htmlFor={`code-${order._id}`}>Delivery code from the customer</Label>
                <Input
                  id={`code-${order._id}`}
                  name="deliveryCode"
                  inputMode="numeric"
                  autoComplete="off"
                  pattern="[0-9]{4}"
                  maxLength={4}
                  required
                />
              </div>
            ) : null}
            {order.collectPaise > 0 ? (
              <div>
                <Label htmlFor={`cash-${order._id}`}>Cash collected (₹)</Label>
                <Input
                  id={`cash-${order._id}`}
                  name="cash"
                  inputMode="decimal"
                  required
                  defaultValue={(order.collectPaise / 100).toFixed(order.collectPaise % 100 === 0 ? 0 : 2)}
                />
              </div>
            ) : null}
            <Button type="submit" disabled={busy} fullWidth>
              Delivered
            </Button>
          </Form>
          <Form method="post" action={RIDER_PATH} className="grid gap-2" aria-label={`Could not deliver ${order.orderId}`}>
            <input type="hidden" name="intent" value="could-not-deliver" />
            <input type="hidden" name="orderId" value={order._id} />
            {/* The fixed reasons (docs/delivery.md, "Could not deliver"); "Other" needs the note, the API checks it. */}
            <fieldset className="grid gap-1">
              <legend className="text-sm font-medium text-slate-700">Could not deliver? Why</legend>
              {DELIVERY_FAILURE_REASONS.map((reason) => (
                <label key={reason} className="flex items-center gap-2 text-sm text-slate-800">
                  <input type="radio" name="reason" value={reason} required />
                  {DELIVERY_FAILURE_WORDS[reason]}
                </label>
              ))}
            </fieldset>
            <Label htmlFor={`note-${order._id}`}>Note (needed for Other)</Label>
            <Input id={`note-${order._id}`} name="note" maxLength={DELIVERY_FAILURE_NOTE_MAX} placeholder="Gate locked" />
            <Button type="submit" variant="danger" disabled={busy} fullWidth>
              Could not deliver
            </Button>
          </Form>
        </div>
      ) : (
        <Form method="post" action={RIDER_PATH} className="mt-3">
          <input type="hidden" name="intent" value="picked-up" />
          <input type="hidden" name="orderId" value={order._id} />
          <Button type="submit" disabled={busy} fullWidth>
            Picked up
          </Button>
        </Form>
      )}
    </li>
  )
}

export { AdminErrorBoundary as ErrorBoundary }
