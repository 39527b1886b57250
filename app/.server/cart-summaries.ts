/**
 * Cart summaries kept in memory (docs/decisions/0038-cart-summaries-in-memory.md): what every page
 * shows of a shopper's cart (app/lib/cart.ts `CartSummary`), read from the API once and then kept
 * until the database says that cart changed, so a page of a shopper with a cart (spliced or
 * rendered whole) makes no upstream call for it.
 *
 * - Kept under the owner's key (server-shared/cart-owner-key.ts): a guest cart's hash, or a user's
 *   id together with the access token the read was made with, so a summary never outlives the
 *   session it was read for: it is used only while that token is unexpired (its `exp`, RFC 7519
 *   §4.1.4), and the database's notice of the user's sessions ending or their role or status
 *   changing drops it (migration 0022_cart_change_notices.sql).
 * - Dropped on each notice of its owner (`forget`, from api/lib/cart-notices.ts), everything on a
 *   `null` notice or a catalogue change (a price is part of the items total), and at most
 *   CART_SUMMARY_TTL_MS after it was read, which bounds a notice lost with a listening connection.
 * - A read that began before a notice of its owner is not kept (`begin` marks it), so a summary
 *   read before a write and answered after its notice cannot come back stale.
 *
 * Only with the API in this process (server.ts): a BFF apart from its API hears no notices and reads
 * the summary each time.
 */
import { LRUCache } from 'lru-cache'
import { cartOwnerKey } from '../../server-shared/cart-owner-key.ts'
import type { CartSummary } from '../lib/cart.ts'

/** Longest time (ms) a summary is used after it was read, whatever the notices. */
export const CART_SUMMARY_TTL_MS = 60_000
/** Owners whose summaries are kept at most (least recently used dropped first). */
export const CART_SUMMARY_MAX_OWNERS = 50_000

/** Where notices come from: api/lib/cart-notices.ts `CartNotices` (the owner's key, or null for everything). */
export interface CartNoticeSource {
  subscribe(listener: (ownerKey: string | null) => void): () => void
}

/** Whose summary a request reads: the owner's key and, for a user, the access token it is read with. */
export interface CartSummarySlot {
  ownerKey: string
  /** The access token (a user), '' for a guest cart. */
  token: string
  /** Epoch ms after which the token, and so the summary read with it, is not used. */
  usableUntil: number
}

export interface CartSummaryCache {
  /**
   * The slot of a session's cart: a user's (with `accessToken`, usable until its `exp`) or a guest
   * cart's; null when there is nothing to keep (no cart, a token without a readable `exp`).
   */
  slotOf(who: { userId?: string; accessToken?: string; guestCartId?: string | null }): CartSummarySlot | null
  /** The kept summary of `slot`, or undefined. */
  get(slot: CartSummarySlot): CartSummary | undefined
  /** Marks the start of a read: pass the mark to `set`. */
  begin(): number
  /** Keeps a summary read since `mark`, unless a notice of its owner (or of everything) came since. */
  set(slot: CartSummarySlot, summary: CartSummary, mark: number): void
  /** Drops an owner's summaries (a notice), or every summary (null). */
  forget(ownerKey: string | null): void
  /** Counters for /metrics.json. */
  readonly stats: { hits: number; misses: number; kept: number; notices: number; owners: number }
}

interface Kept {
  /** By access token ('' for a guest). */
  byToken: Map<string, { summary: CartSummary; usableUntil: number }>
}

/** The `exp` of a JWT (RFC 7519 §4.1.4) as epoch ms, read without verifying (the API verifies it), or 0. */
function tokenExpiry(token: string): number {
  const payload = token.split('.')[1]
  if (!payload) return 0
  try {
    const exp = (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { exp?: unknown }).exp
    return typeof exp === 'number' && Number.isFinite(exp) ? exp * 1000 : 0
  } catch {
    return 0
  }
}

/** Creates the cache, listening to `notices` (see the module comment); `now` is the clock in epoch ms. */
export function createCartSummaryCache(opts: { notices: CartNoticeSource; now?: () => number }): CartSummaryCache {
  const now = opts.now ?? Date.now
  const kept = new LRUCache<string, Kept>({ max: CART_SUMMARY_MAX_OWNERS, ttl: CART_SUMMARY_TTL_MS, ttlAutopurge: false })
  // The sequence number of the last notice of each owner recently noticed, and of the last "everything".
  const noticed = new LRUCache<string, number>({ max: CART_SUMMARY_MAX_OWNERS * 2 })
  let seq = 0
  let everythingAt = 0
  const stats = { hits: 0, misses: 0, kept: 0, notices: 0 }
  const expiries = new LRUCache<string, number>({ max: 10_000 })

  const forget = (ownerKey: string | null) => {
    seq++
    stats.notices++
    if (ownerKey === null) {
      everythingAt = seq
      kept.clear()
      noticed.clear()
      return
    }
    noticed.set(ownerKey, seq)
    kept.delete(ownerKey)
  }
  opts.notices.subscribe(forget)

  return {
    slotOf(who) {
      if (who.accessToken) {
        if (!who.userId) return null
        let usableUntil = expiries.get(who.accessToken)
        if (usableUntil === undefined) expiries.set(who.accessToken, (usableUntil = tokenExpiry(who.accessToken)))
        return usableUntil > 0 ? { ownerKey: cartOwnerKey({ userId: who.userId }), token: who.accessToken, usableUntil } : null
      }
      if (who.guestCartId) return { ownerKey: cartOwnerKey({ guestCartId: who.guestCartId }), token: '', usableUntil: Infinity }
      return null
    },
    get(slot) {
      const found = slot.usableUntil > now() ? kept.get(slot.ownerKey)?.byToken.get(slot.token) : undefined
      if (found) stats.hits++
      else stats.misses++
      return found?.summary
    },
    begin: () => seq,
    set(slot, summary, mark) {
      if (everythingAt > mark || (noticed.get(slot.ownerKey) ?? 0) > mark) return
      let entry = kept.get(slot.ownerKey)
      if (!entry) kept.set(slot.ownerKey, (entry = { byToken: new Map() }))
      // A user's tokens rotate: keep the newest few sessions' reads, not every token ever used.
      if (entry.byToken.size >= 8) entry.byToken.clear()
      entry.byToken.set(slot.token, { summary, usableUntil: slot.usableUntil })
      stats.kept++
    },
    forget,
    get stats() {
      return { ...stats, owners: kept.size }
    },
  }
}
