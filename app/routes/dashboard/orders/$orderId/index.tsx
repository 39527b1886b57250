/**
 * /dashboard/orders/:orderId (admin or staff; docs/commerce-api.md, "Orders"): one order with its customer,
 * timeline, lines, address and bill, and a button for each allowed next status (placed → packed →
 * out for delivery → delivered; cancel from placed or packed, stock goes back). Each button posts the
 * order's `version` as the admin saw it, so two admins cannot both win: the later one gets the API's
 * 409 "This order was changed by someone else: reload" as an error toast. Cancelling asks first, in a
 * dialog at `?cancel=1` with an optional reason kept on the order (app/components/cancel-order-dialog.tsx).
 * "Invoice (PDF)" opens the order's tax invoice (routes/dashboard/orders/$orderId/invoice.ts);
 * "Packing slip" opens this order's printable slip in a new tab (routes/dashboard/orders/packing-slips.tsx).
 * The store, the promised time, and a "Late" badge once delivered late (docs/stores.md, "Shopper pages").
 * The payment and its refunds (docs/payments.md); a paid order that is placed or packed can have a
 * line that cannot be delivered refunded (a partial refund through the provider). Money goes back
 * by an admin's hand only (docs/product.md, "Roles and permissions"): staff are offered neither the
 * line refund nor the cancel of a paid order (which refunds it), and see why; a forced post gets
 * the API's 403 message as an error toast. A delivered order lists its problem reports, whatever
 * their status (docs/help-after-delivery.md, "The admin's queue"; app/components/order-issues-panel.tsx).
 */
import { data, Form, Link } from 'react-router'
import { z } from 'zod'
import type { Route } from './+types/index'
import { throwFailure } from '../../../../.server/failure.ts'
import { orderDetails, updateOrderStatus } from '../../../../.server/api/order.ts'
import { requireStaff } from '../../../../.server/auth.ts'
import { getSession } from '../../../../.server/context.ts'
import { readForm, readText } from '../../../../.server/form.ts'
import { refundLine } from '../../../../.server/api/payment.ts'
import { redirectWithToast } from '../../../../.server/toast.ts'
import { RoleGuard } from '../../../../components/admin-guard.tsx'
import { CancelOrderDialog, CancelOrderLink, cancelDialogHref, isCancelDialogOpen } from '../../../../components/cancel-order-dialog.tsx'
import { GeneralErrorBoundary } from '../../../../components/error-boundary.tsx'
import { InvoiceLink } from '../../../../components/invoice-link.tsx'
import { creditNoteNumbers } from '../../../../.server/invoice-download.ts'
import { useIsPending } from '../../../../components/forms.tsx'
import { SHOP_NAME } from '../../../../components/header.tsx'
import { CancellationNote, OrderBody, OrderDelivery, StatusBadge, StatusTimeline } from '../../../../components/order-view.tsx'
import { buttonClassName } from '../../../../components/ui/button.tsx'
import { formatOrderTime, offersCancel, REFUNDABLE_PAYMENT_STATES, statusLabel } from '../../../../lib/order-status.ts'
import { NEXT_STATUSES, ORDER_STATUSES } from '../../../../../contract/order-status.ts'
import { CancelReasonSchema } from '../../../../../contract/order.ts'
import type { OrderIssue } from '../../../../../contract/order-issue.ts'
import { formatRupees } from '../../../../lib/money.ts'
import { PLAUSIBLE_ID } from '../../../../../contract/ids.ts'
import { apiOf } from '../../../../.server/api-context.ts'
import * as dispatchApi from '../../../../.server/api/dispatch.ts'
import { OrderRider } from '../../../../components/order-rider.tsx'
import { DeliveryFailedNote } from '../../../../components/delivery-failed-note.tsx'
import { OrderIssuesPanel } from '../../../../components/order-issues-panel.tsx'
import { orderIssuesOf } from '../../../../.server/api/order-issue.ts'
import {
  DELIVERY_FAILURE_MESSAGES,
  DELIVERY_FAILURE_NOTE_MAX,
  DELIVERY_FAILURE_REASONS,
  DELIVERY_FAILURE_WORDS,
  isDeliveryFailureReason,
} from '../../../../../contract/delivery-failure.ts'

