/**
 * A 10,000-row catalogue import while shoppers browse (docs/product-csv.md, "Imports as jobs";
 * docs/decisions/0061-imports-as-jobs.md, "Shoppers first"): the admin checks and applies the file on
 * the import page (JavaScript on: the progress bar moves by itself), on the default embedded
 * database, while this test asks for `/healthz` every 100 ms and for shoppers' pages (product pages
 * and listings from the home page, the home page, and a search the cache cannot answer every 2 s).
 *
 * The pages' usual latency is measured first, without an import, after one round of every page (the
 * page cache warm, as in a shop that has been open a while). While the import runs, `/healthz` must
 * stay under 200 ms at the 99th percentile and the pages under their usual 99th percentile plus
 * PAGE_P99_MARGIN_MS. The figures are printed either way.
 *
 * Timings need a machine doing nothing else: this runs in the "quiet-import" project, after the
 * Lighthouse check (playwright.config.ts), alone. The file is the server's own catalogue exported
 * (the real catalogue's products, every stock moved by one) and new products up to 10,000 rows.
 */
import { performance } from 'node:perf_hooks'
import { expect, test } from '@playwright/test'
import { parse } from 'csv-parse/sync'
import { stringify } from 'csv-stringify/sync'
import { adminHeaders, signInAsAdmin } from './admin-fixtures.ts'
import { toast, waitForHydration } from './helpers.ts'

/** Rows of the imported file (docs/product-csv.md, "Performance": the 10,000-row goal). */
const ROWS = 10_000
/** `/healthz`'s 99th percentile while the import runs, ms (docs/product-csv.md, "Imports as jobs"). */
const HEALTHZ_P99_MAX_MS = 200
/**
 * How far above their usual 99th percentile the shoppers' pages may go while the import runs, ms: a
 * page asked for while a slice's statement runs on the embedded database waits for it (25 rows, a
 * few tens of ms). The quiet machine measured 15 ms usual and 34-64 ms during the import; before the
 * slices gave way, every page was rendered again after each slice and the 99th percentile passed 2 s.
 */
const PAGE_P99_MARGIN_MS = 100

const JOB_PAGE = /\/dashboard\/product\/import\?job=[0-9a-f]{24}$/

/** The value at quantile `q` (0..1) of `values` by the nearest-rank method; NaN when there is none. */
function quantile(values: number[], q: number): number {
  if (values.length === 0) return NaN
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!
}

interface Sample {
  kind: 'healthz' | 'page' | 'search'
  /** When the request was sent (epoch ms). */
  at: number
  /** How long its answer took (ms); -1 for a failure. */
  ms: number
}

