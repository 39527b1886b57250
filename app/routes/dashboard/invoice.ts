/**
 * /dashboard/myorder/:orderId/invoice and /dashboard/orders/:orderId/invoice (admin or staff): the order's tax
 * invoice as a PDF (docs/commerce-api.md, "Tax invoice"). A resource route: GET only,
 * `application/pdf`, shown inline with the file name `invoice-<order number>.pdf`. The dashboard
 * layout's middleware has required a signed-in user; the API decides whose order it is (the
 * shopper's own, any for an admin or staff: another shopper's is a 404), and the admin path also asks for the
 * admin role as the admin order page does. Plain links open it, with or without JavaScript.
 */
import type { Route } from './+types/invoice'
import { orderInvoice } from '../../.server/api/invoice.ts'
import { requireStaff } from '../../.server/auth.ts'
import { getSession } from '../../.server/context.ts'
import { failureInit, failureMessage } from '../../.server/failure.ts'
import { invoiceFileName, renderInvoicePdf } from '../../.server/invoice-pdf.ts'

export async function loader({ context, params, url }: Route.LoaderArgs) {
  if (url.pathname.startsWith('/dashboard/orders/')) {
    const { isStaff } = await requireStaff(context, url)
    if (!isStaff) return new Response('Do not have permission', { status: 403, headers: { 'Content-Type': 'text/plain; charset=utf-8' } })
  }
  const result = await orderInvoice(getSession(context), params.orderId)
  if (!result.ok) {
    const init = failureInit(result)
    const headers = new Headers(init.headers)
    headers.set('Content-Type', 'text/plain; charset=utf-8')
    return new Response(failureMessage(result), { status: init.status, headers })
  }
  const pdf = await renderInvoicePdf(result.data)
  return new Response(new Uint8Array(pdf), {
    headers: {
      'Content-Type': 'application/pdf',
      'Content-Disposition': `inline; filename="${invoiceFileName(result.data)}"`,
      'Content-Length': String(pdf.length),
      // Personal data: never kept by a shared cache.
      'Cache-Control': 'private, no-store',
    },
  })
}
