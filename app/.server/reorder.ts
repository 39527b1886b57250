/**
 * The action half of "Order again" (docs/product.md, "Order again"), shared by the order page and
 * My Orders: calls the API, queues the toast and the list of what was left out (both survive the
 * redirect and render without JavaScript), and goes to the cart. A failure goes back to `back`
 * with the error as a toast.
 */
import { reorder } from './api/order.ts'
import { failureMessage } from './failure.ts'
import { clientIp } from './request.ts'
import type { RequestSession } from './session.ts'
import { redirectWithToast } from './toast.ts'
import { leftOutNotice, reorderToast } from '../lib/reorder.ts'
import type { Api } from './api-context.ts'

/** Runs "Order again" for `orderId` and answers the redirect: to /cart, or to `back` when it failed. */
export async function orderAgain(api: Api, session: RequestSession, request: Request, orderId: string, back: string): Promise<Response> {
  const result = await reorder(api, session, orderId, { clientIp: clientIp(request) })
  if (!result.ok) return redirectWithToast(session, back, { type: 'error', message: failureMessage(result) })
  const notice = leftOutNotice(result.data.leftOut)
  if (notice) session.flashLeftOut(notice)
  return redirectWithToast(session, '/cart', reorderToast(result.data.added))
}
