/**
 * The tax invoice download shared by /dashboard/myorder/:orderId/invoice and
 * /dashboard/orders/:orderId/invoice (docs/commerce-api.md, "Tax invoice"): the API's invoice of an
 * order laid out as a PDF (app/.server/invoice-pdf.ts), shown inline as `invoice-<order number>.pdf`.
 * The API decides whose order it is (the shopper's own, any for an admin or staff: another
 * shopper's is a 404); its refusal is answered as plain text with its status.
 */
import { orderInvoice } from './api/invoice.ts'
import { failureInit, failureMessage } from './failure.ts'
import { invoiceFileName, renderInvoicePdf } from './invoice-pdf.ts'
import type { RequestSession } from './session.ts'

/** The PDF of order `orderId` as the session's user may read it, or the API's refusal as text. */
export async function invoicePdfResponse(session: RequestSession, orderId: string): Promise<Response> {
  const result = await orderInvoice(session, orderId)
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
