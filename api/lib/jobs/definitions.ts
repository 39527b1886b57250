/**
 * The job names the API knows, each with its payload's zod schema and its retry policy
 * (docs/jobs.md, "Job names and retry policy"; docs/decisions/0026-background-jobs-on-pg-boss.md).
 * A job is sent and handled only under a name listed here, so its payload is typed at `send` and
 * checked again when it is taken (a payload written by an older release is refused, not guessed at).
 *
 * Payloads carry ids, never personal data or secrets: the handler reads the rest from the database
 * when it runs (the jobs table is kept 14 days; an email address there would outlive its account).
 *
 * To add a job: one entry here, then `jobs.work(name, handler)` (and `jobs.schedule(name, every)` for
 * periodic work) in api/jobs.ts.
 */
import { z } from 'zod'
import { ORDER_STATUSES } from '../../../contract/order-status.ts'

/** How one job name is checked and retried. */
export interface JobDefinition<S extends z.ZodType = z.ZodType> {
  /** The payload's schema, checked at `send` and again when the job is taken. */
  schema: S
  /** Retries after the first failed attempt (0: one attempt only). */
  retryLimit: number
  /**
   * Wait before the first retry, seconds. With `retryBackoff` the n-th retry waits
   * `retryDelaySeconds × 2^(n-1)` to twice that (random jitter), as pg-boss computes it (pg-boss docs,
   * "send(): retryBackoff").
   */
  retryDelaySeconds: number
  retryBackoff: boolean
  /** Longest run of one attempt, seconds: beyond it the attempt counts as failed (and is retried). */
  expireInSeconds: number
}

/** Mail: 10 retries from 30 s, doubling (about 8 to 17 hours in all before the job is given up). */
const MAIL_RETRY = { retryLimit: 10, retryDelaySeconds: 30, retryBackoff: true, expireInSeconds: 120 } as const
/** Periodic housekeeping: the next scheduled run is the retry; one more attempt a minute later. */
const HOUSEKEEPING_RETRY = { retryLimit: 1, retryDelaySeconds: 60, retryBackoff: false, expireInSeconds: 15 * 60 } as const

/**
 * A product CSV import (docs/product-csv.md, "Imports as jobs"): a few retries soon after a failure,
 * each resuming from the job's checkpoint; an attempt may run 15 minutes (50,000 rows, the file's
 * cap, at the measured rate take about 3).
 */
const IMPORT_RETRY = { retryLimit: 5, retryDelaySeconds: 5, retryBackoff: true, expireInSeconds: 15 * 60 } as const

/** The order emails (docs/jobs.md, "Order emails"): which one, and of which order. */
export const OrderMailJobSchema = z.discriminatedUnion('kind', [
  /** The confirmation of a placed order. */
  z.object({ kind: z.literal('placed'), orderId: z.string().min(1).max(64) }),
  /** A status change: the status it moved to (the mail says that one, even if it moved on since). */
  z.object({ kind: z.literal('status'), orderId: z.string().min(1).max(64), status: z.enum(ORDER_STATUSES) }),
])
export type OrderMailJob = z.infer<typeof OrderMailJobSchema>

/** A job without a payload (periodic housekeeping). */
export const NoPayloadSchema = z.object({}).strict()

/** Every job name with its definition. */
export const JOB_DEFINITIONS = {
  /** An order email to its shopper (api/modules/order/mail.ts). */
  'order.mail': { schema: OrderMailJobSchema, ...MAIL_RETRY },
  /** The mail of a decided problem report to its shopper (api/modules/order-issue/mail.ts; docs/help-after-delivery.md). */
  'order-issue.mail': { schema: z.object({ issueId: z.string().min(1).max(64) }), ...MAIL_RETRY },
  /** Removes uploads nothing uses, older than a day (api/lib/image-sweep.ts). */
  'images.sweep': { schema: NoPayloadSchema, ...HOUSEKEEPING_RETRY },
  /**
   * The payment housekeeping, every minute: holds that ran out, payments still pending asked of the
   * provider, refunds not yet sent (api/modules/payment/service.ts `runPaymentSweeps`; each step
   * idempotent and safe on several instances).
   */
  'payments.sweep': { schema: NoPayloadSchema, ...HOUSEKEEPING_RETRY },
  /** One online order's stock hold ran out: its expiry, on time (api/modules/payment/service.ts `expireReservations`). */
  'payments.hold-ended': { schema: z.object({ orderId: z.string().min(1).max(64) }), ...HOUSEKEEPING_RETRY },
  /** Removes guest carts idle past 30 days (api/modules/cart/service.ts `purgeIdleGuestCarts`). */
  'carts.purge-idle-guests': { schema: NoPayloadSchema, ...HOUSEKEEPING_RETRY },
  /**
   * Mines the association rules of delivered orders and replaces the stored ones (api/modules/recommend/service.ts
   * `mineAssociationRules`; docs/recommendations.md, "When the rules are mined").
   */
  'recommend.mine': { schema: NoPayloadSchema, ...HOUSEKEEPING_RETRY },
  /**
   * Gives every store's waiting packed orders to its free riders (api/modules/dispatch/service.ts
   * `dispatchAll`; docs/delivery.md, "Dispatch"): catches an order whose dispatch after its commit
   * never ran (a crash, a failed run).
   */
  'dispatch.sweep': { schema: NoPayloadSchema, ...HOUSEKEEPING_RETRY },
  /** Runs or resumes one import job: its row in `import_jobs` holds the file and the checkpoint (api/modules/product/import-jobs.ts). */
  'product.import': { schema: z.object({ importJobId: z.string().min(1).max(64) }), ...IMPORT_RETRY },
} as const satisfies Record<string, JobDefinition>

export type JobName = keyof typeof JOB_DEFINITIONS
/** The payload of the job `N`, as sent. */
export type JobData<N extends JobName> = z.input<(typeof JOB_DEFINITIONS)[N]['schema']>
/** The payload of the job `N`, as the handler receives it (parsed). */
export type JobPayload<N extends JobName> = z.output<(typeof JOB_DEFINITIONS)[N]['schema']>
