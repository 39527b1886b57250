/**
 * Help after delivery on the shopper's order page (docs/help-after-delivery.md): a "Get help" link
 * to /dashboard/myorder/:orderId/help while the window is open, and the order's reports with their
 * status (refunded, waiting for review, not accepted with the reason).
 */
import { Link } from 'react-router'
import { formatRupees } from '../lib/money.ts'
import { formatOrderTime } from '../lib/order-status.ts'
import { ISSUE_KIND_LABELS, type IssueOptions, type OrderIssue } from '../../contract/order-issue.ts'

/** A report's status in words. */
export function issueStatusWords(issue: Pick<OrderIssue, 'status' | 'refundMethod' | 'paymentMethod' | 'value'>): string {
  if (issue.status === 'pending') return 'Waiting for review'
  if (issue.status === 'rejected') return 'Not accepted'
  if (issue.refundMethod === 'cod_note') return `${formatRupees(issue.value)} to be paid back by the store`
  return `Refunded ${formatRupees(issue.value)} to your ${issue.paymentMethod === 'upi' ? 'UPI' : issue.paymentMethod}`
}

/** The "Get help" link (while open) and the reports of a delivered order; nothing when there is neither. */
export function OrderHelp({ help, orderPath }: { help: IssueOptions; orderPath: string }) {
  if (!help.open && help.issues.length === 0) return null
  return (
    <section aria-label="Help with this order" className="rounded-xl border border-slate-200 bg-white p-4 text-sm">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="font-semibold text-slate-900">Problem with your order?</h2>
        {help.open ? (
          <Link to={`${orderPath}/help`} className="font-semibold text-accent hover:underline">
            Get help
          </Link>
        ) : null}
      </div>
      {help.open && help.openUntil ? (
        <p className="text-slate-600">Report missing, damaged, wrong or expired items until {formatOrderTime(help.openUntil)}.</p>
      ) : null}
      {help.issues.length > 0 ? (
        <ul aria-label="Your reports" className="mt-2 grid gap-2">
          {help.issues.map((issue) => (
            <li key={issue._id} data-issue-id={issue._id} data-status={issue.status} className="rounded-lg border border-slate-200 p-2">
              <p className="break-words text-slate-900">
                {ISSUE_KIND_LABELS[issue.kind]}: {issue.units} × {issue.name}
              </p>
              <p className={issue.status === 'rejected' ? 'text-red-700' : 'text-slate-700'} data-field="issue-status">
                {issueStatusWords(issue)}
                {issue.status === 'rejected' && issue.rejectReason ? `: ${issue.rejectReason}` : ''}
              </p>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  )
}