/** The order page's form `intent` of an admin's rider reassignment. */
const ASSIGN_RIDER_INTENT = 'assign-rider'

/** The form intent of "Refund a line that cannot be delivered". */
const REFUND_LINE_INTENT = 'refund-line'

export const meta: Route.MetaFunction = () => [{ title: `Order | ${SHOP_NAME}` }, { name: 'robots', content: 'noindex' }]

/**
 * A status change as posted: the new status, the version the admin saw, a cancellation's optional
 * reason, and a failed delivery's reason and note (checked by the API: docs/delivery.md, "Could not deliver").
 */
const StatusChangeSchema = z.object({
  status: z.enum(ORDER_STATUSES),
  version: z.coerce.number().int().min(1),
  reason: CancelReasonSchema.optional(),
  failureReason: z.string().max(40).optional(),
  failureNote: z
    .string()
    .max(DELIVERY_FAILURE_NOTE_MAX * 2)
    .optional(),
})

export async function loader({ context, params, url }: Route.LoaderArgs) {
  const api = apiOf(context)
  const { isStaff, isAdmin } = await requireStaff(context, url)
  if (!isStaff)
    return data(
      {
        isStaff: false as const,
        isAdmin: false,
        order: null,
        dispatch: null,
        confirming: false,
        creditNotes: [] as string[],
        issues: [] as OrderIssue[],
        issuesUnread: false,
      },
      { status: 403 },
    )
  const session = getSession(context)
  const result = await orderDetails(api, session, params.orderId)
  if (!result.ok) throwFailure(result)
  const order = result.data
  // The three reads that depend only on the order, at once: its rider, from the dispatch board
  // (docs/delivery.md, "Dispatch board"), while it is with the store or on its way; its problem
  // reports, whatever their status (docs/help-after-delivery.md; only a delivered order has any: the
  // order still shows when they cannot be read, and the panel says so); its credit notes.
  const [dispatch, issues, creditNotes] = await Promise.all([
    order.status === 'packed' || order.status === 'out_for_delivery' ? dispatchApi.orderDispatch(api, session, order._id) : null,
    order.status === 'delivered' ? orderIssuesOf(api, session, order._id) : null,
    creditNoteNumbers(api, session, order),
  ])
  return {
    isStaff: true as const,
    isAdmin,
    order,
    dispatch,
    issues: issues?.ok ? issues.data : [],
    issuesUnread: issues !== null && !issues.ok,
    creditNotes,
    confirming: offersCancel(order, isAdmin) && isCancelDialogOpen(url.searchParams),
  }
}

