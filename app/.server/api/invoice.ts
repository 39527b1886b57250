/**
 * Typed calls to the upstream invoice endpoints (docs/commerce-api.md, "Tax invoice"): one order's
 * tax invoice and its credit notes as the API computes them (amounts in rupees, rates in percent).
 */
import { z } from 'zod'
import type { RequestSession } from '../session.ts'
import { parseData, upstream, type UpstreamResult } from '../upstream.ts'
import { CreditNoteSchema, InvoiceSchema, type CreditNote, type Invoice } from '../../../contract/invoice.ts'
import type { Api } from '../api-context.ts'

export type { CreditNote, Invoice } from '../../../contract/invoice.ts'

/**
 * The tax invoice of order `orderId` (`_id` or order number; POST /api/invoice/details): own orders,
 * any for an admin; 404 otherwise; 409 for an order awaiting payment or never paid.
 */
export async function orderInvoice(api: Api, session: RequestSession, orderId: string): Promise<UpstreamResult<Invoice>> {
  return parseData(await upstream(api, 'invoice/details', { method: 'POST', json: { orderId }, session }), InvoiceSchema)
}

/** The credit notes of order `orderId`, oldest first (POST /api/invoice/credit-notes; same access and refusals). */
export async function orderCreditNotes(api: Api, session: RequestSession, orderId: string): Promise<UpstreamResult<CreditNote[]>> {
  return parseData(await upstream(api, 'invoice/credit-notes', { method: 'POST', json: { orderId }, session }), z.array(CreditNoteSchema))
}
