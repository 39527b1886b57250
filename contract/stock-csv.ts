/**
 * One store's stock as CSV (docs/store-stock-csv.md): the columns, the caps and the answer of
 * the import's dry run and apply, shared by the API (api/modules/inventory/) and the BFF's upload page
 * (/dashboard/stores/:storeId/stock/import).
 */
import { z } from 'zod'
import { IdSchema } from './fields.ts'
import { ImportErrorSchema } from './product-import.ts'

/** The columns in the order the export writes them. The import needs `sku` and `stock`; `id`, `name` and `unit` are read only to find a product without a SKU (`id`) or not at all. */
export const STOCK_CSV_COLUMNS = ['sku', 'id', 'name', 'unit', 'stock'] as const
export type StockCsvColumn = (typeof STOCK_CSV_COLUMNS)[number]

/** Columns a stock file must have (docs/store-stock-csv.md). */
export const STOCK_CSV_REQUIRED: readonly StockCsvColumn[] = ['sku', 'stock']

/** Largest stock CSV accepted: 4 MB (100,000 products at about 40 bytes a row). */
export const STOCK_CSV_MAX_BYTES = 4 * 1024 * 1024

/** Most data rows of one stock file. */
export const STOCK_CSV_MAX_ROWS = 100_000

/** Most changed rows one answer lists (`counts.changed` says how many there are). */
export const STOCK_CHANGES_LISTED = 500

/** GET /api/inventory/export and POST /api/inventory/import(/apply): `?storeId=`. */
export const StockCsvQuerySchema = z.object({ storeId: IdSchema })
export type StockCsvQuery = z.output<typeof StockCsvQuerySchema>

/** One row that changes a product's stock: the line, SKU ('' for a product without one), product id and name, and the stock before and after (units). */
export const StockChangeSchema = z.object({
  line: z.number().int(),
  sku: z.string(),
  productId: z.string(),
  name: z.string(),
  before: z.number().int(),
  after: z.number().int(),
})
export type StockChange = z.output<typeof StockChangeSchema>

/** Rows of the file: all of them, those that change the stock, those that set the stock it has. */
export const StockImportCountsSchema = z.object({
  rows: z.number().int(),
  changed: z.number().int(),
  unchanged: z.number().int(),
})
export type StockImportCounts = z.output<typeof StockImportCountsSchema>

/**
 * The answer of a dry run and of an apply: `applied` is true only after the one transaction
 * committed; `changes` the first STOCK_CHANGES_LISTED rows that change a stock; `errors` the first
 * IMPORT_ERRORS_MAX problems (line, column, message), `errorCount` how many there were.
 */
export const StockImportAnswerSchema = z.object({
  applied: z.boolean(),
  counts: StockImportCountsSchema,
  changes: z.array(StockChangeSchema),
  errors: z.array(ImportErrorSchema),
  errorCount: z.number().int(),
})
export type StockImportAnswer = z.output<typeof StockImportAnswerSchema>
