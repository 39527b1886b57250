/**
 * /checkout/pay/:orderId (docs/payments.md, "Checkout"): paying an online order that waits for its
 * payment, its items held until the time shown. The provider's checkout opens in the page with
 * JavaScript, or by a plain form to the provider's hosted page without (app/components/payment-checkout.tsx).
 * After a failed (`?failed=1`) or closed (`?cancelled=1`) payment it offers "Try again" and
 * "Pay on delivery instead" (the order becomes cash on delivery, its items kept). While the
 * provider is still confirming (`?pending=1`) it says so. An order paid meanwhile goes to /success;
 * one whose time ran out says its items went back on the shelf. Signed in only; another's order is a 404.
 */
import { data, Form, Link, redirect } from 'react-router'
import type { Route } from './+types/$orderId'
import { throwFailure } from '../../../.server/failure.ts'
import { orderDetails } from '../../../.server/api/order.ts'
import { payOnDelivery, retryPayment } from '../../../.server/api/payment.ts'
import { requireUser } from '../../../.server/auth.ts'
import { getSession } from '../../../.server/context.ts'
import { PAYMENT_CALLBACK_PATH } from '../../../.server/csrf.ts'
import { env } from '../../../.server/env.ts'
import { redirectWithToast } from '../../../.server/toast.ts'
import { GeneralErrorBoundary } from '../../../components/error-boundary.tsx'
import { useIsPending } from '../../../components/forms.tsx'
import { SHOP_NAME } from '../../../components/header.tsx'
import { PaymentCheckout } from '../../../components/payment-checkout.tsx'
import { buttonClassName } from '../../../components/ui/button.tsx'
import { formatRupees } from '../../../lib/money.ts'
import { formatOrderTime } from '../../../lib/order-status.ts'
import { PLAUSIBLE_ID } from '../../../../contract/ids.ts'
import { type Api, apiOf } from '../../../.server/api-context.ts'

export const meta: Route.MetaFunction = () => [{ title: `Payment | ${SHOP_NAME}` }, { name: 'robots', content: 'noindex' }]
export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

const successHref = (orderNumber: string) => `/success?${new URLSearchParams({ order: orderNumber })}`

export async function loader({ context, url, params }: Route.LoaderArgs) {
  const api = apiOf(context)
  requireUser(context, url)
  const session = getSession(context)
  const orderId = params.orderId
  if (!PLAUSIBLE_ID.test(orderId)) throw data('Order not found', { status: 404 })
  const origin = env.publicUrl ?? url.origin
  const flags = {
    failed: url.searchParams.has('failed'),
    cancelled: url.searchParams.has('cancelled'),
    pending: url.searchParams.has('pending'),
  }
  const result = await retryPayment(api, session, {
    orderId,
    callbackUrl: `${origin}${PAYMENT_CALLBACK_PATH}`,
    cancelUrl: `${origin}/checkout/pay/${encodeURIComponent(orderId)}?cancelled=1`,
  })
  if (result.ok) {
    const { order, checkout } = result.data
    return { kind: 'pay' as const, checkout, total: order.totalAmt, orderId: order._id, ...flags }
  }
  if (result.status === 409) {
    const order = await orderDetails(api, session, orderId)
    if (!order.ok) throwFailure(order)
    if (order.data.status !== 'cancelled' && order.data.status !== 'payment_pending') throw redirect(successHref(order.data.orderId))
    return {
      kind: 'closed' as const,
      orderId: order.data._id,
      orderNumber: order.data.orderId,
      expired: order.data.payment.state === 'expired',
    }
  }
  if (result.status === 503) return { kind: 'unavailable' as const, orderId, message: result.message, ...flags }
  throwFailure(result)
}

export async function action({ context, url, params }: Route.ActionArgs) {
  const api = apiOf(context)
  requireUser(context, url)
  const session = getSession(context)
  return payInstead(api, session, params.orderId)
}

async function payInstead(api: Api, session: ReturnType<typeof getSession>, orderId: string) {
  const result = await payOnDelivery(api, session, orderId)
  if (result.ok) throw redirect(successHref(result.data.orderId))
  throw redirectWithToast(session, `/checkout/pay/${encodeURIComponent(orderId)}`, { type: 'error', message: result.message })
}

export default function CheckoutPay({ loaderData }: Route.ComponentProps) {
  const isSwitching = useIsPending()
  if (loaderData.kind === 'closed') {
    return (
      <div className="mx-auto max-w-lg px-4 py-10">
        <section data-card="payment closed" className="rounded-xl border border-slate-200 bg-white p-5 text-center">
          <h1 className="text-xl font-bold text-slate-900">{loaderData.expired ? 'The time to pay ran out' : 'This order is closed'}</h1>
          <p className="mt-2 text-slate-700">
            {loaderData.expired
              ? `Order ${loaderData.orderNumber} was not paid in time, so its items went back on the shelf. No money was taken.`
              : `Order ${loaderData.orderNumber} is no longer waiting for a payment.`}
          </p>
          <div className="mt-5 flex flex-wrap justify-center gap-3">
            <Link to="/cart" className={buttonClassName({ variant: 'primary' })}>
              Back to the cart
            </Link>
            <Link to={`/dashboard/myorder/${loaderData.orderId}`} className={buttonClassName({ variant: 'secondary' })}>
              View order
            </Link>
          </div>
        </section>
      </div>
    )
  }
  const trouble = loaderData.failed
    ? 'The payment did not go through. No money was taken.'
    : loaderData.cancelled
      ? 'The payment was not completed.'
      : loaderData.kind === 'unavailable'
        ? loaderData.message
        : null
  return (
    <div className="mx-auto max-w-lg px-4 py-8">
      <section data-card="payment" className="flex flex-col gap-4 rounded-xl border border-slate-200 bg-white p-5">
        {loaderData.kind === 'pay' ? (
          <>
            <div>
              <h1 className="text-xl font-bold text-slate-900">
                {trouble ? 'Payment not completed' : `Pay ${formatRupees(loaderData.total)}`}
              </h1>
              <p className="mt-1 text-sm text-slate-600">
                Order {loaderData.checkout.orderNumber} · your items are held until{' '}
                <strong>{formatOrderTime(loaderData.checkout.expiresAt)}</strong>
              </p>
            </div>
            {trouble ? (
              <p
                role="alert"
                data-testid="payment-trouble"
                className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
              >
                {trouble}
              </p>
            ) : null}
            {loaderData.pending ? (
              <p role="status" className="rounded-lg border border-slate-200 bg-slate-50 p-3 text-sm text-slate-800">
                We are confirming your payment with the bank. This page shows the order once it is confirmed:{' '}
                <Link to="." className="font-semibold text-accent">
                  Refresh
                </Link>
              </p>
            ) : null}
            <PaymentCheckout
              checkout={loaderData.checkout}
              label={trouble ? 'Try again' : `Pay ${formatRupees(loaderData.total)}`}
              autoOpen={!trouble && !loaderData.pending}
            />
          </>
        ) : (
          <>
            <h1 className="text-xl font-bold text-slate-900">Payment not available</h1>
            <p role="alert" className="text-sm text-slate-700">
              {trouble}
            </p>
            <Link to="." className={buttonClassName({ variant: 'primary', fullWidth: true })}>
              Try again
            </Link>
          </>
        )}
        <Form method="post">
          <button type="submit" disabled={isSwitching} className={buttonClassName({ variant: 'secondary', fullWidth: true })}>
            {isSwitching ? 'Placing your order…' : 'Pay on delivery instead'}
          </button>
        </Form>
      </section>
    </div>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
