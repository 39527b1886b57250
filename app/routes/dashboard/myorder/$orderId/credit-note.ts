/**
 * /dashboard/myorder/:orderId/credit-note[?n=<number>]: a credit note of the shopper's order as a PDF
 * (CGST Rules 2017, rule 53; docs/commerce-api.md, "Tax invoice"; app/.server/invoice-download.ts):
 * the one numbered `n`, else the latest. A resource route like the invoice's; the API decides whose
 * order it is. The admin's twin is /dashboard/orders/:orderId/credit-note.
 */
import type { Route } from './+types/credit-note'
import { getSession } from '../../../../.server/context.ts'
import { creditNotePdfResponse } from '../../../../.server/invoice-download.ts'
import { apiOf } from '../../../../.server/api-context.ts'

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const api = apiOf(context)
  return creditNotePdfResponse(api, getSession(context), params.orderId, new URL(request.url).searchParams.get('n'))
}
