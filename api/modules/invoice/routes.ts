/**
 * Routes of /api/invoice (docs/commerce-api.md, "Tax invoice").
 *
 * - POST /details `{ orderId }` → the order's tax invoice (the user's own order; an admin may read
 *   any); 404 otherwise
 */
import type { AppDeps } from '../../deps.ts'
import { currentUser, requireUser } from '../../lib/auth.ts'
import { ok } from '../../lib/envelope.ts'
import { apiRouter } from '../../lib/openapi.ts'
import { OrderRefSchema } from '../../../contract/order.ts'
import { InvoiceSchema } from '../../../contract/invoice.ts'
import { orderInvoice } from './service.ts'

/** Builds the /api/invoice router. */
export function invoiceRoutes(deps: AppDeps) {
  const { router, endpoint } = apiRouter('Invoice')

  endpoint(
    {
      method: 'post',
      path: '/details',
      summary: "An order's tax invoice: lines with GST (CGST + SGST), the seller, the bill (the user's own order; an admin may read any)",
      access: 'user',
      body: OrderRefSchema,
      answers: { 200: { description: 'The invoice', data: InvoiceSchema } },
      errors: [404],
    },
    requireUser(deps),
    async (c, { orderId }) => {
      return ok(c, 'Invoice', await orderInvoice(deps, currentUser(c), orderId))
    },
  )

  return router
}
