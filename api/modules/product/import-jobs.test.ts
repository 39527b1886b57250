/**
 * The product CSV import as jobs (docs/product-csv.md, "Imports as jobs") on a fresh database (PGlite,
 * or PostgreSQL with TEST_DATABASE_URL): a dry run runs in slices whose progress the status endpoint
 * shows while the job runs; a run cut off between slices resumes from its checkpoint when pg-boss
 * retries it, writing every product once and one audit entry each; an apply needs a clean dry run
 * and happens once; a row that no longer applies fails the apply and writes nothing of its slice;
 * only an ADMIN may start or read a job, and a bad job id is a 400. The file is stored in parts and
 * read back whole (a job stored before the parts existed still runs); an apply tells the caches of
 * its slices when it ends (and at most every 30 s before); a slice waits for the API requests in
 * flight.
 */
import { eq, like, sql } from 'drizzle-orm'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auditLog, importJobParts, importJobs, products } from '../../db/schema.ts'
import { registerJobs } from '../../jobs.ts'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { createAdmin, createShopper, createStaff, type SignedIn } from '../../testing/auth.ts'
import { insertCategory, insertSubCategory, stockIn, storeTestImage } from '../../testing/fixtures.ts'
import { CSV_COLUMNS, csvText } from './csv.ts'
import { IMPORT_INVALIDATE_EVERY_MS, IMPORT_PART_CHARS, IMPORT_QUIET_WAIT_MS, partsOf, runImportJob } from './import-jobs.ts'

let t: TestApp
let admin: SignedIn
let shopper: SignedIn
let staff: SignedIn
let image: string

beforeAll(async () => {
  t = await createTestApp()
  admin = await createAdmin(t)
  shopper = await createShopper(t)
  staff = await createStaff(t)
  image = await storeTestImage(t)
  const category = await insertCategory(t.db, { name: 'Pantry', image })
  await insertSubCategory(t.db, { name: 'Spices', image, categoryIds: [category.id] })
})
afterAll(() => t?.close())

/** `rows` new products of SKU prefix `prefix`; `bad` lines (1-based data rows) get an MRP that is not a number. */
function file(prefix: string, rows: number, opts: { bad?: number[]; mrp?: number; description?: (i: number) => string } = {}): string {
  const data = Array.from({ length: rows }, (_, i) => {
    const cells: Record<(typeof CSV_COLUMNS)[number], string> = {
      sku: `${prefix}-${i}`,
      id: '',
      name: `Jobs product ${prefix} ${i}`,
      brand: 'Jobs',
      unit: '100 g',
      mrp: opts.bad?.includes(i + 1) ? 'abc' : String(opts.mrp ?? 50),
      selling_price: String(opts.mrp ?? 50),
      stock: String(i % 7),
      publish: 'true',
      categories: 'Pantry',
      sub_categories: 'Spices',
      images: image,
      description: opts.description?.(i) ?? `Product ${i}.`,
      more_details: '',
      hsn: '',
    }
    return CSV_COLUMNS.map((c) => cells[c])
  })
  return csvText(data, true)
}

const form = (text: string) => {
  const body = new FormData()
  body.append('file', new File([text], 'products.csv', { type: 'text/csv' }))
  return body
}
const startDryRun = (text: string, token = admin.token) => t.call('product/import/jobs', { method: 'POST', body: form(text), token })
const startApply = (jobId: string, token = admin.token) => t.call(`product/import/jobs/${jobId}/apply`, { method: 'POST', token })
const status = (jobId: string, token = admin.token) => t.call(`product/import/jobs/${jobId}`, { token })
const productCount = async (prefix: string) =>
  (
    await t.db
      .select({ id: products.id })
      .from(products)
      .where(like(products.sku, `${prefix}-%`))
  ).length

