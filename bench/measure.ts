/**
 * What the bench scripts share: one autocannon measurement as a table row, the form headers a
 * browser sends, and the CPU time a process spent, read from Linux's /proc (proc(5),
 * `/proc/<pid>/stat` fields 14 and 15, utime and stime, in clock ticks of `getconf CLK_TCK`, 100 a
 * second on Linux).
 */
import fs from 'node:fs'
import autocannon from 'autocannon'

/** One target's figures: requests/s (average), latency percentiles in ms. */
export interface Row {
  name: string
  rps: number
  p50: number
  p90: number
  p99: number
  errors: number
  /** Requests answered in all. */
  requests: number
  /** Answers by status code, when any was not 2xx (what the errors were). */
  statuses?: Record<string, number>
}

export type MeasureOptions = {
  url: string
  method?: 'GET' | 'POST' | 'PUT'
  body?: string
  headers?: Record<string, string>
  setupClient?: (client: autocannon.Client) => void
}

/**
 * Loads `opts` with autocannon for `seconds` over `connections` connections. An answer counts as an
 * error when it is not 2xx, or, with `redirectsOk`, not 2xx or 3xx (a form POST answers 302).
 */
export async function measure(
  name: string,
  opts: MeasureOptions,
  { seconds, connections, redirectsOk = false }: { seconds: number; connections: number; redirectsOk?: boolean },
): Promise<Row> {
  const result = await autocannon({ ...opts, connections, duration: seconds })
  const statuses = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => [code, count ?? 0]))
  const badAnswers = redirectsOk
    ? Object.entries(statuses)
        .filter(([code]) => !/^[23]/.test(code))
        .reduce((n, [, count]) => n + count, 0)
    : (result.non2xx ?? 0)
  return {
    name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + badAnswers,
    requests: result.requests.total,
    ...(result.non2xx ? { statuses } : {}),
  }
}

/**
 * A form post as a browser sends it from one of the site's pages: the BFF refuses a write that no
 * header places on this site (app/.server/csrf.ts).
 */
export const FORM = { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' }

/** Clock ticks a second of /proc's CPU times (`getconf CLK_TCK`: 100 on Linux). */
const TICKS_PER_SECOND = 100

/**
 * CPU time (user + system, ms) that process `pid` has used so far, or null when it is gone or
 * /proc is not there. The command name (field 2) may hold spaces, so fields count from its `)`.
 */
export function cpuMs(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    // After the `)`: field 3 (state) is index 0, so utime (14) is index 11 and stime (15) index 12.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND
  } catch {
    return null
  }
}

/**
 * A visitor's guest cart made at the BFF on `base` the way a browser without JavaScript makes one
 * (POST /cart forms): answers the session cookie and the line id of the first product.
 */
export async function guestCart(base: string, productIds: string[]): Promise<{ cookie: string; lineId: string }> {
  let cookie = ''
  for (const productId of productIds) {
    const res = await fetch(`${base}/cart`, {
      method: 'POST',
      redirect: 'manual',
      headers: { ...FORM, ...(cookie ? { cookie } : {}) },
      body: new URLSearchParams({ intent: 'add', productId, redirectTo: '/' }),
    })
    const setCookie = res.headers.get('set-cookie')
    if (setCookie) cookie = setCookie.split(';')[0]!
    await res.arrayBuffer()
  }
  // The cart page shows the last add's toast and answers the cookie without it, as a browser keeps it.
  const page = await fetch(`${base}/cart`, { headers: { cookie } })
  const html = await page.text()
  cookie = page.headers.get('set-cookie')?.split(';')[0] ?? cookie
  const lineId = /name="lineId" value="([a-f0-9]+)"/.exec(html)?.[1]
  if (!lineId) throw new Error('bench: the guest cart has no line')
  return { cookie, lineId }
}
