/**
 * /dashboard/orders/:orderId/credit-note[?n=<number>] (admin or staff): a credit note of any order as
 * a PDF (CGST Rules 2017, rule 53; app/.server/invoice-download.ts): the one numbered `n`, else the
 * latest. Asks for the staff role as the invoice download does; the API checks it again.
 */
import type { Route } from './+types/credit-note'
import { requireStaff } from '../../../../.server/auth.ts'
import { getSession } from '../../../../.server/context.ts'
import { creditNotePdfResponse } from '../../../../.server/invoice-download.ts'
import { apiOf } from '../../../../.server/api-context.ts'

export async function loader({ context, params, url }: Route.LoaderArgs) {
  const api = apiOf(context)
  const { isStaff } = await requireStaff(context, url)
  if (!isStaff) return new Response('Do not have permission', { status: 403, headers: { 'Content-Type': 'text/plain; charset=utf-8' } })
  return creditNotePdfResponse(api, getSession(context), params.orderId, url.searchParams.get('n'))
}
