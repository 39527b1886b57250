/**
 * /dashboard/orders/:orderId/invoice (admin or staff): any order's tax invoice as a PDF
 * (docs/commerce-api.md, "Tax invoice"; app/.server/invoice-download.ts). A resource route: GET only,
 * `application/pdf`, shown inline with the file name `invoice-<order number>.pdf`. Besides the
 * dashboard layout's signed-in user it asks for the staff role as the admin order page does; the API
 * checks the role again. Plain links open it, with or without JavaScript.
 */
import type { Route } from './+types/invoice'
import { requireStaff } from '../../../../.server/auth.ts'
import { getSession } from '../../../../.server/context.ts'
import { invoicePdfResponse } from '../../../../.server/invoice-download.ts'
import { apiOf } from '../../../../.server/api-context.ts'

export async function loader({ context, params, url }: Route.LoaderArgs) {
  const api = apiOf(context)
  const { isStaff } = await requireStaff(context, url)
  if (!isStaff) return new Response('Do not have permission', { status: 403, headers: { 'Content-Type': 'text/plain; charset=utf-8' } })
  return invoicePdfResponse(api, getSession(context), params.orderId)
}
