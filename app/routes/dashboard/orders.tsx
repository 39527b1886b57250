/**
 * /dashboard/orders (admin; docs/commerce-api.md, "Orders"): every order, newest first, with a
 * status filter (`?status=`) and paging (`?page=`), each opening its order page where the admin moves
 * it along; an order delivered after its promised time has a "Late" badge (docs/stores.md, "Shopper
 * pages"). A non-admin sees the red "Do not have permission" box (403); the API enforces the role.
 */
import { data, Link } from 'react-router'
import type { Route } from './+types/orders'
import { throwFailure } from '../../.server/failure.ts'
import { adminListOrders, type OrderStatus } from '../../.server/api/order.ts'
import { requireAdmin } from '../../.server/auth.ts'
import { getSession } from '../../.server/context.ts'
import { AdminGuard } from '../../components/admin-guard.tsx'
import { GeneralErrorBoundary } from '../../components/error-boundary.tsx'
import { SHOP_NAME } from '../../components/header.tsx'
import { LateBadge, StatusBadge } from '../../components/order-view.tsx'
import { itemCountLabel } from '../../lib/cart.ts'
import { formatRupees } from '../../lib/money.ts'
import { countLabel } from '../../lib/plural.ts'
import { formatOrderTime, ORDER_STATUS_NAMES, statusLabel } from '../../lib/order-status.ts'

export const meta: Route.MetaFunction = () => [{ title: `Orders | ${SHOP_NAME}` }, { name: 'robots', content: 'noindex' }]

/** Orders per page. */
const PAGE_SIZE = 20

export async function loader({ context, url }: Route.LoaderArgs) {
  const { isAdmin } = await requireAdmin(context, url)
  const rawStatus = url.searchParams.get('status')
  const status = ORDER_STATUS_NAMES.includes(rawStatus as OrderStatus) ? (rawStatus as OrderStatus) : undefined
  const page = Math.min(10_000, Math.max(1, Number.parseInt(url.searchParams.get('page') ?? '1', 10) || 1))
  if (!isAdmin) return data({ isAdmin: false, orders: [], status, page, totalCount: 0, totalPages: 0 }, { status: 403 })
  const result = await adminListOrders(getSession(context), { status, page, limit: PAGE_SIZE })
  if (!result.ok) throwFailure(result)
  return {
    isAdmin: true,
    orders: result.data.orders.map((o) => ({
      _id: o._id,
      orderId: o.orderId,
      createdAt: o.createdAt,
      status: o.status,
      customer: o.customer?.name ?? '',
      itemCount: o.bill.itemCount,
      total: o.totalAmt,
      late: o.late,
      store: o.store.name,
    })),
    status,
    page,
    totalCount: result.data.totalCount,
    totalPages: result.data.totalNoPage,
  }
}

export default function OrdersAdmin({ loaderData }: Route.ComponentProps) {
  const { isAdmin, orders, status, page, totalCount, totalPages } = loaderData
  const link = (next: { status?: string; page?: number }) => {
    const params = new URLSearchParams()
    if (next.status) params.set('status', next.status)
    if (next.page && next.page > 1) params.set('page', String(next.page))
    const query = params.toString()
    return query ? `?${query}` : '/dashboard/orders'
  }
  return (
    <AdminGuard isAdmin={isAdmin}>
      <section className="p-4 md:p-6">
        <h1 className="mb-3 text-lg font-semibold text-slate-900">Orders</h1>
        <nav aria-label="Filter by status" className="mb-4 flex flex-wrap gap-2">
          {[undefined, ...ORDER_STATUS_NAMES].map((s) => (
            <Link
              key={s ?? 'all'}
              to={link({ status: s })}
              aria-current={s === status ? 'page' : undefined}
              className={`rounded-full border px-3 py-1 text-sm font-semibold ${s === status ? 'border-accent bg-accent text-white' : 'border-slate-300 bg-white text-slate-700 hover:border-slate-400'}`}
            >
              {s ? statusLabel(s) : 'All'}
            </Link>
          ))}
        </nav>
        <p className="mb-2 text-sm text-slate-600">{countLabel(totalCount, 'order')}</p>
        {orders.length === 0 ? (
          <p className="rounded-xl border border-dashed border-slate-300 p-6 text-center text-slate-600">No orders here.</p>
        ) : (
          <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white">
            <table className="w-full text-left text-sm">
              <thead className="bg-slate-50 text-slate-600">
                <tr>
                  <th className="px-3 py-2">Order</th>
                  <th className="px-3 py-2">Date</th>
                  <th className="px-3 py-2">Customer</th>
                  <th className="px-3 py-2">Status</th>
                  <th className="px-3 py-2">Items</th>
                  <th className="px-3 py-2 text-right">Total</th>
                </tr>
              </thead>
              <tbody>
                {orders.map((o) => (
                  <tr key={o._id} className="border-t border-slate-100">
                    <td className="px-3 py-2 font-semibold">
                      <Link to={`/dashboard/orders/${o._id}`} className="text-accent hover:underline">
                        {o.orderId}
                      </Link>
                    </td>
                    <td className="px-3 py-2">{formatOrderTime(o.createdAt)}</td>
                    <td className="px-3 py-2">{o.customer}</td>
                    <td className="px-3 py-2">
                      <span className="flex flex-wrap items-center gap-1">
                        <StatusBadge status={o.status} />
                        {o.late ? <LateBadge /> : null}
                      </span>
                    </td>
                    <td className="px-3 py-2">{itemCountLabel(o.itemCount)}</td>
                    <td className="px-3 py-2 text-right font-semibold">{formatRupees(o.total)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {totalPages > 1 ? (
          <nav aria-label="Pages" className="mt-4 flex items-center justify-between text-sm">
            {page > 1 ? (
              <Link to={link({ status, page: page - 1 })} className="font-semibold text-accent hover:underline">
                ‹ Newer
              </Link>
            ) : (
              <span />
            )}
            <span>
              Page {page} of {totalPages}
            </span>
            {page < totalPages ? (
              <Link to={link({ status, page: page + 1 })} className="font-semibold text-accent hover:underline">
                Older ›
              </Link>
            ) : (
              <span />
            )}
          </nav>
        ) : null}
      </section>
    </AdminGuard>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
