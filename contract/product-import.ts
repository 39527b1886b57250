/**
 * The product CSV's bodies and answers (docs/product-csv.md; docs/decisions/0023-catalogue-import.md):
 * the dry run's and the apply's answer (counts and every row's errors as line, column, message), the
 * apply's body (the checked upload's id) and the grid's bulk price and stock edit.
 */
import { z } from 'zod'
import { IdSchema, NOT_BLANK_PATTERN } from './fields.ts'
import { CreateProductSchema } from './product.ts'

/** Largest CSV accepted for import: 16 MB (10,000 catalogue rows are about 3 MB). */
export const CSV_MAX_BYTES = 16 * 1024 * 1024

/** One problem of the file: its line (1 is the header; a row spanning lines: its first), the column's header name ('' for the whole row or file) and the message. */
export const ImportErrorSchema = z.object({ line: z.number().int(), column: z.string(), message: z.string() })
export type ImportError = z.output<typeof ImportErrorSchema>

/** Rows by what importing them does: `created` (a new SKU), `updated` (a field differs), `unchanged`. */
export const ImportCountsSchema = z.object({
  rows: z.number().int(),
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
})
export type ImportCounts = z.output<typeof ImportCountsSchema>

/** Most errors one answer lists (a file of wrong columns would otherwise list one per cell); `errorCount` says how many there were. */
export const IMPORT_ERRORS_MAX = 1000

/**
 * The answer of a dry run (POST /api/product/import) and of an apply: `upload` is the SHA-256 of the
 * file's bytes, which the apply names; `applied` is true only after the one transaction committed.
 */
export const ImportAnswerSchema = z.object({
  upload: z.string(),
  applied: z.boolean(),
  counts: ImportCountsSchema,
  errors: z.array(ImportErrorSchema),
  errorCount: z.number().int(),
})
export type ImportAnswer = z.output<typeof ImportAnswerSchema>

/** POST /api/product/import/apply: `{ upload }`, the id a dry run answered (64 hex digits; any other text is an unknown upload, 404). */
export const ImportApplySchema = z.object({
  upload: z
    .string({ error: 'upload is required' })
    .trim()
    .min(1, 'upload is required')
    .max(128, 'Not an upload id')
    .meta({ pattern: NOT_BLANK_PATTERN }),
})
export type ImportApplyInput = z.output<typeof ImportApplySchema>

/** Most products one bulk edit changes (one page of the grid is far fewer). */
export const BULK_EDIT_MAX = 200

const priceFields = CreateProductSchema.shape

/**
 * POST /api/product/bulk-update: `{ items: [{ _id, price?, sellingPrice?, stock? }] }`, each field
 * validated as in create (price the MRP in rupees, selling price in rupees at most the MRP, stock a
 * whole number); all items in one transaction, or none.
 */
export const BulkUpdateSchema = z.object({
  items: z
    .array(
      z.object({
        _id: IdSchema,
        price: priceFields.price.optional(),
        sellingPrice: priceFields.sellingPrice,
        stock: priceFields.stock.optional(),
      }),
      { error: 'Expected a list of items' },
    )
    .min(1, 'Give at least one product to change')
    .max(BULK_EDIT_MAX, `At most ${BULK_EDIT_MAX} products at once`),
})
export type BulkUpdateInput = z.output<typeof BulkUpdateSchema>

/** An import job's id (api/db/schema.ts `importJobs`: 24 hex digits); any other text is refused with 400. */
export const ImportJobIdSchema = z.string().regex(/^[0-9a-f]{24}$/, 'Not an import job id')

/** GET /api/product/import/jobs/{jobId}: the job named in the path. */
export const ImportJobParamsSchema = z.object({ jobId: ImportJobIdSchema })

/** What an import job does: `dry-run` checks and writes nothing; `apply` writes a clean dry run's file. */
export const IMPORT_JOB_MODES = ['dry-run', 'apply'] as const
/** Where an import job is: waiting for the runner, under way, finished (result in `counts`/`errors`), or stopped. */
export const IMPORT_JOB_STATUSES = ['queued', 'running', 'done', 'failed'] as const

/**
 * An import job as the API answers it (docs/product-csv.md, "Imports as jobs"): `rowsDone` of
 * `rowsTotal` data rows handled so far (0 of 0 until the file is read); `counts`, `errors` (the first
 * IMPORT_ERRORS_MAX, line order) and `errorCount` so far, final once `status` is `done` or `failed`;
 * `message` why a job failed; `checkedJobId` the dry run an apply applies, `applyJobId` the apply of
 * a dry run (null: none yet). Times are ISO 8601.
 */
export const ImportJobSchema = z.object({
  id: z.string(),
  kind: z.literal('product'),
  mode: z.enum(IMPORT_JOB_MODES),
  status: z.enum(IMPORT_JOB_STATUSES),
  rowsTotal: z.number().int(),
  rowsDone: z.number().int(),
  counts: ImportCountsSchema,
  errors: z.array(ImportErrorSchema),
  errorCount: z.number().int(),
  message: z.string().nullable(),
  checkedJobId: z.string().nullable(),
  applyJobId: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
})
export type ImportJob = z.output<typeof ImportJobSchema>
