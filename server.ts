/**
 * The Node entry: one process serves the upstream API under /api, the re-encoded images under
 * /uploads, the built assets, and the React Router app (the BFF). On start it opens the database
 * (PGlite under DATA_DIR, or DATABASE_URL), applies migrations and, on an empty catalogue, imports
 * the bundled real catalogue with its artwork (api/embedded.ts). With `API_URL` it is the BFF alone:
 * no database; images are fetched from the API host.
 *
 * With `API_ONLY=1` it is an API host alone: the API, /uploads and the health routes, no pages
 * (docs/decisions/0076-api-ahead-of-express.md). Wherever the API runs in the process, its requests
 * are answered ahead of Express's router (server-shared/path-first.ts).
 *
 * NODE_ENV=production serves build/; otherwise Vite runs in middleware mode for development.
 */
import fs from 'node:fs'
import http, { type IncomingMessage } from 'node:http'
import path from 'node:path'
import { EventEmitter } from 'node:events'
import express from 'express'
import compression from 'compression'
import expressStaticGzip from 'express-static-gzip'
import { getRequestListener } from '@hono/node-server'
import { createRequestHandler } from '@react-router/express'
import { createRequestHandler as createRouterFetchHandler, type ServerBuild } from 'react-router'
import { loadConfig } from './api/config.ts'
import { startEmbeddedApi } from './api/embedded.ts'
import { pingApi, proxyUpload } from './app/.server/remote-api.ts'
import { serveStoredObject, uploadsForAllowedOrigins } from './api/lib/serve-upload.ts'
import { logger } from './server-shared/logger.ts'
import { describeFault } from './api/lib/faults.ts'
import { clientIpMiddleware } from './api/lib/client-ip.ts'
import { ALLOWED_METHODS, rejectUnknownMethods } from './api/lib/methods.ts'
import { closeAfterTooLarge } from './api/lib/too-large.ts'
import { closeConnectionsWhileDraining, createShutdown, tuneKeepAlive, type Lifecycle } from './api/lib/graceful.ts'
import { securityHeaders } from './app/.server/security-headers.ts'
import { createPageCache, type PageCache, type RenderPersonalSlots } from './app/.server/page-cache.ts'
import { env as bffEnv } from './app/.server/env.ts'
import { apiLoadContext, inProcessWiring, networkWiring, type ApiWiring } from './app/.server/api-context.ts'
import { createCartCache } from './app/.server/cart-cache.ts'
import { endOrderStreams } from './app/.server/order-stream.ts'
import { productOfStockKey } from './contract/availability.ts'
import { pathFirst, type FrontStep } from './server-shared/path-first.ts'

const config = loadConfig()
logger.level = config.logLevel
const isProduction = config.isProduction

// With API_URL the API runs elsewhere and this process is only the BFF: no database, no migrations
// (docs/scale-out.md, "API and BFF apart").
const embedded = config.apiUrl ? null : await startEmbeddedApi(config, logger)

// How the BFF reaches the API (app/.server/api-context.ts): the Hono app's fetch in this process,
// or the network's with API_URL; with the BFF's configuration and, in process, the API's order event
// hub for the live order page. Every request gets it in its router context through getLoadContext.
// In process, carts are kept in memory until the database's notice of a change to that cart
// (app/.server/cart-cache.ts); a catalogue change (a price) drops them all, a stock move the whole
// carts holding that product.
// An API host alone (API_ONLY) renders no page: no cart cache to keep.
const servesPages = !config.apiOnly
const cartCache = embedded && servesPages ? createCartCache({ notices: embedded.cartNotices }) : null
embedded?.deps.cache.onClear((change) => {
  if (change.kind === 'all') cartCache?.forget(null)
  else cartCache?.productsMoved(change.moved.map(productOfStockKey))
})
const wiring: ApiWiring = embedded
  ? inProcessWiring(async (request) => embedded.api.fetch(request), {
      settings: bffEnv,
      orderHub: embedded.deps.orderEvents,
      cartCache,
    })
  : networkWiring(bffEnv)
