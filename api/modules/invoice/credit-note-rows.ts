/**
 * The stored credit notes of an order (table `credit_notes`, written by the triggers of migration
 * 0026_tax_invoices and, for a problem report's refund, by `issue_report_credit_note`, migration
 * 0048): read by the invoice, which names them, and by api/modules/invoice/credit-notes.ts, which
 * computes each one. A module of its own so neither of those two imports the other.
 */
import { asc, eq } from 'drizzle-orm'
import type { CreditNote } from '../../../contract/invoice.ts'
import type { IssueKind } from '../../../contract/order-issue.ts'
import type { AppDeps } from '../../deps.ts'
import { creditNotes, orderIssues } from '../../db/schema.ts'

/**
 * One stored credit note: its number, the line it credits (null for a cancel), why, when; a problem
 * report's note also its report (`issue`: id, kind, the units credited and their value in paise,
 * GST included), null on the others.
 */
export interface CreditNoteRow {
  number: string
  order_line_id: string | null
  reason: CreditNote['reason']
  issued_at: Date | string
  issue: { id: string; kind: IssueKind; units: number; amountPaise: number } | null
}

/** The credit notes of an order (oldest first: by issue moment, then number), as stored. */
export async function creditNoteRows(db: AppDeps['db'], orderId: string): Promise<CreditNoteRow[]> {
  const rows = await db
    .select({
      number: creditNotes.number,
      order_line_id: creditNotes.orderLineId,
      reason: creditNotes.reason,
      issued_at: creditNotes.issuedAt,
      issueId: creditNotes.orderIssueId,
      units: creditNotes.units,
      amountPaise: creditNotes.amountPaise,
      kind: orderIssues.kind,
    })
    .from(creditNotes)
    .leftJoin(orderIssues, eq(orderIssues.id, creditNotes.orderIssueId))
    .where(eq(creditNotes.orderId, orderId))
    .orderBy(asc(creditNotes.issuedAt), asc(creditNotes.number))
  return rows.map(({ issueId, units, amountPaise, kind, ...r }) => ({
    ...r,
    issue: issueId !== null && kind !== null && units !== null && amountPaise !== null ? { id: issueId, kind, units, amountPaise } : null,
  }))
}
