/**
 * Typed calls of live tracking (docs/delivery.md, "Live tracking"): the rider's position report
 * (`rider/position`, RIDER only) and the shopper's view of an order out for delivery
 * (`tracking/order`). Answers are parsed with contract/tracking.ts (an answer off contract is a 502
 * failure); failures come back as `{ ok: false }`, never thrown.
 */
import type { z } from 'zod'
import type { RequestSession } from '../session.ts'
import { parseData, upstream, type UpstreamResult } from '../upstream.ts'
import {
  PositionAnswerSchema,
  TrackingSchema,
  type PositionEvent,
  type RiderPositionInput,
  type Tracking,
} from '../../../contract/tracking.ts'
import type { Api } from '../api-context.ts'

/** `POST /api/rider/position`: `stored` false when one was kept in the last 5 s. Failures: 400, 403, 404, 409 not out. */
export async function sendPosition(
  api: Api,
  session: RequestSession,
  input: RiderPositionInput,
): Promise<UpstreamResult<z.output<typeof PositionAnswerSchema>>> {
  return parseData(await upstream(api, 'rider/position', { method: 'POST', json: input, session }), PositionAnswerSchema)
}

/** `POST /api/tracking/order { orderId }`: the live view (`tracking` null unless out for delivery). Failures: 404. */
export async function orderTracking(api: Api, session: RequestSession, orderId: string): Promise<UpstreamResult<Tracking>> {
  return parseData(await upstream(api, 'tracking/order', { method: 'POST', json: { orderId }, session }), TrackingSchema)
}

/**
 * The rider's newest position of the order, as the event stream sends it, asked with the access
 * token as it was (the stream's poll with the API apart, app/.server/order-stream.ts); null when
 * there is none or the API refuses.
 */
export async function positionNow(api: Api, accessToken: string, orderId: string): Promise<PositionEvent | null> {
  const parsed = parseData(
    await upstream(api, 'tracking/order', { method: 'POST', json: { orderId }, bearer: accessToken }),
    TrackingSchema,
  )
  const position = parsed.ok ? parsed.data.tracking?.position : null
  return position ? { orderId: parsed.ok ? parsed.data.orderId : orderId, ...position } : null
}
