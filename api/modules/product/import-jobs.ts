/**
 * The product CSV import as jobs (docs/product-csv.md, "Imports as jobs";
 * docs/decisions/0061-imports-as-jobs.md): the upload is stored in `import_jobs` (migration
 * 0035_import_jobs) and a `product.import` job carrying only that row's id (docs/jobs.md, "Job names
 * and retry policy") checks it (dry run) or writes it (apply) on the job runner, never inside the
 * HTTP request.
 *
 * The work goes in slices of IMPORT_SLICE_ROWS data rows with a turn of the event loop before each
 * (Node.js docs, "timers/promises: setImmediate"), so on the embedded database, which runs in the
 * server's own thread, `/healthz` and the shoppers' requests are answered between slices. After each
 * slice the progress (`rows_done`) is written; it is the checkpoint a retried or re-taken job resumes
 * from. An apply writes each slice (products, links, stock, audit entries: ./import.ts `writePlanned`)
 * and advances the checkpoint in ONE transaction, with the job's row locked, so a slice is written
 * exactly once even when two runners meet.
 *
 * The rules of a row are the synchronous import's (./import.ts `planRows`); a key repeated anywhere
 * in the file is found through csv.ts `firstLinesOf`, built from the whole file on every run.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises'
import { and, eq, getTableColumns, lt } from 'drizzle-orm'
import type { AppDeps } from '../../deps.ts'
import { importJobParts, importJobs } from '../../db/schema.ts'
import { Conflict, NotFound } from '../../lib/errors.ts'
import { decodeCsv } from '../../lib/csv-cells.ts'
import { IMPORT_ERRORS_MAX, type ImportCounts, type ImportError, type ImportJob } from '../../../contract/product-import.ts'
import type { CatalogWriteDeps } from '../category/service.ts'
import { releaseImages } from '../file/service.ts'
import { checkRecords, firstLinesOf, readProductCsv } from './csv.ts'
import { IMPORT_UPLOAD_TTL_MS, planRows, writePlanned } from './import.ts'

/**
 * Data rows per slice. On the embedded database a slice's transaction holds the database, so a
 * shopper's query waits for at most one slice: 50 rows (written 25 a statement) kept shoppers' pages
 * at a p99 of 34-155 ms during a 10,000-row apply of the real catalogue (15-26 ms without an import),
 * the apply at 13.0-13.7 s; 100 rows gave 95 ms and 10.2 s in one run
 * (docs/decisions/0061-imports-as-jobs.md, "Shoppers first").
 */
export const IMPORT_SLICE_ROWS = 50
/**
 * At most how often an apply tells the caches (the API's answers, the storefront's pages) that the
 * catalogue changed while it runs, in ms; it always tells them once more when it ends. Each notice
 * drops every cached page, so every page a shopper asks for next is rendered again: once per slice
 * (ten a second) left the shop without its page cache for the whole import, and every 5 s still
 * queued the renders of every page behind the slices (shoppers' p99 2 s). So an import of up to
 * 30 s shows on the pages when it ends, a longer one every 30 s. Until then a page may show a
 * product as it was; the cart and the order read prices and stock from the database, never from a
 * cached page.
 */
export const IMPORT_INVALIDATE_EVERY_MS = 30_000
/**
 * Rows per statement of a slice's writes (products, their links), with a turn of the event loop
 * between statements: a statement inserting 100 new products with their search rows held the
 * embedded database, and with it the server's thread, 75-140 ms; 25 rows about a quarter of that.
 */
export const IMPORT_WRITE_ROWS = 25
/**
 * The longest a slice waits for the API requests in flight to end before it starts, in ms
 * (api/lib/traffic.ts): shoppers' requests go first, and under constant traffic a 10,000-row import
 * (200 slices) is at most 20 s longer.
 */
export const IMPORT_QUIET_WAIT_MS = 100
/** How long a finished import job (and its file) is kept: 7 days, then removed when the next one starts. */
export const IMPORT_JOB_KEEP_MS = 7 * 24 * 60 * 60 * 1000

