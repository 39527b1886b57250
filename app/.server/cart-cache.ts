/**
 * Carts kept in memory (docs/decisions/0038-cart-summaries-in-memory.md): the cart summary every page
 * shows (app/lib/cart.ts `CartSummary`) and the whole cart the cart page and checkout list, each read
 * from the API once and then kept until the database says that cart changed, so a page of a shopper
 * with a cart (spliced or rendered whole) makes no upstream call for it.
 *
 * - Kept under the owner's key (server-shared/cart-owner-key.ts): a guest cart's hash, or a user's
 *   id together with the access token the read was made with, so nothing kept outlives the session
 *   it was read for: it is used only while that token is unexpired (its `exp`, RFC 7519 §4.1.4), and
 *   the database's notice of the user's sessions ending or their role or status changing drops it
 *   (migration 0022_cart_change_notices.sql). A whole cart is kept per store as well: it carries
 *   each product's stock in the shopper's store.
 * - Dropped on each notice of its owner (`forget`, from api/lib/cart-notices.ts), everything on a
 *   `null` notice or a catalogue change (a price is part of the items total); a whole cart or a
 *   summary also when the stock of one of its products moves (`productsMoved`, an order or an
 *   admin's edit: a summary counts only what the store can deliver); and at
 *   most CART_CACHE_TTL_MS after it was read, which bounds a notice lost with a listening connection.
 * - At most CART_CACHE_MAX_OWNERS owners and WHOLE_CARTS_MAX_BYTES of whole carts (as JSON); past
 *   the latter a whole cart is read each time until kept ones go.
 * - A read that began before a notice of its owner (or a stock move of one of its products) is not
 *   kept (`begin` marks it), so a cart read before a write and answered after its notice cannot come
 *   back stale.
 *
 * Only with the API in this process (server.ts): a BFF apart from its API hears no notices and reads
 * the cart each time.
 */
import { decodeJwt } from 'jose'
import { LRUCache } from 'lru-cache'
import { cartOwnerKey } from '../../server-shared/cart-owner-key.ts'
import type { CartSummary } from '../lib/cart.ts'

/** Longest time (ms) a cart is used after it was read, whatever the notices. */
export const CART_CACHE_TTL_MS = 60_000
/** Owners whose carts are kept at most (least recently used dropped first). */
export const CART_CACHE_MAX_OWNERS = 50_000
/** Whole carts kept per owner at most (one per session and store; a user's tokens rotate). */
const READS_PER_OWNER = 8
/** Bytes of whole carts (as JSON) kept at most; past it a whole cart is read each time until some go. */
export const WHOLE_CARTS_MAX_BYTES = 32 * 1024 * 1024

/** Where notices come from: api/lib/cart-notices.ts `CartNotices` (the owner's key, or null for everything). */
export interface CartNoticeSource {
  subscribe(listener: (ownerKey: string | null) => void): () => void
}

/** Whose cart a request reads: the owner's key and, for a user, the access token it is read with. */
export interface CartSlot {
  ownerKey: string
  /** The access token (a user), '' for a guest cart. */
  token: string
  /** Epoch ms after which the token, and so what was read with it, is not used. */
  usableUntil: number
}

export interface CartCache {
  /**
   * The slot of a session's cart: a user's (with `accessToken`, usable until its `exp`) or a guest
   * cart's; null when there is nothing to keep (no cart, a token without a readable `exp`).
   */
  slotOf(who: { userId?: string; accessToken?: string; guestCartId?: string | null }): CartSlot | null
  /** The kept summary of `slot` in `storeId` (null: the default store), or undefined. */
  get(slot: CartSlot, storeId?: string | null): CartSummary | undefined
  /** The kept whole cart of `slot` in `storeId` (null: the default store), or undefined. */
  getWhole<T>(slot: CartSlot, storeId: string | null): T | undefined
  /** Marks the start of a read: pass the mark to `set` or `setWhole`. */
  begin(): number
  /**
   * Keeps a summary read since `mark` in `storeId`, unless a notice of its owner (or of everything),
   * or a stock move of one of its products, came since: its count and total are of the lines the
   * store can deliver (api/modules/cart/service.ts `getCartSummary`), so a stock move drops it too.
   */
  set(slot: CartSlot, summary: CartSummary, mark: number, storeId?: string | null): void
  /**
   * Keeps a whole cart read since `mark` in `storeId`, unless a notice of its owner, of everything,
   * or a stock move of one of `productIds` (its products) came since.
   */
  setWhole(slot: CartSlot, storeId: string | null, cart: unknown, productIds: Iterable<string>, mark: number): void
  /** Drops an owner's carts (a notice), or every cart (null). */
  forget(ownerKey: string | null): void
  /** Drops the whole carts holding any of `productIds`, whose stock moved. */
  productsMoved(productIds: Iterable<string>): void
  /** Counters for /metrics.json. */
  readonly stats: { hits: number; misses: number; kept: number; notices: number; owners: number; wholeCartBytes: number }
}

interface Read {
  value: unknown
  usableUntil: number
  /** A whole cart's products; undefined for a summary. */
  productIds?: Set<string>
  /** A whole cart's size as JSON (bytes, about): counted against WHOLE_CARTS_MAX_BYTES. */
  bytes?: number
}

