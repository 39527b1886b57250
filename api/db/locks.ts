/**
 * Row locks several modules take on the same rows, written once so that they lock alike.
 */
import { eq } from 'drizzle-orm'
import type { Tx } from './db.ts'
import { orders, users } from './schema.ts'

/**
 * Locks the user's row (`for update`) until `tx` ends: a user's order placements and address
 * additions and removals run one at a time, so a retried placement finds the first order
 * (api/modules/order/placement.ts), two quick adds cannot both pass the address limit, and an order
 * cannot name an address in the moment it is deleted (api/modules/address/service.ts).
 */
export async function lockUserRow(tx: Tx, userId: string): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update')
}

/**
 * Locks an order's row (`for update`) until `tx` ends: whatever changes its status, payment state or
 * refunds (api/modules/order/service.ts, api/modules/payment/) takes it first, so they apply one at a
 * time.
 */
export async function lockOrderRow(tx: Tx, orderId: string): Promise<void> {
  await tx.select({ id: orders.id }).from(orders).where(eq(orders.id, orderId)).for('update')
}