export const IMPORT_JOB_STARTED = 'Import started'
export const IMPORT_JOB_NOT_FOUND = 'No such import job'
export const IMPORT_NOT_FINISHED = 'The check of this file has not finished yet'
export const IMPORT_HAS_ERRORS = 'The check found errors: fix the file and check it again'
export const IMPORT_CHECK_EXPIRED = 'This check is older than a day: check the file again'
export const IMPORT_STOPPED = 'The import stopped after repeated failures: check the file again'

/** What the import jobs need: the catalogue's writes and the job queue. */
export type ImportJobDeps = CatalogWriteDeps & Pick<AppDeps, 'jobs' | 'traffic'>

type Row = typeof importJobs.$inferSelect
type Tx = Parameters<typeof planRows>[1]

/**
 * `db` with a turn of the event loop before each statement. PGlite runs a statement synchronously in
 * this thread and answers through promises alone, so a slice's statements would otherwise run back
 * to back without a single request being answered between them (measured: 250-row slices held
 * `/healthz` for up to 3.3 s although no statement took more than 0.34 s).
 */
function yielding(db: Tx): Tx {
  return {
    execute: (async (query: Parameters<Tx['execute']>[0]) => {
      await yieldToEventLoop()
      return db.execute(query)
    }) as Tx['execute'],
    select: db.select.bind(db) as Tx['select'],
  }
}
const ZERO: ImportCounts = { rows: 0, created: 0, updated: 0, unchanged: 0 }

const addCounts = (a: ImportCounts, b: ImportCounts): ImportCounts => ({
  rows: a.rows + b.rows,
  created: a.created + b.created,
  updated: a.updated + b.updated,
  unchanged: a.unchanged + b.unchanged,
})

/** The job as the API answers it (contract/product-import.ts `ImportJobSchema`). */
function answerOf(row: Omit<Row, 'content'>, applyJobId: string | null): ImportJob {
  return {
    id: row.id,
    kind: row.kind,
    mode: row.mode,
    status: row.status,
    rowsTotal: row.rowsTotal,
    rowsDone: row.rowsDone,
    counts: row.counts,
    errors: row.errors,
    errorCount: row.errorCount,
    message: row.message,
    checkedJobId: row.checkedJobId,
    applyJobId,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  }
}

/**
 * Characters of the file per `import_job_parts` row (128 Ki UTF-16 code units, at most 384 KiB as
 * UTF-8): storing or reading one part is one short statement (about 10 ms on the embedded database).
 */
export const IMPORT_PART_CHARS = 128 * 1024

/**
 * `text` cut into parts of at most `size` (IMPORT_PART_CHARS) code units, never between the two halves
 * of a surrogate pair (a lone half is not valid UTF-8 and PostgreSQL would refuse the part). Joined,
 * the parts are `text`; an empty text is one empty part.
 */
export function partsOf(text: string, size: number = IMPORT_PART_CHARS): string[] {
  const parts: string[] = []
  let at = 0
  do {
    let end = Math.min(text.length, at + size)
    const last = text.charCodeAt(end - 1)
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--
    parts.push(text.slice(at, end))
    at = end
  } while (at < text.length)
  return parts
}

/**
 * The file of the import job `jobId`: its parts in order, one statement each with a turn of the event
 * loop before it; a job stored before migration 0049_import_job_parts has none, and its file is what
 * `legacy` answers (its `import_jobs.content`; null when that row is gone).
 */
async function readJobFile(db: AppDeps['db'], jobId: string, legacy: () => Promise<string | null>): Promise<string | null> {
  const parts: string[] = []
  for (;;) {
    await yieldToEventLoop()
    const [part] = await db
      .select({ content: importJobParts.content })
      .from(importJobParts)
      .where(and(eq(importJobParts.jobId, jobId), eq(importJobParts.n, parts.length)))
    if (!part) break
    parts.push(part.content)
  }
  return parts.length > 0 ? parts.join('') : legacy()
}

/** Every column but the file. */
const { content: _content, ...STATUS_COLUMNS } = getTableColumns(importJobs)

