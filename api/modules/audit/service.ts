/**
 * Reading the audit trail (docs/product.md, "Audit trail"): one page of entries, newest first, that
 * the filters select. Entries are written by api/lib/audit.ts `recordAudit`, never here.
 */
import { sql, type SQL } from 'drizzle-orm'
import type { AppDeps } from '../../deps.ts'
import { queryRows } from '../../db/query.ts'
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
  if (actor) clauses.push(sql`a.actor_email like ${`%${escapeLike(actor)}%`}`)
  if (query.entity) clauses.push(sql`a.entity = ${query.entity}`)
  if (query.action) clauses.push(sql`a.action = ${query.action}`)
  if (query.from) clauses.push(sql`a.at >= ${istDayStart(query.from)}`)
  if (query.to) clauses.push(sql`a.at < ${istDayEnd(query.to)}`)
  const where = clauses.length > 0 ? sql`where ${sql.join(clauses, sql` and `)}` : sql``
  const [rows, [count]] = [
    await queryRows<AuditEntryAnswer & { at: string | Date }>(
      deps.db,
      sql`select a.id as "_id", a.at, a.actor_email as actor, a.action, a.entity, a.entity_id as "entityId", a.before, a.after
          from audit_log a ${where}
          order by a.at desc, a.id desc
          limit ${AUDIT_PAGE_SIZE} offset ${(page - 1) * AUDIT_PAGE_SIZE}`,
    ),
    await queryRows<{ n: number | string }>(deps.db, sql`select count(*) as n from audit_log a ${where}`),
  ]
  const totalCount = Number(count?.n ?? 0)
  return {
    data: rows.map((row) => ({ ...row, at: new Date(row.at).toISOString() })),
    totalCount,
    totalNoPage: Math.ceil(totalCount / AUDIT_PAGE_SIZE),
    page,
  }
}
