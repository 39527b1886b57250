/**
 * The key a cart's owner is named by in cart-change notices and in the storefront's cache of cart
 * summaries (docs/decisions/0038-cart-summaries-in-memory.md): `user:<user id>` for a signed-in
 * shopper's cart, `guest:<SHA-256 hex of the guest cart id>` for a guest's. The hash is the one the
 * API stores a guest cart under (`carts.guest_token_hash`), so the database's notices
 * (migration 0022_cart_change_notices.sql) name a guest cart without ever holding its id.
 */
import { createHash } from 'node:crypto'

/** SHA-256 of a guest cart id, lower-case hex: `carts.guest_token_hash`. */
export function guestCartHash(guestCartId: string): string {
  return createHash('sha256').update(guestCartId).digest('hex')
}

/**
 * The owner key of a signed-in user's cart or of a guest cart, named by its id or by the id's hash
 * (see the module comment).
 */
export function cartOwnerKey(owner: { userId: string } | { guestCartId: string } | { guestCartHash: string }): string {
  if ('userId' in owner) return `user:${owner.userId}`
  return `guest:${'guestCartHash' in owner ? owner.guestCartHash : guestCartHash(owner.guestCartId)}`
}
