/**
 * /dashboard/orders/packing-slips?ids=… (admin or staff; docs/commerce-api.md, "Admin orders at volume"): a
 * printable packing slip for each order named (`ids` repeated, as the orders list's ticked rows send
 * them, or comma-separated; an order's `_id` or number; at most BULK_ORDERS_MAX): the order number, the
 * shopper, the delivery address and phone, and each line with its quantity, brand, name, pack size and
 * product id (the SKU the pickers match), and the cash to collect. The print stylesheet prints only the
 * slips, one a page (CSS Paged Media `break-after: page`). Works without JavaScript; "Print" uses it.
 */
import { data, Link } from 'react-router'
import type { Route } from './+types/packing-slips'
import { BULK_ORDERS_MAX, orderDetails, type Order } from '../../../.server/api/order.ts'
import { failureMessage } from '../../../.server/failure.ts'
import { requireStaff } from '../../../.server/auth.ts'
import { getSession } from '../../../.server/context.ts'
import { RoleGuard } from '../../../components/admin-guard.tsx'
import { GeneralErrorBoundary } from '../../../components/error-boundary.tsx'
import { SHOP_NAME } from '../../../components/header.tsx'
import { formatRupees } from '../../../lib/money.ts'
import { formatOrderTime, statusLabel } from '../../../lib/order-status.ts'
import { addressLine } from '../../../lib/schemas/address.ts'
import { apiOf } from '../../../.server/api-context.ts'

export const meta: Route.MetaFunction = () => [{ title: `Packing slips | ${SHOP_NAME}` }, { name: 'robots', content: 'noindex' }]

/** The order refs of `search`: every `ids` value, each split at commas, trimmed, without repeats. */
export function slipIds(search: URLSearchParams): string[] {
  const ids = search
    .getAll('ids')
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean)
  return [...new Set(ids)]
}

export async function loader({ context, url }: Route.LoaderArgs) {
  const api = apiOf(context)
  const { isStaff } = await requireStaff(context, url)
  if (!isStaff) return data({ isStaff: false, orders: [] as Order[], missing: [] as string[] }, { status: 403 })
  const ids = slipIds(url.searchParams)
  if (ids.length === 0) throw data('Tick at least one order to print its packing slip', { status: 400 })
  if (ids.length > BULK_ORDERS_MAX) throw data(`Print at most ${BULK_ORDERS_MAX} packing slips at a time`, { status: 400 })
  const session = getSession(context)
  const results = await Promise.all(ids.map((id) => orderDetails(api, session, id)))
  const orders: Order[] = []
  const missing: string[] = []
  results.forEach((result, i) => {
    if (result.ok) orders.push(result.data)
    else if (result.status === 404 || result.status === 400) missing.push(ids[i]!)
    else throw data(failureMessage(result), { status: result.status })
  })
  if (orders.length === 0) throw data('No such orders', { status: 404 })
  return { isStaff: true, orders, missing }
}

/** Print only the slips, each on its own page, in black on white. */
const PRINT_CSS = `@media print {
  @page { margin: 12mm; }
  body * { visibility: hidden; }
  .packing-slips, .packing-slips * { visibility: visible; }
  .packing-slips { position: absolute; left: 0; top: 0; width: 100%; }
  .packing-slips .no-print { display: none; }
  .packing-slip { break-after: page; border: 0 !important; box-shadow: none !important; }
  .packing-slip:last-child { break-after: auto; }
}`

function Slip({ order }: { order: Order }) {
  const units = order.items.reduce((n, l) => n + l.quantity, 0)
  return (
    <article
      aria-label={`Packing slip ${order.orderId}`}
      className="packing-slip rounded-xl border border-slate-300 bg-white p-4 text-slate-900"
    >
      <header className="flex flex-wrap items-start justify-between gap-2 border-b border-slate-200 pb-2">
        <div className="min-w-0">
          <p className="text-xs tracking-wide text-slate-500 uppercase">{SHOP_NAME} · Packing slip</p>
          <h2 className="text-lg font-bold break-all">{order.orderId}</h2>
          <p className="text-sm">{formatOrderTime(order.createdAt)}</p>
        </div>
        <p className="text-sm font-semibold">{statusLabel(order.status)}</p>
      </header>
      <section aria-label="Deliver to" className="border-b border-slate-200 py-2 text-sm">
        <p className="font-semibold break-words">{order.customer?.name ?? ''}</p>
        <p className="break-words">
          {order.delivery_address.label ? <strong>{order.delivery_address.label}: </strong> : null}
          {addressLine(order.delivery_address)}
        </p>
        <p>Phone {order.delivery_address.mobile}</p>
      </section>
      <table className="mt-2 w-full table-fixed text-left text-sm">
        <thead>
          <tr className="border-b border-slate-200">
            <th className="w-12 py-1">Qty</th>
            <th className="py-1">Item</th>
            <th className="w-8 py-1 text-right">
              <span aria-hidden="true">✓</span>
              <span className="sr-only">Packed</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {order.items.map((line, i) => (
            <tr key={`${line.productId ?? 'gone'}-${i}`} className="border-b border-slate-100 align-top">
              <td className="py-1 text-base font-bold">{line.quantity}</td>
              <td className="py-1 break-words">
                {line.brand ? <span className="font-semibold">{line.brand} </span> : null}
                {line.name}
                <span className="block text-xs text-slate-600">
                  {line.unit}
                  {line.productId ? ` · SKU ${line.productId}` : ''}
                </span>
              </td>
              <td className="py-1 text-right">☐</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="mt-2 flex flex-wrap justify-between gap-2 text-sm">
        <span>
          {units} {units === 1 ? 'unit' : 'units'}, {order.items.length} {order.items.length === 1 ? 'line' : 'lines'}
        </span>
        <span className="font-semibold">Cash to collect {formatRupees(order.totalAmt)}</span>
      </p>
    </article>
  )
}

export default function PackingSlips({ loaderData }: Route.ComponentProps) {
  const { isStaff, orders, missing } = loaderData
  return (
    <RoleGuard allowed={isStaff}>
      <style>{PRINT_CSS}</style>
      <section className="packing-slips flex flex-col gap-4 p-4 md:p-6">
        <div className="no-print flex flex-wrap items-center justify-between gap-2">
          <h1 className="text-lg font-semibold text-slate-900">Packing slips ({orders.length})</h1>
          <Link to="/dashboard/orders" className="text-sm font-semibold text-accent hover:underline">
            ‹ Orders
          </Link>
        </div>
        <p className="no-print text-sm text-slate-600">Print this page (Ctrl+P): each slip prints on its own page.</p>
        {missing.length > 0 ? (
          <p role="alert" className="no-print rounded-lg border border-amber-200 bg-amber-50 p-2 text-sm break-words text-amber-900">
            Not found: {missing.join(', ')}
          </p>
        ) : null}
        {orders.map((order) => (
          <Slip key={order._id} order={order} />
        ))}
      </section>
    </RoleGuard>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
