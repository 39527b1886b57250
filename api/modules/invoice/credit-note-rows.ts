/**
 * The stored credit notes of an order (table `credit_notes`, written by the triggers of migration
 * 0026_tax_invoices): read by the invoice, which names them, and by api/modules/invoice/credit-notes.ts,
 * which computes each one. A module of its own so neither of those two imports the other.
 */
import { asc, eq } from 'drizzle-orm'
import type { CreditNote } from '../../../contract/invoice.ts'
import type { AppDeps } from '../../deps.ts'
import { creditNotes } from '../../db/schema.ts'

/** One stored credit note: its number, the line it reverses (null for a cancel), why, when. */
export interface CreditNoteRow {
  number: string
  order_line_id: string | null
  reason: CreditNote['reason']
  issued_at: Date | string
}

/** The credit notes of an order (oldest first), as stored. */
export async function creditNoteRows(db: AppDeps['db'], orderId: string): Promise<CreditNoteRow[]> {
  return db
    .select({
      number: creditNotes.number,
      order_line_id: creditNotes.orderLineId,
      reason: creditNotes.reason,
      issued_at: creditNotes.issuedAt,
    })
    .from(creditNotes)
    .where(eq(creditNotes.orderId, orderId))
    .orderBy(asc(creditNotes.issuedAt), asc(creditNotes.number))
}
