/**
 * The API's background jobs (docs/jobs.md): the handler of every job name and the periodic ones'
 * schedules, registered on the app's queue by `createApp` (api/app.ts). The server starts the queue
 * (api/embedded.ts); tests run its jobs with `deps.jobs.drain()`.
 *
 * To add a job: its name, payload schema and retry policy in api/lib/jobs/definitions.ts, its handler
 * here (and its schedule, for periodic work).
 */
import type { AppDeps } from './deps.ts'
import { SWEEP_GRACE_MS, sweepUnusedImages } from './lib/image-sweep.ts'
import { purgeIdleGuestCarts } from './modules/cart/service.ts'
import { sendOrderMail } from './modules/order/mail.ts'
import { sendIssueMail } from './modules/order-issue/mail.ts'
import { failImportJob, IMPORT_STOPPED, runImportJob } from './modules/product/import-jobs.ts'
import { expireReservations, runPaymentSweeps } from './modules/payment/service.ts'
import { mineAssociationRules } from './modules/recommend/service.ts'
import { dispatchAll } from './modules/dispatch/service.ts'

/** How often abandoned uploads are swept (ms): every 6 hours, on the hour (UTC). */
export const IMAGE_SWEEP_EVERY_MS = 6 * 60 * 60 * 1000
/** How often the payment housekeeping runs (ms): every minute, the queue's finest schedule. */
export const PAYMENT_SWEEP_EVERY_MS = 60 * 1000
/** How often idle guest carts are removed (ms): hourly. */
export const GUEST_CART_PURGE_EVERY_MS = 60 * 60 * 1000
/** How often the association rules are mined again (ms): hourly (docs/recommendations.md, "When the rules are mined"). */
export const RULES_MINING_EVERY_MS = 60 * 60 * 1000
/** How often waiting orders are dispatched again (ms): every minute (docs/delivery.md, "Dispatch"). */
export const DISPATCH_SWEEP_EVERY_MS = 60 * 1000

/** Registers every handler and schedule on `deps.jobs` (a second call replaces them). */
export function registerJobs(deps: AppDeps): void {
  const { jobs, logger } = deps
  jobs.work('order.mail', (job) => sendOrderMail(deps, job))
  jobs.work('order-issue.mail', (job) => sendIssueMail(deps, job.issueId))
  jobs.work('images.sweep', async () => {
    await sweepUnusedImages({ db: deps.db, storage: deps.storage, olderThan: new Date(deps.clock().getTime() - SWEEP_GRACE_MS), logger })
  })
  jobs.work('carts.purge-idle-guests', async () => {
    const removed = await purgeIdleGuestCarts(deps)
    if (removed > 0) logger.info({ removed }, 'removed guest carts idle past 30 days')
  })
  jobs.work('payments.sweep', () => runPaymentSweeps(deps))
  jobs.work('recommend.mine', async () => {
    const { orders, rules } = await mineAssociationRules(deps)
    logger.info({ orders, rules }, 'mined association rules of delivered orders')
  })
  jobs.work('dispatch.sweep', async () => {
    const given = await dispatchAll(deps)
    if (given > 0) logger.info({ given }, 'dispatch sweep gave waiting orders to riders')
  })
  // Expires every hold that is due, this order's among them (idempotent: a hold already ended is skipped).
  jobs.work('payments.hold-ended', async () => {
    await expireReservations(deps)
  })
  // Resumes from the job's checkpoint on every attempt; after the last one the job is marked failed, so its page stops waiting.
  jobs.work('product.import', async ({ importJobId }, job) => {
    try {
      await runImportJob(deps, importJobId)
    } catch (err) {
      if (job.retryCount >= job.retryLimit) await failImportJob(deps, importJobId, IMPORT_STOPPED)
      throw err
    }
  })
  jobs.schedule('images.sweep', IMAGE_SWEEP_EVERY_MS)
  jobs.schedule('payments.sweep', PAYMENT_SWEEP_EVERY_MS)
  jobs.schedule('carts.purge-idle-guests', GUEST_CART_PURGE_EVERY_MS)
  jobs.schedule('recommend.mine', RULES_MINING_EVERY_MS)
  jobs.schedule('dispatch.sweep', DISPATCH_SWEEP_EVERY_MS)
}
