/**
 * Typed call to the upstream invoice endpoint (docs/commerce-api.md, "Tax invoice"): one order's tax
 * invoice as the API computes it (amounts in rupees, rates in percent).
 */
import type { RequestSession } from '../session.ts'
import { parseData, upstream, type UpstreamResult } from '../upstream.ts'
import { InvoiceSchema, type Invoice } from '../../../contract/invoice.ts'

export type { Invoice } from '../../../contract/invoice.ts'

/** The tax invoice of order `orderId` (`_id` or order number; POST /api/invoice/details): own orders, any for an admin; 404 otherwise. */
export async function orderInvoice(session: RequestSession, orderId: string): Promise<UpstreamResult<Invoice>> {
  return parseData(await upstream('invoice/details', { method: 'POST', json: { orderId }, session }), InvoiceSchema)
}
