/**
 * Lighthouse on a phone (its default config: mobile form factor and screen, simulated throttling of
 * a slow 4G connection and a 4× slower CPU; Lighthouse docs, "Throttling") in Debian's chromium with
 * the flags of playwright.config.ts, headless. Lighthouse 12 is the last line that runs on Node 20
 * (docs/stack.md); `CHROMIUM_PATH` overrides /usr/bin/chromium as in the Playwright config.
 *
 * Used by `npm run bench` (the performance figures, median of three runs per page, over the shopper
 * pages of `shopperPages`) and by tests/e2e/lighthouse.spec.ts (the deterministic audits). As a
 * command: `npx tsx scripts/lighthouse.ts http://localhost:3000` prints the table of the six shopper
 * pages (home, a category listing, a product page, search, cart, checkout; RUNS=n runs each,
 * default 3); with paths (`... http://localhost:3000 / /login`) it measures those instead.
 */
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'
import { launchOptions } from '../playwright.config.ts'
import { toSlug } from '../app/lib/slug.ts'

/** One page's scores (0-100) and the figures Lighthouse measured (ms; CLS unitless). */
export interface LighthouseResult {
  url: string
  performance: number
  accessibility: number
  bestPractices: number
  seo: number
  /** Largest Contentful Paint in ms, or null when Lighthouse reported none. */
  lcpMs: number | null
  fcpMs: number | null
  tbtMs: number | null
  cls: number | null
  /** Audits of accessibility, best practices and SEO that did not pass: id and title. */
  failing: Array<{ category: string; id: string; title: string }>
}

const score = (value: number | null | undefined) => Math.round((value ?? 0) * 100)

/** Retries of one run that failed to record the page load (Lighthouse says "Please run Lighthouse again", e.g. NO_NAVSTART). */
const RETRIES = 2

/** One Lighthouse run of `url` in the browser listening on `port`; throws when it fails RETRIES + 1 times. */
async function runOnce(port: number, url: string) {
  for (let attempt = 0; ; attempt++) {
    const answer = await lighthouse(url, {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
    })
    if (!answer) throw new Error(`Lighthouse gave no result for ${url}`)
    if (!answer.lhr.runtimeError) return answer.lhr
    if (attempt >= RETRIES) throw new Error(`Lighthouse could not load ${url}: ${answer.lhr.runtimeError.message}`)
  }
}

/** The middle value of `values` (the lower middle for an even count), or null when none is a number. */
function median(values: Array<number | null>): number | null {
  const numbers = values.filter((v): v is number => v !== null).sort((a, b) => a - b)
  return numbers.length ? numbers[Math.floor((numbers.length - 1) / 2)]! : null
}

/**
 * Runs Lighthouse `runs` times on each of `urls` in one browser and answers, per URL, the median of
 * each figure over the runs (Lighthouse docs, "Variability": use the median of several runs); the
 * failing audits are those of the run with the median performance score. Throws when the browser
 * cannot be started or a run fails to load the page.
 */
export async function runLighthouse(urls: string[], { runs = 3 } = {}): Promise<LighthouseResult[]> {
  const chrome = await chromeLauncher.launch({
    chromePath: launchOptions.executablePath,
    chromeFlags: ['--headless=new', ...launchOptions.args],
    logLevel: 'silent',
  })
  try {
    const results: LighthouseResult[] = []
    for (const url of urls) {
      const attempts: LighthouseResult[] = []
      for (let i = 0; i < runs; i++) {
        const lhr = await runOnce(chrome.port, url)
        const numeric = (id: string) => lhr.audits[id]?.numericValue ?? null
        const failing: LighthouseResult['failing'] = []
        for (const category of ['accessibility', 'best-practices', 'seo']) {
          for (const ref of lhr.categories[category]?.auditRefs ?? []) {
            const audit = lhr.audits[ref.id]
            if (ref.weight > 0 && audit && audit.score !== null && audit.score < 1)
              failing.push({ category, id: audit.id, title: audit.title })
          }
        }
        attempts.push({
          url,
          performance: score(lhr.categories.performance?.score),
          accessibility: score(lhr.categories.accessibility?.score),
          bestPractices: score(lhr.categories['best-practices']?.score),
          seo: score(lhr.categories.seo?.score),
          lcpMs: numeric('largest-contentful-paint'),
          fcpMs: numeric('first-contentful-paint'),
          tbtMs: numeric('total-blocking-time'),
          cls: numeric('cumulative-layout-shift'),
          failing,
        })
      }
      attempts.sort((x, y) => x.performance - y.performance)
      const middle = attempts[Math.floor((attempts.length - 1) / 2)]!
      const of = (key: 'performance' | 'accessibility' | 'bestPractices' | 'seo') => median(attempts.map((a) => a[key]))!
      results.push({
        url,
        performance: of('performance'),
        accessibility: of('accessibility'),
        bestPractices: of('bestPractices'),
        seo: of('seo'),
        lcpMs: median(attempts.map((a) => a.lcpMs)),
        fcpMs: median(attempts.map((a) => a.fcpMs)),
        tbtMs: median(attempts.map((a) => a.tbtMs)),
        cls: median(attempts.map((a) => a.cls)),
        failing: middle.failing,
      })
    }
    return results
  } finally {
    chrome.kill()
  }
}

