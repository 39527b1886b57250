/**
 * The upstream REST API (docs/api-contract.md, "Conventions" and "Endpoints"; its OpenAPI document at GET /api/openapi.json, read
 * with docs/api.md), as a Hono app built by a factory so that tests build it on a fresh database and
 * the server builds it once.
 *
 * createApp({ db, ... }) → Hono app whose routes live under `/api`.
 */
import { OpenAPIHono } from '@hono/zod-openapi'
import { HTTPException } from 'hono/http-exception'
import type { AppDeps, AppOptions } from './deps.ts'
import { failure } from './lib/envelope.ts'
import { HttpError } from './lib/errors.ts'
import { DATABASE_UNAVAILABLE, describeFault, isConnectionFault, isPoolBusy, POOL_BUSY, statusForSqlState } from './lib/faults.ts'
import { DEFAULT_JSON_BODY_MAX_BYTES } from './lib/validate.ts'
import { createGate } from './lib/gate.ts'
import { createTraffic } from './lib/traffic.ts'
import { createCatalogCache } from './lib/cache.ts'
import { createDiskStorage } from './lib/storage.ts'
import { logger as defaultLogger } from '../server-shared/logger.ts'
import { createRateLimits } from './lib/rate-limit.ts'
import { createMailer } from './lib/mail.ts'
import { createSmsOutbox } from './lib/sms.ts'
import { createJobQueue } from './lib/jobs/queue.ts'
import { registerJobs } from './jobs.ts'
import { userRoutes } from './modules/user/routes.ts'
import { categoryRoutes } from './modules/category/routes.ts'
import { subCategoryRoutes } from './modules/subcategory/routes.ts'
import { productRoutes } from './modules/product/routes.ts'
import { searchRoutes } from './modules/search/routes.ts'
import { fileRoutes } from './modules/file/routes.ts'
import { sitemapRoutes } from './modules/sitemap/routes.ts'
import { cartRoutes } from './modules/cart/routes.ts'
import { addressRoutes } from './modules/address/routes.ts'
import { locationRoutes } from './modules/location/routes.ts'
import { inventoryRoutes, storeRoutes } from './modules/store/routes.ts'
import { orderRoutes } from './modules/order/routes.ts'
import { recommendRoutes } from './modules/recommend/routes.ts'
import { invoiceRoutes } from './modules/invoice/routes.ts'
import { auditRoutes } from './modules/audit/routes.ts'
import { staffRoutes } from './modules/staff/routes.ts'
import { couponRoutes } from './modules/coupon/routes.ts'
import { orderIssueRoutes } from './modules/order-issue/routes.ts'
import { DEFAULT_INVOICE } from './modules/invoice/settings.ts'
import { DEFAULT_COMMERCE } from './config.ts'
import { testPaymentSettings } from './modules/payment/settings.ts'
import { paymentRoutes } from './modules/payment/routes.ts'
import { accountLookup } from './modules/user/service.ts'
import { recordRefund, sendPendingRefunds } from './modules/payment/refunds.ts'
import { dispatchStore } from './modules/dispatch/service.ts'
import { dispatchRoutes, riderRoutes, trackingRoutes } from './modules/dispatch/routes.ts'
import { checkAnswers, DOCUMENT_INFO, registerSecuritySchemes, withBodyTextRule } from './lib/openapi.ts'
import { referenceRoutes } from './modules/reference/routes.ts'
import { corsForListedOrigins } from './lib/cors.ts'
import { allowedMethods } from './lib/allow.ts'
import { absoluteImageUrls } from './lib/public-urls.ts'
import { createOrderEvents } from './lib/order-events.ts'
import { DEFAULT_UPLOAD_MAX_BYTES } from '../contract/file.ts'
import os from 'node:os'
import path from 'node:path'

export type { AppDeps, AppOptions }

/** Fills defaults for every dependency not given. */
export function resolveDeps(opts: AppOptions): AppDeps {
  // The type requires it; an empty string (an empty JWT_SECRET, a JavaScript caller) must not sign tokens either.
  if (!opts.jwtSecret) throw new Error('createApp needs a jwtSecret: no secret is safe to default')
  return {
    accounts: accountLookup(opts.db),
    refunds: { record: recordRefund, send: sendPendingRefunds },
    dispatch: { run: dispatchStore },
    storage: createDiskStorage(path.join(os.tmpdir(), 'grocery-uploads')),
    cache: createCatalogCache(),
    rateLimits: createRateLimits(),
    mailer: createMailer({ outboxDir: path.join(os.tmpdir(), 'grocery-outbox') }),
    sms: createSmsOutbox({ dir: path.join(os.tmpdir(), 'grocery-outbox', 'sms'), logger: opts.logger ?? defaultLogger }),
    smsStoreName: 'Grocery Store',
    // Not started: the server starts its own (api/embedded.ts); tests start it and `drain()` it.
    jobs: createJobQueue({ db: opts.db, logger: opts.logger ?? defaultLogger, runner: false }),
    logger: defaultLogger,
    orderEvents: createOrderEvents({ logger: opts.logger ?? defaultLogger }),
    clock: () => new Date(),
    secureCookies: false,
    uploadMaxBytes: DEFAULT_UPLOAD_MAX_BYTES,
    jsonBodyMaxBytes: DEFAULT_JSON_BODY_MAX_BYTES,
    allowedOrigins: [],
    searchGate: createGate(2, 64),
    traffic: createTraffic(),
    commerce: DEFAULT_COMMERCE,
    invoice: DEFAULT_INVOICE,
    checkAnswers: false,
    publicUrl: undefined,
    ...opts,
    payments: opts.payments ?? testPaymentSettings(),
  }
}

