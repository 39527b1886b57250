/**
 * /dashboard/audit (admin; docs/product.md, "Audit trail"): every admin and staff change, newest
 * first, AUDIT_PAGE_SIZE a page: when (IST), who (their email; "Command line" for `npm run admin`),
 * what (action and entity, with the row's id) and each changed field before → after.
 *
 * - Guard: `requireAdmin` asks the API who the user is now; anyone else (staff included) gets the
 *   red "Do not have permission" box with 403. The API refuses them too.
 * - Filters (actor, entity, action, IST dates) are a GET form and the pages are links, so the page
 *   works without JavaScript and a filtered view can be shared; a refused filter value is dropped
 *   with its message above the list (app/lib/audit-filters.ts).
 * - Entries are cards that wrap, so nothing scrolls sideways at 360 px.
 */
import { data, Form, Link } from 'react-router'
import type { Route } from './+types/audit'
import { listAudit, type AuditEntryAnswer } from '../../.server/api/audit.ts'
import { requireAdmin } from '../../.server/auth.ts'
import { getSession } from '../../.server/context.ts'
import { throwFailure } from '../../.server/failure.ts'
import { AdminErrorBoundary } from '../../components/admin-guard.tsx'
import { PageLinks } from '../../components/page-links.tsx'
import { SHOP_NAME } from '../../components/header.tsx'
import { buttonClassName } from '../../components/ui/button.tsx'
import { auditChanges, auditFilterQuery, readAuditFilters } from '../../lib/audit-filters.ts'
import { formatOrderTime } from '../../lib/order-status.ts'
import { countLabel } from '../../lib/plural.ts'
import {
  AUDIT_ACTION_LABELS,
  AUDIT_ACTIONS,
  AUDIT_ACTOR_MAX,
  AUDIT_ENTITIES,
  AUDIT_ENTITY_LABELS,
  type AuditQuery,
} from '../../../contract/audit.ts'
import type { PagingExtra } from '../../../contract/paging.ts'
import { apiOf } from '../../.server/api-context.ts'

export const meta: Route.MetaFunction = () => [{ title: `Audit trail | ${SHOP_NAME}` }, { name: 'robots', content: 'noindex' }]

const AUDIT_PATH = '/dashboard/audit'

/** For an admin, the filters of the address, their messages and one page of entries; anyone else gets the thrown 403 of `requireAdmin`. */
export async function loader({ context, url }: Route.LoaderArgs) {
  const api = apiOf(context)
  await requireAdmin(context, url)
  const { query, errors } = readAuditFilters(url.searchParams)
  const empty = { query, errors, entries: [] as AuditEntryAnswer[], totalCount: 0, totalNoPage: 0, page: 1 }
  const result = await listAudit(api, getSession(context), query)
  if (!result.ok) throwFailure(result)
  return data({ ...empty, ...result.data })
}

export default function AuditPage({ loaderData }: Route.ComponentProps) {
  return <AuditTrail {...loaderData} />
}

const fieldClass = 'w-full min-w-0 rounded-lg border border-slate-300 bg-white px-2 py-1.5 text-sm'
const labelClass = 'flex min-w-0 flex-col gap-1 text-sm text-slate-700'

