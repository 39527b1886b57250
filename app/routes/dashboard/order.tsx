/**
 * /dashboard/myorder/:orderId (docs/commerce-api.md, "Orders"): one of the shopper's orders: the
 * status timeline, every line as sold, the address as at order time, the bill, and "Cancel order"
 * while the order is still placed (stock goes back). Another shopper's order is a 404.
 */
import { Form, Link } from 'react-router'
import type { Route } from './+types/order'
import { throwFailure } from '../../.server/failure.ts'
import { getSession } from '../../.server/context.ts'
import { cancelOrder, orderDetails } from '../../.server/api/order.ts'
import { readForm } from '../../.server/form.ts'
import { redirectWithToast } from '../../.server/toast.ts'
import { GeneralErrorBoundary } from '../../components/error-boundary.tsx'
import { useIsPending } from '../../components/forms.tsx'
import { SHOP_NAME } from '../../components/header.tsx'
import { OrderBody, StatusBadge, StatusTimeline } from '../../components/order-view.tsx'
import { buttonClassName } from '../../components/ui/button.tsx'
import { formatOrderTime } from '../../lib/order-status.ts'

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData ? `Order ${loaderData.order.orderId}` : 'Order'} | ${SHOP_NAME}` },
  { name: 'robots', content: 'noindex' },
]

export async function loader({ context, params }: Route.LoaderArgs) {
  const result = await orderDetails(getSession(context), params.orderId)
  if (!result.ok) throwFailure(result)
  return { order: result.data }
}

export async function action({ context, params, request }: Route.ActionArgs) {
  const session = getSession(context)
  await readForm(request)
  const result = await cancelOrder(session, params.orderId)
  return redirectWithToast(session, `/dashboard/myorder/${params.orderId}`, {
    type: result.ok ? 'success' : 'error',
    message: result.message,
  })
}

export default function OrderPage({ loaderData }: Route.ComponentProps) {
  const { order } = loaderData
  const isPending = useIsPending()
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
      <StatusTimeline order={order} />
      {order.status === 'placed' ? (
        <Form method="post">
          <button type="submit" disabled={isPending} className={buttonClassName({ variant: 'danger', size: 'sm' })}>
            {isPending ? 'Cancelling…' : 'Cancel order'}
          </button>
        </Form>
      ) : null}
      <OrderBody order={order} />
    </section>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
