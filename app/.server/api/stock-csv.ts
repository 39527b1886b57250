/**
 * Typed calls to the API's stock CSV (docs/store-stock-csv.md): one store's stock exported
 * (`GET /api/inventory/export`, streamed on, never read whole here) and imported in two steps, the
 * dry run (`POST /api/inventory/import`) and the apply (`POST /api/inventory/import/apply`), each
 * sending the file as multipart field `file`. ADMIN or STAFF (401 without a token, 403 for a shopper).
 * Answers are parsed with contract/stock-csv.ts (an answer off contract is a 502 failure); failures
 * come back as `{ ok: false }`, never thrown.
 */
import type { RequestSession } from '../session.ts'
import { parseData, upstream, upstreamResponse, type UpstreamResult } from '../upstream.ts'
import { StockImportAnswerSchema, type StockImportAnswer } from '../../../contract/stock-csv.ts'
import type { Api } from '../api-context.ts'

export type { StockImportAnswer } from '../../../contract/stock-csv.ts'

const query = (storeId: string) => `storeId=${encodeURIComponent(storeId)}`

/** `GET /api/inventory/export?storeId=`: the API's CSV answer itself (null when the API cannot be reached); 404 unknown store. */
export function exportStockCsv(api: Api, session: RequestSession, storeId: string): Promise<Response | null> {
  return upstreamResponse(api, `inventory/export?${query(storeId)}`, { method: 'GET', session })
}

/** The file as the multipart body of the import's two calls. */
function fileForm(file: File): FormData {
  const formData = new FormData()
  formData.append('file', file, file.name || 'stock.csv')
  return formData
}

/**
 * `POST /api/inventory/import?storeId=` (multipart `file`): the dry run. Answers the counts, the rows
 * that change (before → after, in units) and every row error (line, column, message). Failures: 400 a
 * file that is not UTF-8 or not CSV, 404 unknown store, 413 over STOCK_CSV_MAX_BYTES.
 */
export async function checkStockImport(
  api: Api,
  session: RequestSession,
  storeId: string,
  file: File,
): Promise<UpstreamResult<StockImportAnswer>> {
  return parseData(
    await upstream<unknown>(api, `inventory/import?${query(storeId)}`, { method: 'POST', formData: fileForm(file), session }),
    StockImportAnswerSchema,
  )
}

/**
 * `POST /api/inventory/import/apply?storeId=` (the same file): every changed stock in one transaction.
 * Failures: 400 with one issue per row error (`path` "line 7, stock"), nothing written; 404 unknown store.
 */
export async function applyStockImport(
  api: Api,
  session: RequestSession,
  storeId: string,
  file: File,
): Promise<UpstreamResult<StockImportAnswer>> {
  return parseData(
    await upstream<unknown>(api, `inventory/import/apply?${query(storeId)}`, { method: 'POST', formData: fileForm(file), session }),
    StockImportAnswerSchema,
  )
}
