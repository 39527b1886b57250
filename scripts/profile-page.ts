/**
 * Where a page's main-thread time and its Largest Contentful Paint go on a phone-like browser:
 * Debian's chromium (the flags of playwright.config.ts) at 360×640, the CPU slowed 4× through the
 * Chrome DevTools Protocol (`Emulation.setCPUThrottlingRate`), a performance trace recorded with
 * `Tracing.start` (the "devtools.timeline" categories DevTools' Performance panel records).
 *
 * Prints, for one load of each page: the long tasks (PerformanceObserver "longtask", W3C Long Tasks
 * API: tasks over 50 ms) and their sum, the LCP element and time (PerformanceObserver
 * "largest-contentful-paint"), the inline router data's size (React Router's
 * `window.__reactRouterContext` script) and the document's size, and the main thread's self time per
 * trace event (ms: script evaluation, function calls, parse, style, layout, paint, GC). Network is
 * not throttled (the trace separates CPU cost; Lighthouse's simulated 4G is scripts/lighthouse.ts).
 *
 * `npx tsx scripts/profile-page.ts http://localhost:3000 / /search?q=milk` (RUNS=n loads per page, default 1).
 */
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test'
import { launchOptions } from '../playwright.config.ts'

/** One load's figures (ms unless said). */
export interface PageProfile {
  url: string
  longTasks: number[]
  longTaskSumMs: number
  lcpMs: number | null
  lcpElement: string | null
  documentBytes: number
  routerDataBytes: number
  /** Main-thread self time per trace event name, largest first. */
  selfTime: Array<[string, number]>
}

/** Installs the observers before any script of the page runs; the answers are read by `readObserved`. */
const OBSERVERS = `
  window.__perf = { longTasks: [], lcp: null }
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__perf.longTasks.push(e.duration) })
    .observe({ type: 'longtask', buffered: true })
  new PerformanceObserver((list) => {
    const e = list.getEntries().at(-1)
    const el = e.element
    window.__perf.lcp = { time: e.startTime, element: el ? el.tagName + (el.className ? '.' + String(el.className).split(' ').join('.') : '') + (el.currentSrc ? ' ' + el.currentSrc : '') : e.url || null }
  }).observe({ type: 'largest-contentful-paint', buffered: true })
`

interface TraceEvent {
  name: string
  ph: string
  ts: number
  dur?: number
  /** Thread (CPU) time of a complete event, µs: Chrome records it with the "toplevel" category. */
  tdur?: number
  pid: number
  tid: number
  args?: { name?: string }
}

/** The page's renderer main thread: the busiest `CrRendererMain` (an about:blank renderer may have one too). */
function mainThread(events: TraceEvent[]): TraceEvent | undefined {
  const mains = events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
  const busy = (m: TraceEvent) =>
    events.reduce((sum, e) => sum + (e.ph === 'X' && e.pid === m.pid && e.tid === m.tid ? (e.dur ?? 0) : 0), 0)
  return mains.sort((a, b) => busy(b) - busy(a))[0]
}

/** The slowdown the CPU-time model applies: Lighthouse's mobile preset and DevTools' "4× slowdown". */
export const CPU_SLOWDOWN = 4

/**
 * The long tasks a phone `CPU_SLOWDOWN` times slower would run, modelled from the trace's thread
 * time: each top-level task of the main thread (`RunTask`, not nested in another) costs its CPU time
 * (`tdur`) × CPU_SLOWDOWN, and is long over 50 ms (W3C Long Tasks API). Answers the modelled
 * durations, ms, in order.
 *
 * Why a model and not `Emulation.setCPUThrottlingRate`: the throttled wall time counts every other
 * process on the machine (a quiet 2-core machine gave 276-582 ms for the same build), and the thread
 * time under Chrome's throttler is inflated too (measured 5-9× the unthrottled time), while a
 * thread's own CPU time stays close to constant as the machine gets busier. React's scheduler yields
 * by wall time (every 5 ms), so its slices stay short either way; what the model makes long is what
 * a slower phone makes long: module evaluation, parsing, style, layout and an unsliced hydration.
 */
export function modelledLongTasks(events: TraceEvent[]): number[] {
  return topLevelTasks(events)
    .map((t) => ((t.tdur ?? t.dur!) / 1000) * CPU_SLOWDOWN)
    .filter((ms) => ms > 50)
}

