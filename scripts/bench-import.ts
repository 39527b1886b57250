/**
 * `npx tsx scripts/bench-import.ts [--sync]`: how a 10,000-row product CSV import weighs on the
 * server (docs/product-csv.md, "Imports as jobs"; goals there: apply under 30 s on 2 cores, `/healthz`
 * under 200 ms at the 99th percentile while it runs).
 *
 * On a fresh database (PGlite, the default; PostgreSQL with BENCH_DATABASE_URL or TEST_DATABASE_URL)
 * with 11 categories, 330 sub categories and one stored image, the API runs in this process beside a
 * `/healthz` answered as server.ts answers it (no database round trip), so whatever holds this
 * process's event loop (the embedded database runs in it) shows in its latency. A child process asks
 * for `/healthz` every 100 ms and times each answer. Two imports of BENCH_ROWS (10,000) rows: every
 * row new (created), then every price and stock changed (updated); each a dry run and an apply:
 *
 * - default: as jobs (POST /api/product/import/jobs, then /import/jobs/{id}/apply), run by the queue
 *   in this process (`jobs.drain()`, what the server's runner does);
 * - `--sync`: the synchronous endpoints (POST /api/product/import, /import/apply), the "before".
 *
 * Prints, per step: wall time (ms), rows per second, and the `/healthz` samples taken meanwhile
 * (count, p50, p99, max in ms). Not part of `npm test`.
 */
import { spawn } from 'node:child_process'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { performance } from 'node:perf_hooks'
import { createTestApp } from '../api/testing/app.ts'
import { createAdmin } from '../api/testing/auth.ts'
import { insertCategory, insertSubCategory, storeTestImage } from '../api/testing/fixtures.ts'
import { CSV_COLUMNS, csvText } from '../api/modules/product/csv.ts'

const ROWS = Number(process.env.BENCH_ROWS ?? 10_000)
const SYNC = process.argv.includes('--sync')
const serverUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL
if (serverUrl) process.env.TEST_DATABASE_URL = serverUrl

/**
 * The sampler: a child process asking for /healthz every 100 ms, one line per answer: when it was
 * asked (epoch ms) and how long the answer took (ms, or -1 for a failure).
 */
const SAMPLER = `
const url = process.argv[1]
setInterval(() => {
  const sentAt = Date.now()
  const started = performance.now()
  fetch(url).then((r) => r.text()).then(
    () => console.log(sentAt + ' ' + (performance.now() - started).toFixed(1)),
    () => console.log(sentAt + ' -1'),
  )
}, 100)
`

/** The value at quantile `q` (0..1) of `values`, by the nearest-rank method. */
function quantile(values: number[], q: number): number {
  if (values.length === 0) return NaN
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!
}

const t = await createTestApp()
const health = http.createServer((req, res) => {
  res.setHeader('Content-Type', 'application/json')
  res.end(JSON.stringify({ status: 'ok' }))
})
await new Promise<void>((resolve) => health.listen(0, '127.0.0.1', resolve))
const port = (health.address() as AddressInfo).port
const sampler = spawn(process.execPath, ['-e', SAMPLER, `http://127.0.0.1:${port}/healthz`], { stdio: ['ignore', 'pipe', 'inherit'] })
let samples: { sentAt: number; ms: number }[] = []
let buffered = ''
sampler.stdout.on('data', (chunk: Buffer) => {
  buffered += chunk.toString()
  const lines = buffered.split('\n')
  buffered = lines.pop()!
  for (const line of lines) {
    const [sentAt, ms] = line.split(' ').map(Number)
    if (line) samples.push({ sentAt: sentAt!, ms: ms! })
  }
})

