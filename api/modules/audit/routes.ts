/**
 * Routes of /api/audit (ADMIN only; docs/product.md, "Audit trail"):
 *
 * - GET /api/audit/list?actor=&entity=&action=&from=&to=&page= → one page of entries, newest first,
 *   with `totalCount`, `totalNoPage` and `page`
 */
import { z } from 'zod'
import type { AppDeps } from '../../deps.ts'
import { requireAdmin } from '../../lib/auth.ts'
import { ok } from '../../lib/envelope.ts'
import { BadRequest } from '../../lib/errors.ts'
import { apiRouter } from '../../lib/openapi.ts'
import { AuditEntrySchema, AuditQuerySchema } from '../../../contract/audit.ts'
import { listAudit } from './service.ts'
import { PagingExtraShape } from '../../../contract/paging.ts'

/** Builds the /api/audit router. */
export function auditRoutes(deps: AppDeps) {
  const { router, endpoint } = apiRouter('Audit')

  endpoint(
    {
      method: 'get',
      path: '/list',
      summary: 'One page of the audit trail, newest first, filtered by actor, entity, action and IST dates (ADMIN)',
      description:
        "`actor` matches part of the author's email, case-insensitive; `from` and `to` are IST days, both included. Each entry holds the changed fields only, before and after.",
      access: 'admin',
      query: AuditQuerySchema,
      answers: {
        200: {
          description: 'One page of entries',
          data: z.array(AuditEntrySchema),
          extra: { ...PagingExtraShape, page: z.number() },
        },
      },
    },
    requireAdmin(deps),
    async (c) => {
      const parsed = AuditQuerySchema.safeParse(c.req.query())
      if (!parsed.success) {
        const issues = parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }))
        throw BadRequest(`${issues[0]!.path || 'query'}: ${issues[0]!.message}`, issues)
      }
      const { data, ...paging } = await listAudit(deps, parsed.data)
      return ok(c, 'Audit trail', data, paging)
    },
  )

  return router
}
