/**
 * Typed calls to help after delivery (docs/help-after-delivery.md): the shopper's `order-issue/list`,
 * `order-issue/photo` and `order-issue/report`, the admin's `order-issue/queue`,
 * `order-issue/of-order` and `order-issue/decide`. Answers are parsed with contract/order-issue.ts, so an answer off contract
 * becomes a 502 failure; failures come back as `{ ok: false }`, never thrown.
 */
import { z } from 'zod'
import type { RequestSession } from '../session.ts'
import { parseData, upstream, type UpstreamResult } from '../upstream.ts'
import type { Api } from '../api-context.ts'
import {
  IssueOptionsSchema,
  IssuePhotoSchema,
  OrderIssueSchema,
  type DecideIssueInput,
  type IssueOptions,
  type OrderIssue,
  type ReportIssueInput,
} from '../../../contract/order-issue.ts'

/** `POST /api/order-issue/list { orderId }`: the lines left to report, the window and the reports (404: not the shopper's order). */
export async function issueOptions(api: Api, session: RequestSession, orderId: string): Promise<UpstreamResult<IssueOptions>> {
  return parseData(await upstream(api, 'order-issue/list', { method: 'POST', json: { orderId }, session }), IssueOptionsSchema)
}

/** `POST /api/order-issue/photo` with `file` as the multipart field `photo`: the stored photo's url (413 too large, 415 not an image). */
export async function uploadIssuePhoto(api: Api, session: RequestSession, file: File): Promise<UpstreamResult<{ url: string }>> {
  const formData = new FormData()
  formData.append('photo', file, file.name || 'photo')
  return parseData(await upstream(api, 'order-issue/photo', { method: 'POST', formData, session }), IssuePhotoSchema)
}

/** `POST /api/order-issue/report`: the report, refunded or pending; its message is the outcome to show. */
export async function reportIssue(api: Api, session: RequestSession, input: ReportIssueInput): Promise<UpstreamResult<OrderIssue>> {
  return parseData(await upstream(api, 'order-issue/report', { method: 'POST', json: input, session }), OrderIssueSchema)
}

/** `GET /api/order-issue/queue` (ADMIN or STAFF): the pending reports, oldest first. */
export async function issueQueue(api: Api, session: RequestSession): Promise<UpstreamResult<OrderIssue[]>> {
  return parseData(await upstream(api, 'order-issue/queue', { session }), z.array(OrderIssueSchema))
}

/** `POST /api/order-issue/of-order { orderId }` (ADMIN or STAFF): every report of the order, oldest first (404: no such order, or another store's). */
export async function orderIssuesOf(api: Api, session: RequestSession, orderId: string): Promise<UpstreamResult<OrderIssue[]>> {
  return parseData(await upstream(api, 'order-issue/of-order', { method: 'POST', json: { orderId }, session }), z.array(OrderIssueSchema))
}

/** `POST /api/order-issue/decide`: approve (ADMIN) or reject with a reason. Failures: 403, 404, 409 decided already. */
export async function decideIssue(api: Api, session: RequestSession, input: DecideIssueInput): Promise<UpstreamResult<OrderIssue>> {
  return parseData(await upstream(api, 'order-issue/decide', { method: 'POST', json: input, session }), OrderIssueSchema)
}
