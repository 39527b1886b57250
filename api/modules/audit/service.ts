/**
 * Reading the audit trail (docs/product.md, "Audit trail"): one page of entries, newest first, that
 * the filters select. Entries are written by api/lib/audit.ts `recordAudit`, never here.
 */
import { and, desc, eq, gte, like, lt, type SQL } from 'drizzle-orm'
import type { AppDeps } from '../../deps.ts'
import { auditLog } from '../../db/schema.ts'
import { AUDIT_PAGE_SIZE, type AuditEntryAnswer, type AuditQuery } from '../../../contract/audit.ts'
import { escapeLike, istDayEnd, istDayStart } from '../order/admin-filter.ts'
import type { PagingExtra } from '../../../contract/paging.ts'

/** One page of entries: `data` newest first (ties by id), `totalCount` of all the filters select. */
export interface AuditPage extends PagingExtra {
  data: AuditEntryAnswer[]
  page: number
}

/**
 * The entries `query` selects: `actor` is a case-insensitive part of the author's email, `from`/`to`
 * whole IST days (docs/commerce-api.md, "Orders": the shop's days are India's). AUDIT_PAGE_SIZE a page.
 */
export async function listAudit(deps: Pick<AppDeps, 'db'>, query: AuditQuery): Promise<AuditPage> {
  const page = Number(query.page ?? 1)
  const clauses: SQL[] = []
  const actor = query.actor?.trim().toLowerCase()
  if (actor) clauses.push(like(auditLog.actorEmail, `%${escapeLike(actor)}%`))
  if (query.entity) clauses.push(eq(auditLog.entity, query.entity))
  if (query.action) clauses.push(eq(auditLog.action, query.action))
  if (query.from) clauses.push(gte(auditLog.at, new Date(istDayStart(query.from))))
  if (query.to) clauses.push(lt(auditLog.at, new Date(istDayEnd(query.to))))
  const where = and(...clauses)
  const rows = await deps.db
    .select({
      _id: auditLog.id,
      at: auditLog.at,
      actor: auditLog.actorEmail,
      action: auditLog.action,
      entity: auditLog.entity,
      entityId: auditLog.entityId,
      before: auditLog.before,
      after: auditLog.after,
    })
    .from(auditLog)
    .where(where)
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(AUDIT_PAGE_SIZE)
    .offset((page - 1) * AUDIT_PAGE_SIZE)
  const totalCount = await deps.db.$count(auditLog, where)
  return {
    // `action`, `entity`, `before`, `after` hold what recordAudit (api/lib/audit.ts) wrote, the values contract/audit.ts lists.
    data: rows.map((row) => ({ ...row, at: row.at.toISOString() }) as AuditEntryAnswer),
    totalCount,
    totalNoPage: Math.ceil(totalCount / AUDIT_PAGE_SIZE),
    page,
  }
}
