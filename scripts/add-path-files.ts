/**
 * Which of our source files run while one add-to-cart POST without JavaScript is served: `POST /cart`
 * with `intent=add` and a guest cart's session cookie, the request of bench/cart.ts (bench/measure.ts
 * `guestCart`, `FORM`). It starts server.ts of a checkout in development mode (tsx for server.ts
 * and api/, Vite's module runner for app/, whose modules carry their path as `sourceURL`) on PGlite
 * with a fresh DATA_DIR, warms it with a few adds, then takes V8 precise coverage (inspector
 * `Profiler.takePreciseCoverage`, call counts; each take resets them) around exactly one more add:
 * a file is counted when one of its functions was called in that window, not counting Vite's export
 * getters (React Router reads every route module's exports on each request in development). Files under app/, api/,
 * contract/, server-shared/ and server.ts are listed, relative to the checkout. The window is taken
 * three times and only files seen in all three are kept (a timer that fires once is left out).
 *
 * Run: `npx tsx scripts/add-path-files.ts [--root <checkout>] [--port 3370] [--out list.txt]`
 * (`--root` another checkout, e.g. `git archive <commit> | tar -x -C /tmp/then` with a node_modules
 * link, to compare commits; the port must be free). Takes a few minutes: the first start imports
 * the bundled catalogue.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const args = process.argv.slice(2)
const option = (name: string, fallback: string) => {
  const at = args.indexOf(`--${name}`)
  return at >= 0 && args[at + 1] ? args[at + 1]! : fallback
}
const root = path.resolve(option('root', path.resolve(import.meta.dirname, '..')))
const port = Number(option('port', '3370'))
const outFile = option('out', '')
const base = `http://127.0.0.1:${port}`
/** The form headers of bench/measure.ts (`FORM`): a same-origin form post. */
const FORM = { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' }
/** The folders and files that are "our source" (not node_modules, not tests' harness of another tree). */
const OURS = /^(app|api|contract|server-shared)\/|^server\.ts$/

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'add-path-files-'))
const coverageOut = path.join(work, 'coverage')
/** Loaded into the server before server.ts: precise coverage on, one take written per SIGUSR2. */
const hook = path.join(work, 'hook.mjs')
fs.writeFileSync(
  hook,
  `import inspector from 'node:inspector/promises'
import fs from 'node:fs'
const session = new inspector.Session()
session.connect()
await session.post('Profiler.enable')
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false })
// Vite's export getters: \`__vite_ssr_exportName__(name, () => { try { return x } catch {} })\`, read
// by React Router for every route module on every request; a call of one is no code of that file.
const GETTER = /^\\(\\) => \\{ try \\{ return [\\w$]+ \\} catch \\{\\} \\}$/
const sources = new Map()
let n = 0
let debugging = false
process.on('SIGUSR2', async () => {
  // The debugger (to read a script's source) only once warm: enabled from the start it slows every compile.
  if (!debugging) await session.post('Debugger.enable')
  debugging = true
  const taken = await session.post('Profiler.takePreciseCoverage')
  const result = []
  for (const script of taken.result) {
    let functions = script.functions.filter((fn) => fn.ranges[0].count > 0)
    if (functions.length && !script.url.startsWith('file:') && !script.url.startsWith('node:')) {
      if (!sources.has(script.scriptId)) sources.set(script.scriptId, (await session.post('Debugger.getScriptSource', { scriptId: script.scriptId })).scriptSource)
      const text = sources.get(script.scriptId)
      functions = functions.filter((fn) => !GETTER.test(text.slice(fn.ranges[0].startOffset, fn.ranges[0].endOffset)))
    }
    if (functions.length) result.push({ url: script.url, functions })
  }
  fs.writeFileSync(${JSON.stringify(coverageOut)} + '.' + n++ + '.json', JSON.stringify({ result }))
})
`,
)

