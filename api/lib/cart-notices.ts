/**
 * Cart-change notices (docs/decisions/0038-cart-summaries-in-memory.md): the database announces,
 * after each commit, whose cart summary may have changed (migration 0022_cart_change_notices.sql:
 * triggers on carts, cart lines, refresh tokens and users `pg_notify` on CART_CHANNEL), and this
 * hub hands each notice to this process's listeners (the storefront's cache of cart summaries).
 *
 * A notice's payload is the owner's key, `user:<user id>` or `guest:<SHA-256 hex of the guest cart
 * id>` (`cartOwnerKey`, server-shared/cart-owner-key.ts, computes the same). A `null` notice means
 * "anything may have changed": the listening connection was lost and notices may be lost with it.
 *
 * On PGlite the notices come from the one embedded database (`listen`), delivered before the
 * committing statement's promise resolves, so a write is seen by the next read of the same process.
 * On PostgreSQL the cache bus's listening connection (api/lib/cache-bus.ts) delivers them, every
 * instance's own included, within milliseconds of the commit.
 */

/** The channel the triggers notify on. */
export const CART_CHANNEL = 'cart_changed'

/** Called with an owner's key, or null for "everything". */
export type CartNoticeListener = (ownerKey: string | null) => void

export interface CartNotices {
  /** Hands a notice (a payload, or null for everything) to every listener; never throws. */
  deliver(ownerKey: string | null): void
  /** Listens to every notice; returns the unsubscribe function. */
  subscribe(listener: CartNoticeListener): () => void
}

/** Longest owner key accepted from a payload: `guest:` and 64 hex digits, or `user:` and an id. */
const MAX_KEY_LENGTH = 100

/** The owner key of a notice's payload, or undefined for a payload that is not one (ignored). */
export function readCartNotice(payload: string | undefined): string | undefined {
  if (!payload || payload.length > MAX_KEY_LENGTH) return undefined
  return payload.startsWith('user:') || payload.startsWith('guest:') ? payload : undefined
}

/** This process's hub (see the module comment); `onError` hears a listener that threw. */
export function createCartNotices(opts: { onError?: (err: unknown) => void } = {}): CartNotices {
  const listeners = new Set<CartNoticeListener>()
  return {
    deliver(ownerKey) {
      for (const listener of [...listeners]) {
        try {
          listener(ownerKey)
        } catch (err) {
          opts.onError?.(err)
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}
