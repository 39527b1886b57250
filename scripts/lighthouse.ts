/**
 * Lighthouse on a phone (its default config: mobile form factor and screen, simulated throttling of
 * a slow 4G connection and a 4× slower CPU; Lighthouse docs, "Throttling") in Debian's chromium with
 * the flags of playwright.config.ts, headless. Lighthouse 12 is the last line that runs on Node 20
 * (docs/stack.md); `CHROMIUM_PATH` overrides /usr/bin/chromium as in the Playwright config.
 *
 * Used by `npm run bench` (the performance figures, median of three runs per page) and by
 * tests/e2e/lighthouse.spec.ts (the deterministic audits). As a command:
 * `npx tsx scripts/lighthouse.ts http://localhost:3000 / /login` prints one line per page.
 */
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'
import { launchOptions } from '../playwright.config.ts'

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

/**
 * Runs Lighthouse `runs` times on each of `urls` in one browser and answers, per URL, the run with
 * the median performance score (Lighthouse docs, "Variability": use the median of several runs).
 * Throws when the browser cannot be started or a run fails to load the page.
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
      results.push(attempts[Math.floor(attempts.length / 2)]!)
    }
    return results
  } finally {
    chrome.kill()
  }
}

const isMain = process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href
if (isMain) {
  const [base, ...paths] = process.argv.slice(2)
  if (!base) {
    console.error('usage: npx tsx scripts/lighthouse.ts <base URL> <path>...')
    process.exit(2)
  }
  for (const r of await runLighthouse((paths.length ? paths : ['/']).map((p) => new URL(p, base).href))) {
    console.log(
      `${r.url}: performance ${r.performance}, accessibility ${r.accessibility}, best practices ${r.bestPractices}, SEO ${r.seo}, ` +
        `LCP ${r.lcpMs?.toFixed(0)} ms, FCP ${r.fcpMs?.toFixed(0)} ms, TBT ${r.tbtMs?.toFixed(0)} ms, CLS ${r.cls?.toFixed(3)}` +
        (r.failing.length ? `; failing: ${r.failing.map((f) => f.id).join(', ')}` : ''),
    )
  }
}
