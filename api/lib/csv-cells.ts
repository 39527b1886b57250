/**
 * What every CSV the store writes shares (the product export, docs/product-csv.md; the orders
 * export, docs/commerce-api.md, "Admin orders at volume"):
 *
 * - `CSV_BOM`: the file starts with a UTF-8 byte order mark, so Excel on Windows reads it as UTF-8
 *   (₹, Hindi names) instead of the system's code page (Microsoft, "Opening CSV UTF-8 files
 *   correctly in Excel"). Readers that follow the WHATWG Encoding standard (`Response.text()`) and
 *   csv-parse with `bom: true` (the product import) drop it.
 * - `guardCell` / `unguardCell`: formula injection (OWASP, "CSV Injection"). A cell a spreadsheet
 *   would run as a formula (starting with `=`, `+`, `-`, `@`, a tab or a carriage return), or one
 *   that already starts with `'`s before such a character, is written with one more leading `'`;
 *   `unguardCell` takes exactly one off, so every value round-trips through export and import.
 * - `decodeCsv`: an uploaded file's bytes as text, refused with 400 unless UTF-8 (the imports).
 */
import { BadRequest } from './errors.ts'

/** The UTF-8 byte order mark (U+FEFF), written first in every CSV export. */
export const CSV_BOM = '\uFEFF'

const FORMULA_START = /^'*[=+\-@\t\r]/
const ESCAPED_FORMULA_START = /^'+[=+\-@\t\r]/

/** A cell as written: prefixed with `'` when a spreadsheet would read it as a formula; null and undefined as ''. */
export function guardCell(value: string | null | undefined): string {
  const text = value ?? ''
  return FORMULA_START.test(text) ? `'${text}` : text
}

/** The inverse of `guardCell`: one leading `'` off a guarded cell, any other cell as is. */
export function unguardCell(value: string): string {
  return ESCAPED_FORMULA_START.test(value) ? value.slice(1) : value
}

/**
 * Decodes an uploaded CSV's bytes as UTF-8 (a leading byte order mark is dropped, WHATWG Encoding, "utf-8 decode").
 * @throws 400 when the bytes are not UTF-8 (a spreadsheet's other encodings: save as "CSV UTF-8")
 */
export function decodeCsv(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw BadRequest('The file is not UTF-8 text: save it as "CSV UTF-8"', [{ path: 'file', message: 'Not UTF-8 text' }])
  }
}
