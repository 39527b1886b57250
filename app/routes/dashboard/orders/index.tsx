/**
 * /dashboard/orders (admin or staff; docs/commerce-api.md, "Orders" and "Admin orders at volume"): the orders
 * the filters select, with paging (`?page=`). A GET form searches (`?q=`: order number exact or
 * prefix, the shopper's phone, email or name, the delivery address) and filters by status, store (`?store=`), late
 * deliveries (`?late=1`), open orders past their promise (`?overdue=1`), payment state (`?payment=`, docs/payments.md) and IST days (`?from=&to=`) in a
 * sort (`?sort=`), so every view is a link and works without JavaScript. Each row opens its order;
 * ticked rows get packing slips (a GET to /dashboard/orders/packing-slips), as, with one store filtered,
 * do that store's packed orders ("Print packed orders' slips", `?storeId=`), or one status change for
 * all of them (a POST here: each order moved on its own by the API's allowed-moves rule, one outcome
 * each; cancelling asks for a tick to confirm and takes an optional reason). "Export CSV" downloads
 * the filtered list (/dashboard/orders/export), "Export lines (CSV)" its order lines, one row each. An order delivered after its promised time has a
 * "Late" badge (docs/stores.md, "Shopper pages"). A non-admin sees the red "Do not have permission" box
 * (403); the API enforces the role. Staff are told that paid orders only an admin cancels (it refunds
 * them; docs/product.md, "Roles and permissions"): the API reports each such order refused.
 */
import { data, Form, Link } from 'react-router'
import { z } from 'zod'
import type { Route } from './+types/index'
import { failureMessage, throwFailure } from '../../../.server/failure.ts'
import { adminListOrders, bulkUpdateOrderStatus, type BulkStatusOutcome } from '../../../.server/api/order.ts'
import { requireStaff } from '../../../.server/auth.ts'
import { listStores } from '../../../.server/api/store.ts'
import { getSession } from '../../../.server/context.ts'
import { readForm } from '../../../.server/form.ts'
import { RoleGuard } from '../../../components/admin-guard.tsx'
import { GeneralErrorBoundary } from '../../../components/error-boundary.tsx'
import { PageLinks } from '../../../components/page-links.tsx'
import { SHOP_NAME } from '../../../components/header.tsx'
import { LateBadge, StatusBadge } from '../../../components/order-view.tsx'
import { buttonClassName } from '../../../components/ui/button.tsx'
import { itemCountLabel } from '../../../lib/cart.ts'
import { formatRupees } from '../../../lib/money.ts'
import { countLabel } from '../../../lib/plural.ts'
import { formatOrderTime, statusLabel } from '../../../lib/order-status.ts'
import { ORDER_STATUSES, type OrderStatus } from '../../../../contract/order-status.ts'
import { PAYMENT_STATES, paymentStateLabel } from '../../../lib/payment-state.ts'
import { ORDER_EXPORT_ROWS_PARAM, orderFilterQuery, readOrderFilters } from '../../../lib/order-filters.ts'
import { ADMIN_ORDER_SORTS, BULK_ORDERS_MAX, CancelReasonSchema, type AdminOrderSort } from '../../../../contract/order.ts'
import { apiOf } from '../../../.server/api-context.ts'

export const meta: Route.MetaFunction = () => [{ title: `Orders | ${SHOP_NAME}` }, { name: 'robots', content: 'noindex' }]

/** Orders per page. */
const PAGE_SIZE = 20

/** The sorts in words, for the sort menu. */
const SORT_LABELS: Record<AdminOrderSort, string> = {
  newest: 'Newest first',
  oldest: 'Oldest first',
  total_desc: 'Highest total',
  total_asc: 'Lowest total',
}

