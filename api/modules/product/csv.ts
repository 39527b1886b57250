/**
 * The product CSV format (docs/product-csv.md): its columns, how a product becomes a row (export)
 * and how a row's cells are read and checked (import). One file, both directions, so that what the
 * export writes the import reads back unchanged.
 *
 * Parsing follows the catalogue importer's reading of a CSV (api/db/seed/import-catalog.ts,
 * `parseCatalogCsv`: UTF-8 with or without a byte order mark, comma-separated, quoted where needed,
 * CRLF or LF, empty lines skipped); each cell is then checked by the same zod rules as
 * POST /api/product/create (contract/product.ts), so a product the API refuses cannot come in by
 * file either.
 *
 * Formula injection (OWASP "CSV Injection") and the byte order mark: api/lib/csv-cells.ts, shared
 * with the orders export; the import takes exactly one `'` off a guarded cell, so every value
 * round-trips.
 */
import { parse as parseStream } from 'csv-parse'
import { parse } from 'csv-parse/sync'
import { setImmediate as yieldToEventLoop } from 'node:timers/promises'
import { stringify } from 'csv-stringify/sync'
import { z } from 'zod'
import type { ImportError } from '../../../contract/product-import.ts'
import { CreateProductSchema, HsnSchema, PRODUCT_IMAGES_MAX, PRODUCT_REFS_MAX } from '../../../contract/product.ts'
import { ImageUrlSchema } from '../../../contract/fields.ts'
import { CSV_BOM, guardCell, unguardCell } from '../../lib/csv-cells.ts'

/** The columns in the order the export writes them (docs/product-csv.md, "Columns"). */
export const CSV_COLUMNS = [
  'sku',
  'id',
  'name',
  'brand',
  'unit',
  'mrp',
  'selling_price',
  'stock',
  'publish',
  'categories',
  'sub_categories',
  'images',
  'description',
  'more_details',
  'hsn',
] as const
export type CsvColumn = (typeof CSV_COLUMNS)[number]

/** Separator of the names and urls inside one cell (`Dairy|Snacks`); spaces around it are ignored. */
export const LIST_SEPARATOR = '|'

/** Largest CSV accepted for import (contract/product-import.ts, shared with the BFF's upload form). */
export { CSV_MAX_BYTES } from '../../../contract/product-import.ts'
/** Most product rows of one import. */
export const CSV_MAX_ROWS = 50_000
/** Longest SKU. */
export const SKU_MAX_LENGTH = 64

/** The key of `more_details` the `brand` column stands for (what the search reads: migration 0006_search). */
export const BRAND_KEY = 'brand'

/** A product as the export reads it. Prices in rupees as stored (numeric, two decimals). */
export interface ExportProduct {
  id: string
  sku: string | null
  name: string
  unit: string
  mrp: number | string
  sellingPrice: number | string
  stock: number
  publish: boolean
  categories: string[]
  subCategories: string[]
  image: string[]
  description: string
  moreDetails: Record<string, string>
  hsn: string | null
}

/** Rupees as the file writes them: two decimals (`95.50`), read back to the same paise. */
const rupees = (value: number | string) => Number(value).toFixed(2)

/** The more_details entries other than `brand`, as a JSON object with sorted keys ('' when none). */
function otherDetails(details: Record<string, string>): string {
  const rest = Object.keys(details)
    .filter((k) => k !== BRAND_KEY)
    .sort()
  return rest.length === 0 ? '' : JSON.stringify(Object.fromEntries(rest.map((k) => [k, details[k]])))
}

/** One product as CSV cells, in CSV_COLUMNS order, each guarded against formula injection. */
export function productCells(p: ExportProduct): string[] {
  const join = (items: string[]) => items.join(LIST_SEPARATOR)
  const cells: Record<CsvColumn, string> = {
    sku: p.sku ?? '',
    id: p.id,
    name: p.name,
    brand: p.moreDetails[BRAND_KEY] ?? '',
    unit: p.unit,
    mrp: rupees(p.mrp),
    selling_price: rupees(p.sellingPrice),
    stock: String(p.stock),
    publish: p.publish ? 'true' : 'false',
    categories: join(p.categories),
    sub_categories: join(p.subCategories),
    images: join(p.image),
    description: p.description,
    more_details: otherDetails(p.moreDetails),
    hsn: p.hsn ?? '',
  }
  return CSV_COLUMNS.map((c) => guardCell(cells[c]))
}

