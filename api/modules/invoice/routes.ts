/**
 * Routes of /api/invoice (docs/commerce-api.md, "Tax invoice").
 *
 * - POST /details `{ orderId }` → the order's tax invoice (the user's own order; an admin may read
 *   any); 404 otherwise; 409 for an order awaiting payment or never paid (no invoice)
 * - POST /credit-notes `{ orderId }` → the order's credit notes, oldest first (same access; 409
 *   without an invoice)
 */
import type { AppDeps } from '../../deps.ts'
import { currentUser, requireUser } from '../../lib/auth.ts'
import { ok } from '../../lib/envelope.ts'
import { apiRouter } from '../../lib/openapi.ts'
import { OrderRefSchema } from '../../../contract/order.ts'
import { z } from 'zod'
import { CreditNoteSchema, InvoiceSchema } from '../../../contract/invoice.ts'
import { orderCreditNotes } from './credit-notes.ts'
import { orderInvoice } from './service.ts'

/** Builds the /api/invoice router. */
export function invoiceRoutes(deps: AppDeps) {
  const { router, endpoint } = apiRouter('Invoice')

  endpoint(
    {
      method: 'post',
      path: '/details',
      summary:
        "An order's tax invoice: the delivering store as supplier, lines with HSN and GST (CGST + SGST, or IGST between States), the bill (the user's own order; an admin may read any); 409 before it is placed (COD) or paid",
      access: 'user',
      body: OrderRefSchema,
      answers: { 200: { description: 'The invoice', data: InvoiceSchema } },
      errors: [404, 409],
    },
    requireUser(deps),
    async (c, { orderId }) => {
      return ok(c, 'Invoice', await orderInvoice(deps, currentUser(c), orderId))
    },
  )

  endpoint(
    {
      method: 'post',
      path: '/credit-notes',
      summary:
        "An order's credit notes, oldest first: one when it was cancelled, one per line refunded (the user's own order; an admin may read any); 409 for an order without an invoice",
      access: 'user',
      body: OrderRefSchema,
      answers: { 200: { description: 'The credit notes', data: z.array(CreditNoteSchema) } },
      errors: [404, 409],
    },
    requireUser(deps),
    async (c, { orderId }) => {
      return ok(c, 'Credit notes', await orderCreditNotes(deps, currentUser(c), orderId))
    },
  )

  return router
}