describe('import jobs', () => {
  it('checks a file in slices, its progress visible while it runs, and answers the counts and errors at the end', async () => {
    // Small slices of a 120-row file; the handler as the server registers it, with the slice size of the test.
    t.deps.jobs.work('product.import', ({ importJobId }) => runImportJob(t.deps, importJobId, { sliceRows: 20 }))
    const started = await startDryRun(file('SLICE', 120, { bad: [45] }))
    expect(started.status).toBe(202)
    expect(started.body.data).toMatchObject({ mode: 'dry-run', status: 'queued', rowsDone: 0 })
    const id = started.body.data.id as string

    // The job runs in this process; the status is asked for while it does (each slice yields to the event loop).
    const seen: { status: string; rowsDone: number; rowsTotal: number }[] = []
    let finished = false
    const run = t.deps.jobs.drain().finally(() => (finished = true))
    while (!finished) {
      const answer = await status(id)
      expect(answer.status).toBe(200)
      seen.push(answer.body.data)
    }
    expect(await run).toBe(1)
    const midRun = seen.filter((s) => s.status === 'running' && s.rowsDone > 0 && s.rowsDone < 120)
    expect(midRun.length, JSON.stringify(seen.map((s) => `${s.status}:${s.rowsDone}`))).toBeGreaterThan(0)
    // Progress moves a whole slice at a time, never back.
    for (const s of midRun) expect(s.rowsDone % 20).toBe(0)
    const done = seen.map((s) => s.rowsDone)
    expect(done).toEqual([...done].sort((a, b) => a - b))

    const final = (await status(id)).body.data
    expect(final).toMatchObject({
      status: 'done',
      rowsTotal: 120,
      rowsDone: 120,
      counts: { rows: 120, created: 119, updated: 0, unchanged: 0 },
      errorCount: 1,
      errors: [{ line: 46, column: 'mrp' }],
      applyJobId: null,
    })
    expect(await productCount('SLICE')).toBe(0)
    // Errors found: no apply.
    const refused = await startApply(id)
    expect(refused.status).toBe(409)
    expect(refused.body.message).toMatch(/errors/)
    registerJobs(t.deps)
  })

  it('resumes an apply cut off between slices from its checkpoint: every product written once, one audit entry each', async () => {
    registerJobs(t.deps)
    const checked = await startDryRun(file('RESUME', 90))
    const dryId = checked.body.data.id as string
    expect(await t.deps.jobs.drain()).toBe(1)
    expect((await status(dryId)).body.data).toMatchObject({ status: 'done', errorCount: 0, counts: { created: 90 } })

    const applied = await startApply(dryId)
    expect(applied.status).toBe(202)
    const applyId = applied.body.data.id as string
    // "Apply" again (a double click, a reload): the same apply.
    expect((await startApply(dryId)).body.data.id).toBe(applyId)
    expect((await status(dryId)).body.data.applyJobId).toBe(applyId)

    // The first attempt dies after two slices of 25 rows, as a killed process would.
    t.deps.jobs.work('product.import', async ({ importJobId }) => {
      await runImportJob(t.deps, importJobId, { sliceRows: 25, maxSlices: 2 })
      throw new Error('killed')
    })
    expect(await t.deps.jobs.drain()).toBe(1)
    expect((await status(applyId)).body.data).toMatchObject({ status: 'running', rowsDone: 50, rowsTotal: 90, counts: { created: 50 } })
    expect(await productCount('RESUME')).toBe(50)

    // pg-boss retries it (made due now instead of after its delay); the server's handler resumes at row 51.
    t.deps.jobs.work('product.import', ({ importJobId }) => runImportJob(t.deps, importJobId, { sliceRows: 25 }))
    await t.db.execute(sql`update pgboss.job set start_after = now() where name = 'product.import' and state = 'retry'`)
    expect(await t.deps.jobs.drain()).toBe(1)
    expect((await status(applyId)).body.data).toMatchObject({
      status: 'done',
      rowsDone: 90,
      counts: { rows: 90, created: 90, updated: 0, unchanged: 0 },
      errorCount: 0,
    })
    expect(await productCount('RESUME')).toBe(90)
    const [last] = await t.db.select().from(products).where(eq(products.sku, 'RESUME-89'))
    expect(last!.editedBy).toBe(admin.user.id)
    expect(await stockIn(t.db, last!.id)).toBe(89 % 7)
    const entries = await t.db
      .select({ entityId: auditLog.entityId, action: auditLog.action, actorId: auditLog.actorId })
      .from(auditLog)
      .where(sql`${auditLog.entityId} in (select id from products where sku like 'RESUME-%')`)
    expect(entries).toHaveLength(90)
    expect(new Set(entries.map((e) => e.entityId)).size).toBe(90)
    expect(entries.every((e) => e.action === 'import' && e.actorId === admin.user.id)).toBe(true)

    // Run once more (a second runner, a late retry): a finished job is left alone.
    await runImportJob(t.deps, applyId)
    expect(await productCount('RESUME')).toBe(90)
    registerJobs(t.deps)
  })

  it('fails an apply whose rows no longer apply, writing nothing of that slice', async () => {
    registerJobs(t.deps)
    const checked = await startDryRun(file('STALE', 10))
    const dryId = checked.body.data.id as string
    await t.deps.jobs.drain()
    // The catalogue changes after the check: the shelf is renamed.
    await t.db.execute(sql`update categories set name = 'Pantry (old)' where name = 'Pantry'`)
    try {
      const applyId = (await startApply(dryId)).body.data.id as string
      await t.deps.jobs.drain()
      const job = (await status(applyId)).body.data
      // Two errors a row: the category, and the sub category no longer under one of the row's.
      expect(job).toMatchObject({ status: 'failed', rowsDone: 0, errorCount: 20 })
      expect(job.message).toMatch(/nothing was written/)
      expect(job.errors[0]).toMatchObject({ line: 2, column: 'categories' })
      expect(await productCount('STALE')).toBe(0)
    } finally {
      await t.db.execute(sql`update categories set name = 'Pantry' where name = 'Pantry (old)'`)
    }
  })

  it('makes one apply of ten "Apply" at once: every answer the same job, every product written once', async () => {
    const started = await startDryRun(file('TWICE', 30))
    const dryRunId = started.body.data.id as string
    await t.deps.jobs.drain()
    expect((await status(dryRunId)).body.data).toMatchObject({ status: 'done', errorCount: 0 })
    const answers = await Promise.all(Array.from({ length: 10 }, () => startApply(dryRunId)))
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(202))
    expect(new Set(answers.map((a) => a.body.data.id)).size).toBe(1)
    expect(await t.db.$count(importJobs, sql`${importJobs.checkedJobId} = ${dryRunId}`)).toBe(1)
    await t.deps.jobs.drain()
    expect(await productCount('TWICE')).toBe(30)
  })

  it('stores a file of several parts and checks and applies it whole, Hindi and emoji across the cuts intact', async () => {
    registerJobs(t.deps)
    // Long descriptions with Devanagari and an emoji (a surrogate pair) so the cuts fall inside them.
    const describe = (i: number) => `${'हल्दी पाउडर 🌶️ '.repeat(40)}${i}`
    const text = file('PARTS', 400, { description: describe })
    expect(text.length).toBeGreaterThan(2 * IMPORT_PART_CHARS)
    const dryId = (await startDryRun(text)).body.data.id as string
    const parts = await t.db.select().from(importJobParts).where(eq(importJobParts.jobId, dryId)).orderBy(importJobParts.n)
    expect(parts.length).toBe(Math.ceil(text.length / IMPORT_PART_CHARS))
    expect(parts.map((p) => p.content).join('')).toBe(text.replace(/^\uFEFF/, ''))
    await t.deps.jobs.drain()
    expect((await status(dryId)).body.data).toMatchObject({ status: 'done', errorCount: 0, counts: { rows: 400, created: 400 } })
    await startApply(dryId)
    await t.deps.jobs.drain()
    const [last] = await t.db.select().from(products).where(eq(products.sku, 'PARTS-399'))
    expect(last!.description).toBe(describe(399))
    // Removed with its job.
    await t.db.delete(importJobs).where(eq(importJobs.id, dryId))
    expect(await t.db.$count(importJobParts, eq(importJobParts.jobId, dryId))).toBe(0)
  })

  it('still runs a job whose file was stored whole in its row (before the parts), and its apply', async () => {
    registerJobs(t.deps)
    const [legacy] = await t.db
      .insert(importJobs)
      .values({ mode: 'dry-run', content: file('LEGACY', 12), createdBy: admin.user.id })
      .returning({ id: importJobs.id })
    await t.deps.jobs.send('product.import', { importJobId: legacy!.id })
    await t.deps.jobs.drain()
    expect((await status(legacy!.id)).body.data).toMatchObject({ status: 'done', errorCount: 0, counts: { created: 12 } })
    await startApply(legacy!.id)
    await t.deps.jobs.drain()
    expect(await productCount('LEGACY')).toBe(12)
  })

  it('tells the caches of an apply when it ends (at most every IMPORT_INVALIDATE_EVERY_MS before), so a page cached meanwhile does not outlive it', async () => {
    registerJobs(t.deps)
    const dryId = (await startDryRun(file('CACHED', 60))).body.data.id as string
    await t.deps.jobs.drain()
    const applyId = (await startApply(dryId)).body.data.id as string
    const told: number[] = []
    t.deps.cache.onInvalidate(() => told.push(Date.now()))
    const started = Date.now()
    const run = runImportJob(t.deps, applyId, { sliceRows: 10 })
    // A shopper's answer cached while the apply runs (after its first slices were written).
    while ((await t.db.select({ done: importJobs.rowsDone }).from(importJobs).where(eq(importJobs.id, applyId)))[0]!.done === 0) {
      await new Promise((resolve) => setTimeout(resolve, 1))
    }
    await t.deps.cache.get('import-jobs-test', async () => 'mid-apply')
    await run
    const took = Date.now() - started
    expect(await productCount('CACHED')).toBe(60)
    // Six slices, one notice (the end) unless the apply took longer than the interval.
    expect(told.length).toBeGreaterThanOrEqual(1)
    expect(told.length).toBeLessThanOrEqual(1 + Math.floor(took / IMPORT_INVALIDATE_EVERY_MS))
    expect(await t.deps.cache.get('import-jobs-test', async () => 'after the apply')).toBe('after the apply')
  })

  it('starts each slice only once the API requests in flight have been answered, or after IMPORT_QUIET_WAIT_MS', async () => {
    registerJobs(t.deps)
    const dryId = (await startDryRun(file('QUIET', 30))).body.data.id as string
    // A request that does not end during the run, counted as the API counts its requests (api/lib/traffic.ts).
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    const other = new Hono()
    other.use('*', t.deps.traffic.middleware)
    other.get('/held', async (c) => {
      await held
      return c.text('answered')
    })
    const answer = other.request('/held')
    await new Promise((resolve) => setImmediate(resolve))
    expect(t.deps.traffic.inFlight()).toBe(1)
    const started = Date.now()
    await runImportJob(t.deps, dryId, { sliceRows: 10 })
    // Three slices, each after the longest wait.
    expect(Date.now() - started).toBeGreaterThanOrEqual(3 * IMPORT_QUIET_WAIT_MS - 15)
    expect((await status(dryId)).body.data).toMatchObject({ status: 'done', rowsDone: 30 })
    release()
    expect((await answer).status).toBe(200)
    expect(t.deps.traffic.inFlight()).toBe(0)
  })

  it('refuses anyone but an ADMIN, a bad job id and an unknown one', async () => {
    const text = file('AUTHZ', 2)
    expect((await t.call('product/import/jobs', { method: 'POST', body: form(text) })).status).toBe(401)
    expect((await startDryRun(text, shopper.token)).status).toBe(403)
    expect((await startDryRun(text, staff.token)).status).toBe(403)
    const started = await startDryRun(text)
    const id = started.body.data.id as string
    await t.deps.jobs.drain()
    expect((await status(id, shopper.token)).status).toBe(403)
    expect((await startApply(id, shopper.token)).status).toBe(403)
    expect((await status(id)).status).toBe(200)
    expect((await status('not-a-job')).status).toBe(400)
    expect((await status('0123456789abcdef01234567')).status).toBe(404)
    expect((await startApply('0123456789abcdef01234567')).status).toBe(404)
    // A file that is not UTF-8 is refused before a job is made.
    const latin1 = new FormData()
    latin1.append('file', new File([new Uint8Array([0x73, 0x6b, 0x75, 0x0a, 0xe9])], 'p.csv', { type: 'text/csv' }))
    expect((await t.call('product/import/jobs', { method: 'POST', body: latin1, token: admin.token })).status).toBe(400)
    expect(await t.db.$count(importJobs)).toBeGreaterThan(0)
  })
})

describe('partsOf', () => {
  it('cuts a text into parts that join to it, never inside a surrogate pair', () => {
    expect(partsOf('')).toEqual([''])
    expect(partsOf('abcdef', 4)).toEqual(['abcd', 'ef'])
    expect(partsOf('abcdefgh', 4)).toEqual(['abcd', 'efgh'])
    // '🌶' is two code units: a cut after 'abc' would split it, so the first part ends before it.
    expect(partsOf('abc🌶def', 4)).toEqual(['abc', '🌶de', 'f'])
    const text = 'हल्दी 🌶️ mirch '.repeat(1000)
    const parts = partsOf(text, 333)
    expect(parts.join('')).toBe(text)
    for (const part of parts) {
      expect(part.length).toBeLessThanOrEqual(333)
      // Valid UTF-16 on its own: encodes without a replacement character.
      expect(new TextDecoder().decode(new TextEncoder().encode(part))).toBe(part)
    }
  })
})