function AuditTrail({
  query,
  errors,
  entries,
  totalCount,
  totalNoPage,
  page,
}: PagingExtra & {
  query: AuditQuery
  errors: string[]
  entries: AuditEntryAnswer[]
  page: number
}) {
  const pageHref = (n: number) => {
    const search = auditFilterQuery(query, n)
    return search ? `?${search}` : AUDIT_PATH
  }
  return (
    <section className="p-4 md:p-6">
      <h1 className="mb-3 text-lg font-semibold text-slate-900">Audit trail</h1>
      <Form method="get" role="search" aria-label="Filter the audit trail" className="mb-3 grid grid-cols-2 gap-2 sm:grid-cols-6">
        <label className={`${labelClass} col-span-2 sm:col-span-2`}>
          Actor (email)
          <input type="search" name="actor" defaultValue={query.actor ?? ''} maxLength={AUDIT_ACTOR_MAX} className={fieldClass} />
        </label>
        <label className={`${labelClass} sm:col-span-2`}>
          Entity
          <select name="entity" defaultValue={query.entity ?? ''} className={fieldClass}>
            <option value="">All</option>
            {AUDIT_ENTITIES.map((e) => (
              <option key={e} value={e}>
                {AUDIT_ENTITY_LABELS[e]}
              </option>
            ))}
          </select>
        </label>
        <label className={`${labelClass} sm:col-span-2`}>
          Action
          <select name="action" defaultValue={query.action ?? ''} className={fieldClass}>
            <option value="">All</option>
            {AUDIT_ACTIONS.map((a) => (
              <option key={a} value={a}>
                {AUDIT_ACTION_LABELS[a]}
              </option>
            ))}
          </select>
        </label>
        <label className={`${labelClass} sm:col-span-2`}>
          From (IST)
          <input type="date" name="from" defaultValue={query.from ?? ''} className={fieldClass} />
        </label>
        <label className={`${labelClass} sm:col-span-2`}>
          To (IST)
          <input type="date" name="to" defaultValue={query.to ?? ''} className={fieldClass} />
        </label>
        <div className="col-span-2 flex items-end gap-2 sm:col-span-2">
          <button type="submit" className={buttonClassName({ variant: 'primary', size: 'sm' })}>
            Filter
          </button>
          <Link to={AUDIT_PATH} className={buttonClassName({ variant: 'secondary', size: 'sm' })}>
            Clear
          </Link>
        </div>
      </Form>
      {errors.length > 0 ? (
        <ul role="alert" className="mb-3 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
          {errors.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      ) : null}
      <p className="mb-3 text-sm text-slate-600">{countLabel(totalCount, 'entry', 'entries')}</p>
      {entries.length === 0 ? (
        <p className="rounded-lg bg-slate-50 p-4 text-slate-700">No changes match these filters.</p>
      ) : (
        <ol aria-label="Audit entries" className="grid gap-3">
          {entries.map((entry) => (
            <AuditCard key={entry._id} entry={entry} />
          ))}
        </ol>
      )}
      <PageLinks page={page} totalPages={totalNoPage} href={pageHref} />
    </section>
  )
}

/** One entry: when, who, what, and a line per changed field, before → after. */
function AuditCard({ entry }: { entry: AuditEntryAnswer }) {
  const changes = auditChanges(entry.before, entry.after)
  return (
    <li data-card="audit entry" data-entity={entry.entity} className="min-w-0 rounded-xl border border-slate-200 bg-white p-3 shadow-sm">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
        <p className="font-semibold text-slate-900">
          {AUDIT_ACTION_LABELS[entry.action]} · {AUDIT_ENTITY_LABELS[entry.entity]}
        </p>
        <time dateTime={entry.at} className="text-xs text-slate-500">
          {formatOrderTime(entry.at)}
        </time>
      </div>
      <p className="text-sm break-words text-slate-700">
        by <span data-field="actor">{entry.actor ?? 'Command line (npm run admin)'}</span>
      </p>
      <p className="text-xs break-all text-slate-500">{entry.entityId}</p>
      {changes.length > 0 ? (
        <dl className="mt-2 grid grid-cols-[minmax(0,auto)_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
          {changes.map((c) => (
            <div key={c.field} className="contents" data-change={c.field}>
              <dt className="break-words text-slate-500">{c.field}</dt>
              <dd className="min-w-0 break-words">
                <span className="text-red-700 line-through decoration-red-300">{c.before}</span> →{' '}
                <span className="font-medium text-green-800">{c.after}</span>
              </dd>
            </div>
          ))}
        </dl>
      ) : null}
    </li>
  )
}

export { AdminErrorBoundary as ErrorBoundary }