/** An owner's reads, by `<token>` for a summary and `<token> <store>` for a whole cart. */
type Kept = Map<string, Read>

/** The `exp` of a JWT (RFC 7519 §4.1.4) as epoch ms, read without verifying (the API verifies it), or 0. */
function tokenExpiry(token: string): number {
  try {
    const { exp } = decodeJwt(token)
    return typeof exp === 'number' && Number.isFinite(exp) ? exp * 1000 : 0
  } catch {
    return 0
  }
}

/** `value`, frozen all the way down: a kept read is shared by the requests that find it, and none may change it. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const child of Object.values(value)) deepFreeze(child)
  }
  return value
}

const wholeKey = (slot: CartSlot, storeId: string | null) => `${slot.token} ${storeId ?? ''}`
/** A summary's key among its owner's reads: its token and store (never a whole cart's: those hold one space). */
const summaryKey = (slot: CartSlot, storeId: string | null) => `summary ${slot.token} ${storeId ?? ''}`

/** Creates the cache, listening to `notices` (see the module comment); `now` is the clock in epoch ms. */
export function createCartCache(opts: { notices: CartNoticeSource; now?: () => number }): CartCache {
  const now = opts.now ?? Date.now
  // The owners holding a read with products (a whole cart, or a summary: its count and total are of
  // what the store can deliver), so that a stock move looks at those only.
  const holdingProducts = new Set<string>()
  let wholeBytes = 0
  const dropRead = (reads: Kept, key: string) => {
    wholeBytes -= reads.get(key)?.bytes ?? 0
    reads.delete(key)
  }
  const kept = new LRUCache<string, Kept>({
    max: CART_CACHE_MAX_OWNERS,
    ttl: CART_CACHE_TTL_MS,
    ttlAutopurge: false,
    dispose: (reads, ownerKey) => {
      for (const read of reads.values()) wholeBytes -= read.bytes ?? 0
      holdingProducts.delete(ownerKey)
    },
  })
  // The sequence number of the last notice of each owner (or stock move of each product) recently
  // heard, and of the last "everything".
  const noticed = new LRUCache<string, number>({ max: CART_CACHE_MAX_OWNERS * 2 })
  const moved = new LRUCache<string, number>({ max: CART_CACHE_MAX_OWNERS * 2 })
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
      moved.clear()
      return
    }
    noticed.set(ownerKey, seq)
    kept.delete(ownerKey)
  }
  opts.notices.subscribe(forget)

  const lookUp = (slot: CartSlot, key: string): unknown => {
    const found = slot.usableUntil > now() ? kept.get(slot.ownerKey)?.get(key) : undefined
    if (found) stats.hits++
    else stats.misses++
    return found?.value
  }
  // A read is not kept when a notice of its owner, of everything, or a stock move of one of its
  // products came since `mark`.
  const keep = (slot: CartSlot, key: string, read: Read, mark: number) => {
    if (everythingAt > mark || (noticed.get(slot.ownerKey) ?? 0) > mark) return
    if (read.productIds) for (const id of read.productIds) if ((moved.get(id) ?? 0) > mark) return
    let reads = kept.get(slot.ownerKey)
    if (!reads) kept.set(slot.ownerKey, (reads = new Map()))
    if (reads.size >= READS_PER_OWNER && !reads.has(key)) for (const old of [...reads.keys()]) dropRead(reads, old)
    dropRead(reads, key)
    reads.set(key, read)
    wholeBytes += read.bytes ?? 0
    if (read.productIds) holdingProducts.add(slot.ownerKey)
    stats.kept++
  }

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
    get: (slot, storeId = null) => lookUp(slot, summaryKey(slot, storeId)) as CartSummary | undefined,
    getWhole: <T>(slot: CartSlot, storeId: string | null) => lookUp(slot, wholeKey(slot, storeId)) as T | undefined,
    begin: () => seq,
    set(slot, summary, mark, storeId = null) {
      const ids = new Set(Object.keys(summary.lines))
      keep(slot, summaryKey(slot, storeId), { value: deepFreeze(summary), usableUntil: slot.usableUntil, productIds: ids }, mark)
    },
    setWhole(slot, storeId, cart, productIds, mark) {
      const ids = new Set(productIds)
      const bytes = JSON.stringify(cart).length
      // Reads past their age still count until something looks at them: sweep those first.
      if (wholeBytes + bytes > WHOLE_CARTS_MAX_BYTES) kept.purgeStale()
      if (wholeBytes + bytes > WHOLE_CARTS_MAX_BYTES) return
      keep(slot, wholeKey(slot, storeId), { value: deepFreeze(cart), usableUntil: slot.usableUntil, productIds: ids, bytes }, mark)
    },
    forget,
    productsMoved(productIds) {
      const ids = [...productIds]
      if (ids.length === 0) return
      seq++
      for (const id of ids) moved.set(id, seq)
      for (const ownerKey of [...holdingProducts]) {
        const reads = kept.peek(ownerKey)
        if (!reads) {
          holdingProducts.delete(ownerKey)
          continue
        }
        for (const [key, read] of reads) if (read.productIds && ids.some((id) => read.productIds!.has(id))) dropRead(reads, key)
      }
    },
    get stats() {
      return { ...stats, owners: kept.size, wholeCartBytes: wholeBytes }
    },
  }
}
