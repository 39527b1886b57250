/**
 * /dashboard/myorder/:orderId/events: the order page's live status stream (app/.server/order-stream.ts;
 * docs/product.md, "Order page"). A resource route: GET only, `text/event-stream`. The dashboard
 * layout's middleware has required a signed-in user; the order must be the user's own (asked of the
 * API, which refreshes the tokens as any page load does), else 404. The stream opens with the order's
 * current status unless the browser's `Last-Event-ID` holds it already (app/.server/order-stream.ts).
 */
import { data } from 'react-router'
import type { Route } from './+types/events'
import { getSession } from '../../../../.server/context.ts'
import { orderDetails, orderStatusNow } from '../../../../.server/api/order.ts'
import { positionNow } from '../../../../.server/api/tracking.ts'
import { apiContext } from '../../../../.server/api-context.ts'
import { lastEventVersion, orderEventStream } from '../../../../.server/order-stream.ts'
import { apiOf } from '../../../../.server/api-context.ts'

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const api = apiOf(context)
  const session = getSession(context)
  const user = session.user
  const result = await orderDetails(api, session, params.orderId)
  // An admin may read any order, but this stream is the shopper's page: someone else's order is a 404.
  if (!user || !result.ok || result.data.userId !== user._id) {
    throw data('Order not found', { status: result.ok || result.status === 404 ? 404 : result.status })
  }
  const order = result.data
  const accessToken = session.tokens?.accessToken
  return orderEventStream({
    signal: request.signal,
    userId: user._id,
    order,
    // A reconnecting browser's last event id: the catch-up event is skipped when it is current.
    lastEventVersion: lastEventVersion(request),
    // The in-process API's hub, handed in by server.ts's getLoadContext; null with the API apart.
    hub: context.get(apiContext).orderHub,
    poll: () => (accessToken ? orderStatusNow(api, accessToken, order._id) : Promise.resolve(null)),
    // Live tracking with the API apart: the rider's newest position at each poll (docs/delivery.md).
    pollPosition: () => (accessToken ? positionNow(api, accessToken, order._id) : Promise.resolve(null)),
  })
}
