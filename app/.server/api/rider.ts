/**
 * Typed calls to the rider's endpoints (docs/delivery.md, "The rider's API"): `rider/me`,
 * `rider/shift`, `rider/picked-up`, `rider/delivered` and `rider/could-not-deliver`, RIDER only (401
 * without a token, 403 for anyone else). Answers are parsed with contract/rider.ts, so an answer off
 * contract becomes a 502 failure; failures come back as `{ ok: false }`, never thrown.
 */
import type { DeliveryFailureReason } from '../../../contract/delivery-failure.ts'
import type { RequestSession } from '../session.ts'
import { parseData, upstream, type UpstreamResult } from '../upstream.ts'
import { RiderStateSchema, type RiderState } from '../../../contract/rider.ts'
import type { Api } from '../api-context.ts'

export type { RiderOrder, RiderState } from '../../../contract/rider.ts'

/** `GET /api/rider/me`: the shift, the store and the orders in hand. */
export async function riderState(api: Api, session: RequestSession): Promise<UpstreamResult<RiderState>> {
  return parseData(await upstream(api, 'rider/me', { session }), RiderStateSchema)
}

/** `POST /api/rider/shift { onShift }`. Failures: 409 no store, or an order out for delivery when going off. */
export async function setShift(api: Api, session: RequestSession, onShift: boolean): Promise<UpstreamResult<RiderState>> {
  return parseData(await upstream(api, 'rider/shift', { method: 'POST', json: { onShift }, session }), RiderStateSchema)
}

/** `POST /api/rider/picked-up { orderId }`. Failures: 404 not the rider's order, 409 not packed. */
export async function pickedUp(api: Api, session: RequestSession, orderId: string): Promise<UpstreamResult<RiderState>> {
  return parseData(await upstream(api, 'rider/picked-up', { method: 'POST', json: { orderId }, session }), RiderStateSchema)
}

/**
 * `POST /api/rider/delivered { orderId, cashCollectedPaise?, deliveryCode? }`. Failures: 400 cash or
 * code (with the tries left), 404, 409 not out for delivery or too many wrong codes.
 */
export async function delivered(
  api: Api,
  session: RequestSession,
  input: { orderId: string; cashCollectedPaise?: number; deliveryCode?: string },
): Promise<UpstreamResult<RiderState>> {
  return parseData(await upstream(api, 'rider/delivered', { method: 'POST', json: input, session }), RiderStateSchema)
}

/**
 * `POST /api/rider/could-not-deliver { orderId, reason, note? }`: the order ends delivery failed
 * (docs/delivery.md, "Could not deliver"). Failures: 400 reason or note, 404, 409 not out for delivery.
 */
export async function couldNotDeliver(
  api: Api,
  session: RequestSession,
  input: { orderId: string; reason: DeliveryFailureReason; note?: string },
): Promise<UpstreamResult<RiderState>> {
  return parseData(await upstream(api, 'rider/could-not-deliver', { method: 'POST', json: input, session }), RiderStateSchema)
}
