/**
 * /dashboard/myorder/:orderId (docs/commerce-api.md, "Orders"): one of the shopper's orders: the
 * status timeline, every line as sold, the address as at order time, the bill, and "Cancel order"
 * while the order is still placed (stock goes back). Cancelling asks first, in a dialog at
 * `?cancel=1` with an optional reason (app/components/cancel-order-dialog.tsx). "Order again" adds
 * the order's lines to the cart (docs/product.md, "Order again"); "Invoice (PDF)" opens the tax invoice
 * (routes/dashboard/myorder/$orderId/invoice.ts). Another shopper's order is a 404. An order awaiting its online
 * payment links to its pay page; the payment card shows refunds as they progress (docs/payments.md).
 *
 * Live status (docs/product.md, "Order page"): with JavaScript the page listens to its event stream
 * (routes/dashboard/myorder/$orderId/events.ts) and reloads its data on each event; without, it says "Status as
 * of <time>" with a plain Refresh link to itself.
 *
 * The store it comes from, the promised time and its countdown, and whether it came late
 * (docs/stores.md, "Shopper pages"; app/components/order-view.tsx `OrderDelivery`).
 *
 * A delivered order shows "Get help" within the window and its problem reports
 * (docs/help-after-delivery.md; app/components/order-help.tsx).
 * Out for delivery: live tracking (docs/delivery.md, "Live tracking"; app/components/live-tracking.tsx):
 * the rider's first name, the distance, the arrival estimate and the last position's time, with a map
 * or a diagram; with JavaScript moved by the stream's position events.
 */
