/**
 * The API's dependencies as one object (docs/decisions/0017-one-contract-openapi.md): the modules
 * take it, api/app.ts `createApp` fills it. Types only, so any module may import it without
 * importing the app (and through it every other module).
 */
import type { AssociationThresholds } from './modules/recommend/thresholds.ts'
import type { Db } from './db/client.ts'
import type { Gate } from './lib/gate.ts'
import type { Traffic } from './lib/traffic.ts'
import type { CatalogCache } from './lib/cache.ts'
import type { Storage } from './lib/storage.ts'
import type { Logger } from '../server-shared/logger.ts'
import type { RateLimits } from './lib/rate-limit.ts'
import type { Mailer } from './lib/mail.ts'
import type { SmsSender } from './lib/sms.ts'
import type { JobQueue } from './lib/jobs/queue.ts'
import type { OrderEvents } from './lib/order-events.ts'
import type { CommerceSettings } from './config.ts'
import type { InvoiceSettings } from './modules/invoice/settings.ts'
import type { User } from './db/schema.ts'
import type { PaymentSettings } from './modules/payment/settings.ts'
import type { Tx } from './db/db.ts'

/**
 * How the guards find a token's user and session: given by the app (api/app.ts, from the user
 * module), so the guards (api/lib/auth.ts) does not depend on any module.
 */
export interface AccountLookup {
  /**
   * The user row of `userId` and whether the session `sessionId` of that user has a live refresh
   * token at `now` (not revoked, not expired), read together; undefined when there is no such user.
   */
  findSessionUser(userId: string, sessionId: string, now: Date): Promise<{ user: User; live: boolean } | undefined>
}

/**
 * How a cancellation gives an order's money back: given by the app (api/app.ts, from the payment
 * module's refunds, api/modules/payment/refunds.ts), so the order module, which the payment module
 * builds on, never imports the payment module (docs/decisions/0048-module-layering.md).
 */
export interface OrderRefunds {
  /**
   * Inside the cancellation's transaction, the order row locked by it: records a pending refund of
   * what the order's captured payment has not had back yet.
   * @returns the paise recorded; 0 for none (cash on delivery, never paid, refunded already)
   */
  record(tx: Tx, input: { orderId: string; reason: string; now: Date }): Promise<number>
  /** After the commit: sends the order's pending refunds to the provider (a failure is left for the sweep). @returns how many were sent */
  send(deps: Pick<AppDeps, 'db' | 'logger' | 'payments' | 'clock'>, scope: { orderId: string }): Promise<number>
}

/**
 * How orders reach riders: given by the app (api/app.ts, from api/modules/dispatch/service.ts), so
 * the order module, which the dispatch module builds on, never imports it
 * (docs/decisions/0048-module-layering.md).
 */
export interface OrderDispatch {
  /**
   * After a commit that may have queued an order or freed a rider: gives `storeId`'s waiting orders
   * to its free riders (docs/delivery.md, "Dispatch"). Never throws. @returns how many were given
   */
  run(deps: Pick<AppDeps, 'db' | 'clock' | 'logger' | 'commerce'> & Partial<Pick<AppDeps, 'orderEvents'>>, storeId: string): Promise<number>
}

/** Everything the API's modules need; tests pass their own. */
export interface AppDeps {
  db: Db
  /** HMAC secret for access tokens (HS256). */
  jwtSecret: string
  storage: Storage
  cache: CatalogCache
  rateLimits: RateLimits
  mailer: Mailer
  /** Outgoing SMS: sign-in codes and order updates (api/lib/sms.ts). */
  sms: SmsSender
  /** The store's name in SMS texts (`SMS_STORE_NAME`). */
  smsStoreName: string
  /** Background jobs (api/lib/jobs/queue.ts; docs/jobs.md): emails, housekeeping. */
  jobs: JobQueue
  /** Order status events for the live order page (api/lib/order-events.ts). */
  orderEvents: OrderEvents
  logger: Logger
  /** Current time; tests move it to check expiry. */
  clock: () => Date
  /** Set `Secure` on the API's own cookies (production). */
  secureCookies: boolean
  /** Upload size cap in bytes (413 beyond). */
  uploadMaxBytes: number
  /** JSON body size cap in bytes (413 beyond). */
  jsonBodyMaxBytes: number
  /**
   * Origins of separately hosted clients (`API_ALLOWED_ORIGINS`): answered with CORS (api/lib/cors.ts)
   * and allowed to write with the API's cookies (api/lib/csrf.ts).
   */
  allowedOrigins: string[]
  /** How many searches the cache cannot answer may query the database at once (api/lib/gate.ts). */
  searchGate: Gate
  /** The API requests in flight in this process, for background work that waits for a quiet moment (api/lib/traffic.ts). */
  traffic: Traffic
  /** Cart and delivery rules (api/config.ts). */
  commerce: CommerceSettings
  /** The association-rule thresholds (api/modules/recommend/thresholds.ts); the defaults when absent. */
  recommend?: AssociationThresholds
  /** The seller on tax invoices and the GST rates (api/modules/invoice/settings.ts). */
  invoice: InvoiceSettings
  /** How the guards find a token's user and session (api/lib/auth.ts). */
  accounts: AccountLookup
  /**
   * The site's public origin (`PUBLIC_URL`, `https://shop.example`), or undefined: with it, image urls
   * in answers are absolute on it, so a client on another origin can show them (api/lib/public-urls.ts).
   */
  publicUrl: string | undefined
  /** The payment provider and the stock hold of online orders (docs/payments.md). */
  payments: PaymentSettings
  /** How a cancellation refunds a paid order (api/modules/payment/refunds.ts). */
  refunds: OrderRefunds
  /** How a packed order reaches a rider (api/modules/dispatch/service.ts). */
  dispatch: OrderDispatch
  /** Check every answer against the route's declared schema, a mismatch becoming a 500 (tests; api/lib/openapi.ts). */
  checkAnswers: boolean
}

/** What `createApp` needs: the database and the JWT secret always (no secret is safe to default), the rest optional. */
export type AppOptions = Pick<AppDeps, 'db' | 'jwtSecret'> & Partial<Omit<AppDeps, 'db' | 'jwtSecret'>>