const getLoadContext = () => apiLoadContext(wiring)
/** React Router's fetch handler for `build`, every request given the load context (the page cache renders through it). */
const createFetchHandler = (build: ServerBuild, mode: string) => {
  const handle = createRouterFetchHandler(build, mode)
  return (request: Request) => handle(request, getLoadContext())
}

const lifecycle: Lifecycle = { draining: false }
/** True once the warm-up renders are done (`warmUp`), or at once without them (development). */
let warmedUp = false
/** Renders a page in this process without the network (set in production, where the build is loaded). */
let renderPage: ((request: Request) => Promise<Response>) | null = null
const app = express()
app.disable('x-powered-by')
// The client address, decided once (api/lib/client-ip.ts): TRUST_PROXY hops from the right of
// X-Forwarded-For, or the socket; a client-sent X-Client-Ip is overwritten unless our own BFF
// forwards it with API_INTERNAL_TOKEN.
app.set('trust proxy', config.trustProxy)
// compression() wraps res.on only, so React's streaming 'drain' waits pile up on the zlib stream and
// trip Node's default limit of 10 listeners (expressjs/compression#135); they are released when the
// response ends, so a higher limit is the fix, not a leak.
EventEmitter.defaultMaxListeners = 64
// A method outside ALLOWED_METHODS is a 405 before anything else (api/lib/methods.ts); such a
// request always goes through Express (`pathFirst` below takes only the allowed methods).
app.use(rejectUnknownMethods)
/**
 * The steps every request of an allowed method passes next, in this order, whether Express runs them
 * or the API's requests are answered ahead of it (`pathFirst` below): none of them needs Express.
 */
const frontSteps: FrontStep[] = [
  // A 413 closes its connection instead of waiting for the rest of a body nobody reads (api/lib/too-large.ts).
  closeAfterTooLarge,
  clientIpMiddleware(config.apiInternalToken) as FrontStep,
  // Server-sent events pass uncompressed: compression holds bytes back in its window
  // (expressjs/compression, "Server-Sent Events").
  compression({
    filter: (req, res) => !String(res.getHeader('Content-Type') ?? '').startsWith('text/event-stream') && compression.filter(req, res),
  }) as FrontStep,
  securityHeaders as unknown as FrontStep,
  closeConnectionsWhileDraining(lifecycle),
]
for (const step of frontSteps) app.use(step)

// Liveness and readiness, as container orchestrators expect them apart: /healthz says the process
// serves (no database round trip, so a slow database never gets a live process restarted);
// /readyz says it can do useful work (the database answers; migrations and the first import ran
// before the server started listening).
app.get('/healthz', (_req, res) => {
  res.json({ status: 'ok' })
})
app.get('/readyz', async (_req, res) => {
  if (lifecycle.draining) {
    res.status(503).json({ status: 'draining' })
    return
  }
  // Not before the warm-up renders (below): a balancer would send a cold process work it answers slowly.
  if (!warmedUp) {
    res.status(503).json({ status: 'warming up' })
    return
  }
  try {
    if (embedded) await embedded.ping()
    else await pingApi(config.apiUrl!)
    res.json({ status: 'ready', database: embedded?.databaseKind ?? 'remote' })
  } catch {
    res.status(503).json({ status: 'unavailable' })
  }
})
let pageCache: PageCache | null = null
if (config.exposeMetrics) {
  app.get('/metrics.json', (_req, res) => {
    res.json({
      upstreamCalls: wiring.stats.upstreamCalls,
      cache: embedded?.deps.cache.stats ?? null,
      pageCache: pageCache?.stats ?? null,
      cartCache: cartCache?.stats ?? null,
    })
  })
}

