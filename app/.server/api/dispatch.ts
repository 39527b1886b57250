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
