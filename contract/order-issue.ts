/**
 * Help after delivery on the wire (docs/help-after-delivery.md): a shopper reports a problem with
 * units of one line of a delivered order (POST /api/order-issue/report), sees the order's reports
 * (POST /api/order-issue/list), and an admin decides the ones waiting (GET /api/order-issue/queue,
 * POST /api/order-issue/decide). Shared by the API and the BFF's pages, so both refuse the same input
 * with the same words. Money in answers is in rupees, as every order answer (docs/api-contract.md, "Conventions").
 */
import { z } from 'zod'
import { IdSchema, ImageUrlSchema, NOT_BLANK_PATTERN, SAFE_TEXT_PATTERN } from './fields.ts'

/** What can be wrong with delivered units. */
export const ISSUE_KINDS = ['missing', 'damaged', 'wrong_item', 'expired'] as const
export type IssueKind = (typeof ISSUE_KINDS)[number]

/** The words the pages and mails use for each kind. */
export const ISSUE_KIND_LABELS: Record<IssueKind, string> = {
  missing: 'Missing',
  damaged: 'Damaged',
  wrong_item: 'Wrong item',
  expired: 'Expired',
}

/** A report's state: waiting for an admin, refunded (automatically or approved), or rejected. */
export const ISSUE_STATUSES = ['pending', 'refunded', 'rejected'] as const
export type IssueStatus = (typeof ISSUE_STATUSES)[number]

/** Longest note of a report, and of an admin's reason to reject one (characters). */
export const ISSUE_NOTE_MAX = 300

/** The rules' messages, shared by the API's answers, the pages and the tests. */
export const ISSUE_MESSAGES = {
  notDelivered: 'Only a delivered order can be reported',
  windowClosed: (hours: number) => `Problems can be reported within ${hours} hours of delivery`,
  lineUnknown: 'That item is not in this order',
  nothingLeft: 'Every unit of this item was reported already',
  tooManyUnits: (left: number) => `At most ${left} ${left === 1 ? 'unit' : 'units'} of this item can be reported`,
  reportNotFound: 'Report not found',
  decided: 'This report was decided already',
  reasonRequired: 'Say why the report is rejected',
  approveAdminOnly: 'Only an admin can approve a refund',
} as const

// Control characters other than line breaks and tabs (a note may have several lines).
const CONTROL_BUT_LINE_BREAKS = /[^\P{Cc}\n\r\t]/u

/** A free text of at most ISSUE_NOTE_MAX characters, trimmed, line breaks allowed. */
const noteText = (label: string) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(ISSUE_NOTE_MAX, `${label} must be at most ${ISSUE_NOTE_MAX} characters`)
    .refine((text) => !CONTROL_BUT_LINE_BREAKS.test(text), `${label} must be plain text`)
    .meta({ pattern: SAFE_TEXT_PATTERN })

/**
 * POST /api/order-issue/report: one line of the shopper's delivered order, what is wrong, how many
 * units (1..what is left to report of the line), an optional note and an optional photo (a url
 * answered by POST /api/order-issue/photo).
 */
export const ReportIssueSchema = z.object({
  orderId: IdSchema,
  lineId: IdSchema,
  kind: z.enum(ISSUE_KINDS, { error: 'Choose what is wrong' }),
  units: z
    .number({ error: 'Units must be a whole number' })
    .int('Units must be a whole number')
    .min(1, 'Report at least 1 unit')
    .max(999, 'Too many units'),
  note: noteText('The note').optional(),
  photo: ImageUrlSchema.optional(),
})
export type ReportIssueInput = z.input<typeof ReportIssueSchema>

/** POST /api/order-issue/list: the reports of one of the shopper's orders. */
export const IssueOrderRefSchema = z.object({ orderId: IdSchema })

/** POST /api/order-issue/decide (ADMIN; STAFF of the order's store may reject): approve, or reject with a reason. */
export const DecideIssueSchema = z.discriminatedUnion('decision', [
  z.object({ issueId: IdSchema, decision: z.literal('approve') }),
  z.object({
    issueId: IdSchema,
    decision: z.literal('reject'),
    reason: z
      .string({ error: ISSUE_MESSAGES.reasonRequired })
      .trim()
      .min(1, ISSUE_MESSAGES.reasonRequired)
      .max(ISSUE_NOTE_MAX, `The reason must be at most ${ISSUE_NOTE_MAX} characters`)
      .refine((text) => !CONTROL_BUT_LINE_BREAKS.test(text), 'The reason must be plain text')
      .meta({ pattern: NOT_BLANK_PATTERN }),
  }),
])
export type DecideIssueInput = z.input<typeof DecideIssueSchema>

/** One report as the pages show it (`value` in rupees). */
export const OrderIssueSchema = z
  .object({
    _id: z.string(),
    orderId: z.string(),
    /** The order's number (OD…). */
    orderNumber: z.string(),
    lineId: z.string(),
    /** The line's product name and unit as sold. */
    name: z.string(),
    unit: z.string(),
    kind: z.enum(ISSUE_KINDS),
    units: z.number().int(),
    note: z.string(),
    photo: z.string().nullable(),
    /** What was paid for the units reported, rupees. */
    value: z.number(),
    status: z.enum(ISSUE_STATUSES),
    /** True when the refund was automatic (under the caps). */
    auto: z.boolean(),
    /** How it was (or will be) refunded: `online` to the original payment, `cod_note` paid back by the store; null while pending or rejected. */
    refundMethod: z.enum(['online', 'cod_note']).nullable(),
    /** The online method (`upi`, `card`, …) or `cod`. */
    paymentMethod: z.string(),
    rejectReason: z.string().nullable(),
    decidedAt: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: 'OrderIssue' })
export type OrderIssue = z.output<typeof OrderIssueSchema>

/** The lines of a delivered order a shopper may still report, and until when (the help page). */
export const IssueOptionsSchema = z
  .object({
    orderId: z.string(),
    orderNumber: z.string(),
    /** Until when problems can be reported (ISO time); null when the order is not delivered. */
    openUntil: z.string().nullable(),
    /** True while the window is open. */
    open: z.boolean(),
    lines: z.array(
      z.object({
        lineId: z.string(),
        name: z.string(),
        unit: z.string(),
        image: z.string(),
        quantity: z.number().int(),
        /** Units not reported yet (pending and refunded reports count; rejected ones do not). */
        unitsLeft: z.number().int(),
      }),
    ),
    issues: z.array(OrderIssueSchema),
  })
  .meta({ id: 'OrderIssueOptions' })
export type IssueOptions = z.output<typeof IssueOptionsSchema>

/** The photo upload's answer: the stored image's url to send as `photo`. */
export const IssuePhotoSchema = z.object({ url: z.string() }).meta({ id: 'OrderIssuePhoto' })

/** The toast of a report's outcome: "Refunded ₹x to your UPI" / "… paid back by the store" / "We'll review this within 24 hours". */
export function issueOutcomeMessage(issue: Pick<OrderIssue, 'status' | 'value' | 'refundMethod' | 'paymentMethod'>): string {
  const amount = `₹${Number.isInteger(issue.value) ? issue.value : issue.value.toFixed(2)}`
  if (issue.status === 'refunded') {
    if (issue.refundMethod === 'cod_note') return `${amount} will be paid back to you by the store in cash`
    const method = issue.paymentMethod === 'upi' ? 'UPI' : issue.paymentMethod === 'card' ? 'card' : issue.paymentMethod
    return `Refunded ${amount} to your ${method}`
  }
  if (issue.status === 'rejected') return 'Your report was not accepted'
  return "We'll review this within 24 hours"
}