/**
 * CSV text of `rows` (arrays of cells), with the byte order mark and the header line first when
 * `header` (api/lib/csv-cells.ts). CRLF line ends (RFC 4180, section 2).
 */
export function csvText(rows: string[][], header: boolean): string {
  const text = stringify(header ? [[...CSV_COLUMNS], ...rows] : rows, { record_delimiter: 'windows', quoted_match: /^\s|\s$/ })
  return header ? `${CSV_BOM}${text}` : text
}

/**
 * What one row gives, field by field; a field whose column the file lacks is absent (an update keeps
 * the stored value; a new product needs it, docs/product-csv.md, "Columns").
 */
export interface RowFields {
  sku?: string
  id?: string
  name?: string
  brand?: string
  unit?: string
  mrp?: number
  sellingPrice?: number
  stock?: number
  publish?: boolean
  categories?: string[]
  subCategories?: string[]
  image?: string[]
  description?: string
  /** The more_details entries other than brand. */
  otherDetails?: Record<string, string>
  /** The HSN code; null: an empty cell (the shelf's heading). */
  hsn?: string | null
}

/** One data row read: its first line in the file and its fields, or the errors of its cells. */
export interface ParsedRow {
  line: number
  fields: RowFields
}

export interface ParsedCsv {
  rows: ParsedRow[]
  errors: ImportError[]
  /** The columns the header names. */
  columns: Set<CsvColumn>
}

const shape = CreateProductSchema.shape
const names = (cell: string) =>
  cell
    .split(LIST_SEPARATOR)
    .map((s) => s.replace(/\s+/g, ' ').trim())
    .filter(Boolean)

const SkuSchema = z
  .string()
  .trim()
  .max(SKU_MAX_LENGTH, `SKU must be at most ${SKU_MAX_LENGTH} characters`)
  .regex(/^[^\p{Cc}]*$/u, 'SKU must be one line of text')
const PublishSchema = z
  .string()
  .trim()
  .toLowerCase()
  .refine((v) => ['true', 'false', 'yes', 'no', '1', '0'].includes(v), 'publish must be true or false')
  .transform((v) => v === 'true' || v === 'yes' || v === '1')
const NamesSchema = (label: string, min: number) =>
  z
    .string()
    .transform(names)
    .refine((list) => list.length >= min, `Name at least ${min} ${label.replace(/ies$/, 'y')}`)
    .refine((list) => list.length <= PRODUCT_REFS_MAX, `At most ${PRODUCT_REFS_MAX} ${label}`)
const ImagesSchema = z
  .string()
  .transform(names)
  .pipe(z.array(ImageUrlSchema).min(1, 'List at least one image').max(PRODUCT_IMAGES_MAX, `At most ${PRODUCT_IMAGES_MAX} images`))
const OtherDetailsSchema = z.string().transform((text, ctx) => {
  if (text.trim() === '') return {}
  try {
    const value: unknown = JSON.parse(text)
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>
  } catch {
    // reported below
  }
  ctx.addIssue({ code: 'custom', message: 'more_details must be a JSON object of field name → text, or empty' })
  return z.NEVER
})

/** Each column's check, turning the cell's text into its field (messages as the create endpoint's). */
const CELL_RULES: { [C in CsvColumn]: { field: keyof RowFields; schema: z.ZodType } } = {
  sku: { field: 'sku', schema: SkuSchema },
  id: { field: 'id', schema: z.string().trim() },
  name: { field: 'name', schema: shape.name },
  brand: { field: 'brand', schema: z.string().trim().max(1000, 'Brand must be at most 1000 characters') },
  unit: { field: 'unit', schema: shape.unit },
  mrp: { field: 'mrp', schema: shape.price },
  selling_price: { field: 'sellingPrice', schema: shape.sellingPrice },
  stock: { field: 'stock', schema: shape.stock },
  publish: { field: 'publish', schema: PublishSchema },
  categories: { field: 'categories', schema: NamesSchema('categories', 1) },
  sub_categories: { field: 'subCategories', schema: NamesSchema('sub categories', 0) },
  images: { field: 'image', schema: ImagesSchema },
  description: { field: 'description', schema: shape.description },
  more_details: { field: 'otherDetails', schema: OtherDetailsSchema },
  hsn: {
    field: 'hsn',
    schema: z
      .string()
      .transform((v) => v.trim())
      .pipe(z.union([z.literal('').transform(() => null), HsnSchema])),
  },
}

