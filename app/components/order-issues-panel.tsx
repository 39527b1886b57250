/**
 * The problem reports of one order on the admin's order page (docs/help-after-delivery.md, "The
 * admin's queue"): every report, whatever its status, oldest first, with what was reported, its value,
 * note and photo, and what became of it: refunded (automatically or approved, to the payment or paid
 * back by the store), rejected with the reason, or waiting, with the way to the queue where it is
 * decided. Nothing when the order has no report; a line saying so when they could not be read.
 */
import { Link } from 'react-router'
import { formatRupees } from '../lib/money.ts'
import { formatOrderTime } from '../lib/order-status.ts'
import { ISSUE_KIND_LABELS, type OrderIssue } from '../../contract/order-issue.ts'

/** Where pending reports are decided. */
export const ISSUES_QUEUE_PATH = '/dashboard/issues'

/** What became of a report, in the admin's words (`value` in rupees). */
export function issueOutcomeForAdmin(
  issue: Pick<OrderIssue, 'status' | 'auto' | 'refundMethod' | 'paymentMethod' | 'value' | 'rejectReason' | 'decidedAt'>,
): string {
  const when = issue.decidedAt ? ` on ${formatOrderTime(issue.decidedAt)}` : ''
  if (issue.status === 'pending') return 'Waiting for a decision'
  if (issue.status === 'rejected') return `Rejected${when}${issue.rejectReason ? `: ${issue.rejectReason}` : ''}`
  const how = issue.auto ? 'Refunded automatically' : 'Refund approved'
  const where =
    issue.refundMethod === 'cod_note'
      ? 'to be paid back by the store'
      : `to the ${issue.paymentMethod === 'upi' ? 'UPI' : issue.paymentMethod} payment`
  return `${how}${when}: ${formatRupees(issue.value)} ${where}`
}

/** A report's note, quoted, and its photo (opening full size in a new tab), when it has them. */
export function IssueNoteAndPhoto({ issue }: { issue: Pick<OrderIssue, 'note' | 'photo' | 'name'> }) {
  return (
    <>
      {issue.note ? <p className="mt-1 break-words whitespace-pre-line text-slate-700">“{issue.note}”</p> : null}
      {issue.photo ? (
        <a href={issue.photo} target="_blank" rel="noreferrer" className="mt-2 block w-fit">
          <img
            src={issue.photo}
            alt={`Photo of ${issue.name}`}
            className="max-h-40 max-w-full rounded-lg border border-slate-200"
            loading="lazy"
          />
        </a>
      ) : null}
    </>
  )
}

/** The order's reports, or nothing when there are none; `unread`: the reports could not be read (the API failed). */
export function OrderIssuesPanel({ issues, unread = false }: { issues: OrderIssue[]; unread?: boolean }) {
  if (unread)
    return (
      <p role="status" className="rounded-xl border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
        Problem reports could not be loaded: reload the page to see them.
      </p>
    )
  if (issues.length === 0) return null
  return (
    <section aria-labelledby="order-issues" data-card="problem reports" className="rounded-xl border border-slate-200 bg-white p-4 text-sm">
      <h2 id="order-issues" className="font-semibold text-slate-900">
        Problem reports
      </h2>
      <ul aria-label="Problem reports" className="mt-2 grid gap-2">
        {issues.map((issue) => (
          <li
            key={issue._id}
            data-issue-id={issue._id}
            data-status={issue.status}
            className="min-w-0 rounded-lg border border-slate-200 p-3"
          >
            <p className="font-medium break-words text-slate-900">
              {ISSUE_KIND_LABELS[issue.kind]}: {issue.units} × {issue.name}
              {issue.unit ? <span className="font-normal text-slate-600"> · {issue.unit}</span> : null}
            </p>
            <p className="text-slate-600">
              Reported {formatOrderTime(issue.createdAt)} · value {formatRupees(issue.value)}
            </p>
            <IssueNoteAndPhoto issue={issue} />
            <p
              data-field="issue-outcome"
              className={`mt-1 break-words ${issue.status === 'rejected' ? 'text-red-700' : issue.status === 'pending' ? 'text-amber-800' : 'text-emerald-800'}`}
            >
              {issueOutcomeForAdmin(issue)}
              {issue.status === 'pending' ? (
                <>
                  {' · '}
                  <Link to={ISSUES_QUEUE_PATH} className="font-semibold text-accent hover:underline">
                    Decide in Issues
                  </Link>
                </>
              ) : null}
            </p>
          </li>
        ))}
      </ul>
    </section>
  )
}
