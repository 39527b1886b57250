/**
 * Delivery addresses (docs/commerce-api.md, "Addresses"): a user's own only (another user's id is a
 * 404, never touched). Removing an address deletes its row unless an order names it; then it is
 * kept, hidden (`status: false`), so the order keeps pointing at it (orders also keep a snapshot).
 * So removed rows never outnumber a user's orders, however often an address is added and removed.
 */
import { and, desc, eq, notExists, sql } from 'drizzle-orm'
import type { AppDeps } from '../../deps.ts'
import { lockUserRow } from '../../db/locks.ts'
import { addresses, orders } from '../../db/schema.ts'
import { Conflict, NotFound } from '../../lib/errors.ts'
import type { Address, CreateAddressInput, UpdateAddressInput } from '../../../contract/address.ts'

type AddressDeps = Pick<AppDeps, 'db'>

/** Live addresses one user may keep. */
export const MAX_ADDRESSES_PER_USER = 20
export const ADDRESS_NOT_FOUND = 'Address not found'

type AddressRow = typeof addresses.$inferSelect

/** A row as the wire's address. */
export function toAddressAnswer(row: AddressRow): Address {
  return {
    _id: row.id,
    address_line: row.addressLine,
    city: row.city,
    state: row.state,
    pincode: row.pincode,
    country: row.country,
    mobile: row.mobile,
    label: row.label,
    floor: row.floor,
    landmark: row.landmark,
    status: row.status,
    userId: row.userId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  }
}

/**
 * The columns `input` sets. The extras (label, floor, landmark) only when sent: a create without
 * them takes the columns' defaults (Home, '', ''), an update without them keeps the stored values
 * (docs/commerce-api.md, "Addresses").
 */
const columnsOf = (input: CreateAddressInput) => ({
  addressLine: input.address_line,
  city: input.city,
  state: input.state,
  pincode: input.pincode,
  country: input.country,
  mobile: input.mobile,
  ...(input.label === undefined ? {} : { label: input.label }),
  ...(input.floor === undefined ? {} : { floor: input.floor }),
  ...(input.landmark === undefined ? {} : { landmark: input.landmark }),
})

/** A user's live addresses, newest first. */
export async function listAddresses(deps: AddressDeps, userId: string): Promise<Address[]> {
  const rows = await deps.db
    .select()
    .from(addresses)
    .where(and(eq(addresses.userId, userId), eq(addresses.status, true)))
    .orderBy(desc(addresses.createdAt), desc(addresses.id))
  return rows.map(toAddressAnswer)
}

/** Adds an address. @throws 409 past MAX_ADDRESSES_PER_USER live addresses */
export async function createAddress(deps: AddressDeps, userId: string, input: CreateAddressInput): Promise<Address> {
  return deps.db.transaction(async (tx) => {
    // One writer per user, so two quick adds cannot both pass the count.
    await lockUserRow(tx, userId)
    const live = await tx.$count(addresses, and(eq(addresses.userId, userId), eq(addresses.status, true)))
    if (live >= MAX_ADDRESSES_PER_USER) throw Conflict(`You can keep at most ${MAX_ADDRESSES_PER_USER} addresses: remove one first`)
    const [row] = await tx
      .insert(addresses)
      .values({ userId, ...columnsOf(input) })
      .returning()
    return toAddressAnswer(row!)
  })
}

/** Changes one of the user's live addresses. @throws 404 ADDRESS_NOT_FOUND (also another user's) */
export async function updateAddress(deps: AddressDeps, userId: string, input: UpdateAddressInput): Promise<Address> {
  const [row] = await deps.db
    .update(addresses)
    .set({ ...columnsOf(input), updatedAt: new Date() })
    .where(and(eq(addresses.id, input._id), eq(addresses.userId, userId), eq(addresses.status, true)))
    .returning()
  if (!row) throw NotFound(ADDRESS_NOT_FOUND)
  return toAddressAnswer(row)
}

/**
 * Removes one of the user's live addresses: deleted when no order names it, else hidden
 * (`status: false`). Hidden rows that no order names (left by earlier versions) go with it.
 * Runs under the user's row lock, which placing an order takes too (api/modules/order/service.ts),
 * so an order cannot name an address in the moment it is deleted.
 * @throws 404 ADDRESS_NOT_FOUND (also another user's, or one already removed)
 */
export async function disableAddress(deps: AddressDeps, userId: string, id: string): Promise<void> {
  await deps.db.transaction(async (tx) => {
    await lockUserRow(tx, userId)
    const [row] = await tx
      .update(addresses)
      .set({ status: false, updatedAt: sql`now()` })
      .where(and(eq(addresses.id, id), eq(addresses.userId, userId), eq(addresses.status, true)))
      .returning({ id: addresses.id })
    if (!row) throw NotFound(ADDRESS_NOT_FOUND)
    await tx.delete(addresses).where(
      and(
        eq(addresses.userId, userId),
        eq(addresses.status, false),
        notExists(
          tx
            .select({ one: sql`1` })
            .from(orders)
            .where(and(eq(orders.userId, userId), eq(orders.addressId, addresses.id))),
        ),
      ),
    )
  })
}

/** The ids of a user's live addresses (GET /api/user/user-details `address_details`). */
export async function addressIds(deps: AddressDeps, userId: string): Promise<string[]> {
  return (await listAddresses(deps, userId)).map((a) => a._id)
}
