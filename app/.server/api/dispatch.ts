/**
 * Typed calls to the dispatch endpoints (docs/delivery.md, "Dispatch board" and "Reassigning"):
 * `dispatch/board` (ADMIN or STAFF) and `dispatch/assign` (ADMIN). Answers are parsed with
 * contract/rider.ts, so an answer off contract becomes a 502 failure; failures come back as
 * `{ ok: false }`, never thrown.
 */
import type { RequestSession } from '../session.ts'
import { parseData, upstream, type UpstreamResult } from '../upstream.ts'
import { AssignAnswerSchema, DispatchBoardSchema, type DispatchBoard } from '../../../contract/rider.ts'
import type { Api } from '../api-context.ts'
import type { z } from 'zod'

export type { DispatchBoard } from '../../../contract/rider.ts'

/** `GET /api/dispatch/board`: per store, the waiting orders and the riders (a staff member: their store). */
export async function dispatchBoard(api: Api, session: RequestSession): Promise<UpstreamResult<DispatchBoard>> {
  return parseData(await upstream(api, 'dispatch/board', { session }), DispatchBoardSchema)
}

/**
 * `POST /api/dispatch/assign { orderId, riderId | null }`: the order's rider now. Failures: 403 not an
 * admin, 404 unknown order or rider, 409 not packed, rider off shift or full.
 */
export async function assignRider(
  api: Api,
  session: RequestSession,
  input: { orderId: string; riderId: string | null },
): Promise<UpstreamResult<z.output<typeof AssignAnswerSchema>>> {
  return parseData(await upstream(api, 'dispatch/assign', { method: 'POST', json: input, session }), AssignAnswerSchema)
}

/** Where one order stands in dispatch: its rider (or none: waiting), a rider's "Could not deliver" reason, and the store's riders on shift. */
export interface OrderDispatch {
  riderId: string | null
  riderName: string | null
  deliveryIssue: string | null
  ridersOnShift: { _id: string; name: string }[]
}

/**
 * The dispatch of one packed or out-for-delivery order as the board shows it (for the order page),
 * or null when the board does not hold it (another status) or cannot be read: the page then shows
 * no rider box rather than failing.
 */
export async function orderDispatch(api: Api, session: RequestSession, orderId: string): Promise<OrderDispatch | null> {
  const board = await dispatchBoard(api, session)
  if (!board.ok) return null
  for (const entry of board.data) {
    const ridersOnShift = entry.riders.filter((r) => r.onShift).map((r) => ({ _id: r._id, name: r.name }))
    const waiting = entry.waiting.find((o) => o._id === orderId)
    if (waiting) return { riderId: null, riderName: null, deliveryIssue: waiting.deliveryIssue, ridersOnShift }
    const rider = entry.riders.find((r) => r.orders.some((o) => o._id === orderId))
    if (rider) return { riderId: rider._id, riderName: rider.name, deliveryIssue: null, ridersOnShift }
  }
  return null
}
