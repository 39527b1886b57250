/**
 * The stock CSV format (docs/store-stock-csv.md): one store's stock, a product a row, columns
 * STOCK_CSV_COLUMNS (contract/stock-csv.ts). One file, both directions, so what the export writes the
 * import reads back unchanged.
 *
 * Writing: the UTF-8 byte order mark first and every cell through the formula guard
 * (api/lib/csv-cells.ts: OWASP, "CSV Injection"), CRLF line ends (RFC 4180, section 2), as the
 * product and orders exports do. Reading: UTF-8 with or without the byte order mark (csv-parse's
 * `bom: true`), comma-separated, quoted where needed, CRLF or LF, empty lines skipped; exactly one
 * `'` is taken off a guarded cell (`unguardCell`).
 */
import { parse } from 'csv-parse/sync'
import { stringify } from 'csv-stringify/sync'
import { CSV_BOM, guardCell, unguardCell } from '../../lib/csv-cells.ts'
import { STOCK_MAX } from '../../../contract/location.ts'
import type { ImportError } from '../../../contract/product-import.ts'
import { STOCK_CSV_COLUMNS, STOCK_CSV_MAX_ROWS, STOCK_CSV_REQUIRED, type StockCsvColumn } from '../../../contract/stock-csv.ts'

/** A product's row as the export writes it: stock in whole units (0 when the store has no row). */
export interface StockCsvProduct {
  id: string
  sku: string | null
  name: string
  unit: string
  stock: number
}

/** The cells of one product's row, in STOCK_CSV_COLUMNS order, each guarded. */
export function stockCells(p: StockCsvProduct): string[] {
  return [p.sku, p.id, p.name, p.unit, String(p.stock)].map(guardCell)
}

/** CSV text of `rows`, with the byte order mark and the header first when `header`. */
export function stockCsvText(rows: string[][], header: boolean): string {
  const text = stringify(header ? [[...STOCK_CSV_COLUMNS], ...rows] : rows, {
    record_delimiter: 'windows',
    quoted_match: /^\s|\s$/,
  })
  return header ? `${CSV_BOM}${text}` : text
}

/** One data row that reads well: its line (1 is the header), SKU ('' none), product id ('' none) and stock in units. */
export interface StockCsvRow {
  line: number
  sku: string
  id: string
  stock: number
}

/** A file's data rows that read well and every problem (line, column, message), line order. */
export interface ParsedStockCsv {
  rows: StockCsvRow[]
  errors: ImportError[]
  /** Data rows in the file, good or not. */
  rowCount: number
}

/** A file that cannot be read as a stock CSV at all (not CSV, empty, too many rows): the import answers 400 with its message. */
export class StockFileError extends Error {}

const WHOLE = /^\d+$/

/** The stock cell read: a whole number 0..STOCK_MAX (contract/location.ts), or the message why not. */
export function readStockCell(cell: string): { stock: number } | { message: string } {
  const text = cell.trim()
  if (text === '') return { message: 'Stock is required' }
  if (!WHOLE.test(text) || Number(text) > STOCK_MAX) {
    return { message: `Stock must be a whole number from 0 to ${STOCK_MAX.toLocaleString('en-IN')}` }
  }
  return { stock: Number(text) }
}

/**
 * Reads a stock CSV (`text`, decoded as UTF-8): the header (known column names, none twice, `sku`
 * and `stock` present; `id`, `name` and `unit` optional: a header problem is an error on line 1 and
 * no row is read), then every row. A row problem (a stock
 * that is not a whole number 0..STOCK_MAX, a wrong cell count, no SKU nor id) is an error with its
 * line and column; the rows that read well are returned beside them. Whether a SKU is known or twice
 * in the file is the import's check (./import.ts).
 * @throws StockFileError when the file as a whole cannot be read
 */
export function parseStockCsv(text: string): ParsedStockCsv {
  let records: { record: string[]; info: { lines: number } }[]
  try {
    records = parse(text, { bom: true, info: true, skip_empty_lines: true, relax_column_count: true }) as unknown as typeof records
  } catch (err) {
    throw new StockFileError(`Not a readable CSV: ${(err as Error).message}`)
  }
  if (records.length === 0) throw new StockFileError('The file is empty')
  const [head, ...body] = records
  const header = head!.record.map((h) => unguardCell(h.trim()).toLowerCase())
  const seen = new Set<string>()
  const headerErrors: ImportError[] = []
  header.forEach((name, i) => {
    if (!(STOCK_CSV_COLUMNS as readonly string[]).includes(name)) {
      headerErrors.push({
        line: 1,
        column: name,
        message: `Unknown column "${name}" (column ${i + 1}): the columns are ${STOCK_CSV_COLUMNS.join(', ')}`,
      })
    } else if (seen.has(name)) headerErrors.push({ line: 1, column: name, message: `Column "${name}" appears twice` })
    seen.add(name)
  })
  for (const column of STOCK_CSV_REQUIRED) {
    if (!seen.has(column)) headerErrors.push({ line: 1, column, message: `The header must have a "${column}" column` })
  }
  if (headerErrors.length > 0) return { rows: [], errors: headerErrors, rowCount: body.length }
  if (body.length > STOCK_CSV_MAX_ROWS) throw new StockFileError(`At most ${STOCK_CSV_MAX_ROWS.toLocaleString('en-IN')} rows per file`)

  const at = (column: StockCsvColumn) => header.indexOf(column)
  const [skuAt, idAt, stockAt] = [at('sku'), at('id'), at('stock')]
  const rows: StockCsvRow[] = []
  const errors: ImportError[] = []
  for (const { record, info } of body) {
    // `info.lines` is the line a record ends on; a quoted cell spanning lines moves its start back.
    const spanned = record.reduce((n, cell) => n + (cell.match(/\r\n|\r|\n/g)?.length ?? 0), 0)
    const line = info.lines - spanned
    if (record.length !== header.length) {
      errors.push({ line, column: '', message: `Expected ${header.length} cells, found ${record.length}` })
      continue
    }
    const sku = unguardCell(record[skuAt]!).trim()
    const id = idAt >= 0 ? unguardCell(record[idAt]!).trim() : ''
    const read = readStockCell(unguardCell(record[stockAt]!))
    let bad = false
    if (!sku && !id) {
      errors.push({ line, column: 'sku', message: 'SKU is required' })
      bad = true
    }
    if ('message' in read) {
      errors.push({ line, column: 'stock', message: read.message })
      bad = true
    }
    if (!bad && 'stock' in read) rows.push({ line, sku, id, stock: read.stock })
  }
  return { rows, errors, rowCount: body.length }
}