/** One data record of the file as read, before its cells are checked: its cells and the line it starts on. */
export interface CsvRecord {
  line: number
  cells: string[]
}

/**
 * A product CSV read into records, cells not yet checked: the header's columns in file order, the
 * records, and the file-level errors (unreadable, empty, a bad header, too many rows), with which
 * `records` is empty.
 */
export interface CsvRecords {
  header: CsvColumn[]
  columns: Set<CsvColumn>
  records: CsvRecord[]
  errors: ImportError[]
}

/** What csv-parse answers with `info: true` (csv-parse docs, "Option info"). */
type RawRecord = { record: string[]; info: { lines: number } }

/** The options of every read (docs/product-csv.md, "Columns": with or without a byte order mark, blank lines skipped). */
const PARSE_OPTIONS = { bom: true, info: true, skip_empty_lines: true, relax_column_count: true } as const

/** A file csv-parse refused, as the one error of the file. */
const unreadable = (err: unknown): CsvRecords => ({
  header: [],
  columns: new Set(),
  records: [],
  errors: [{ line: (err as { lines?: number }).lines ?? 1, column: '', message: `Not a readable CSV: ${(err as Error).message}` }],
})

/** The header's checks and each record's first line, from csv-parse's records. */
function recordsOf(raw: RawRecord[]): CsvRecords {
  const errors: ImportError[] = []
  if (raw.length === 0)
    return { header: [], columns: new Set(), records: [], errors: [{ line: 1, column: '', message: 'The file is empty' }] }
  const [head, ...body] = raw
  const columns = new Set<CsvColumn>()
  const header = head!.record.map((h) => h.trim())
  header.forEach((name, i) => {
    if (!(CSV_COLUMNS as readonly string[]).includes(name)) {
      errors.push({ line: 1, column: name, message: `Unknown column "${name}" (column ${i + 1})` })
    } else if (columns.has(name as CsvColumn)) {
      errors.push({ line: 1, column: name, message: `Column "${name}" appears twice` })
    } else columns.add(name as CsvColumn)
  })
  if (!columns.has('sku')) errors.push({ line: 1, column: 'sku', message: 'The header must have a "sku" column' })
  if (errors.length > 0) return { header: [], columns, records: [], errors }
  if (body.length > CSV_MAX_ROWS) {
    return {
      header: [],
      columns,
      records: [],
      errors: [{ line: 1, column: '', message: `At most ${CSV_MAX_ROWS.toLocaleString('en-IN')} rows per file` }],
    }
  }
  // `info.lines` is the line a record ends on; it starts on the line after the previous one ended,
  // unless blank lines came between (skipped), which the record's own line count settles.
  const records = body.map(({ record, info }) => {
    // The regular expression only for a cell holding a line break: 150,000 cells took 0.2 s otherwise.
    const spanned = record.reduce(
      (n, cell) => n + (cell.includes('\n') || cell.includes('\r') ? (cell.match(/\r\n|\r|\n/g)?.length ?? 0) : 0),
      0,
    )
    return { line: info.lines - spanned, cells: record }
  })
  return { header: header as CsvColumn[], columns, records, errors }
}

/** Characters handed to the parser between two yields of `readProductCsv` (about 5 ms of parsing on 2 cores). */
const READ_CHUNK_CHARS = 32 * 1024

/**
 * Reads a product CSV as `parseProductCsv` does, but in chunks of READ_CHUNK_CHARS with a turn of the
 * event loop between them (Node.js docs, "timers/promises: setImmediate"), so a 16 MB file never holds
 * the process for the half second a single parse takes (measured: 2.5 MB, 10,000 rows, 580 ms).
 * Cells are not checked: `checkRecords` does that, a slice at a time.
 */