/**
 * Starts a dry run of `bytes` (a product CSV, at most CSV_MAX_BYTES: the route caps the upload): the
 * file is stored and its job queued in one transaction. Import jobs finished more than
 * IMPORT_JOB_KEEP_MS ago are removed first.
 * @param userId the admin uploading (kept as `created_by`)
 * @throws 400 when the bytes are not UTF-8
 */
export async function startImportDryRun(deps: ImportJobDeps, bytes: Uint8Array, userId: string): Promise<ImportJob> {
  const content = decodeCsv(bytes)
  // A turn of the event loop between the steps of the upload (reading the body, decoding it, each
  // statement): on the embedded database they would otherwise run as one block of 0.2 s and more.
  await yieldToEventLoop()
  await deps.db.delete(importJobs).where(lt(importJobs.createdAt, new Date(Date.now() - IMPORT_JOB_KEEP_MS)))
  const row = await deps.db.transaction(async (tx) => {
    await yieldToEventLoop()
    const [row] = await tx.insert(importJobs).values({ mode: 'dry-run', content: '', createdBy: userId }).returning(STATUS_COLUMNS)
    for (const [n, part] of partsOf(content).entries()) {
      await yieldToEventLoop()
      await tx.insert(importJobParts).values({ jobId: row!.id, n, content: part })
    }
    await deps.jobs.send('product.import', { importJobId: row!.id }, { tx })
    return row!
  })
  return answerOf(row, null)
}

/**
 * Starts the apply of a dry run that finished without an error less than a day ago
 * (IMPORT_UPLOAD_TTL_MS, as the synchronous import keeps a checked file). A dry run is applied once:
 * asked again, this answers the apply already started.
 * @param userId the admin applying: the products' `edited_by` and the audit entries' author
 * @throws 404 IMPORT_JOB_NOT_FOUND (no such dry run); 409 IMPORT_NOT_FINISHED, IMPORT_HAS_ERRORS or
 *   IMPORT_CHECK_EXPIRED
 */
export async function startImportApply(deps: ImportJobDeps, dryRunId: string, userId: string): Promise<ImportJob> {
  const row = await deps.db.transaction(async (tx) => {
    // Locked, so two "Apply" at once make one apply: the second finds the first's row below.
    const [dry] = await tx.select(STATUS_COLUMNS).from(importJobs).where(eq(importJobs.id, dryRunId)).for('update')
    if (!dry || dry.mode !== 'dry-run') throw NotFound(IMPORT_JOB_NOT_FOUND)
    const [existing] = await tx
      .select(STATUS_COLUMNS)
      .from(importJobs)
      .where(and(eq(importJobs.checkedJobId, dryRunId), eq(importJobs.mode, 'apply')))
    if (existing) return existing
    if (dry.status !== 'done') throw Conflict(IMPORT_NOT_FINISHED)
    if (dry.errorCount > 0) throw Conflict(IMPORT_HAS_ERRORS)
    if (!dry.finishedAt || dry.finishedAt.getTime() < Date.now() - IMPORT_UPLOAD_TTL_MS) throw Conflict(IMPORT_CHECK_EXPIRED)
    const [row] = await tx
      .insert(importJobs)
      // The file stays in the dry run's row (copying megabytes would hold the embedded database for a while).
      .values({ mode: 'apply', content: '', checkedJobId: dryRunId, createdBy: userId, rowsTotal: dry.rowsTotal })
      .returning(STATUS_COLUMNS)
    await deps.jobs.send('product.import', { importJobId: row!.id }, { tx })
    return row!
  })
  return answerOf(row, null)
}

/**
 * The stored state of one import job, with the id of its apply when it is a dry run that has one.
 * @throws 404 IMPORT_JOB_NOT_FOUND
 */
export async function importJobStatus(deps: Pick<AppDeps, 'db'>, id: string): Promise<ImportJob> {
  const [row] = await deps.db.select(STATUS_COLUMNS).from(importJobs).where(eq(importJobs.id, id))
  if (!row) throw NotFound(IMPORT_JOB_NOT_FOUND)
  const [apply] =
    row.mode === 'dry-run'
      ? await deps.db
          .select({ id: importJobs.id })
          .from(importJobs)
          .where(and(eq(importJobs.checkedJobId, id), eq(importJobs.mode, 'apply')))
      : []
  return answerOf(row, apply?.id ?? null)
}

