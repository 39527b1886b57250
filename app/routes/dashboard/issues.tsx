/**
 * /dashboard/issues (ADMIN or STAFF; docs/help-after-delivery.md, "The admin's queue"): shoppers'
 * problem reports above the automatic caps, oldest first, each with its order, line, kind, units,
 * value, note and photo. An admin approves one (it is refunded: to the original payment, or as a note
 * the store pays back for cash on delivery) or rejects it with a reason; staff see their store's and
 * may reject (approving moves money: admin only, as the API checks). Plain POST forms answered by a
 * redirect with a toast, so the page works without JavaScript.
 */
import { data, Form, Link } from 'react-router'
import type { Route } from './+types/issues'
import * as issueApi from '../../.server/api/order-issue.ts'
import { apiOf } from '../../.server/api-context.ts'
import { requireStaff } from '../../.server/auth.ts'
import { getSession } from '../../.server/context.ts'
import { throwFailure } from '../../.server/failure.ts'
import { readText, tryReadForm } from '../../.server/form.ts'
import { redirectWithToast } from '../../.server/toast.ts'
import { RoleGuard } from '../../components/admin-guard.tsx'
import { GeneralErrorBoundary } from '../../components/error-boundary.tsx'
import { SHOP_NAME } from '../../components/header.tsx'
import { IssueNoteAndPhoto } from '../../components/order-issues-panel.tsx'
import { Button } from '../../components/ui/button.tsx'
import { useIsPending } from '../../components/forms.tsx'
import { formatRupees } from '../../lib/money.ts'
import { formatOrderTime } from '../../lib/order-status.ts'
import { DecideIssueSchema, ISSUE_KIND_LABELS, ISSUE_NOTE_MAX, type OrderIssue } from '../../../contract/order-issue.ts'

export const meta: Route.MetaFunction = () => [
  { title: `Issues | ${SHOP_NAME}` },
  { name: 'description', content: 'Problem reports waiting for a decision.' },
  { name: 'robots', content: 'noindex' },
]

const ISSUES_PATH = '/dashboard/issues'

/** The queue for an admin or staff (staff: their store, as the API answers); anyone else: the red box with 403. */
export async function loader({ context, url }: Route.LoaderArgs) {
  const { isStaff, isAdmin } = await requireStaff(context, url)
  if (!isStaff) return data({ isStaff: false as const, isAdmin: false, issues: [] as OrderIssue[] }, { status: 403 })
  const queue = await issueApi.issueQueue(apiOf(context), getSession(context))
  if (!queue.ok) throwFailure(queue)
  return data({ isStaff: true as const, isAdmin, issues: queue.data }, { headers: { 'Cache-Control': 'no-store' } })
}

/** `approve` or `reject` (with `reason`) one report: the API decides who may. */
export async function action({ request, context, url }: Route.ActionArgs) {
  const { isStaff } = await requireStaff(context, url)
  const session = getSession(context)
  if (!isStaff) throw data('Do not have permission', { status: 403 })
  const read = await tryReadForm(request, { multipartMaxBytes: 16 * 1024 })
  if (!read.ok) return redirectWithToast(session, ISSUES_PATH, { type: 'error', message: read.message })
  const parsed = DecideIssueSchema.safeParse({
    issueId: readText(read.formData, 'issueId'),
    decision: readText(read.formData, 'decision'),
    reason: readText(read.formData, 'reason'),
  })
  if (!parsed.success)
    return redirectWithToast(session, ISSUES_PATH, { type: 'error', message: parsed.error.issues[0]?.message ?? 'Check the form' })
  const result = await issueApi.decideIssue(apiOf(context), session, parsed.data)
  if (!result.ok) return redirectWithToast(session, ISSUES_PATH, { type: 'error', message: result.message })
  return redirectWithToast(session, ISSUES_PATH, { type: 'success', message: result.message })
}

export default function IssuesPage({ loaderData }: Route.ComponentProps) {
  const { isStaff, isAdmin, issues } = loaderData
  return (
    <RoleGuard allowed={isStaff}>
      <section className="p-4 md:p-6">
        <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
          <h1 className="text-lg font-semibold text-slate-900">Issues</h1>
          <a href={ISSUES_PATH} className="text-sm font-semibold text-accent hover:underline">
            Refresh
          </a>
        </div>
        <p className="mb-3 text-sm text-slate-600">Problem reports above the automatic refund limits, oldest first.</p>
        {issues.length === 0 ? (
          <p role="status" className="text-sm text-slate-600">
            No report waiting.
          </p>
        ) : (
          <ul aria-label="Waiting reports" className="grid gap-3 lg:grid-cols-2">
            {issues.map((issue) => (
              <IssueCard key={issue._id} issue={issue} isAdmin={isAdmin} />
            ))}
          </ul>
        )}
      </section>
    </RoleGuard>
  )
}

/** One report: what, how much, the photo, and the decision forms. */
function IssueCard({ issue, isAdmin }: { issue: OrderIssue; isAdmin: boolean }) {
  const isPending = useIsPending()
  return (
    <li data-issue-id={issue._id} className="min-w-0 rounded-xl border border-slate-200 bg-white p-4 text-sm shadow-sm">
      <p className="flex flex-wrap items-center gap-x-2">
        <Link to={`/dashboard/orders/${issue.orderId}`} className="font-semibold text-accent hover:underline">
          {issue.orderNumber}
        </Link>
        <span className="text-slate-600">reported {formatOrderTime(issue.createdAt)}</span>
      </p>
      <p className="mt-1 font-medium break-words text-slate-900">
        {ISSUE_KIND_LABELS[issue.kind]}: {issue.units} × {issue.name}
        {issue.unit ? <span className="font-normal text-slate-600"> · {issue.unit}</span> : null}
      </p>
      <p data-field="issue-value" className="text-slate-700">
        Value {formatRupees(issue.value)} ·{' '}
        {issue.paymentMethod === 'cod' ? 'cash on delivery (paid back by the store)' : `paid by ${issue.paymentMethod}`}
      </p>
      <IssueNoteAndPhoto issue={issue} />
      <div className="mt-3 flex flex-wrap items-end gap-3">
        {isAdmin ? (
          <Form method="post" action={ISSUES_PATH} aria-label={`Approve ${issue.orderNumber} ${issue.name}`}>
            <input type="hidden" name="issueId" value={issue._id} />
            <Button type="submit" name="decision" value="approve" size="sm" disabled={isPending}>
              Approve refund
            </Button>
          </Form>
        ) : null}
        <Form
          method="post"
          action={ISSUES_PATH}
          className="flex min-w-0 flex-wrap items-end gap-2"
          aria-label={`Reject ${issue.orderNumber} ${issue.name}`}
        >
          <input type="hidden" name="issueId" value={issue._id} />
          <label className="grid min-w-0 gap-1" htmlFor={`reason-${issue._id}`}>
            Reason to reject
            <input
              id={`reason-${issue._id}`}
              name="reason"
              required
              maxLength={ISSUE_NOTE_MAX}
              className="min-h-11 w-56 max-w-full min-w-0 rounded-lg border border-slate-300 px-2"
            />
          </label>
          <Button type="submit" name="decision" value="reject" size="sm" variant="secondary" disabled={isPending}>
            Reject
          </Button>
        </Form>
      </div>
    </li>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