test('a 10,000-row import through the admin page keeps /healthz under 200 ms and shoppers’ pages near their usual p99', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(300_000)
  const base = testInfo.project.use.baseURL!

  // The file: every product of the catalogue with a SKU (stock moved by one), then new products.
  const headers = await adminHeaders(request)
  const exported = await request.get('/api/product/export', { headers })
  expect(exported.status()).toBe(200)
  const [header, ...body] = parse((await exported.text()).replace(/^\uFEFF/, ''), { relax_column_count: true }) as string[][]
  const at = (column: string) => header!.indexOf(column)
  // The real catalogue's products (api/db/seed/import-catalog.ts `skuFor`): what earlier journeys made
  // or changed of their own is left out.
  const existing = body.filter((r) => /^BB-\d+$/.test(r[at('sku')]!)).slice(0, ROWS - 1000)
  const rows = existing.map((r) => r.map((cell, i) => (i === at('stock') ? String((Number(cell) || 0) + 1) : cell)))
  const run = Date.now().toString(36)
  for (let i = 0; rows.length < ROWS; i++) {
    const row = [...existing[i % existing.length]!]
    row[at('sku')] = `LOAD-${run}-${i}`
    row[at('id')] = ''
    row[at('name')] = `${row[at('name')]} (load ${i})`
    rows.push(row)
  }
  const created = ROWS - existing.length
  const file = Buffer.from(stringify([header!, ...rows]))

  // The shoppers' pages: what the home page links to.
  const home = await (await request.get('/')).text()
  const products = [...new Set([...home.matchAll(/\/product\/[A-Za-z0-9-]+-[0-9a-f]{24}/g)].map((m) => m[0]))].slice(0, 30)
  const listings = [...new Set([...home.matchAll(/href="(\/[A-Za-z0-9-]+-[0-9a-f]{24}\/[A-Za-z0-9-]+-[0-9a-f]{24})"/g)].map((m) => m[1]!))]
  const pages = ['/', ...products, ...listings.slice(0, 10)]
  expect(products.length).toBeGreaterThan(5)
  const words = ['milk', 'atta', 'rice', 'dal', 'oil', 'soap', 'tea', 'coffee', 'biscuit', 'chips', 'paneer', 'ghee', 'sugar', 'salt']

  let samples: Sample[] = []
  const probe = async (kind: Sample['kind'], path: string) => {
    const sentAt = Date.now()
    const started = performance.now()
    try {
      const response = await fetch(`${base}${path}`)
      await response.arrayBuffer()
      samples.push({ kind, at: sentAt, ms: response.ok ? performance.now() - started : -1 })
    } catch {
      samples.push({ kind, at: sentAt, ms: -1 })
    }
  }
  let next = 0
  let searches = 0
  const timers = [
    setInterval(() => void probe('healthz', '/healthz'), 100),
    setInterval(() => void probe('page', pages[next++ % pages.length]!), 100),
    // A new query each time: the page cache cannot answer it, the database is asked.
    setInterval(() => void probe('search', `/search?q=${words[searches % words.length]}%20${++searches}`), 2000),
  ]
  /** The samples sent between `from` and `to` (epoch ms), as p50/p99 per kind; failures counted apart. */
  const figures = (from: number, to: number) => {
    const within = samples.filter((s) => s.at >= from && s.at <= to)
    const of = (kind: Sample['kind']) => within.filter((s) => s.kind === kind && s.ms >= 0).map((s) => s.ms)
    return {
      failed: within.filter((s) => s.ms < 0).length,
      healthz: { n: of('healthz').length, p50: quantile(of('healthz'), 0.5), p99: quantile(of('healthz'), 0.99) },
      page: { n: of('page').length, p50: quantile(of('page'), 0.5), p99: quantile(of('page'), 0.99) },
      search: { n: of('search').length, p50: quantile(of('search'), 0.5), p99: quantile(of('search'), 0.99) },
    }
  }
  const settle = () => new Promise((resolve) => setTimeout(resolve, 1000))

  try {
    // One round of every page (the cache warm), then the usual latency.
    await new Promise((resolve) => setTimeout(resolve, pages.length * 100 + 2000))
    samples = []
    const idleFrom = Date.now()
    await new Promise((resolve) => setTimeout(resolve, 10_000))
    const usual = figures(idleFrom, Date.now())

    await signInAsAdmin(page)
    await page.goto('/dashboard/product/import')
    const check = page.getByRole('button', { name: 'Check file' })
    await waitForHydration(check)
    const importFrom = Date.now()
    await page.getByLabel('CSV file').setInputFiles({ name: 'catalogue.csv', mimeType: 'text/csv', buffer: file })
    await check.click()
    await expect(page).toHaveURL(JOB_PAGE)
    const dryRunId = new URL(page.url()).searchParams.get('job')!
    const progress = page.locator('[data-card="import-progress"]')
    await expect(progress.getByRole('progressbar', { name: 'Checking rows' })).toBeVisible()
    const result = page.locator('[data-card="import-result"]')
    await expect(result.getByRole('status')).toHaveText(
      `${ROWS} rows: ${created} to create, ${existing.length} to update, 0 unchanged; 0 errors.`,
      {
        timeout: 120_000,
      },
    )
    await result.getByRole('button', { name: 'Apply' }).click()
    await expect(progress.getByRole('progressbar', { name: 'Applying rows' })).toBeVisible()
    await expect(toast(page, `Import applied: ${created} created, ${existing.length} updated, 0 unchanged`)).toBeVisible({
      timeout: 120_000,
    })
    // "While it runs" ends when the apply's last slice is written (the job's `finishedAt`). Its one
    // notice to the caches then has every page asked for next rendered again, as after any catalogue
    // write: measured and printed as "after", not bounded here.
    const job = async (id: string) => (await (await request.get(`/api/product/import/jobs/${id}`, { headers })).json()).data
    const apply = await job((await job(dryRunId)).applyJobId)
    expect(apply).toMatchObject({ status: 'done', rowsDone: ROWS })
    const importTo = Date.parse(apply.finishedAt)
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, importTo + 3000 - Date.now())))
    await settle()
    const during = figures(importFrom, importTo)
    const after = figures(importTo, importTo + 3000)

    const report =
      `10,000-row import (check and apply) in ${((importTo - importFrom) / 1000).toFixed(1)} s; usual: ${JSON.stringify(usual)}; ` +
      `during: ${JSON.stringify(during)}; the 3 s after: ${JSON.stringify(after)}`
    console.log(report)
    testInfo.annotations.push({ type: 'figures', description: report })
    expect(usual.failed + during.failed, report).toBe(0)
    expect(during.healthz.n, report).toBeGreaterThan(50)
    expect(during.healthz.p99, report).toBeLessThan(HEALTHZ_P99_MAX_MS)
    expect(during.page.p99, report).toBeLessThan(usual.page.p99 + PAGE_P99_MARGIN_MS)
  } finally {
    for (const timer of timers) clearInterval(timer)
  }
})