/** Builds the API. Returns the Hono app and the resolved dependencies (for tests and the server). */
export function createApp(opts: AppOptions) {
  const deps = resolveDeps(opts)
  registerJobs(deps)
  const app = new OpenAPIHono()
  registerSecuritySchemes(app)
  // First, so a preflight is answered before anything else and every answer, errors included, carries
  // the CORS headers of a listed origin (api/lib/cors.ts).
  app.use('*', corsForListedOrigins(deps.allowedOrigins))
  // Counted from here on, so an import's slices wait for the requests being answered (api/lib/traffic.ts).
  app.use('*', deps.traffic.middleware)
  if (deps.publicUrl) app.use('*', absoluteImageUrls(deps.publicUrl))
  if (deps.checkAnswers) app.use('*', checkAnswers(app))

  app.onError((err, c) => {
    if (err instanceof HttpError) {
      if (err.extra.retryAfterSeconds) c.header('Retry-After', String(err.extra.retryAfterSeconds))
      return c.json(failure(err.message, err.extra.issues), err.status)
    }
    if (err instanceof HTTPException) {
      return c.json(failure(err.message || 'Request failed'), err.status)
    }
    // Never the error's message or stack: a database driver's message carries every query
    // parameter (password hashes, emails, tokens). The class, the SQLSTATE and the route suffice to
    // find the fault (OWASP Logging Cheat Sheet, "Data to exclude").
    const fault = describeFault(err)
    const where = { ...fault, method: c.req.method, route: c.req.routePath }
    // A pool whose connections are all in use is not a database that is down: 429 with a wait, and
    // a log line that says which (docs/decisions/0043-flash-sale-and-busy-pool.md).
    if (isPoolBusy(err)) {
      deps.logger.warn(where, 'database pool busy: no free connection in time')
      c.header('Retry-After', '1')
      return c.json(failure(POOL_BUSY), 429)
    }
    if (isConnectionFault(err)) {
      deps.logger.warn(where, 'database unavailable: connection lost or refused')
      c.header('Retry-After', '1')
      return c.json(failure(DATABASE_UNAVAILABLE), 503)
    }
    const mapped = statusForSqlState(fault.sqlState)
    if (mapped) {
      deps.logger.warn(where, 'API request refused by the database')
      if (mapped.status === 503) c.header('Retry-After', '1')
      return c.json(failure(mapped.message), mapped.status)
    }
    deps.logger.error({ ...fault, method: c.req.method, route: c.req.routePath }, 'unhandled API error')
    return c.json(failure('Something went wrong'), 500)
  })

  // Every handler reads its JSON body through readBody, which takes its cap (and the public origin
  // whose image urls it turns back into stored paths) from here.
  app.use('*', async (c, next) => {
    c.set('jsonBodyMaxBytes', deps.jsonBodyMaxBytes)
    c.set('publicUrl', deps.publicUrl)
    await next()
  })
  // A path some route answers, asked with another method: 405 with the route's methods in `Allow`
  // (RFC 9110 §15.5.6), and OPTIONS is answered with them (RFC 9110 §9.3.7). Only an unknown path is a 404.
  const allowOf = allowedMethods(() => app.routes)
  app.notFound((c) => {
    const allow = allowOf(c.req.path)
    if (allow.length === 0) return c.json(failure(`Not found: ${c.req.method} ${c.req.path}`), 404)
    c.header('Allow', allow.join(', '))
    if (c.req.method === 'OPTIONS') return c.body(null, 204)
    return c.json(failure(`Method not allowed: ${c.req.method} ${c.req.path} answers ${allow.join(', ')}`), 405)
  })

  // Each module declares its routes from contract/ (api/lib/openapi.ts); mounting them here also
  // collects them, with their full paths, into the document at GET /api/openapi.json.
  const api = new OpenAPIHono()
  api.route('/user', userRoutes(deps))
  api.route('/category', categoryRoutes(deps))
  api.route('/subcategory', subCategoryRoutes(deps))
  api.route('/product', productRoutes(deps))
  api.route('/product', searchRoutes(deps))
  api.route('/file', fileRoutes(deps))
  api.route('/sitemap', sitemapRoutes(deps))
  api.route('/cart', cartRoutes(deps))
  api.route('/address', addressRoutes(deps))
  api.route('/order', orderRoutes(deps))
  api.route('/recommend', recommendRoutes(deps))
  api.route('/location', locationRoutes(deps))
  api.route('/store', storeRoutes(deps))
  api.route('/inventory', inventoryRoutes(deps))
  api.route('/invoice', invoiceRoutes(deps))
  api.route('/payment', paymentRoutes(deps))
  api.route('/audit', auditRoutes(deps))
  api.route('/staff', staffRoutes(deps))
  api.route('/coupon', couponRoutes(deps))
  api.route('/rider', riderRoutes(deps))
  api.route('/dispatch', dispatchRoutes(deps))
  api.route('/order-issue', orderIssueRoutes(deps))
  api.route('/tracking', trackingRoutes(deps))
  app.route('/api', api)
  // Declared last: the document lists every route above and these three.
  let document: unknown = null
  app.route(
    '/api',
    referenceRoutes(() => (document ??= withBodyTextRule(app.getOpenAPI31Document(DOCUMENT_INFO)))),
  )

  return { app, deps }
}
