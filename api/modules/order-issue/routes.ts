/**
 * Routes of /api/order-issue, help after delivery (docs/help-after-delivery.md; docs/api-contract.md,
 * "Endpoints"):
 *
 * - POST /photo (signed in; multipart field `photo`) → 201 `{ url }`: the photo of a report, through
 *   the catalogue's upload path (checked by content, stored as WebP; api/modules/file/service.ts)
 * - POST /report `{ orderId, lineId, kind, units, note?, photo? }` (the order's shopper) → the report,
 *   refunded or pending; the message is the outcome ("Refunded ₹x to your UPI", "We'll review …")
 * - POST /list `{ orderId }` (the order's shopper) → the lines left to report, the window, the reports
 * - GET /queue (ADMIN or STAFF; staff see their store) → pending reports, oldest first
 * - POST /of-order `{ orderId }` (ADMIN or STAFF; staff the orders they may open) → every report of the
 *   order, whatever its status, oldest first (the admin's order page)
 * - POST /decide `{ issueId, decision: approve | reject, reason? }` (ADMIN; STAFF may reject their store's)
 *
 * Another shopper's order is a 404, never a 403, so an order id confirms nothing.
 */
import type { AppDeps } from '../../deps.ts'
import { currentUser, requireStaff, requireUser } from '../../lib/auth.ts'
import { ok } from '../../lib/envelope.ts'
import { consume } from '../../lib/rate-limit.ts'
import { readFileField } from '../../lib/multipart.ts'
import { apiRouter } from '../../lib/openapi.ts'
import { z } from 'zod'
import {
  DecideIssueSchema,
  IssueOptionsSchema,
  IssueOrderRefSchema,
  IssuePhotoSchema,
  OrderIssueSchema,
  ReportIssueSchema,
  issueOutcomeMessage,
} from '../../../contract/order-issue.ts'
import { uploadCatalogImage } from '../file/service.ts'
import { decideIssue, issueOptions, issueQueue, orderIssuesForStaff, reportIssue } from './service.ts'

/** Rupees as the messages write them: ₹150, ₹99.50. */
const rupees = (n: number) => `₹${Number.isInteger(n) ? n : n.toFixed(2)}`

const issue = { 200: { description: 'The report after it', data: OrderIssueSchema } }

/** Builds the /api/order-issue router. */
export function orderIssueRoutes(deps: AppDeps) {
  const { router, endpoint } = apiRouter('Help after delivery')
  const user = requireUser(deps)
  const staff = requireStaff(deps)

  endpoint(
    {
      method: 'post',
      path: '/photo',
      summary: 'Upload the photo of a problem report (signed in): stored as WebP',
      access: 'user',
      upload: 'photo',
      answers: { 201: { description: 'The stored photo’s url, to send as `photo`', data: IssuePhotoSchema } },
      errors: [429],
    },
    user,
    async (c) => {
      // Counted before the body is read: a refused upload costs no decoding.
      await consume(deps.rateLimits.issuePhotoByUser, currentUser(c).id, 'Too many photos uploaded: try again later')
      const file = await readFileField(c, 'photo', deps.uploadMaxBytes)
      const stored = await uploadCatalogImage(deps, file.bytes)
      return ok(c, 'Photo uploaded', { url: stored.url }, {}, 201)
    },
  )

  endpoint(
    {
      method: 'post',
      path: '/report',
      summary: 'Report a problem with units of one line of a delivered order (its shopper)',
      access: 'user',
      body: ReportIssueSchema,
      answers: issue,
      errors: [404, 409],
    },
    user,
    async (c, input) => {
      const answer = await reportIssue(deps, currentUser(c), input)
      return ok(c, issueOutcomeMessage(answer), answer)
    },
  )

  endpoint(
    {
      method: 'post',
      path: '/list',
      summary: 'The lines left to report, the window and the reports of an order (its shopper)',
      access: 'user',
      body: IssueOrderRefSchema,
      answers: { 200: { description: 'The order’s help options and reports', data: IssueOptionsSchema } },
      errors: [404],
    },
    user,
    async (c, input) => ok(c, 'Reports', await issueOptions(deps, currentUser(c), input.orderId)),
  )

  endpoint(
    {
      method: 'get',
      path: '/queue',
      summary: 'Problem reports waiting for a decision, oldest first (ADMIN or STAFF; staff see their store)',
      access: 'staff',
      answers: { 200: { description: 'The pending reports', data: z.array(OrderIssueSchema) } },
    },
    staff,
    async (c) => ok(c, 'Pending reports', await issueQueue(deps, currentUser(c))),
  )

  endpoint(
    {
      method: 'post',
      path: '/of-order',
      summary:
        'Every report of one order, whatever its status, oldest first (ADMIN or STAFF; staff the orders they may open: their store’s)',
      access: 'staff',
      body: IssueOrderRefSchema,
      answers: { 200: { description: 'The order’s reports', data: z.array(OrderIssueSchema) } },
      errors: [404],
    },
    staff,
    async (c, input) => ok(c, 'Reports', await orderIssuesForStaff(deps, currentUser(c), input.orderId)),
  )

  endpoint(
    {
      method: 'post',
      path: '/decide',
      summary: 'Approve (refund; ADMIN) or reject with a reason (ADMIN or STAFF of the store) a pending report',
      access: 'staff',
      body: DecideIssueSchema,
      answers: issue,
      errors: [404, 409],
    },
    staff,
    async (c, input) => {
      const answer = await decideIssue(deps, currentUser(c), input)
      return ok(c, answer.status === 'rejected' ? 'Report rejected' : `Refund of ${rupees(answer.value)} approved`, answer)
    },
  )

  return router
}
