/**
 * The tax invoice and credit note downloads shared by /dashboard/myorder/:orderId/invoice and
 * /dashboard/orders/:orderId/invoice (docs/commerce-api.md, "Tax invoice"): the API's invoice of an
 * order laid out as a PDF (app/.server/invoice-pdf.ts), shown inline as `invoice-<order number>.pdf`.
 * The API decides whose order it is (the shopper's own, any for an admin or staff: another
 * shopper's is a 404); its refusal is answered as plain text with its status.
 */
import { orderCreditNotes, orderInvoice } from './api/invoice.ts'
import { failureInit, failureMessage } from './failure.ts'
import { creditNoteFileName, invoiceFileName, renderCreditNotePdf, renderInvoicePdf } from './invoice-pdf.ts'
import type { RequestSession } from './session.ts'
import type { UpstreamResult } from './upstream.ts'
import type { Api } from './api-context.ts'

/** A refusal as plain text with its status (a 409 for an order without an invoice says why). */
function refusal(result: Extract<UpstreamResult<unknown>, { ok: false }>): Response {
  const init = failureInit(result)
  const headers = new Headers(init.headers)
  headers.set('Content-Type', 'text/plain; charset=utf-8')
  return new Response(failureMessage(result), { status: init.status, headers })
}

function pdfResponse(pdf: Buffer, fileName: string): Response {
  return new Response(new Uint8Array(pdf), {
    headers: {
      'Content-Type': 'application/pdf',
      'Content-Disposition': `inline; filename="${fileName}"`,
      'Content-Length': String(pdf.length),
      // Personal data: never kept by a shared cache.
      'Cache-Control': 'private, no-store',
    },
  })
}

/** The PDF of order `orderId` as the session's user may read it, or the API's refusal as text. */
export async function invoicePdfResponse(api: Api, session: RequestSession, orderId: string): Promise<Response> {
  const result = await orderInvoice(api, session, orderId)
  if (!result.ok) return refusal(result)
  return pdfResponse(await renderInvoicePdf(result.data), invoiceFileName(result.data))
}

/**
 * The PDF of one credit note of order `orderId`: the one numbered `n` (`?n=`), else the latest; 404
 * as text when the order has none or none of that number.
 */
export async function creditNotePdfResponse(api: Api, session: RequestSession, orderId: string, n: string | null): Promise<Response> {
  const result = await orderCreditNotes(api, session, orderId)
  if (!result.ok) return refusal(result)
  const note = n ? result.data.find((c) => c.creditNoteNumber === n) : result.data.at(-1)
  if (!note)
    return new Response(n ? 'This order has no credit note of that number' : 'This order has no credit note', {
      status: 404,
      headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'private, no-store' },
    })
  return pdfResponse(await renderCreditNotePdf(note), creditNoteFileName(note))
}

/**
 * The numbers of an order's credit notes for its page's links, oldest first: none for an order that
 * has no invoice (awaiting payment) or when the API refuses (the page still shows).
 */
export async function creditNoteNumbers(api: Api, session: RequestSession, order: { _id: string; status: string }): Promise<string[]> {
  if (order.status === 'payment_pending') return []
  const result = await orderCreditNotes(api, session, order._id)
  return result.ok ? result.data.map((c) => c.creditNoteNumber) : []
}