export async function loader({ context, url }: Route.LoaderArgs) {
  const api = apiOf(context)
  const { isStaff, isAdmin, storeId } = await requireStaff(context, url)
  const read = readOrderFilters(url.searchParams)
  // A staff member's desk is their store's (the API enforces it; docs/product.md, "Staff").
  const filter = storeId ? { ...read.filter, store: storeId } : read.filter
  const errors = read.errors
  const page = Math.min(10_000, Math.max(1, Number.parseInt(url.searchParams.get('page') ?? '1', 10) || 1))
  const empty = {
    orders: [],
    ownStore: false,
    stores: [] as { id: string; name: string }[],
    filter,
    errors,
    page,
    totalCount: 0,
    totalPages: 0,
    exportQuery: orderFilterQuery(filter),
  }
  if (!isStaff) return data({ isStaff: false, isAdmin: false, ...empty }, { status: 403 })
  const [result, stores] = await Promise.all([
    adminListOrders(api, getSession(context), { ...filter, page, limit: PAGE_SIZE }),
    listStores(api, getSession(context)),
  ])
  if (!result.ok) throwFailure(result)
  return {
    ...empty,
    isStaff: true,
    isAdmin,
    // A staff member with a store: the store menu holds theirs only.
    ownStore: Boolean(storeId),
    stores: stores.ok ? stores.data.filter((st) => !storeId || st._id === storeId).map((st) => ({ id: st._id, name: st.name })) : [],
    orders: result.data.orders.map((o) => ({
      _id: o._id,
      orderId: o.orderId,
      createdAt: o.createdAt,
      status: o.status,
      customer: o.customer?.name ?? '',
      phone: o.delivery_address.mobile,
      itemCount: o.bill.itemCount,
      total: o.totalAmt,
      late: o.late,
      store: o.store.name,
      payment: o.payment.state,
    })),
    totalCount: result.data.totalCount,
    totalPages: result.data.totalNoPage,
  }
}

/** A bulk status change as posted: the ticked orders, the status, a cancellation's reason and its confirmation tick. */
const BulkChangeSchema = z.object({
  ids: z.array(z.string().trim().min(1)).min(1, 'Tick at least one order').max(BULK_ORDERS_MAX, `Tick at most ${BULK_ORDERS_MAX} orders`),
  status: z.enum(ORDER_STATUSES, { error: 'Choose a status' }),
  reason: CancelReasonSchema.optional(),
  confirm: z.literal('yes').optional(),
})

export async function action({ context, request, url }: Route.ActionArgs) {
  const api = apiOf(context)
  const { isStaff } = await requireStaff(context, url)
  if (!isStaff) throw data('Do not have permission', { status: 403 })
  const form = await readForm(request)
  const parsed = BulkChangeSchema.safeParse({
    ids: form.getAll('ids').map(String),
    status: form.get('status') ?? undefined,
    reason: form.get('reason') ?? undefined,
    confirm: form.get('confirm') || undefined,
  })
  if (!parsed.success) return data({ error: parsed.error.issues[0]!.message, outcomes: [] as BulkStatusOutcome[] }, { status: 400 })
  const { ids, status, reason, confirm } = parsed.data
  if (status === 'cancelled' && confirm !== 'yes') {
    return data(
      {
        error: `Tick "Yes, cancel" to cancel ${countLabel(ids.length, 'order')}: their stock goes back`,
        outcomes: [] as BulkStatusOutcome[],
      },
      { status: 400 },
    )
  }
  const result = await bulkUpdateOrderStatus(api, getSession(context), {
    orderIds: ids,
    status,
    ...(status === 'cancelled' && reason ? { reason } : {}),
  })
  if (!result.ok) return data({ error: failureMessage(result), outcomes: [] as BulkStatusOutcome[] }, { status: result.status })
  const { moved, outcomes } = result.data
  return {
    error: null,
    message: `${moved} of ${countLabel(outcomes.length, 'order')} marked ${statusLabel(status).toLowerCase()}`,
    outcomes,
  }
}

const fieldClass = 'w-full rounded-lg border border-slate-300 bg-white px-2 py-1.5 text-sm'