/** Marks a job failed with `message` (the handler's last retry failed), unless it finished already. */
export async function failImportJob(deps: Pick<AppDeps, 'db'>, id: string, message: string): Promise<void> {
  await deps.db
    .update(importJobs)
    .set({ status: 'failed', message, finishedAt: new Date(), updatedAt: new Date() })
    .where(and(eq(importJobs.id, id), eq(importJobs.status, 'running')))
}

/** Test seams of `runImportJob`. */
export interface RunImportOptions {
  /** Rows per slice (default IMPORT_SLICE_ROWS). */
  sliceRows?: number
  /** Stop after this many slices, as a process killed between two slices would (tests of the resume). */
  maxSlices?: number
}

/** `errors` after `more`: the first IMPORT_ERRORS_MAX in line order, and the new total. */
function withErrors(row: Pick<Row, 'errors' | 'errorCount'>, more: ImportError[]) {
  return { errors: [...row.errors, ...more].slice(0, IMPORT_ERRORS_MAX), errorCount: row.errorCount + more.length }
}

/**
 * Runs (or resumes) the import job `id`: reads its file, then checks (dry run) or writes (apply) it
 * slice after slice from the stored checkpoint `rows_done`. Safe to run twice: a job already done or
 * failed is left alone, and a slice another runner has taken in the meantime (the checkpoint moved)
 * stops this run without writing.
 *
 * An apply's slice re-checks its rows against the catalogue as it is then, in the transaction that
 * writes them: a row that no longer applies (the catalogue changed since the dry run) fails the job
 * with the slice's errors and writes nothing of that slice; the slices before it stay written (an
 * upsert by SKU: importing the corrected file again finds them unchanged).
 * @throws what the database throws (the job is retried and resumes from the checkpoint)
 */