const server = spawn(process.execPath, ['--import', 'tsx', '--import', hook, 'server.ts'], {
  cwd: root,
  env: {
    ...process.env,
    NODE_ENV: 'development',
    PORT: String(port),
    DATA_DIR: path.join(work, 'data'),
    DATABASE_URL: '',
    LOG_LEVEL: 'warn',
    JWT_SECRET: 'add-path-jwt-secret-0123456789abcdef',
    SESSION_SECRET: 'add-path-session-secret-0123456789ab',
    API_INTERNAL_TOKEN: 'add-path-internal-token-0123456789ab',
    INSECURE_COOKIES: '1',
    RATE_LIMIT_IP_MULTIPLIER: '1000',
    ADMIN_PASSWORD: 'add-path-only-admin-password',
  },
  stdio: ['ignore', 'inherit', 'inherit'],
})

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Waits for /readyz to answer 200 (migrations and the catalogue import done). */
async function waitReady(timeoutMs = 600_000): Promise<void> {
  const started = Date.now()
  while (Date.now() - started < timeoutMs) {
    try {
      const res = await fetch(`${base}/readyz`)
      await res.arrayBuffer()
      if (res.ok) return
    } catch {
      // not listening yet
    }
    await sleep(500)
  }
  throw new Error(`add-path-files: ${base} not ready within ${timeoutMs} ms`)
}

/** One add of `productId` as a form without JavaScript; answers the cookie to keep (a first add sets it). */
async function add(productId: string, cookie: string): Promise<string> {
  const res = await fetch(`${base}/cart`, {
    method: 'POST',
    redirect: 'manual',
    headers: { ...FORM, ...(cookie ? { cookie } : {}) },
    body: new URLSearchParams({ intent: 'add', productId, redirectTo: '/' }),
  })
  await res.arrayBuffer()
  if (res.status !== 302 && res.status !== 303) throw new Error(`add-path-files: the add answered ${res.status}`)
  return res.headers.get('set-cookie')?.split(';')[0] ?? cookie
}

/** Asks the server for one coverage take and answers the files of ours whose functions ran since the last take. */
async function take(index: number): Promise<Set<string>> {
  server.kill('SIGUSR2')
  const file = `${coverageOut}.${index}.json`
  for (let i = 0; i < 600 && !fs.existsSync(file); i++) await sleep(100)
  await sleep(200)
  const taken = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    result: { url: string; functions: { ranges: { count: number }[] }[] }[]
  }
  const files = new Set<string>()
  for (const script of taken.result) {
    if (!script.functions.some((fn) => (fn.ranges[0]?.count ?? 0) > 0)) continue
    const url = script.url.split('?')[0]!
    const abs = url.startsWith('file://') ? fileURLToPath(url) : url
    const rel = path.relative(root, abs).split(path.sep).join('/')
    if (!rel.startsWith('..') && OURS.test(rel) && !rel.includes('node_modules')) files.add(rel)
  }
  return files
}

try {
  await waitReady()
  const listed = await fetch(`${base}/api/product/get`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ page: 1, limit: 2 }),
  })
  const [first, second] = ((await listed.json()) as { data: { _id: string }[] }).data
  // Warm: the guest cart and its cookie, every module loaded and compiled, caches filled.
  let cookie = await add(first!._id, '')
  for (let i = 0; i < 4; i++) cookie = await add(i % 2 ? first!._id : second!._id, cookie)
  let takes = 0
  const seen: Set<string>[] = []
  for (let round = 0; round < 3; round++) {
    await take(takes++) // resets the counters
    cookie = await add(round % 2 ? first!._id : second!._id, cookie)
    seen.push(await take(takes++))
  }
  const files = [...seen[0]!].filter((f) => seen.every((s) => s.has(f))).sort()
  const text = files.join('\n') + '\n'
  if (outFile) fs.writeFileSync(outFile, text)
  process.stdout.write(`${files.length} files of ${root} ran while serving one POST /cart intent=add:\n${text}`)
} finally {
  server.kill('SIGTERM')
  await sleep(2000)
  server.kill('SIGKILL')
  fs.rmSync(work, { recursive: true, force: true })
}