/** The main thread's top-level tasks (`RunTask` events not nested in another), in time order. */
function topLevelTasks(events: TraceEvent[]): TraceEvent[] {
  const main = mainThread(events)
  if (!main) return []
  const tasks = events
    .filter((e) => e.ph === 'X' && e.pid === main.pid && e.tid === main.tid && e.dur !== undefined)
    .filter((e) => e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask')
    .sort((a, b) => a.ts - b.ts || b.dur! - a.dur!)
  const topLevel: TraceEvent[] = []
  for (const t of tasks) {
    const last = topLevel.at(-1)
    if (last && t.ts < last.ts + last.dur!) continue
    topLevel.push(t)
  }
  return topLevel
}

/** Self time (ms) per event name on the renderer's main thread, from complete ('X') events. */
function selfTimes(events: TraceEvent[]): Array<[string, number]> {
  const main = mainThread(events)
  const onMain = events
    .filter((e) => e.ph === 'X' && e.dur !== undefined && main && e.pid === main.pid && e.tid === main.tid)
    .sort((a, b) => a.ts - b.ts || b.dur! - a.dur!)
  const totals = new Map<string, number>()
  // Self time = own duration minus the direct children's durations.
  const own = new Map<TraceEvent, number>()
  const open: TraceEvent[] = []
  for (const e of onMain) {
    while (open.length && open.at(-1)!.ts + open.at(-1)!.dur! <= e.ts) open.pop()
    const parent = open.at(-1)
    if (parent) own.set(parent, (own.get(parent) ?? parent.dur!) - e.dur!)
    own.set(e, e.dur!)
    open.push(e)
  }
  for (const [e, self] of own) {
    if (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask') continue
    totals.set(e.name, (totals.get(e.name) ?? 0) + Math.max(0, self) / 1000)
  }
  return [...totals].sort((a, b) => b[1] - a[1])
}

/** Loads `url` once in `page` under 4× CPU throttling and answers its profile. */
export async function profileLoad(page: Page, url: string, { trace = true } = {}): Promise<PageProfile> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 })
  const events: TraceEvent[] = []
  cdp.on('Tracing.dataCollected', ({ value }) => events.push(...(value as unknown as TraceEvent[])))
  if (trace) {
    await cdp.send('Tracing.start', {
      categories: 'devtools.timeline,v8.execute,disabled-by-default-devtools.timeline,blink.user_timing,loading',
      transferMode: 'ReportEvents',
    })
  }
  const response = await page.goto(url, { waitUntil: 'load' })
  const html = (await response?.text()) ?? ''
  // Idle time after load for the hydration and the effects to run (throttled).
  await page.waitForTimeout(3000)
  const observed = await page.evaluate(
    () => (window as unknown as { __perf: { longTasks: number[]; lcp: { time: number; element: string | null } | null } }).__perf,
  )
  if (trace) {
    const done = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()))
    await cdp.send('Tracing.end')
    await done
  }
  await cdp.detach()
  const routerData = /<script[^>]*>window\.__reactRouterContext[\s\S]*?<\/script>/.exec(html)?.[0] ?? ''
  const streamed = [...html.matchAll(/<script[^>]*>window\.__reactRouterContext\.streamController[\s\S]*?<\/script>/g)]
  return {
    url,
    longTasks: observed.longTasks.map((d) => Math.round(d)),
    longTaskSumMs: Math.round(observed.longTasks.reduce((s, d) => s + d, 0)),
    lcpMs: observed.lcp ? Math.round(observed.lcp.time) : null,
    lcpElement: observed.lcp?.element ?? null,
    documentBytes: Buffer.byteLength(html),
    routerDataBytes: Buffer.byteLength(routerData) + streamed.reduce((s, m) => s + Buffer.byteLength(m[0]), 0),
    selfTime: trace ? selfTimes(events) : [],
  }
}

/**
 * Loads `url` once in `page` at full speed with only the "toplevel" trace category (cheap) and
 * answers the long tasks a 4× slower phone would run (`modelledLongTasks`), ms, their sum, and the
 * main thread's CPU time over the load, ms (unscaled).
 * Waits 3 s after `load` for hydration and effects.
 */
export async function modelledLoad(page: Page, url: string): Promise<{ longTasks: number[]; sumMs: number; cpuMs: number }> {
  const cdp = await page.context().newCDPSession(page)
  const events: TraceEvent[] = []
  cdp.on('Tracing.dataCollected', ({ value }) => events.push(...(value as unknown as TraceEvent[])))
  await cdp.send('Tracing.start', { categories: 'toplevel', transferMode: 'ReportEvents' })
  await page.goto(url, { waitUntil: 'load' })
  await page.waitForTimeout(3000)
  const done = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()))
  await cdp.send('Tracing.end')
  await done
  await cdp.detach()
  const longTasks = modelledLongTasks(events).map((ms) => Math.round(ms))
  const cpuMs = topLevelTasks(events).reduce((sum, t) => sum + (t.tdur ?? 0) / 1000, 0)
  return { longTasks, sumMs: longTasks.reduce((a, b) => a + b, 0), cpuMs: Math.round(cpuMs) }
}

/**
 * A fresh browser context the size of a phone (360×640 CSS px, 2 device pixels each, touch) with the
 * long-task and LCP observers installed; `javaScriptEnabled` false to see the document's own cost.
 */
export async function phoneContext(browser: Browser, { javaScriptEnabled = true } = {}): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: { width: 360, height: 640 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    javaScriptEnabled,
  })
  await context.addInitScript(OBSERVERS)
  return context
}

const isMain = process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href
if (isMain) {
  const [base, ...paths] = process.argv.slice(2)
  if (!base) {
    console.error('usage: npx tsx scripts/profile-page.ts <base URL> <path>...')
    process.exit(2)
  }
  const runs = Number(process.env.RUNS ?? 1)
  const browser = await chromium.launch(launchOptions)
  try {
    for (const path of paths.length ? paths : ['/']) {
      for (let i = 0; i < runs; i++) {
        const context = await phoneContext(browser, { javaScriptEnabled: process.env.NOJS !== '1' })
        const page = await context.newPage()
        // A first load warms the server's page cache and the HTTP cache is per context, so this one is cold.
        const p = await profileLoad(page, new URL(path, base).href)
        await context.close()
        console.log(
          `${p.url}: long tasks ${p.longTaskSumMs} ms [${p.longTasks.join(', ')}], LCP ${p.lcpMs} ms (${p.lcpElement}), ` +
            `document ${p.documentBytes} B, router data ${p.routerDataBytes} B`,
        )
        const modelContext = await phoneContext(browser)
        const model = await modelledLoad(await modelContext.newPage(), new URL(path, base).href)
        await modelContext.close()
        console.log(`  modelled at ${CPU_SLOWDOWN}× from CPU time: long tasks ${model.sumMs} ms [${model.longTasks.join(', ')}]`)
        console.log(
          '  main-thread self time (ms): ' +
            p.selfTime
              .slice(0, 14)
              .map(([name, ms]) => `${name} ${ms.toFixed(0)}`)
              .join(', '),
        )
      }
    }
  } finally {
    await browser.close()
  }
}
