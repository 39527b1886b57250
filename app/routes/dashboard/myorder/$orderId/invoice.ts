/**
 * /dashboard/myorder/:orderId/invoice: the shopper's tax invoice of their order as a PDF
 * (docs/commerce-api.md, "Tax invoice"; app/.server/invoice-download.ts). A resource route: GET only,
 * `application/pdf`, shown inline with the file name `invoice-<order number>.pdf`. The dashboard
 * layout's middleware has required a signed-in user; the API decides whose order it is (another
 * shopper's is a 404). Plain links open it, with or without JavaScript. The admin's twin is
 * /dashboard/orders/:orderId/invoice.
 */
import type { Route } from './+types/invoice'
import { getSession } from '../../../../.server/context.ts'
import { invoicePdfResponse } from '../../../../.server/invoice-download.ts'
import { apiOf } from '../../../../.server/api-context.ts'

export async function loader({ context, params }: Route.LoaderArgs) {
  const api = apiOf(context)
  return invoicePdfResponse(api, getSession(context), params.orderId)
}
