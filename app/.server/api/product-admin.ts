/**
 * Typed calls to the admin product grid's endpoints (docs/product-csv.md): the grid's page
 * (POST /api/product/admin-list), the CSV export narrowed by its filters (GET /api/product/export),
 * the import's dry run and apply (POST /api/product/import, /import/apply), the same as jobs
 * (POST /api/product/import/jobs, /import/jobs/{jobId}/apply, GET /import/jobs/{jobId};
 * docs/product-csv.md, "Imports as jobs") and the bulk price and
 * stock edit (POST /api/product/bulk-update). Every call carries the admin's session; answers are
 * parsed with the schemas of contract/product-admin.ts and contract/product-import.ts (a malformed one is a 502 failure); failures come back as
 * `{ ok: false }` with the API's status, message and issues, never thrown.
 */
import { z } from 'zod'
import { parseAnswer, parseData, upstream, upstreamResponse, type UpstreamResult } from '../upstream.ts'
import type { RequestSession } from '../session.ts'
import { successOf } from '../../../contract/envelope.ts'
import {
  AdminProductRowSchema,
  type AdminProductFilter,
  type AdminProductListInput,
  type AdminProductRow,
} from '../../../contract/product-admin.ts'
import {
  ImportAnswerSchema,
  ImportJobSchema,
  type BulkUpdateInput,
  type ImportAnswer,
  type ImportJob,
} from '../../../contract/product-import.ts'
import { productGridQuery } from '../../lib/product-grid.ts'
import { PagingExtraShape, type PagingExtra } from '../../../contract/paging.ts'
import type { Api } from '../api-context.ts'

export type { AdminProductRow, ImportAnswer, ImportJob }

/** One page of the grid: its rows, how many products the filters select, the page count and the brands for the filter. */
export interface AdminProductGridPage extends PagingExtra {
  rows: AdminProductRow[]
  brands: string[]
}

const GridAnswerSchema = successOf(z.array(AdminProductRowSchema), {
  ...PagingExtraShape,
  brands: z.array(z.string()),
})

/** `POST /api/product/admin-list` with the grid's filters, sort, `page` (1-based) and `limit`; 400 names a refused filter. */
export async function listProductGrid(
  api: Api,
  session: RequestSession,
  input: Partial<AdminProductListInput> & { page: number; limit: number },
): Promise<UpstreamResult<AdminProductGridPage>> {
  const result = parseAnswer(await upstream<unknown>(api, 'product/admin-list', { method: 'POST', json: input, session }), GridAnswerSchema)
  if (!result.ok) return result
  const { data, totalCount, totalNoPage, brands } = result.data
  return { ...result, data: { rows: data, totalCount, totalNoPage, brands } }
}

/**
 * `GET /api/product/export?<filters>`: the API's own response (its body the CSV stream, never read
 * here), or null when the API cannot be reached.
 */
export function exportProductsCsv(api: Api, session: RequestSession, filter: Partial<AdminProductFilter>): Promise<Response | null> {
  const query = productGridQuery(filter)
  return upstreamResponse(api, `product/export${query ? `?${query}` : ''}`, { method: 'GET', session })
}

/**
 * `POST /api/product/import` (multipart field `file`): the dry run. Answers the counts, every error
 * (line, column, message; at most 1,000, `errorCount` the total) and the upload id the apply names
 * when there is no error. 400 a file that is not UTF-8, 413 over the cap.
 */
export async function checkProductImport(api: Api, session: RequestSession, file: File): Promise<UpstreamResult<ImportAnswer>> {
  const formData = new FormData()
  formData.append('file', file, file.name || 'products.csv')
  return parseData(await upstream<unknown>(api, 'product/import', { method: 'POST', formData, session }), ImportAnswerSchema)
}

/**
 * `POST /api/product/import/apply` `{ upload }`: writes the checked file in one transaction. 404 when
 * no such upload waits (applied already, or older than a day); 400 with one issue per row that no
 * longer applies (nothing written).
 */
export async function applyProductImport(api: Api, session: RequestSession, upload: string): Promise<UpstreamResult<ImportAnswer>> {
  return parseData(await upstream<unknown>(api, 'product/import/apply', { method: 'POST', json: { upload }, session }), ImportAnswerSchema)
}

/**
 * `POST /api/product/import/jobs` (multipart field `file`): stores the file and queues its dry run.
 * Answers the job (202, `status` queued); 400 a file that is not UTF-8, 413 over the cap.
 */
export async function startProductImportJob(api: Api, session: RequestSession, file: File): Promise<UpstreamResult<ImportJob>> {
  const formData = new FormData()
  formData.append('file', file, file.name || 'products.csv')
  return parseData(await upstream<unknown>(api, 'product/import/jobs', { method: 'POST', formData, session }), ImportJobSchema)
}

/**
 * `POST /api/product/import/jobs/{jobId}/apply`: queues the apply of a dry run that found no error
 * (asked again, answers the same apply). 404 an unknown dry run; 409 one still running, with
 * errors, or older than a day.
 */
export async function startProductImportApply(api: Api, session: RequestSession, jobId: string): Promise<UpstreamResult<ImportJob>> {
  return parseData(
    await upstream<unknown>(api, `product/import/jobs/${encodeURIComponent(jobId)}/apply`, { method: 'POST', session }),
    ImportJobSchema,
  )
}

/** `GET /api/product/import/jobs/{jobId}`: the job's progress (rows done of total) and, once finished, its result. 404 unknown. */
export async function getProductImportJob(api: Api, session: RequestSession, jobId: string): Promise<UpstreamResult<ImportJob>> {
  return parseData(
    await upstream<unknown>(api, `product/import/jobs/${encodeURIComponent(jobId)}`, { method: 'GET', session }),
    ImportJobSchema,
  )
}

/**
 * `POST /api/product/bulk-update` `{ items }`: MRP (`price`), selling price (rupees) and stock (units)
 * of many products in one transaction. Answers how many changed; 404 an unknown id, 400 a selling
 * price above its MRP, each with the item's path (`items.3.sellingPrice`); nothing written then.
 */
export async function bulkUpdateProducts(
  api: Api,
  session: RequestSession,
  items: BulkUpdateInput['items'],
): Promise<UpstreamResult<{ updated: number }>> {
  return parseData(
    await upstream<unknown>(api, 'product/bulk-update', { method: 'POST', json: { items }, session }),
    z.object({ updated: z.number().int() }),
  )
}
