/**
 * The upstream REST API (contract: ../shared/contract/upstream-api.md), as a Hono app built by a
 * factory so that tests build it on a fresh database and the server builds it once.
 *
 * createApp({ db, ... }) → Hono app whose routes live under `/api`.
 */
import { Hono } from 'hono'
import { HTTPException } from 'hono/http-exception'
import type { Db } from './db/client.ts'
import { failure } from './lib/envelope.ts'
import { HttpError } from './lib/errors.ts'
import { createCatalogCache, type CatalogCache } from './lib/cache.ts'
import { createDiskStorage, type Storage } from './lib/storage.ts'
import { logger as defaultLogger, type Logger } from './lib/logger.ts'
import { createRateLimits, type RateLimits } from './lib/rate-limit.ts'
import { createMailer, type Mailer } from './lib/mail.ts'
import { userRoutes } from './modules/user/routes.ts'
import { categoryRoutes } from './modules/category/routes.ts'
import { subCategoryRoutes } from './modules/subcategory/routes.ts'
import { productRoutes } from './modules/product/routes.ts'
import { fileRoutes } from './modules/file/routes.ts'
import { sitemapRoutes } from './modules/sitemap/routes.ts'
import os from 'node:os'
import path from 'node:path'

/** Everything the API's modules need; tests pass their own. */
export interface AppDeps {
  db: Db
  /** HMAC secret for access tokens (HS256). */
  jwtSecret: string
  storage: Storage
  cache: CatalogCache
  rateLimits: RateLimits
  mailer: Mailer
  logger: Logger
  /** Current time; tests move it to check expiry. */
  clock: () => Date
  /** Set `Secure` on the API's own cookies (production). */
  secureCookies: boolean
  /** Upload size cap in bytes (413 beyond). */
  uploadMaxBytes: number
}

export type AppOptions = Pick<AppDeps, 'db'> & Partial<Omit<AppDeps, 'db'>>

/** Fills defaults for every dependency not given. */
export function resolveDeps(opts: AppOptions): AppDeps {
  return {
    jwtSecret: 'test-secret-not-for-production-0123456789',
    storage: createDiskStorage(path.join(os.tmpdir(), 'grocery-uploads')),
    cache: createCatalogCache(),
    rateLimits: createRateLimits(),
    mailer: createMailer({ outboxDir: path.join(os.tmpdir(), 'grocery-outbox') }),
    logger: defaultLogger,
    clock: () => new Date(),
    secureCookies: false,
    uploadMaxBytes: 5 * 1024 * 1024,
    ...opts,
  }
}

/** Builds the API. Returns the Hono app and the resolved dependencies (for tests and the server). */
export function createApp(opts: AppOptions) {
  const deps = resolveDeps(opts)
  const app = new Hono()

  app.onError((err, c) => {
    if (err instanceof HttpError) {
      if (err.extra.retryAfterSeconds) c.header('Retry-After', String(err.extra.retryAfterSeconds))
      return c.json(failure(err.message, err.extra.issues), err.status)
    }
    if (err instanceof HTTPException) {
      return c.json(failure(err.message || 'Request failed'), err.status)
    }
    deps.logger.error({ err, path: c.req.path }, 'unhandled API error')
    return c.json(failure('Something went wrong'), 500)
  })
  app.notFound((c) => c.json(failure(`Not found: ${c.req.method} ${c.req.path}`), 404))

  const api = new Hono()
  api.route('/user', userRoutes(deps))
  api.route('/category', categoryRoutes(deps))
  api.route('/subcategory', subCategoryRoutes(deps))
  api.route('/product', productRoutes(deps))
  api.route('/file', fileRoutes(deps))
  api.route('/sitemap', sitemapRoutes(deps))
  app.route('/api', api)

  return { app, deps }
}