try {
  const admin = await createAdmin(t)
  const image = await storeTestImage(t)
  const shelves: { category: string; sub: string }[] = []
  for (let c = 0; c < 11; c++) {
    const category = await insertCategory(t.db, { name: `Category ${c}`, image })
    for (let s = 0; s < 30; s++) {
      const sub = await insertSubCategory(t.db, { name: `Shelf ${c}-${s}`, image, categoryIds: [category.id] })
      shelves.push({ category: category.name, sub: sub.name })
    }
  }

  /** BENCH_ROWS rows of the full format; `bump` moves every price and stock. */
  const file = (bump: number) => {
    const rows = Array.from({ length: ROWS }, (_, i) => {
      const shelf = shelves[i % shelves.length]!
      const mrp = 20 + (i % 500) + bump
      const cells: Record<(typeof CSV_COLUMNS)[number], string> = {
        sku: `BENCH-${i}`,
        id: '',
        name: `Bench product ${i} masala ${i % 97}`,
        brand: `Brand ${i % 120}`,
        unit: `${100 + (i % 9) * 50} g`,
        mrp: mrp.toFixed(2),
        selling_price: (mrp * 0.9).toFixed(2),
        stock: String((i * 7 + bump) % 500),
        publish: 'true',
        categories: shelf.category,
        sub_categories: shelf.sub,
        images: image,
        description: `A product for the import bench, number ${i}, with a description of ordinary length.`,
        more_details: '{"Shelf Life":"6 months"}',
        hsn: '',
      }
      return CSV_COLUMNS.map((c) => cells[c])
    })
    return csvText(rows, true)
  }

  /** Runs `fn`, then prints its wall time, rows/s and the /healthz samples answered meanwhile. */
  const step = async <T>(label: string, fn: () => Promise<T>): Promise<T> => {
    const from = Date.now()
    const started = performance.now()
    const result = await fn()
    const ms = performance.now() - started
    const to = Date.now()
    // The answers of requests sent during the step arrive once the loop is free again: wait for them.
    await new Promise((resolve) => setTimeout(resolve, 500))
    // Only the requests sent during the step (the setup's late answers are not its own).
    const asked = samples.filter((s) => s.sentAt >= from && s.sentAt <= to)
    samples = samples.filter((s) => s.sentAt > to)
    const ok = asked.filter((s) => s.ms >= 0).map((s) => s.ms)
    console.log(
      `${label}: ${Math.round(ms)} ms, ${Math.round(ROWS / (ms / 1000))} rows/s; /healthz ${ok.length} samples` +
        ` (${asked.length - ok.length} failed): p50 ${quantile(ok, 0.5).toFixed(0)} ms, p99 ${quantile(ok, 0.99).toFixed(0)} ms, max ${Math.max(...ok).toFixed(0)} ms`,
    )
    return result
  }

  const form = (text: string) => {
    const body = new FormData()
    body.append('file', new File([text], 'bench.csv', { type: 'text/csv' }))
    return body
  }
  const check = (res: { status: number; body: unknown }, status: number) => {
    if (res.status !== status) throw new Error(JSON.stringify(res.body).slice(0, 500))
    return (res.body as { data: Record<string, unknown> }).data
  }
  /** Runs the queued job to its end (the server's runner would), answering its final state. */
  const runJob = async (id: string) => {
    await t.deps.jobs.drain()
    const job = check(await t.call(`product/import/jobs/${id}`, { token: admin.token }), 200)
    if (job.status !== 'done' || job.errorCount !== 0) throw new Error(JSON.stringify(job).slice(0, 500))
    return job
  }
  const importFile = async (label: string, text: string) => {
    if (SYNC) {
      const checked = await step(`${label} dry run (sync)`, async () =>
        check(await t.call('product/import', { method: 'POST', body: form(text), token: admin.token }), 200),
      )
      const applied = await step(`${label} apply (sync)`, async () =>
        check(await t.call('product/import/apply', { method: 'POST', json: { upload: checked.upload }, token: admin.token }), 200),
      )
      console.log('   ', JSON.stringify(applied.counts))
      return
    }
    const dry = await step(`${label} dry run (job)`, async () =>
      runJob(check(await t.call('product/import/jobs', { method: 'POST', body: form(text), token: admin.token }), 202).id as string),
    )
    const applied = await step(`${label} apply (job)`, async () =>
      runJob(check(await t.call(`product/import/jobs/${dry.id}/apply`, { method: 'POST', token: admin.token }), 202).id as string),
    )
    console.log('   ', JSON.stringify(applied.counts))
  }

  console.log(`product CSV import bench: ${ROWS} rows on ${t.kind}, ${SYNC ? 'synchronous endpoints' : 'as jobs'}`)
  // The setup above held the loop too: its late answers are not the idle baseline.
  await new Promise((resolve) => setTimeout(resolve, 1000))
  await step('idle (no import, 2 s)', () => new Promise((resolve) => setTimeout(resolve, 2000)))
  // Both files made before any step (making one holds this process for about a second).
  const created = file(0)
  const changed = file(3)
  await importFile('1. all new:', created)
  await importFile('2. all changed:', changed)
} finally {
  sampler.kill()
  health.close()
  await t.close()
}
