/**
 * `npm run bench`: starts the production server on a fresh DATA_DIR (so the full catalogue is
 * imported anew), then measures with autocannon, 32 connections, one target after another:
 * GET /, a category listing, a product page and /search?q=milk, each three times: for a visitor with
 * no session state (served by the page cache once rendered, app/.server/page-cache.ts), for a
 * signed-in shopper and for a visitor with a guest cart of three products (both answered with the
 * shared page and their own parts spliced in, docs/decisions/0032-personal-parts-spliced.md); then POST /api/product/get, the cart page of a visitor
 * with three products, the add-to-cart POST (a fetcher's `/cart.data` request, each connection with
 * its own guest cart, alternating add and set-back so the line never hits its cap), and a static file
 * of the home page's size from the same server as the baseline. Prints requests/s, p50, p90 and p99
 * latency (ms) and each target's ratio to the baseline, then the upstream calls one render of each
 * page makes (from /metrics.json, EXPOSE_METRICS=1), the first-load JavaScript of each page (the
 * modules its HTML preloads and imports, gzip bytes as the server sends them), and Lighthouse on a phone
 * (scripts/lighthouse.ts: home, a listing, a product page, search, cart, checkout and /login, median
 * of three runs per page). Needs a build (`npm run build`).
 *
 * Then the anonymous pages again while shoppers place orders through the API at BENCH_ORDER_RATE a
 * second (default 6: about one in ten is refused for stock, so at least 5 a second are placed), each order one or two units of a product the measured pages show (a tenth of
 * them left with 2 units first, so that some run out during the run): requests/s, latency, the ratio to the static file measured under
 * the same orders, and the page cache's hit rate per page (an order drops only the pages showing a
 * product that ran out, docs/decisions/0019-stock-changes-and-the-caches.md).
 *
 * Last, the add-to-cart POST with the BFF and the API apart, CPU time per request of each process
 * (and of PostgreSQL's backends with BENCH_DATABASE_URL or TEST_DATABASE_URL): bench/cart.ts.
 *
 * Options (env): BENCH_DURATION seconds per target (default 10), BENCH_CONNECTIONS (default 32),
 * BENCH_PORT (default 3400), BENCH_LIGHTHOUSE=0 skips Lighthouse, BENCH_ONLY=pages measures the
 * page targets alone, BENCH_ONLY=orders the run under orders alone, BENCH_ONLY=cart the add-to-cart
 * part alone (BENCH_CPU_PROF=<dir> profiles it), BENCH_ORDERS=0 skips the run under orders. Search latency and the store under a search attack: `npm run bench:search`
 * (bench/search.ts).
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import autocannon from 'autocannon'
import { benchCart } from './cart.ts'
import { FORM, guestCart as guestCartAt, measure as measureRow, type MeasureOptions, type Row } from './measure.ts'

const port = Number(process.env.BENCH_PORT ?? 3400)
const duration = Number(process.env.BENCH_DURATION ?? 10)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32)
const base = `http://127.0.0.1:${port}`
const root = path.resolve(import.meta.dirname, '..')
const guestCart = (productIds: string[]) => guestCartAt(base, productIds)

if (!fs.existsSync(path.join(root, 'build/server/index.js'))) {
  console.error('No build found: run `npm run build` first.')
  process.exit(1)
}

// The add-to-cart POST with the BFF and the API apart (bench/cart.ts): alone, before this run's own server starts.
if (process.env.BENCH_ONLY === 'cart') {
  await benchCart({ port, seconds: duration, connections })
  process.exit(0)
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'grocery-bench-'))
const server = spawn(process.execPath, ['--import', 'tsx', 'server.ts'], {
  cwd: root,
  // A fixed demo-admin password: the throwaway database's admin is never printed.
  env: {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    DATA_DIR: dataDir,
    EXPOSE_METRICS: '1',
    LOG_LEVEL: 'warn',
    ADMIN_PASSWORD: 'bench-only-admin-password',
    // Every connection hammers its own cart from one address: lift the per-cart and per-address budgets.
    RATE_LIMIT_IP_MULTIPLIER: '1000',
  },
  stdio: ['ignore', 'inherit', 'inherit'],
})
const baselineFile = path.join(root, 'build/client/bench-baseline.html')

async function cleanup() {
  server.kill('SIGTERM')
  fs.rmSync(baselineFile, { force: true })
  await new Promise((r) => setTimeout(r, 500))
  fs.rmSync(dataDir, { recursive: true, force: true })
}

async function waitForHealth(timeoutMs = 180_000) {
  const started = Date.now()
  while (Date.now() - started < timeoutMs) {
    try {
      const res = await fetch(`${base}/healthz`)
      if (res.ok) return Date.now() - started
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250))
  }
  throw new Error('server did not become healthy')
}

async function api<T>(p: string, body: unknown): Promise<T> {
  const res = await fetch(`${base}/api/${p}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
  return ((await res.json()) as { data: T }).data
}

const slug = (name: string, id: string) =>
  `${name
    .replace(/[\s,$]+/g, '-')
    .replace(/[^\p{L}\p{N}-]+/gu, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '')}-${id}`

async function upstreamCalls(url: string, headers: Record<string, string>): Promise<number> {
  const before = ((await (await fetch(`${base}/metrics.json`)).json()) as { upstreamCalls: number }).upstreamCalls
  await (await fetch(url, { headers })).text()
  const after = ((await (await fetch(`${base}/metrics.json`)).json()) as { upstreamCalls: number }).upstreamCalls
  return after - before
}

/** One measurement with this run's connections, `duration` seconds unless told (bench/measure.ts). */
const measure = (name: string, opts: MeasureOptions, seconds = duration): Promise<Row> => measureRow(name, opts, { seconds, connections })