export async function runImportJob(deps: ImportJobDeps, id: string, opts: RunImportOptions = {}): Promise<void> {
  const sliceRows = opts.sliceRows ?? IMPORT_SLICE_ROWS
  // A turn of the event loop before each statement here too (see `yielding`): the file is megabytes.
  await yieldToEventLoop()
  const [job] = await deps.db.select().from(importJobs).where(eq(importJobs.id, id))
  if (!job || job.status === 'done' || job.status === 'failed') return
  await yieldToEventLoop()
  await deps.db
    .update(importJobs)
    .set({ status: 'running', startedAt: job.startedAt ?? new Date(), updatedAt: new Date() })
    .where(eq(importJobs.id, id))

  // An apply reads the file of the dry run it applies.
  const content = await readJobFile(deps.db, job.checkedJobId ?? job.id, async () => {
    if (!job.checkedJobId) return job.content
    const [checked] = await deps.db.select({ content: importJobs.content }).from(importJobs).where(eq(importJobs.id, job.checkedJobId))
    return checked?.content ?? null
  })
  if (content === null) {
    await failImportJob(deps, id, IMPORT_CHECK_EXPIRED)
    return
  }
  await yieldToEventLoop()
  const file = await readProductCsv(content)
  if (file.errors.length > 0) {
    // The header or the whole file is wrong: the dry run's answer is that error (an apply cannot get here: its dry run was clean).
    await deps.db
      .update(importJobs)
      .set({
        status: job.mode === 'dry-run' ? 'done' : 'failed',
        ...withErrors({ errors: [], errorCount: 0 }, file.errors),
        counts: ZERO,
        rowsTotal: 0,
        rowsDone: 0,
        finishedAt: new Date(),
        updatedAt: new Date(),
      })
      .where(eq(importJobs.id, id))
    return
  }
  const total = file.records.length
  if (job.rowsTotal !== total) await deps.db.update(importJobs).set({ rowsTotal: total }).where(eq(importJobs.id, id))
  const firstLines = firstLinesOf(file)

  let state = { rowsDone: job.rowsDone, counts: job.counts, errors: job.errors, errorCount: job.errorCount }
  let slices = 0
  // The caches are told of the written slices at most once every IMPORT_INVALIDATE_EVERY_MS, and once
  // more however the run ends (finished, refused, taken over, failed).
  let pending = false
  let invalidatedAt = Date.now()
  const invalidate = () => {
    deps.cache.invalidate()
    pending = false
    invalidatedAt = Date.now()
  }
  try {
    while (state.rowsDone < total) {
      if (opts.maxSlices !== undefined && slices >= opts.maxSlices) return
      slices++
      // Between slices the event loop answers whatever waited (health checks), and the slice waits
      // for the shoppers' requests being answered to end first (at most IMPORT_QUIET_WAIT_MS).
      await yieldToEventLoop()
      await deps.traffic.quiet(IMPORT_QUIET_WAIT_MS)
      const start = state.rowsDone
      const slice = file.records.slice(start, start + sliceRows)
      const checked = checkRecords(file, slice)
      const done = start + slice.length

      if (job.mode === 'dry-run') {
        const plan = await planRows(deps, yielding(deps.db), checked.rows, firstLines)
        const errors = [...checked.errors, ...plan.errors].sort((a, b) => a.line - b.line)
        const next = {
          rowsDone: done,
          counts: addCounts(state.counts, { ...plan.counts, rows: slice.length }),
          ...withErrors(state, errors),
        }
        // Only from the checkpoint this run read: another runner past it means this one stops.
        const moved = await deps.db
          .update(importJobs)
          .set({ ...next, updatedAt: new Date() })
          .where(and(eq(importJobs.id, id), eq(importJobs.rowsDone, start)))
          .returning({ id: importJobs.id })
        if (moved.length === 0) return
        state = next
        continue
      }

      const outcome = await deps.db.transaction(async (tx) => {
        const [locked] = await tx
          .select({ rowsDone: importJobs.rowsDone, status: importJobs.status })
          .from(importJobs)
          .where(eq(importJobs.id, id))
          .for('update')
        if (!locked || locked.status !== 'running' || locked.rowsDone !== start) return { kind: 'taken' as const }
        const plan = await planRows(deps, yielding(tx), checked.rows, firstLines)
        const errors = [...checked.errors, ...plan.errors].sort((a, b) => a.line - b.line)
        if (errors.length > 0) return { kind: 'refused' as const, errors }
        const dropped = await writePlanned(yielding(tx), plan.planned, job.createdBy, IMPORT_WRITE_ROWS)
        const next = { rowsDone: done, counts: addCounts(state.counts, { ...plan.counts, rows: slice.length }) }
        await tx
          .update(importJobs)
          .set({ ...next, updatedAt: new Date() })
          .where(eq(importJobs.id, id))
        return { kind: 'written' as const, dropped, next }
      })
      if (outcome.kind === 'taken') return
      if (outcome.kind === 'refused') {
        const firstLine = outcome.errors[0]!.line
        await deps.db
          .update(importJobs)
          .set({
            status: 'failed',
            ...withErrors(state, outcome.errors),
            message:
              start === 0
                ? 'The file no longer applies (the catalogue changed since the check): nothing was written; check it again'
                : `The file no longer applies from line ${firstLine} (the catalogue changed since the check): the ${start} rows before were written; check the file again`,
            finishedAt: new Date(),
            updatedAt: new Date(),
          })
          .where(eq(importJobs.id, id))
        return
      }
      pending = true
      if (Date.now() - invalidatedAt >= IMPORT_INVALIDATE_EVERY_MS) invalidate()
      await releaseImages(deps, outcome.dropped)
      state = { ...state, ...outcome.next }
    }
  } finally {
    if (pending) invalidate()
  }
  await deps.db
    .update(importJobs)
    .set({ status: 'done', finishedAt: new Date(), updatedAt: new Date() })
    .where(and(eq(importJobs.id, id), eq(importJobs.status, 'running')))
}
