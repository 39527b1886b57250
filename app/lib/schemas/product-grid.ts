/**
 * The admin product grid's forms (docs/product-csv.md, "The admin grid"), checked with the same zod
 * schema in the browser (Conform) and in the action:
 *
 * - the bulk edit: the ticked products (`ids`) and the new MRP, selling price (rupees, at most two
 *   decimals) and stock (whole units) for all of them; blank fields are left as they are, at least one
 *   must be given. Each field follows contract/product-import.ts `BulkUpdateSchema` (the API's rules);
 * - the import's check (one CSV file, at most CSV_MAX_BYTES) and its apply (the checked upload's id).
 */
import { z } from 'zod'
import { BULK_EDIT_MAX, BulkUpdateSchema, CSV_MAX_BYTES } from '../../../contract/product-import.ts'
import { formatByteSize } from '../../../contract/file.ts'

export { BULK_EDIT_MAX, CSV_MAX_BYTES }

const item = BulkUpdateSchema.shape.items.element.shape

/** The bulk edit form's fields, by name. */
export const BULK_EDIT_FIELDS = ['ids', 'price', 'sellingPrice', 'stock'] as const

/** The bulk edit as posted: `{ intent: 'bulk', ids, price?, sellingPrice?, stock? }`. */
export const BulkEditFormSchema = z
  .object({
    ids: z
      .array(z.string().trim().min(1), { error: 'Tick at least one product' })
      .min(1, 'Tick at least one product')
      .max(BULK_EDIT_MAX, `Tick at most ${BULK_EDIT_MAX} products`)
      .transform((ids) => [...new Set(ids)]),
    price: item.price,
    sellingPrice: item.sellingPrice,
    stock: item.stock,
  })
  .refine((v) => v.price !== undefined || v.sellingPrice !== undefined || v.stock !== undefined, {
    message: 'Give a new MRP, selling price or stock',
    path: ['price'],
  })
  .refine((v) => v.price === undefined || v.sellingPrice === undefined || v.sellingPrice <= v.price, {
    message: 'Selling price cannot be above the MRP',
    path: ['sellingPrice'],
  })
export type BulkEditForm = z.output<typeof BulkEditFormSchema>

/** The message of a file over the import's cap. */
export const IMPORT_TOO_LARGE = `The file is larger than ${formatByteSize(CSV_MAX_BYTES)}`

/** The import's check: one non-empty CSV file of at most CSV_MAX_BYTES. */
export const ImportCheckFormSchema = z.object({
  file: z
    .instanceof(File, { error: 'Choose a CSV file' })
    .refine((file) => file.size > 0, 'Choose a CSV file')
    .refine((file) => file.size <= CSV_MAX_BYTES, IMPORT_TOO_LARGE)
    .refine((file) => /\.csv$/i.test(file.name) || /^text\/(csv|plain)\b/.test(file.type), 'Choose a .csv file (save it as "CSV UTF-8")'),
})

/**
 * The import's apply: the id of the dry run job that checked the file (24 hex digits,
 * contract/product-import.ts `ImportJobIdSchema`; docs/product-csv.md, "Imports as jobs").
 */
export const ImportApplyFormSchema = z.object({
  jobId: z
    .string({ error: 'Check the file first' })
    .trim()
    .regex(/^[0-9a-f]{24}$/, 'Check the file first'),
})
