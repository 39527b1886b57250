/**
 * The typed call to the audit trail (GET /api/audit/list, ADMIN; docs/product.md, "Audit trail"):
 * 403 for anyone else. The answer is parsed with contract/audit.ts, so an answer off contract is a
 * 502 failure; failures come back as `{ ok: false }`, never thrown.
 */
import { z } from 'zod'
import type { RequestSession } from '../session.ts'
import { parseAnswer, upstream, type UpstreamResult } from '../upstream.ts'
import { successOf } from '../../../contract/envelope.ts'
import { AuditEntrySchema, type AuditEntryAnswer, type AuditQuery } from '../../../contract/audit.ts'
import { auditFilterQuery } from '../../lib/audit-filters.ts'
import { PagingExtraShape, type PagingExtra } from '../../../contract/paging.ts'
import type { Api } from '../api-context.ts'

export type { AuditEntryAnswer }

const AuditPageSchema = successOf(z.array(AuditEntrySchema), { ...PagingExtraShape, page: z.number() })

/** One page of entries and the totals of the filters. */
export interface AuditPage extends PagingExtra {
  entries: AuditEntryAnswer[]
  page: number
}

/** One page of the entries `query` selects, newest first. 400 for a filter the API refuses. */
export async function listAudit(api: Api, session: RequestSession, query: AuditQuery): Promise<UpstreamResult<AuditPage>> {
  const search = auditFilterQuery(query, Number(query.page ?? 1))
  const result = parseAnswer(await upstream(api, `audit/list${search ? `?${search}` : ''}`, { session }), AuditPageSchema)
  if (!result.ok) return result
  const { data, totalCount, totalNoPage, page } = result.data
  return { ...result, data: { entries: data, totalCount, totalNoPage, page } }
}
