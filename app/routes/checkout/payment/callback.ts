/**
 * /checkout/payment/callback (docs/payments.md, "Callback"): where the provider's checkout posts its
 * answer (Razorpay's `callback_url`; the test provider's page posts the same fields). The API
 * verifies it (signature, then amount and currency); this route only sends the shopper on:
 * paid → /success, failed or closed → the pay page with "Try again" and "Pay on delivery instead",
 * still confirming → the pay page saying so, refunded or mismatched → the order page. It needs no
 * session (a post from the provider's site carries no SameSite=Lax cookie) and is exempt from the
 * same-site form check (app/.server/csrf.ts) because the signature is the proof. A GET goes to /checkout.
 */
import { data, redirect } from 'react-router'
import type { Route } from './+types/callback'
import { paymentCallback } from '../../../.server/api/payment.ts'
import { readForm, readText } from '../../../.server/form.ts'
import { clientIp } from '../../../.server/request.ts'
import { apiOf } from '../../../.server/api-context.ts'

export function loader() {
  throw redirect('/checkout')
}

/** The provider order a failure names: Razorpay puts it in `error[metadata]` (JSON). */
function failedOrderId(formData: FormData): string {
  try {
    const metadata = JSON.parse(readText(formData, 'error[metadata]') || '{}') as { order_id?: unknown }
    return typeof metadata.order_id === 'string' ? metadata.order_id : ''
  } catch {
    return ''
  }
}

export async function action({ context, request }: Route.ActionArgs) {
  const api = apiOf(context)
  const formData = await readForm(request)
  const providerOrderId = readText(formData, 'razorpay_order_id') || failedOrderId(formData)
  const paymentId = readText(formData, 'razorpay_payment_id')
  const signature = readText(formData, 'razorpay_signature')
  const description = readText(formData, 'error[description]').slice(0, 500)
  const result = await paymentCallback(
    api,
    {
      razorpay_order_id: providerOrderId,
      ...(paymentId && signature ? { razorpay_payment_id: paymentId, razorpay_signature: signature } : {}),
      ...(description ? { error: { code: readText(formData, 'error[code]').slice(0, 100), description } } : {}),
    },
    { clientIp: clientIp(request) },
  )
  if (!result.ok) {
    throw data(result.status === 400 ? 'The payment answer could not be verified: nothing was charged to this order' : result.message, {
      status: result.status === 404 || result.status === 400 ? result.status : 502,
    })
  }
  const outcome = result.data
  // The pay page by the order number the shopper already has: a failure's answer carries no id of ours.
  const payPage = (flag: string) => `/checkout/pay/${encodeURIComponent(outcome.orderNumber)}?${flag}=1`
  switch (outcome.outcome) {
    case 'paid':
      throw redirect(`/success?${new URLSearchParams({ order: outcome.orderNumber })}`, 303)
    case 'failed':
      throw redirect(payPage('failed'), 303)
    case 'pending':
      throw redirect(payPage('pending'), 303)
    default:
      throw redirect(`/dashboard/myorder/${encodeURIComponent(outcome.orderId ?? outcome.orderNumber)}`, 303)
  }
}
