/**
 * The stored credit notes of an order (table `credit_notes`, written by the triggers of migration
 * 0026_tax_invoices): read by the invoice, which names them, and by api/modules/invoice/credit-notes.ts,
 * which computes each one. A module of its own so neither of those two imports the other.
 */
import { sql } from 'drizzle-orm'
import type { CreditNote } from '../../../contract/invoice.ts'
import type { AppDeps } from '../../deps.ts'
import { queryRows } from '../../db/query.ts'

/** One stored credit note: its number, the line it reverses (null for a cancel), why, when. */
export interface CreditNoteRow {
  number: string
  order_line_id: string | null
  reason: CreditNote['reason']
  issued_at: Date | string
}

/** The credit notes of an order (oldest first), as stored. */
export async function creditNoteRows(db: AppDeps['db'], orderId: string): Promise<CreditNoteRow[]> {
  return queryRows<CreditNoteRow>(
    db,
    sql`select number, order_line_id, reason, issued_at from credit_notes where order_id = ${orderId} order by issued_at, number`,
  )
}
