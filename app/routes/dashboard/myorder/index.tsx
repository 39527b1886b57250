/**
 * /dashboard/myorder, "My Orders" (docs/product.md, "My Orders"; docs/commerce-api.md, "Orders"): the
 * shopper's orders, newest first, with order number, date, status, item count and total; each opens
 * its order page and has "Order again" (docs/product.md, "Order again"). The dashboard layout's
 * middleware requires a signed-in user.
 */
import { Link } from 'react-router'
import type { Route } from './+types/index'
import { throwFailure } from '../../../.server/failure.ts'
import { getSession } from '../../../.server/context.ts'
import { listOrders } from '../../../.server/api/order.ts'
import { readForm, readText } from '../../../.server/form.ts'
import { orderAgain } from '../../../.server/reorder.ts'
import { redirectWithToast } from '../../../.server/toast.ts'
import { GeneralErrorBoundary } from '../../../components/error-boundary.tsx'
import { SHOP_NAME } from '../../../components/header.tsx'
import { StatusBadge } from '../../../components/order-view.tsx'
import { ReorderButton } from '../../../components/reorder-button.tsx'
import { buttonClassName } from '../../../components/ui/button.tsx'
import { itemCountLabel } from '../../../lib/cart.ts'
import { formatRupees } from '../../../lib/money.ts'
import { formatOrderTime } from '../../../lib/order-status.ts'
import { REORDER_INTENT } from '../../../lib/reorder.ts'
import { apiOf } from '../../../.server/api-context.ts'

const MY_ORDERS_PATH = '/dashboard/myorder'

export const meta: Route.MetaFunction = () => [{ title: `My Orders | ${SHOP_NAME}` }, { name: 'robots', content: 'noindex' }]

export async function loader({ context }: Route.LoaderArgs) {
  const api = apiOf(context)
  const result = await listOrders(api, getSession(context))
  if (!result.ok) throwFailure(result)
  return {
    orders: result.data.map((o) => ({
      _id: o._id,
      orderId: o.orderId,
      createdAt: o.createdAt,
      status: o.status,
      itemCount: o.bill.itemCount,
      total: o.totalAmt,
    })),
  }
}

/** "Order again" from a row (`intent=reorder`, `orderId`): to the cart with a toast; a post it does not understand comes back here. */
export async function action({ context, request }: Route.ActionArgs) {
  const api = apiOf(context)
  const session = getSession(context)
  const formData = await readForm(request)
  const orderId = readText(formData, 'orderId')
  if (formData.get('intent') !== REORDER_INTENT || !orderId) {
    return redirectWithToast(session, MY_ORDERS_PATH, { type: 'error', message: 'That request was not understood: please try again' })
  }
  return orderAgain(api, session, request, orderId, MY_ORDERS_PATH)
}

export default function MyOrder({ loaderData }: Route.ComponentProps) {
  const { orders } = loaderData
  return (
    <section className="p-4 md:p-6">
      <h1 className="mb-4 text-lg font-semibold text-slate-900">My Orders</h1>
      {orders.length === 0 ? (
        <div className="rounded-xl border border-dashed border-slate-300 p-6 text-center">
          <p className="text-slate-600">No orders yet.</p>
          <Link to="/" className={`${buttonClassName({ variant: 'primary', size: 'sm' })} mt-3`}>
            Shop Now
          </Link>
        </div>
      ) : (
        <ul aria-label="Orders" className="grid gap-3">
          {orders.map((order) => (
            <li
              key={order._id}
              data-card="order"
              className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-slate-200 bg-white p-4 hover:border-slate-300"
            >
              <Link to={`${MY_ORDERS_PATH}/${order._id}`} className="flex min-w-0 flex-1 flex-wrap items-center justify-between gap-3">
                <span className="min-w-0">
                  <span className="block font-semibold break-words text-slate-900">Order {order.orderId}</span>
                  <span className="text-sm text-slate-600">
                    {formatOrderTime(order.createdAt)} · {itemCountLabel(order.itemCount)}
                  </span>
                </span>
                <span className="flex items-center gap-3">
                  <StatusBadge status={order.status} />
                  <span className="font-bold">{formatRupees(order.total)}</span>
                </span>
              </Link>
              <ReorderButton orderId={order._id} orderNumber={order.orderId} action={MY_ORDERS_PATH} />
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
