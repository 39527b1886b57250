/**
 * The stock CSV pages' forms and addresses (docs/store-stock-csv.md), shared by the browser
 * (Conform) and the BFF action: the import's check (one CSV file, at most STOCK_CSV_MAX_BYTES) and its
 * apply (the checked file's text, sent back by the page so the apply needs no stored upload).
 */
import { z } from 'zod'
import { STOCK_CSV_MAX_BYTES } from '../../../contract/stock-csv.ts'
import { formatByteSize } from '../../../contract/file.ts'

export { STOCK_CSV_MAX_BYTES } from '../../../contract/stock-csv.ts'

/** The message of a file over the cap. */
export const STOCK_IMPORT_TOO_LARGE = `The file is larger than ${formatByteSize(STOCK_CSV_MAX_BYTES)}`

/** The check: one non-empty CSV file of at most STOCK_CSV_MAX_BYTES. */
export const StockImportCheckFormSchema = z.object({
  file: z
    .instanceof(File, { error: 'Choose a CSV file' })
    .refine((file) => file.size > 0, 'Choose a CSV file')
    .refine((file) => file.size <= STOCK_CSV_MAX_BYTES, STOCK_IMPORT_TOO_LARGE)
    .refine((file) => /\.csv$/i.test(file.name) || /^text\/(csv|plain)\b/.test(file.type), 'Choose a .csv file (save it as "CSV UTF-8")'),
})

/** The apply: the text of the file the check found clean (the API checks it again), and its name for the page. */
export const StockImportApplyFormSchema = z.object({
  csv: z
    .string({ error: 'Check the file first' })
    .min(1, 'Check the file first')
    .refine((text) => new TextEncoder().encode(text).length <= STOCK_CSV_MAX_BYTES, STOCK_IMPORT_TOO_LARGE),
  fileName: z.string().max(200).optional(),
})

/** `/dashboard/stores/<id>/stock/export`: the store's stock as CSV. */
export const stockExportHref = (storeId: string) => `/dashboard/stores/${encodeURIComponent(storeId)}/stock/export`

/** `/dashboard/stores/<id>/stock/import`: the upload page. */
export const stockImportHref = (storeId: string) => `/dashboard/stores/${encodeURIComponent(storeId)}/stock/import`