// Pages of the origins in API_ALLOWED_ORIGINS may show the stored images (api/lib/serve-upload.ts).
app.use('/uploads', uploadsForAllowedOrigins(config.apiAllowedOrigins))
const apiListener = embedded ? getRequestListener(embedded.api.fetch) : null
if (embedded) {
  // The targets the listener below does not take ahead of Express (an absolute-form one) still reach the API here.
  app.use((req, res, next) => (req.path === '/api' || req.path.startsWith('/api/') ? apiListener!(req, res) : next()))
  // Stored images are content-addressed: their bytes never change, so they may be cached for a year.
  if (embedded.diskStorage)
    app.use('/uploads', express.static(path.join(config.dataDir, 'uploads'), { immutable: true, maxAge: '1y', index: false }))
  // On disk: the keys the static files lack, i.e. drawn product pictures not drawn yet
  // (api/lib/illustration-store.ts); otherwise every key, from the object store.
  app.get('/uploads/:key', serveStoredObject(embedded.storage, logger, embedded.drawIllustration))
} else {
  // Pages name images /uploads/<key>: this host fetches them from the API host, whichever receives the request.
  app.get('/uploads/:key', proxyUpload(config.apiUrl!))
}

if (!servesPages) {
  // An API host alone: nothing else to serve (Express answers any other path 404).
} else if (isProduction) {
  const clientDir = path.resolve('build/client')
  const build = (await import(path.resolve('build/server/index.js'))) as ServerBuild
  // One handler for the warm-up's renders and the page cache's.
  const render = createFetchHandler(build, 'production')
  renderPage = render
  // Pages of visitors without session state, rendered once per URL (app/.server/page-cache.ts); a
  // catalogue write anywhere clears them (the catalogue cache's clear, which LISTEN/NOTIFY spreads),
  // and an order drops only the pages showing a product that ran out or came back
  // (docs/decisions/0019-stock-changes-and-the-caches.md). A BFF apart from its API (API_URL) sees
  // no writes: the TTL alone bounds staleness there.
  pageCache = createPageCache({
    render,
    maxBytes: bffEnv.pageCacheMaxBytes,
    ttlMs: bffEnv.pageCacheTtlMs ?? (embedded ? 60_000 : 5_000),
    // A page past its TTL whose new render fails for want of the API is sent as it was, for this long
    // (RFC 5861 stale-if-error): an API restart leaves the kept pages up.
    staleIfErrorMs: bffEnv.pageCacheStaleIfErrorMs,
    publicUrl: bffEnv.publicUrl ?? null,
    // A shopper with a cart or an account gets the shared page with their own slots spliced in
    // (docs/decisions/0032-personal-parts-spliced.md); app/entry.server.tsx renders those slots.
    renderPersonalSlots: (build.entry.module as unknown as { renderPersonalSlots: RenderPersonalSlots }).renderPersonalSlots,
    // A guest's cart summary for a spliced page, read without a React Router request.
    wiring,
  })
  const cache = pageCache
  embedded?.deps.cache.onClear((change) =>
    change.kind === 'all' ? cache.clear() : cache.availabilityChanged(change.crossed, change.restocked),
  )
  app.use(pageCache.serve)
  // Scripts and stylesheets were compressed once at build (scripts/precompress.mjs): brotli or gzip
  // as the browser accepts, else the plain file.
  app.use(
    '/assets',
    expressStaticGzip(path.join(clientDir, 'assets'), {
      enableBrotli: true,
      orderPreference: ['br', 'gz'],
      index: false,
      serveStatic: { immutable: true, maxAge: '1y' },
    }),
  )
  // The build's other public files (favicon.ico, banner/…): a page's URL never names a file, so a
  // request neither under one of the build's folders nor ending in a file name skips the file
  // lookup (a stat per page request otherwise); nor does React Router's data request (`*.data`,
  // single fetch: a fetcher's POST, a revalidation), which names a route, never a file.
  const serveClientFile = express.static(clientDir, { maxAge: '1h', index: false })
  const clientFolders = new Set(
    fs
      .readdirSync(clientDir, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name),
  )
  const mayNameFile = (urlPath: string) =>
    clientFolders.has(urlPath.split('/', 2)[1] ?? '') || (/\.[^/]+$/.test(urlPath) && !urlPath.endsWith('.data'))
  app.use((req, res, next) => (mayNameFile(req.path) ? serveClientFile(req, res, next) : next()))
  app.all('/{*splat}', pageCache.fill, createRequestHandler({ build, getLoadContext }))
} else {
  const vite = await import('vite')
  const viteServer = await vite.createServer({ server: { middlewareMode: true } })
  app.use(viteServer.middlewares)
  app.all('/{*splat}', async (req, res, next) => {
    try {
      const ssr = viteServer.environments.ssr as unknown as { runner: { import(id: string): Promise<unknown> } }
      const build = await ssr.runner.import('virtual:react-router/server-build')
      return createRequestHandler({ build: build as never, getLoadContext })(req, res, next)
    } catch (err) {
      next(err)
    }
  })
}