export async function action({ context, params, request, url }: Route.ActionArgs) {
  const api = apiOf(context)
  const { isStaff } = await requireStaff(context, url)
  if (!isStaff) throw data('Do not have permission', { status: 403 })
  const session = getSession(context)
  const formData = await readForm(request)
  const back = `/dashboard/orders/${params.orderId}`
  if (formData.get('intent') === ASSIGN_RIDER_INTENT) {
    // An admin's reassignment (docs/delivery.md, "Reassigning"); the API refuses anyone else (403).
    const assigned = await dispatchApi.assignRider(api, session, {
      orderId: params.orderId,
      riderId: readText(formData, 'riderId') || null,
    })
    return redirectWithToast(session, back, {
      type: assigned.ok ? 'success' : 'error',
      message: assigned.ok ? (assigned.data.riderId ? 'Rider assigned' : 'Back in the queue') : assigned.message,
    })
  }
  if (formData.get('intent') === REFUND_LINE_INTENT) {
    const productId = readText(formData, 'productId')
    if (!PLAUSIBLE_ID.test(productId)) return redirectWithToast(session, back, { type: 'error', message: 'Choose the line to refund' })
    const refunded = await refundLine(api, session, params.orderId, productId)
    return redirectWithToast(session, back, {
      type: refunded.ok ? 'success' : 'error',
      message: refunded.ok ? 'Refund started' : refunded.message,
    })
  }
  const parsed = StatusChangeSchema.safeParse(Object.fromEntries(formData))
  if (!parsed.success) {
    const reasonIssue = parsed.error.issues.find((i) => i.path[0] === 'reason')
    if (reasonIssue) return data({ reasonError: reasonIssue.message }, { status: 400 })
    return redirectWithToast(session, back, { type: 'error', message: 'Choose a status' })
  }
  const { status, version, reason, failureReason, failureNote } = parsed.data
  if (status === 'delivery_failed' && !isDeliveryFailureReason(failureReason))
    return redirectWithToast(session, back, { type: 'error', message: DELIVERY_FAILURE_MESSAGES.reasonRequired })
  const result = await updateOrderStatus(api, session, {
    orderId: params.orderId,
    status,
    version,
    ...(status === 'cancelled' && reason ? { reason } : {}),
    ...(status === 'delivery_failed' && isDeliveryFailureReason(failureReason)
      ? { failureReason, ...(failureNote?.trim() ? { failureNote: failureNote.trim() } : {}) }
      : {}),
  })
  // A failed delivery's bad note is told in a toast (its form has no dialog to show it in).
  if (!result.ok && result.status === 400 && status === 'delivery_failed')
    return redirectWithToast(session, back, { type: 'error', message: result.issues[0]?.message ?? result.message })
  if (!result.ok && result.status === 400) return data({ reasonError: result.issues[0]?.message ?? result.message }, { status: 400 })
  return redirectWithToast(session, back, {
    type: result.ok ? 'success' : 'error',
    message: result.ok ? `Order marked ${statusLabel(parsed.data.status).toLowerCase()}` : result.message,
  })
}

