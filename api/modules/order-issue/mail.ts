/**
 * The mail of a decided problem report (docs/help-after-delivery.md, "Audit and mail"): refunded (automatically
 * or approved) or rejected with the admin's reason, to the report's shopper. Sent by the job runner
 * from the `order-issue.mail` job written in the decision's transaction, so a decision rolled back
 * mails nothing. Jobs run at least once (docs/jobs.md, "Order emails"): each mail carries a stable
 * Message-ID of the report and its outcome (RFC 5322 §3.6.4), recorded in `sent_mails` after the
 * send; a job run again finds it there and sends nothing, so each decision is mailed once.
 */
import { eq } from 'drizzle-orm'
import type { AppDeps } from '../../deps.ts'
import { sentMails, users } from '../../db/schema.ts'
import { ISSUE_KIND_LABELS, issueOutcomeMessage, type OrderIssue } from '../../../contract/order-issue.ts'
import { orderPageLink } from '../order/mail.ts'
import { issueForMail } from './service.ts'

type IssueMailDeps = Pick<AppDeps, 'db' | 'mailer' | 'logger'> & Partial<Pick<AppDeps, 'publicUrl'>>

/** `s` with the five HTML-special characters escaped (OWASP XSS Prevention Cheat Sheet, rule 1). */
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)

/** The Message-ID of a report's decision mail: `<order-issue.<id>.<status>@host>` (PUBLIC_URL's host, else grocery.localhost). */
export function issueMailMessageId(issueId: string, status: string, publicUrl: string | undefined): string {
  let host = 'grocery.localhost'
  try {
    if (publicUrl) host = new URL(publicUrl).hostname
  } catch {
    // An unparsable PUBLIC_URL is refused at start (api/config.ts); the default keeps ids well formed.
  }
  return `<order-issue.${issueId}.${status}@${host}>`
}

/** The subject and text lines of a decided report's mail. */
export function issueMailText(issue: OrderIssue, name: string, link: string): { subject: string; lines: string[] } {
  const what = `${ISSUE_KIND_LABELS[issue.kind].toLowerCase()}: ${issue.units} × ${issue.name}${issue.unit ? ` (${issue.unit})` : ''}`
  const outcome = issueOutcomeMessage(issue)
  const lines = [
    `Hi ${name},`,
    '',
    `About your report on order ${issue.orderNumber} (${what}):`,
    issue.status === 'rejected' ? `${outcome}. Reason: ${issue.rejectReason ?? ''}` : `${outcome}.`,
    '',
    `See your order: ${link}`,
  ]
  const subject = issue.status === 'rejected' ? `Your report on order ${issue.orderNumber}` : `Refund for order ${issue.orderNumber}`
  return { subject, lines }
}

/**
 * The handler of an `order-issue.mail` job: mails the report's outcome to its shopper once. A report
 * still pending (never written so) or gone, or an account without an email, sends nothing.
 * @throws whatever the mailer throws (the job is then retried)
 */
export async function sendIssueMail(deps: IssueMailDeps, issueId: string): Promise<void> {
  const issue = await issueForMail(deps, issueId)
  if (!issue || issue.status === 'pending') return
  const messageId = issueMailMessageId(issue._id, issue.status, deps.publicUrl)
  const [done] = await deps.db.select({ id: sentMails.messageId }).from(sentMails).where(eq(sentMails.messageId, messageId))
  if (done) {
    deps.logger.info({ issueId }, 'report mail already sent: not sent again')
    return
  }
  const [shopper] = await deps.db.select({ name: users.name, email: users.email }).from(users).where(eq(users.id, issue.userId))
  if (!shopper?.email) return
  const link = orderPageLink(deps.publicUrl, issue.orderRowId)
  const { subject, lines } = issueMailText(issue, shopper.name, link)
  const text = lines.join('\n')
  const html = `<p>${lines.map(escapeHtml).join('<br>')}</p>`
  await deps.mailer.send({ to: shopper.email, subject, text, html, messageId })
  await deps.db.insert(sentMails).values({ messageId }).onConflictDoNothing()
}