import { useEffect, useRef } from 'react'
import { data, Link, useNavigation, useRevalidator } from 'react-router'
import { useEventSource } from 'remix-utils/sse/react'
import type { Route } from './+types/index'
import { throwFailure } from '../../../../.server/failure.ts'
import { getSession } from '../../../../.server/context.ts'
import { cancelOrder, orderDetails } from '../../../../.server/api/order.ts'
import { readForm, readText } from '../../../../.server/form.ts'
import { orderAgain } from '../../../../.server/reorder.ts'
import { redirectWithToast } from '../../../../.server/toast.ts'
import {
  CANCEL_REASON_FIELD,
  CancelOrderDialog,
  CancelOrderLink,
  cancelDialogHref,
  isCancelDialogOpen,
} from '../../../../components/cancel-order-dialog.tsx'
import { GeneralErrorBoundary } from '../../../../components/error-boundary.tsx'
import { InvoiceLink } from '../../../../components/invoice-link.tsx'
import { creditNoteNumbers } from '../../../../.server/invoice-download.ts'
import { useIsPending } from '../../../../components/forms.tsx'
import { SHOP_NAME } from '../../../../components/header.tsx'
import { CancellationNote, OrderBody, OrderDelivery, StatusBadge, StatusTimeline } from '../../../../components/order-view.tsx'
import { DeliveryFailedNote } from '../../../../components/delivery-failed-note.tsx'
import { ENDED_STATUSES } from '../../../../../contract/order-status.ts'
import { ReorderButton } from '../../../../components/reorder-button.tsx'
import { REORDER_INTENT } from '../../../../lib/reorder.ts'
import { formatOrderTime } from '../../../../lib/order-status.ts'
import { CancelReasonSchema } from '../../../../../contract/order.ts'
import { apiOf } from '../../../../.server/api-context.ts'
import { issueOptions } from '../../../../.server/api/order-issue.ts'
import { OrderHelp } from '../../../../components/order-help.tsx'
import { orderTracking } from '../../../../.server/api/tracking.ts'
import { env } from '../../../../.server/env.ts'
import { LiveTracking } from '../../../../components/live-tracking.tsx'

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData ? `Order ${loaderData.order.orderId}` : 'Order'} | ${SHOP_NAME}` },
  { name: 'robots', content: 'noindex' },
]

export async function loader({ context, params, url }: Route.LoaderArgs) {
  const api = apiOf(context)
  const session = getSession(context)
  const result = await orderDetails(api, session, params.orderId)
  if (!result.ok) throwFailure(result)
  // Live tracking only while out for delivery; a failure to read it leaves the rest of the page as it was.
  const tracking = result.data.status === 'out_for_delivery' ? await orderTracking(api, session, result.data._id) : null
  // The confirmation only while the shopper may still cancel.
  // Help after delivery (docs/help-after-delivery.md): the link and the reports of a delivered order; none if unreadable.
  const help = result.data.status === 'delivered' ? await issueOptions(api, session, result.data._id) : null
  return {
    order: result.data,
    help: help?.ok ? help.data : null,
    tracking: tracking?.ok ? tracking.data.tracking : null,
    mapTiles: env.mapTiles,
    creditNotes: await creditNoteNumbers(api, session, result.data),
    confirming: result.data.status === 'placed' && isCancelDialogOpen(url.searchParams),
    loadedAt: new Date().toISOString(),
  }
}

/**
 * Reloads the page's data on each status event of the order's stream (JavaScript only). An event
 * that arrives while a navigation or form submission is under way (the shopper's own cancel, whose
 * change the stream also reports) waits until it is done: a reload racing the submission's redirect
 * could read the flash toast's cookie first, and the "Order cancelled" toast would be lost.
 */
function useLiveStatus(orderPath: string, shownVersion: number, enabled: boolean) {
  const event = useEventSource(`${orderPath}/events`, { event: 'status', enabled })
  const { revalidate } = useRevalidator()
  const busy = useNavigation().state !== 'idle'
  const pending = useRef<string | null>(null)
  useEffect(() => {
    // Each stream opens with the current status (its catch-up event): only a version newer than the
    // one shown needs a reload.
    if (event && eventVersion(event) > shownVersion) pending.current = event
  }, [event, shownVersion])
  useEffect(() => {
    if (pending.current === null || busy) return
    pending.current = null
    void revalidate()
  }, [event, busy, revalidate])
}

/** The `version` of a status event's data (`{orderId, status, version}`); Infinity when unreadable, so it reloads. */
function eventVersion(data: string): number {
  try {
    const version = (JSON.parse(data) as { version?: unknown }).version
    return typeof version === 'number' ? version : Infinity
  } catch {
    return Infinity
  }
}

/**
 * "Order again" (`intent=reorder`): to the cart with a toast. Otherwise cancels with the optional
 * reason; a refused reason comes back to the dialog, anything else to the page with a toast.
 */
export async function action({ context, params, request }: Route.ActionArgs) {
  const api = apiOf(context)
  const session = getSession(context)
  const formData = await readForm(request)
  const orderPath = `/dashboard/myorder/${params.orderId}`
  if (formData.get('intent') === REORDER_INTENT) return orderAgain(api, session, request, params.orderId, orderPath)
  const reason = CancelReasonSchema.safeParse(readText(formData, CANCEL_REASON_FIELD))
  if (!reason.success) return data({ reasonError: reason.error.issues[0]!.message }, { status: 400 })
  const result = await cancelOrder(api, session, params.orderId, reason.data)
  if (!result.ok && result.status === 400) return data({ reasonError: result.issues[0]?.message ?? result.message }, { status: 400 })
  return redirectWithToast(session, orderPath, {
    type: result.ok ? 'success' : 'error',
    message: result.message,
  })
}

export default function OrderPage({ loaderData, actionData }: Route.ComponentProps) {
  const { order, confirming, loadedAt } = loaderData
  const orderPath = `/dashboard/myorder/${order._id}`
  // After an ended status (delivered, cancelled, delivery failed) nothing changes: no stream to keep open.
  useLiveStatus(orderPath, order.version, !ENDED_STATUSES.includes(order.status))
  const isPending = useIsPending({ formAction: cancelDialogHref(orderPath) })
  return (
    <section className="flex flex-col gap-4 p-4 md:p-6">
      <Link to="/dashboard/myorder" className="text-sm font-semibold text-accent hover:underline">
        ‹ My Orders
      </Link>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="text-lg font-semibold text-slate-900">Order {order.orderId}</h1>
          <p className="text-sm text-slate-600">Placed {formatOrderTime(order.createdAt)}</p>
        </div>
        <StatusBadge status={order.status} />
      </div>
      <OrderDelivery order={order} />
      {order.deliveryCode ? (
        // Out for delivery with a code (docs/delivery.md, "Delivery code"): the shopper tells it to the rider at the door.
        <p
          role="status"
          data-testid="delivery-code"
          className="rounded-xl border border-emerald-300 bg-emerald-50 p-3 text-sm text-slate-800"
        >
          Delivery code <strong className="text-lg tracking-widest text-slate-900">{order.deliveryCode}</strong>: tell it to the delivery
          partner when they hand over the order.
        </p>
      ) : null}
      {loaderData.tracking ? (
        <LiveTracking view={loaderData.tracking} eventsUrl={`${orderPath}/events`} mapTiles={loaderData.mapTiles} />
      ) : null}
      <p className="flex flex-wrap items-center gap-x-3 text-sm text-slate-600" data-testid="status-as-of">
        <span>Status as of {formatOrderTime(loadedAt)}</span>
        <Link to={orderPath} reloadDocument className="font-semibold text-accent hover:underline">
          Refresh
        </Link>
      </p>
      <StatusTimeline order={order} />
      {loaderData.help ? <OrderHelp help={loaderData.help} orderPath={orderPath} /> : null}
      <CancellationNote order={order} />
      <DeliveryFailedNote order={order} />
      <div className="flex flex-wrap items-center gap-3">
        <ReorderButton orderId={order._id} orderNumber={order.orderId} action={orderPath} />
        {order.status !== 'payment_pending' ? (
          <InvoiceLink orderPath={orderPath} orderNumber={order.orderId} creditNotes={loaderData.creditNotes} />
        ) : null}
        {order.status === 'placed' ? <CancelOrderLink orderPath={orderPath} /> : null}
        {order.status === 'payment_pending' ? (
          <Link to={`/checkout/pay/${order._id}`} className="text-sm font-semibold text-accent hover:underline">
            Pay now
          </Link>
        ) : null}
      </div>
      {confirming ? (
        <CancelOrderDialog
          orderPath={orderPath}
          message="It will not be delivered. You can tell us why (optional)."
          error={actionData?.reasonError}
          isPending={isPending}
        />
      ) : null}
      <OrderBody order={order} />
    </section>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