export default function AdminOrder({ loaderData, actionData }: Route.ComponentProps) {
  const { isStaff, isAdmin, order, confirming } = loaderData
  const orderPath = order ? `/dashboard/orders/${order._id}` : ''
  const isCancelling = useIsPending({ formAction: cancelDialogHref(orderPath) })
  return (
    <RoleGuard allowed={isStaff}>
      {order ? (
        <section className="flex flex-col gap-4 p-4 md:p-6">
          <Link to="/dashboard/orders" className="text-sm font-semibold text-accent hover:underline">
            ‹ Orders
          </Link>
          <div className="flex flex-wrap items-center justify-between gap-3">
            <div>
              <h1 className="text-lg font-semibold text-slate-900">Order {order.orderId}</h1>
              <p className="text-sm text-slate-600">
                {formatOrderTime(order.createdAt)}
                {order.customer ? ` · ${order.customer.name} (${order.customer.email})` : ''}
              </p>
              <p className="text-sm text-slate-600" data-testid="order-store">
                From {order.store.name}, {order.store.area}
              </p>
            </div>
            <StatusBadge status={order.status} />
          </div>
          <OrderDelivery order={order} lateBadge />
          {loaderData.dispatch ? (
            <OrderRider dispatch={loaderData.dispatch} canAssign={isAdmin && order.status === 'packed'} intent={ASSIGN_RIDER_INTENT} />
          ) : null}
          <StatusTimeline order={order} />
          <CancellationNote order={order} />
          <DeliveryFailedNote order={order} />
          <OrderIssuesPanel issues={loaderData.issues ?? []} unread={loaderData.issuesUnread ?? false} />
          <div className="flex flex-wrap gap-2">
            {order.status !== 'payment_pending' ? (
              <InvoiceLink orderPath={orderPath} orderNumber={order.orderId} creditNotes={loaderData.creditNotes ?? []} />
            ) : null}
            <a
              href={`/dashboard/orders/packing-slips?${new URLSearchParams({ ids: order._id })}`}
              target="_blank"
              rel="noopener"
              className={buttonClassName({ variant: 'secondary', size: 'sm' })}
            >
              Packing slip<span className="sr-only"> of order {order.orderId}</span>
            </a>
          </div>
          {NEXT_STATUSES[order.status].length > 0 ? (
            <div className="flex flex-wrap gap-2">
              {NEXT_STATUSES[order.status].map((status) =>
                status === 'cancelled' ? (
                  offersCancel(order, isAdmin) ? (
                    <CancelOrderLink key={status} orderPath={orderPath} />
                  ) : (
                    <p key={status} data-testid="cancel-admin-only" className="self-center text-sm text-slate-600">
                      Only an admin can cancel a paid order: cancelling it refunds the payment.
                    </p>
                  )
                ) : status === 'delivery_failed' ? (
                  <MarkDeliveryFailedForm key={status} version={order.version} />
                ) : (
                  <Form method="post" key={status}>
                    <input type="hidden" name="status" value={status} />
                    <input type="hidden" name="version" value={order.version} />
                    <button type="submit" className={buttonClassName({ variant: 'primary', size: 'sm' })}>
                      {`Mark ${statusLabel(status).toLowerCase()}`}
                    </button>
                  </Form>
                ),
              )}
            </div>
          ) : null}
          {confirming ? (
            <CancelOrderDialog
              orderPath={orderPath}
              message={`The order will not be delivered and its stock goes back. The shopper sees the reason you give (optional).`}
              fields={{ status: 'cancelled', version: String(order.version) }}
              error={actionData && 'reasonError' in actionData ? actionData.reasonError : null}
              isPending={isCancelling}
            />
          ) : null}
          {isAdmin && REFUNDABLE_PAYMENT_STATES.has(order.payment.state) && (order.status === 'placed' || order.status === 'packed') ? (
            <Form
              method="post"
              data-card="refund line"
              className="flex flex-col gap-2 rounded-xl border border-slate-200 bg-white p-4 sm:flex-row sm:items-end"
            >
              <input type="hidden" name="intent" value={REFUND_LINE_INTENT} />
              <label className="flex min-w-0 flex-1 flex-col gap-1 text-sm text-slate-700">
                Refund a line that cannot be delivered
                <select name="productId" defaultValue="" className="w-full rounded-lg border border-slate-300 bg-white px-2 py-1.5 text-sm">
                  <option value="" disabled>
                    Choose a line…
                  </option>
                  {order.items
                    .filter((line) => line.productId)
                    .map((line) => (
                      <option key={line.productId} value={line.productId!}>
                        {line.quantity} × {line.name} ({formatRupees(line.lineTotal)})
                      </option>
                    ))}
                </select>
              </label>
              <button type="submit" className={buttonClassName({ variant: 'secondary', size: 'sm' })}>
                Refund line
              </button>
            </Form>
          ) : null}
          <OrderBody order={order} />
        </section>
      ) : null}
    </RoleGuard>
  )
}

/**
 * "Mark delivery failed" on an order out for delivery (ADMIN or STAFF, as every status change): the
 * reason from the fixed list and a note ("Other" needs it). The order goes back to the store, its stock
 * with it, and a paid order is refunded in full (docs/delivery.md, "Could not deliver").
 */
function MarkDeliveryFailedForm({ version }: { version: number }) {
  return (
    <Form
      method="post"
      data-card="delivery failed"
      className="grid w-full gap-2 rounded-xl border border-slate-200 bg-white p-4 sm:max-w-md"
    >
      <input type="hidden" name="status" value="delivery_failed" />
      <input type="hidden" name="version" value={version} />
      <fieldset className="grid gap-1">
        <legend className="text-sm font-medium text-slate-700">Could not be delivered? Why</legend>
        {DELIVERY_FAILURE_REASONS.map((reason) => (
          <label key={reason} className="flex items-center gap-2 text-sm text-slate-800">
            <input type="radio" name="failureReason" value={reason} required />
            {DELIVERY_FAILURE_WORDS[reason]}
          </label>
        ))}
      </fieldset>
      <label className="flex flex-col gap-1 text-sm text-slate-700">
        Note (needed for Other)
        <input
          name="failureNote"
          maxLength={DELIVERY_FAILURE_NOTE_MAX}
          className="w-full min-w-0 rounded-lg border border-slate-300 bg-white px-2 py-1.5 text-sm"
        />
      </label>
      <button type="submit" className={buttonClassName({ variant: 'danger', size: 'sm' })}>
        Mark delivery failed
      </button>
    </Form>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