/** A shopper signed in through the /login form, as a browser without JavaScript does it: answers the session cookie. */
async function signedInShopper(): Promise<string> {
  const user = { name: 'Bench Shopper', email: `bench-${Date.now()}@example.com`, password: 'Bench-Shopper-Pass-1' }
  await api('user/register', { ...user, confirmPassword: user.password })
  const res = await fetch(`${base}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: FORM,
    body: new URLSearchParams({ email: user.email, password: user.password }),
  })
  const cookie = res.headers.get('set-cookie')?.split(';')[0]
  await res.arrayBuffer()
  if (res.status !== 302 || !cookie) throw new Error(`bench: sign-in answered ${res.status}`)
  // The home page shows the sign-in toast and answers the cookie without it, as a browser keeps it.
  const page = await fetch(`${base}/`, { headers: { cookie } })
  const home = await page.text()
  if (!home.includes(user.name)) throw new Error('bench: the signed-in home page does not name the shopper')
  return page.headers.get('set-cookie')?.split(';')[0] ?? cookie
}

/** A shopper who orders through the API: a bearer token and a delivery address. */
interface OrderingShopper {
  token: string
  addressId: string
}

/** `n` shoppers registered and signed in through the API, each with an address (30 orders an hour each, the order budget). */
async function orderingShoppers(n: number): Promise<OrderingShopper[]> {
  const shoppers: OrderingShopper[] = []
  for (let i = 0; i < n; i++) {
    const user = { name: `Bench Buyer ${i}`, email: `bench-buyer-${Date.now()}-${i}@example.com`, password: 'Bench-Buyer-Pass-1' }
    await api('user/register', { ...user, confirmPassword: user.password })
    const { accessToken: token } = await api<{ accessToken: string }>('user/login', { email: user.email, password: user.password })
    const address = await authedApi<{ _id: string }>(token, 'address/create', {
      // Indiranagar (560038): the default store serves it, the store whose stock the anonymous pages show.
      address_line: '12, 100 Feet Road, Indiranagar',
      city: 'Bengaluru',
      state: 'Karnataka',
      pincode: '560038',
      mobile: '9876543210',
    })
    shoppers.push({ token, addressId: address.data!._id })
  }
  return shoppers
}

async function authedApi<T>(token: string, p: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}/api/${p}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', authorization: `Bearer ${token}`, ...headers },
    body: JSON.stringify(body),
  })
  return { status: res.status, data: ((await res.json()) as { data?: T }).data }
}

/**
 * Places orders at `perSecond` (one started every 1/perSecond s, whether or not the last finished),
 * each of one or two units of a product drawn from `productIds`, by the shoppers in turn. `stop()`
 * waits for the orders under way and answers how many were placed and refused (a product that ran
 * out, a cart corrected by a price or stock change).
 */
function placeOrders(shoppers: OrderingShopper[], productIds: string[], perSecond: number) {
  let placed = 0
  let refused = 0
  let n = 0
  // The placements' answers by status: 409 stock or price moved (or busy), 429 order budget or a busy pool.
  const statuses: Record<number, number> = {}
  const running = new Set<Promise<void>>()
  const one = async () => {
    const shopper = shoppers[n++ % shoppers.length]!
    const productId = productIds[Math.floor(Math.random() * productIds.length)]!
    for (let units = 1 + (n % 2); units > 0; units--) {
      if ((await authedApi(shopper.token, 'cart/create', { productId })).status !== 200) break
    }
    const res = await authedApi(
      shopper.token,
      'order/cash-on-delivery',
      { addressId: shopper.addressId },
      { 'Idempotency-Key': `bench-${n}-${Date.now()}` },
    )
    statuses[res.status] = (statuses[res.status] ?? 0) + 1
    if (res.status === 201) placed++
    else refused++
  }
  const timer = setInterval(() => {
    const order = one().catch(() => {
      refused++
    })
    running.add(order)
    void order.finally(() => running.delete(order))
  }, 1000 / perSecond)
  return {
    async stop() {
      clearInterval(timer)
      await Promise.all(running)
      return { placed, refused, statuses }
    },
  }
}

/** A product as `product/get` answers it, as far as the run under orders reads it. */
interface ShownProduct {
  _id: string
  updatedAt: string
}

interface PageCacheStats {
  hits: number
  misses: number
  availabilityChanges?: number
  availabilityDropped?: number
  clears: number
  spliced?: number
}
const pageCacheStats = async () => ((await (await fetch(`${base}/metrics.json`)).json()) as { pageCache: PageCacheStats }).pageCache

/** The bytes a browser that accepts only gzip receives for `url` (the precompressed file, or compression()'s). */
function gzipBytesOnTheWire(url: URL): Promise<{ raw: number; wire: number }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => {
          const body = Buffer.concat(chunks)
          const raw = res.headers['content-encoding'] === 'gzip' ? zlib.gunzipSync(body).length : body.length
          resolve({ raw, wire: body.length })
        })
      })
      .on('error', reject)
  })
}

/**
 * The first-load JavaScript of the page at `url`: every module its HTML preloads or its inline
 * scripts import, in bytes and in gzip bytes as the server sends them (scripts/precompress.mjs).
 */
async function firstLoadJs(url: string): Promise<{ files: number; raw: number; gzip: number }> {
  const html = await (await fetch(url)).text()
  const files = new Set([...html.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)].map((m) => m[1]!))
  for (const m of html.matchAll(/(?:import|from)\s*\(?\s*"(\/assets\/[^"]+\.js)"/g)) files.add(m[1]!)
  let raw = 0
  let gzip = 0
  for (const file of files) {
    const sent = await gzipBytesOnTheWire(new URL(file, base))
    raw += sent.raw
    gzip += sent.wire
  }
  return { files: files.size, raw, gzip }
}

/** Seconds of the mixed load (`BENCH_MIXED_SECONDS`, default 60; 0 skips it). */
const mixedSeconds = Number(process.env.BENCH_MIXED_SECONDS ?? 60)

/**
 * The mixed load: `connections` virtual shoppers, each with a session of its own (three in four with
 * a guest cart of one to three products, one in four anonymous), each going round home, a listing, a
 * product page and a search, and, with a cart, adding a unit and setting it back through the
 * fetcher's `/cart.data`. Answers the run's figures, the share of anonymous page requests the page
 * cache answered from a stored page, and how many pages were spliced.
 */
async function mixedLoad(pages: Array<[string, string]>, productId: string) {
  const visitors = await Promise.all(
    Array.from({ length: connections }, async (_, i) => (i % 4 === 3 ? null : await guestCart([productId]))),
  )
  let next = 0
  const before = await pageCacheStats()
  const row = await measure(
    'mixed load',
    {
      url: `${base}/`,
      setupClient(client) {
        const visitor = visitors[next++ % visitors.length]!
        const headers: Record<string, string> = visitor ? { cookie: visitor.cookie } : {}
        const browse = pages.map(([, url]) => ({ method: 'GET' as const, path: new URL(url).pathname + new URL(url).search, headers }))
        client.setRequests(
          visitor
            ? [
                ...browse,
                {
                  method: 'POST',
                  path: '/cart.data',
                  headers: { ...FORM, cookie: visitor.cookie },
                  body: `intent=add&productId=${productId}&js=1`,
                },
                {
                  method: 'POST',
                  path: '/cart.data',
                  headers: { ...FORM, cookie: visitor.cookie },
                  body: `intent=set&lineId=${visitor.lineId}&qty=1&js=1`,
                },
              ]
            : browse,
        )
      },
    },
    mixedSeconds,
  )
  const after = await pageCacheStats()
  const hits = after.hits - before.hits
  const renders = after.misses - before.misses
  return { row, hitRate: hits / Math.max(1, hits + renders), spliced: (after.spliced ?? 0) - (before.spliced ?? 0) }
}

try {
  const importMs = await waitForHealth()
  console.log(`server healthy after ${(importMs / 1000).toFixed(1)} s (fresh DATA_DIR, catalogue imported)`)

  const products = await api<
    Array<{ _id: string; name: string; category: Array<{ _id: string; name: string }>; subCategory: Array<{ _id: string; name: string }> }>
  >('product/get', { page: 1, limit: 1, search: 'milk' })
  const product = products[0]
  const productUrl = `${base}/product/${slug(product.name, product._id)}`
  const listingUrl = `${base}/${slug(product.category[0].name, product.category[0]._id)}/${slug(product.subCategory[0].name, product.subCategory[0]._id)}`
  const homeHtml = await (await fetch(`${base}/`)).text()
  fs.writeFileSync(baselineFile, 'x'.repeat(Buffer.byteLength(homeHtml)))

  const cartProducts = (await api<Array<{ _id: string }>>('product/get', { page: 1, limit: 3 })).map((p) => p._id)
  const shopper = await guestCart(cartProducts)
  // One guest cart per connection, so the adds of one never meet another's per-line cap.
  const carts = await Promise.all(Array.from({ length: connections }, () => guestCart(cartProducts.slice(0, 1))))
  let nextCart = 0
  const addToCart: MeasureOptions = {
    url: `${base}/cart.data`,
    setupClient(client) {
      const cart = carts[nextCart++ % carts.length]!
      client.setRequests([
        { method: 'POST', headers: { ...FORM, cookie: cart.cookie }, body: `intent=add&productId=${cartProducts[0]}&js=1` },
        { method: 'POST', headers: { ...FORM, cookie: cart.cookie }, body: `intent=set&lineId=${cart.lineId}&qty=1&js=1` },
      ])
    },
  }

  const signedIn = { cookie: await signedInShopper() }
  const pages: Array<[string, string]> = [
    ['GET /', `${base}/`],
    ['category listing', listingUrl],
    ['product page', productUrl],
    ['/search?q=milk', `${base}/search?q=milk`],
  ]
  const targets: Array<[string, MeasureOptions]> = [
    ['static file (baseline)', { url: `${base}/bench-baseline.html` }],
    ...pages.map(([name, url]): [string, MeasureOptions] => [`${name}, anonymous`, { url }]),
    ...pages.map(([name, url]): [string, MeasureOptions] => [`${name}, signed in`, { url, headers: signedIn }]),
    // A visitor with a guest cart of three products: the shared page with their slots spliced in
    // (docs/decisions/0032-personal-parts-spliced.md), steppers included where those products show.
    ...pages.map(([name, url]): [string, MeasureOptions] => [`${name}, with a cart`, { url, headers: { cookie: shopper.cookie } }]),
  ]
  if (process.env.BENCH_ONLY !== 'pages')
    targets.push(
      [
        'POST /api/product/get',
        {
          url: `${base}/api/product/get`,
          method: 'POST',
          body: JSON.stringify({ page: 1, limit: 12 }),
          headers: { 'content-type': 'application/json' },
        },
      ],
      ['cart page (3 products)', { url: `${base}/cart`, headers: { cookie: shopper.cookie } }],
      ['add-to-cart POST (fetcher)', addToCart],
    )
  const ordersOnly = process.env.BENCH_ONLY === 'orders'
  const rows: Row[] = []
  for (const [name, opts] of ordersOnly ? targets.slice(0, 1) : targets) {
    // A short warm-up so JIT and caches are in the same state for every target.
    await autocannon({ ...opts, connections: 4, duration: 1 })
    rows.push(await measure(name, opts))
  }

  const baseline = rows[0].rps
  console.log(`\nautocannon: ${connections} connections, ${duration} s per target, ${os.cpus().length} cores, Node ${process.version}\n`)
  console.log('| target | req/s | p50 ms | p90 ms | p99 ms | vs baseline | errors |')
  console.log('|---|---:|---:|---:|---:|---:|---:|')
  for (const r of rows) {
    console.log(`| ${r.name} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p90} | ${r.p99} | ${(r.rps / baseline).toFixed(2)} | ${r.errors} |`)
  }
  const metrics = (await (await fetch(`${base}/metrics.json`)).json()) as { pageCache: unknown }
  console.log(`\npage cache: ${JSON.stringify(metrics.pageCache)}`)

  if (process.env.BENCH_ORDERS !== '0') {
    const rate = Number(process.env.BENCH_ORDER_RATE ?? 6)
    // Enough shoppers for the order budget (30 an hour each) over the whole run.
    const shoppers = await orderingShoppers(Math.ceil((rate * ((pages.length + 1) * (duration + 1) + mixedSeconds + 5) * 1.2) / 30))
    // The products the measured pages show: the newest (the home rows are each category's newest), the search's, the product page's.
    const shown = new Map(
      [
        ...(await api<ShownProduct[]>('product/get', { page: 1, limit: 100 })),
        ...(await api<ShownProduct[]>('product/get', { page: 1, limit: 50, search: 'milk' })),
      ].map((p) => [p._id, p]),
    )
    // Every tenth of them left with 2 units (an admin's edit, before the measurement), so that some run
    // out while the pages are measured, as a popular product does.
    const { accessToken: adminToken } = await api<{ accessToken: string }>('user/login', {
      email: 'admin@example.com',
      password: 'bench-only-admin-password',
    })
    for (const p of [...shown.values()].filter((_, i) => i % 10 === 0)) {
      await fetch(`${base}/api/product/update-product-details`, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json', authorization: `Bearer ${adminToken}` },
        body: JSON.stringify({ _id: p._id, updatedAt: p.updatedAt, stock: 2 }),
      })
    }
    const orders = placeOrders(shoppers, [...shown.keys(), product._id], rate)
    const started = Date.now()
    const underOrders: Array<Row & { hitRate: number | null; renders: number | null }> = []
    for (const [name, opts] of [
      ['static file', { url: `${base}/bench-baseline.html` }] as [string, MeasureOptions],
      ...pages.map(([n, url]): [string, MeasureOptions] => [`${n}, anonymous`, { url }]),
    ]) {
      const before = await pageCacheStats()
      const row = await measure(name, opts)
      const after = await pageCacheStats()
      // A hit is a request answered from a stored page; a visitor who waited for a render (its own,
      // or one shared with others asking at once) is not one.
      const hits = after.hits - before.hits
      const renders = after.misses - before.misses
      const isPage = hits + renders > 0
      underOrders.push({ ...row, hitRate: isPage ? hits / row.requests : null, renders: isPage ? renders : null })
    }
    // A product the orders leave alone (none of those they draw from), so every virtual shopper can add it.
    const spare = (await api<Array<{ _id: string }>>('product/get', { page: 2, limit: 100 })).find((p) => !shown.has(p._id))
    const mixed = mixedSeconds > 0 ? await mixedLoad(pages, spare!._id) : null
    const seconds = (Date.now() - started) / 1000
    const { placed, refused, statuses: orderStatuses } = await orders.stop()
    const after = await pageCacheStats()
    console.log(
      `\nAnonymous pages while orders are placed at ${rate}/s (${placed} placed, ${refused} refused, ${(placed / seconds).toFixed(1)}/s; placements by status ${JSON.stringify(orderStatuses)}):\n`,
    )
    console.log('| target | req/s | p50 ms | p99 ms | vs static file | page cache hits | renders | errors |')
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|')
    const staticRps = underOrders[0]!.rps
    for (const r of underOrders) {
      const hits = r.hitRate === null ? '–' : `${(r.hitRate * 100).toFixed(1)} %`
      console.log(
        `| ${r.name} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${(r.rps / staticRps).toFixed(2)} | ${hits} | ${r.renders ?? '–'} | ${r.errors} |`,
      )
    }
    console.log(
      `\npage cache after the orders: ${after.availabilityChanges ?? 0} availability changes dropped ${after.availabilityDropped ?? 0} pages; ${after.clears} full clears`,
    )
    if (mixed) {
      console.log(
        `\nMixed load, ${mixedSeconds} s, ${connections} virtual shoppers (three in four with a guest cart, one in four anonymous), each browsing home, a listing, a product page and a search and (with a cart) adding to it, while orders are placed at ${rate}/s:\n`,
      )
      console.log('| requests | req/s | p50 ms | p90 ms | p99 ms | errors | anonymous page cache hits | spliced pages |')
      console.log('|---:|---:|---:|---:|---:|---:|---:|---:|')
      const { row, hitRate, spliced } = mixed
      console.log(
        `| ${row.requests} | ${row.rps.toFixed(0)} | ${row.p50} | ${row.p90} | ${row.p99} | ${row.errors} | ${(hitRate * 100).toFixed(1)} % | ${spliced} |`,
      )
      if (row.statuses) console.log(`\nanswers by status: ${JSON.stringify(row.statuses)}`)
    }
  }
  // The rest measures pages without orders: not with BENCH_ONLY=orders.
  if (!ordersOnly) {
    console.log('\nUpstream API calls per page render (BFF → API), signed in / anonymous (0 when the page cache answers):')
    for (const [name, url] of pages) {
      console.log(`- ${name}: ${await upstreamCalls(url, signedIn)} / ${await upstreamCalls(url, {})}`)
    }
    console.log(`\nhome page HTML: ${Buffer.byteLength(homeHtml)} bytes`)

    console.log('\nFirst-load JavaScript (modules the HTML preloads and imports; gzip bytes as served to a browser that accepts gzip):\n')
    console.log('| page | files | raw KiB | gzip KiB | gzip kB |')
    console.log('|---|---:|---:|---:|---:|')
    for (const [name, url] of [...pages, ['/login', `${base}/login`] as [string, string]]) {
      const js = await firstLoadJs(url)
      console.log(
        `| ${name} | ${js.files} | ${(js.raw / 1024).toFixed(1)} | ${(js.gzip / 1024).toFixed(1)} | ${(js.gzip / 1000).toFixed(1)} |`,
      )
    }

    if (process.env.BENCH_LIGHTHOUSE !== '0') {
      // The six shopper pages of the performance targets (docs/decisions/0046-cheap-product-cards.md) and /login.
      const { lighthouseTable, runLighthouse, shopperPages } = await import('../scripts/lighthouse.ts')
      const lighthousePages: Array<[string, string]> = [...(await shopperPages(base)), ['/login', `${base}/login`]]
      const results = await runLighthouse(
        lighthousePages.map(([, url]) => url),
        { runs: 3 },
      )
      console.log('\nLighthouse, phone (mobile preset, simulated throttling), median of 3 runs:\n')
      console.log(
        lighthouseTable(
          lighthousePages.map(([name]) => name),
          results,
        ),
      )
    }
  }
} finally {
  await cleanup()
}

// Then the add-to-cart POST with the BFF and the API apart (bench/cart.ts), once this run's server is gone.
if (!process.env.BENCH_ONLY) await benchCart({ port, seconds: duration, connections })