export async function readProductCsv(text: string): Promise<CsvRecords> {
  const parser = parseStream(PARSE_OPTIONS)
  const raw: RawRecord[] = []
  let failure: unknown = null
  parser.on('data', (r: RawRecord) => raw.push(r))
  parser.on('error', (err) => (failure ??= err))
  const ended = new Promise<void>((resolve) => {
    parser.on('end', resolve)
    parser.on('error', () => resolve())
  })
  for (let i = 0; i < text.length && !failure; i += READ_CHUNK_CHARS) {
    parser.write(text.slice(i, i + READ_CHUNK_CHARS))
    await yieldToEventLoop()
  }
  if (!failure) parser.end()
  await ended
  return failure ? unreadable(failure) : recordsOf(raw)
}

/**
 * Each record's cells checked by its column's rule: the rows that are fine and every problem as an
 * error with its line and column.
 */
export function checkRecords(file: Pick<CsvRecords, 'header'>, records: CsvRecord[]): { rows: ParsedRow[]; errors: ImportError[] } {
  const { header } = file
  const rows: ParsedRow[] = []
  const errors: ImportError[] = []
  for (const { line, cells } of records) {
    if (cells.length !== header.length) {
      errors.push({ line, column: '', message: `Expected ${header.length} cells, found ${cells.length}` })
      continue
    }
    const fields: RowFields = {}
    let bad = false
    cells.forEach((raw, i) => {
      const column = header[i]!
      const rule = CELL_RULES[column]
      const checked = rule.schema.safeParse(unguardCell(raw))
      if (checked.success) (fields as Record<string, unknown>)[rule.field] = checked.data
      else {
        bad = true
        errors.push({ line, column, message: checked.error.issues[0]?.message ?? 'Invalid value' })
      }
    })
    if (!bad) rows.push({ line, fields })
  }
  return { rows, errors }
}

/**
 * Where each key of the upsert first appears in the file, read from the raw cells of every record:
 * `skus` the first line of each SKU, `ids` the first line of each id among rows without a SKU. A
 * later row with the same key is an error naming that line (docs/product-csv.md, "Columns"); built
 * once per file, so a slice of rows is checked against the whole file.
 */
export interface FirstLines {
  skus: Map<string, number>
  ids: Map<string, number>
}

/** The FirstLines of `file` (a SKU as the `sku` rule reads it: one `'` guard off, trimmed). */
export function firstLinesOf(file: Pick<CsvRecords, 'header' | 'records'>): FirstLines {
  const skuAt = file.header.indexOf('sku')
  const idAt = file.header.indexOf('id')
  const skus = new Map<string, number>()
  const ids = new Map<string, number>()
  for (const { line, cells } of file.records) {
    if (cells.length !== file.header.length) continue
    const sku = skuAt >= 0 ? unguardCell(cells[skuAt]!).trim() : ''
    if (sku) {
      if (!skus.has(sku)) skus.set(sku, line)
      continue
    }
    const id = idAt >= 0 ? unguardCell(cells[idAt]!).trim() : ''
    if (id && !ids.has(id)) ids.set(id, line)
  }
  return { skus, ids }
}

/**
 * Reads a product CSV: the header (known column names, `sku` among them, none twice), then every row,
 * each cell checked by its column's rule. Never throws on bad content: every problem is an error
 * with its line and column, and the rows that are fine are returned beside them. In one go: the
 * import jobs read with `readProductCsv` and check a slice at a time.
 * @param text the file decoded as UTF-8
 */
export function parseProductCsv(text: string): ParsedCsv {
  const file = readProductCsvNow(text)
  if (file.errors.length > 0) return { rows: [], errors: file.errors, columns: file.columns }
  const checked = checkRecords(file, file.records)
  return { rows: checked.rows, errors: checked.errors, columns: file.columns }
}

/** `readProductCsv` in one go, holding the process for the whole parse (the synchronous endpoints, the command line). */
export function readProductCsvNow(text: string): CsvRecords {
  try {
    return recordsOf(parse(text, PARSE_OPTIONS) as unknown as RawRecord[])
  } catch (err) {
    return unreadable(err)
  }
}