export default function OrdersAdmin({ loaderData, actionData }: Route.ComponentProps) {
  const { isStaff, isAdmin, orders, stores, filter, ownStore, errors, page, totalCount, totalPages, exportQuery } = loaderData
  const link = (next: { status?: string; page?: number }) => {
    const params = new URLSearchParams(orderFilterQuery({ ...filter, status: next.status as OrderStatus | undefined }))
    if (next.page && next.page > 1) params.set('page', String(next.page))
    const query = params.toString()
    return query ? `?${query}` : '/dashboard/orders'
  }
  const refused = actionData?.outcomes.filter((o) => !o.ok) ?? []
  return (
    <RoleGuard allowed={isStaff}>
      <section className="p-4 md:p-6">
        <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
          <h1 className="text-lg font-semibold text-slate-900">Orders</h1>
          <div className="flex flex-wrap gap-2">
            {filter.store ? (
              <a
                href={`/dashboard/orders/packing-slips?${new URLSearchParams({ storeId: filter.store })}`}
                className={buttonClassName({ variant: 'secondary', size: 'sm' })}
              >
                Print packed orders&apos; slips
                <span className="sr-only"> of {stores.find((st) => st.id === filter.store)?.name ?? 'this store'}</span>
              </a>
            ) : null}
            <a
              href={`/dashboard/orders/export${exportQuery ? `?${exportQuery}` : ''}`}
              download
              className={buttonClassName({ variant: 'secondary', size: 'sm' })}
            >
              Export CSV
            </a>
            <a
              href={`/dashboard/orders/export?${new URLSearchParams([...new URLSearchParams(exportQuery), [ORDER_EXPORT_ROWS_PARAM, 'lines']])}`}
              download
              className={buttonClassName({ variant: 'secondary', size: 'sm' })}
            >
              Export lines (CSV)
            </a>
          </div>
        </div>
        <Form method="get" role="search" aria-label="Search orders" className="mb-3 grid grid-cols-2 gap-2 sm:grid-cols-6">
          <label className="col-span-2 flex flex-col gap-1 text-sm text-slate-700 sm:col-span-6">
            Search
            <input
              type="search"
              name="q"
              defaultValue={filter.q ?? ''}
              maxLength={100}
              placeholder="Order number, phone, email, name or address"
              className={fieldClass}
            />
          </label>
          {filter.status ? <input type="hidden" name="status" value={filter.status} /> : null}
          <label className="flex min-w-0 flex-col gap-1 text-sm text-slate-700 sm:col-span-2">
            From (IST)
            <input type="date" name="from" defaultValue={filter.from ?? ''} className={fieldClass} />
          </label>
          <label className="flex min-w-0 flex-col gap-1 text-sm text-slate-700 sm:col-span-2">
            To (IST)
            <input type="date" name="to" defaultValue={filter.to ?? ''} className={fieldClass} />
          </label>
          <label className="flex min-w-0 flex-col gap-1 text-sm text-slate-700 sm:col-span-2">
            Store
            <select name="store" defaultValue={filter.store ?? ''} className={fieldClass}>
              {ownStore ? null : <option value="">All stores</option>}
              {stores.map((st) => (
                <option key={st.id} value={st.id}>
                  {st.name}
                </option>
              ))}
            </select>
          </label>
          <label className="flex min-w-0 flex-col gap-1 text-sm text-slate-700 sm:col-span-2">
            Payment
            <select name="payment" defaultValue={filter.payment ?? ''} className={fieldClass}>
              <option value="">Any payment</option>
              {PAYMENT_STATES.map((state) => (
                <option key={state} value={state}>
                  {paymentStateLabel(state)}
                </option>
              ))}
            </select>
          </label>
          <label className="flex items-end gap-2 pb-2 text-sm text-slate-700 sm:col-span-2">
            <input type="checkbox" name="late" value="1" defaultChecked={filter.late ?? false} className="size-4" />
            Delivered late only
          </label>
          <label className="flex items-end gap-2 pb-2 text-sm text-slate-700 sm:col-span-2">
            <input type="checkbox" name="overdue" value="1" defaultChecked={filter.overdue ?? false} className="size-4" />
            Open past promise
          </label>
          <label className="flex min-w-0 flex-col gap-1 text-sm text-slate-700">
            Sort
            <select name="sort" defaultValue={filter.sort} className={fieldClass}>
              {ADMIN_ORDER_SORTS.map((s) => (
                <option key={s} value={s}>
                  {SORT_LABELS[s]}
                </option>
              ))}
            </select>
          </label>
          <div className="flex items-end">
            <button type="submit" className={buttonClassName({ variant: 'primary', size: 'sm', fullWidth: true })}>
              Search
            </button>
          </div>
        </Form>
        {errors.length > 0 ? (
          <ul role="alert" className="mb-3 rounded-lg border border-red-200 bg-red-50 p-2 text-sm text-red-800">
            {errors.map((e) => (
              <li key={e}>{e}</li>
            ))}
          </ul>
        ) : null}
        <nav aria-label="Filter by status" className="mb-4 flex flex-wrap gap-2">
          {[undefined, ...ORDER_STATUSES].map((s) => (
            <Link
              key={s ?? 'all'}
              to={link({ status: s })}
              aria-current={s === filter.status ? 'page' : undefined}
              className={`rounded-full border px-3 py-1 text-sm font-semibold ${s === filter.status ? 'border-accent bg-accent text-white' : 'border-slate-300 bg-white text-slate-700 hover:border-slate-400'}`}
            >
              {s ? statusLabel(s) : 'All'}
            </Link>
          ))}
        </nav>
        {actionData ? (
          <div
            role="status"
            className={`mb-3 rounded-lg border p-2 text-sm ${actionData.error ? 'border-red-200 bg-red-50 text-red-800' : 'border-emerald-200 bg-emerald-50 text-emerald-900'}`}
          >
            <p className="font-semibold">{actionData.error ?? ('message' in actionData ? actionData.message : '')}</p>
            {refused.length > 0 ? (
              <ul className="mt-1 list-disc pl-5">
                {refused.map((o) => (
                  <li key={o.orderId} className="break-words">
                    {o.orderNumber ?? o.orderId}: {o.message}
                  </li>
                ))}
              </ul>
            ) : null}
          </div>
        ) : null}
        <p className="mb-2 text-sm text-slate-600">{countLabel(totalCount, 'order')}</p>
        {orders.length === 0 ? (
          <p className="rounded-xl border border-dashed border-slate-300 p-6 text-center text-slate-600">No orders here.</p>
        ) : (
          <Form method="post" reloadDocument aria-label="Selected orders">
            <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white">
              <table className="w-full text-left text-sm">
                <thead className="bg-slate-50 text-slate-600">
                  <tr>
                    <th className="w-8 px-2 py-2">
                      <span className="sr-only">Select</span>
                    </th>
                    <th className="px-2 py-2">Order</th>
                    <th className="hidden px-3 py-2 sm:table-cell">Date</th>
                    <th className="px-2 py-2">Customer</th>
                    <th className="px-2 py-2">Status</th>
                    <th className="hidden px-3 py-2 md:table-cell">Items</th>
                    <th className="px-2 py-2 text-right">Total</th>
                  </tr>
                </thead>
                <tbody>
                  {orders.map((o) => (
                    <tr key={o._id} className="border-t border-slate-100">
                      <td className="px-2 py-2">
                        <input type="checkbox" name="ids" value={o._id} aria-label={`Select order ${o.orderId}`} className="size-4" />
                      </td>
                      <td className="px-2 py-2 font-semibold break-all">
                        <Link to={`/dashboard/orders/${o._id}`} className="text-accent hover:underline">
                          {o.orderId}
                        </Link>
                      </td>
                      <td className="hidden px-3 py-2 sm:table-cell">{formatOrderTime(o.createdAt)}</td>
                      <td className="px-2 py-2 break-words">
                        {o.customer}
                        <span className="block text-xs text-slate-500">{o.phone}</span>
                      </td>
                      <td className="px-2 py-2">
                        <span className="flex flex-wrap items-center gap-1">
                          <StatusBadge status={o.status} />
                          {o.late ? <LateBadge /> : null}
                        </span>
                      </td>
                      <td className="hidden px-3 py-2 md:table-cell">{itemCountLabel(o.itemCount)}</td>
                      <td className="px-2 py-2 text-right font-semibold">
                        {formatRupees(o.total)}
                        <span data-testid="payment-state" className="block text-xs font-normal text-slate-500">
                          {paymentStateLabel(o.payment)}
                        </span>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <fieldset className="mt-3 flex flex-col gap-2 rounded-xl border border-slate-200 bg-white p-3">
              <legend className="px-1 text-sm font-semibold text-slate-800">With the ticked orders</legend>
              <button
                type="submit"
                formMethod="get"
                formAction="/dashboard/orders/packing-slips"
                formTarget="_blank"
                formNoValidate
                className={`${buttonClassName({ variant: 'secondary', size: 'sm' })} self-start`}
              >
                Print packing slips
              </button>
              <div className="grid grid-cols-1 gap-2 sm:grid-cols-3">
                <label className="flex min-w-0 flex-col gap-1 text-sm text-slate-700">
                  New status
                  <select name="status" defaultValue="" className={fieldClass}>
                    <option value="" disabled>
                      Choose…
                    </option>
                    {/* A failed delivery needs its reason: marked one order at a time, on the order's page. */}
                    {ORDER_STATUSES.filter((s) => s !== 'placed' && s !== 'payment_pending' && s !== 'delivery_failed').map((s) => (
                      <option key={s} value={s}>
                        {statusLabel(s)}
                      </option>
                    ))}
                  </select>
                </label>
                <label className="flex min-w-0 flex-col gap-1 text-sm text-slate-700 sm:col-span-2">
                  Reason, if cancelling (the shopper sees it)
                  <input type="text" name="reason" maxLength={500} className={fieldClass} />
                </label>
              </div>
              <label className="flex items-start gap-2 text-sm text-slate-700">
                <input type="checkbox" name="confirm" value="yes" className="mt-0.5 size-4" />
                <span>
                  Yes, cancel: needed to cancel orders (their stock goes back)
                  {isAdmin ? '' : '. A paid order only an admin can cancel: cancelling it refunds the payment'}
                </span>
              </label>
              <button type="submit" className={`${buttonClassName({ variant: 'primary', size: 'sm' })} self-start`}>
                Change status
              </button>
            </fieldset>
          </Form>
        )}
        <PageLinks page={page} totalPages={totalPages} href={(n) => link({ status: filter.status, page: n })} />
      </section>
    </RoleGuard>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