/**
 * Express's own `req.ip` (proxy-addr over `X-Forwarded-For` with the app's `trust proxy`), for a
 * request Express has not taken: its getter reads `app`, the headers and the socket only.
 */
const expressIp = Object.getOwnPropertyDescriptor(express.request, 'ip')!.get!
const clientAddress = (req: IncomingMessage) =>
  expressIp.call({ app, headers: req.headers, socket: req.socket, connection: req.socket }) as string | undefined
// The API's requests skip Express's router and its request and response objects: the same steps,
// then the API (server-shared/path-first.ts); the rest goes to Express.
const listener = apiListener
  ? pathFirst({ prefix: '/api', methods: ALLOWED_METHODS, steps: frontSteps, clientAddress, handler: apiListener, rest: app })
  : app
const server = http.createServer(listener)
server.listen(config.port, () => {
  // The local paths as the embedded API opened them (api/config.ts `localPaths`); a BFF alone
  // keeps only its secrets under DATA_DIR.
  logger.info(
    {
      port: config.port,
      database: embedded?.databaseKind ?? 'remote API',
      ...(embedded?.paths ?? { dataDir: config.dataDir, ...(config.secretsFile ? { secrets: config.secretsFile } : {}) }),
    },
    `storefront on http://localhost:${config.port}`,
  )
  // Warm up, then ready; then the start-up work that serving does not wait for (api/embedded.ts `afterReady`).
  void warmUp().then(() => {
    warmedUp = true
    void embedded?.afterReady()
  })
})

/**
 * Pages rendered once before `/readyz` says ready (docs/scale-out.md, "Start-up"): a new process
 * loads and compiles most of its code on first use, and its first renders took over 5 s under load,
 * past a BFF's `API_TIMEOUT_MS`, when a balancer sent them to a freshly restarted API at once.
 * Rendered in this process (with the API in process, or through `API_URL`), anonymous, one at a
 * time; a failure (the API away) only ends the warm-up. Each render waits `WARM_UP_TIMEOUT_MS` at most.
 */
const WARM_UP_PAGES = ['/', '/search?q=milk']
const WARM_UP_TIMEOUT_MS = 10_000
async function warmUp(): Promise<void> {
  if (!renderPage) return
  const started = performance.now()
  for (const page of WARM_UP_PAGES) {
    try {
      const response = await renderPage(
        new Request(`http://127.0.0.1:${config.port}${page}`, { signal: AbortSignal.timeout(WARM_UP_TIMEOUT_MS) }),
      )
      await response.arrayBuffer()
    } catch {
      break
    }
  }
  logger.info({ ms: Math.round(performance.now() - started), pages: WARM_UP_PAGES.length }, 'warmed up: ready')
}
tuneKeepAlive(server)

// SIGTERM (a rolling deploy): not ready at once, stop accepting after SHUTDOWN_DELAY_MS, let
// in-flight requests finish (SHUTDOWN_GRACE_MS at most), then close the pool (api/lib/graceful.ts).
const shutdown = createShutdown({
  server,
  lifecycle,
  logger,
  delayMs: config.shutdown.delayMs,
  graceMs: config.shutdown.graceMs,
  // Open live order streams never end by themselves: end them now, their browsers reconnect through
  // the balancer (app/.server/order-stream.ts, "Shutdown").
  onDraining: () => {
    const ended = endOrderStreams()
    if (ended > 0) logger.info({ streams: ended }, 'ended the open order status streams')
  },
  onDrained: async () => {
    await embedded?.stop()
  },
})
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    void shutdown(signal).then(
      () => process.exit(0),
      (err) => {
        logger.error(describeFault(err), 'shutdown failed')
        process.exit(1)
      },
    )
  })
}