/**
 * The shopper pages the performance targets cover (docs/decisions/0046-cheap-product-cards.md), as
 * [name, absolute URL] on the server at `base`: home, the category listing and the page of the first
 * product a search for "milk" finds (read from the API, `POST /api/product/get`), /search?q=milk, the
 * cart and the checkout (both of a visitor with no cart: what a first visit sees). Throws when the
 * API does not answer or finds no product.
 */
export async function shopperPages(base: string): Promise<Array<[string, string]>> {
  const response = await fetch(new URL('/api/product/get', base), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ page: 1, limit: 1, search: 'milk' }),
  })
  if (!response.ok) throw new Error(`POST /api/product/get answered ${response.status}`)
  type Ref = { _id: string; name: string }
  const { data } = (await response.json()) as { data: Array<Ref & { category: Ref[]; subCategory: Ref[] }> }
  const product = data[0]
  if (!product?.category[0] || !product.subCategory[0]) throw new Error('no product found for "milk" to measure')
  const slug = (ref: Ref) => toSlug(ref.name, ref._id)
  const page = (path: string) => new URL(path, base).href
  return [
    ['home', page('/')],
    ['category listing', page(`/${slug(product.category[0])}/${slug(product.subCategory[0])}`)],
    ['product page', page(`/product/${slug(product)}`)],
    ['/search?q=milk', page('/search?q=milk')],
    ['/cart', page('/cart')],
    ['/checkout', page('/checkout')],
  ]
}

/**
 * The Markdown table of `results` (one row per page, named by `names`): performance, TBT, LCP, CLS,
 * accessibility and best practices (the targets), then FCP and SEO; then one line per failing audit.
 */
export function lighthouseTable(names: string[], results: LighthouseResult[]): string {
  const ms = (v: number | null) => (v === null ? 'none' : v.toFixed(0))
  const lines = [
    '| page | performance | TBT ms | LCP ms | CLS | accessibility | best practices | FCP ms | SEO |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ]
  results.forEach((r, i) =>
    lines.push(
      `| ${names[i]} | ${r.performance} | ${ms(r.tbtMs)} | ${ms(r.lcpMs)} | ${r.cls?.toFixed(3) ?? 'none'} | ${r.accessibility} | ${r.bestPractices} | ${ms(r.fcpMs)} | ${r.seo} |`,
    ),
  )
  results.forEach((r, i) => {
    for (const f of r.failing) lines.push(`  ${names[i]}: ${f.category} audit "${f.id}" not passed (${f.title})`)
  })
  return lines.join('\n')
}

const isMain = process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href
if (isMain) {
  const [base, ...paths] = process.argv.slice(2)
  if (!base) {
    console.error('usage: npx tsx scripts/lighthouse.ts <base URL> <path>...')
    process.exit(2)
  }
  const runs = Number(process.env.RUNS ?? 3)
  const pages: Array<[string, string]> = paths.length ? paths.map((p) => [p, new URL(p, base).href]) : await shopperPages(base)
  const results = await runLighthouse(
    pages.map(([, url]) => url),
    { runs },
  )
  console.log(`Lighthouse, phone (mobile preset, simulated throttling), median of ${runs} run(s):\n`)
  console.log(
    lighthouseTable(
      pages.map(([name]) => name),
      results,
    ),
  )
}
