/**
 * /success?order=<order number> (docs/commerce-api.md, "Orders"): the page after placing an order:
 * the order number, what to pay on delivery (or that it was paid online), the minutes promised at placement (docs/stores.md,
 * "Shopper pages"), and links to the order and to keep shopping. Signed in
 * only; an order that is not the shopper's is a 404.
 */
import { data, Link } from 'react-router'
import type { Route } from './+types/success'
import { throwFailure } from '../.server/failure.ts'
import { orderDetails } from '../.server/api/order.ts'
import { requireUser } from '../.server/auth.ts'
import { getSession } from '../.server/context.ts'
import { GeneralErrorBoundary } from '../components/error-boundary.tsx'
import { SHOP_NAME } from '../components/header.tsx'
import { buttonClassName } from '../components/ui/button.tsx'
import { itemCountLabel } from '../lib/cart.ts'
import { formatRupees } from '../lib/money.ts'
import { DEFAULT_DELIVERY_MINUTES } from '../lib/delivery.ts'
import { countLabel } from '../lib/plural.ts'
import { PLAUSIBLE_ID } from '../../contract/ids.ts'
import { apiOf } from '../.server/api-context.ts'

export const meta: Route.MetaFunction = () => [{ title: `Order placed | ${SHOP_NAME}` }, { name: 'robots', content: 'noindex' }]
export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

export async function loader({ context, url }: Route.LoaderArgs) {
  const api = apiOf(context)
  requireUser(context, url)
  const ref = url.searchParams.get('order') ?? ''
  if (!PLAUSIBLE_ID.test(ref)) throw data('Order not found', { status: 404 })
  const result = await orderDetails(api, getSession(context), ref)
  if (!result.ok) throwFailure(result)
  const order = result.data
  return {
    orderId: order.orderId,
    id: order._id,
    total: order.totalAmt,
    itemCount: order.bill.itemCount,
    // Orders placed before stores had no promise: the shop's usual 10 minutes.
    minutes: order.promisedMinutes ?? DEFAULT_DELIVERY_MINUTES,
    storeName: order.store.name,
    paidOnline: order.payment.state !== 'cod',
  }
}

export default function Success({ loaderData }: Route.ComponentProps) {
  const { orderId, id, total, itemCount, minutes, storeName, paidOnline } = loaderData
  return (
    <div className="mx-auto max-w-lg px-4 py-12 text-center">
      <div aria-hidden="true" className="mx-auto mb-4 grid size-16 place-items-center rounded-full bg-green-100 text-3xl text-green-700">
        ✓
      </div>
      <h1 className="text-2xl font-bold text-slate-900">Order placed</h1>
      <p className="mt-2 text-slate-700">
        Your order number is <strong data-testid="order-number">{orderId}</strong>.
      </p>
      <p className="mt-1 text-slate-600">
        {itemCountLabel(itemCount)} · {paidOnline ? `paid ${formatRupees(total)} online` : `pay ${formatRupees(total)} in cash on delivery`}{' '}
        · arriving in about <span data-testid="promised-minutes">{countLabel(minutes, 'minute')}</span> from {storeName} store.
      </p>
      <div className="mt-6 flex flex-wrap justify-center gap-3">
        <Link to={`/dashboard/myorder/${id}`} className={buttonClassName({ variant: 'primary' })}>
          View order
        </Link>
        <Link to="/" className={buttonClassName({ variant: 'secondary' })}>
          Continue shopping
        </Link>
      </div>
    </div>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
