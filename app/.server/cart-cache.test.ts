/**
 * The cart summaries kept in memory (app/.server/cart-cache.ts): kept per owner and, for a user,
 * per access token while it is unexpired; dropped by their owner's notice, by "everything" and by
 * age; never kept from a read that began before a notice of its owner.
 */
import { describe, expect, it } from 'vitest'
import { handNotices } from './testing/hand-notices.ts'
import { CART_CACHE_TTL_MS, createCartCache, WHOLE_CARTS_MAX_BYTES } from './cart-cache.ts'
import type { CartSummary } from '../lib/cart.ts'

const summary = (count: number): CartSummary => ({ count, total: count * 10, lines: {}, maxQtyPerLine: 12 })
/** An unsigned JWT with `exp` (seconds): the cache reads `exp` only, the API checks the signature. */
const jwt = (exp: number | undefined, salt = '') => `e30.${Buffer.from(JSON.stringify({ sub: 'u1', exp, salt })).toString('base64url')}.sig`

/** A cache listening to hand-sent notices, with the slots of two guest carts. */
function twoGuests() {
  const notices = handNotices()
  const cache = createCartCache({ notices })
  return { notices, cache, a: cache.slotOf({ guestCartId: 'guest-a' })!, b: cache.slotOf({ guestCartId: 'guest-b' })! }
}

describe('createCartCache', () => {
  it("keeps a guest's summary until that cart's notice, and every one until a null notice", () => {
    const { notices, cache, a, b } = twoGuests()
    cache.set(a, summary(1), cache.begin())
    cache.set(b, summary(2), cache.begin())
    expect(cache.get(a)).toEqual(summary(1))
    notices.send(b.ownerKey)
    expect(cache.get(a)).toEqual(summary(1))
    expect(cache.get(b)).toBeUndefined()
    notices.send(null)
    expect(cache.get(a)).toBeUndefined()
    expect(cache.stats).toMatchObject({ hits: 2, misses: 2, notices: 2 })
  })

  it('keeps a summary per store (its count and total are what that store delivers), dropped by a stock move of one of its products', () => {
    const { cache, a } = twoGuests()
    const withLines = (count: number): CartSummary => ({
      ...summary(count),
      lines: { ghee: { lineId: 'l1', qty: 1 }, dal: { lineId: 'l2', qty: 1 } },
    })
    cache.set(a, withLines(2), cache.begin(), 'store-1')
    cache.set(a, withLines(1), cache.begin(), 'store-2')
    expect(cache.get(a, 'store-1')).toEqual(withLines(2))
    expect(cache.get(a, 'store-2')).toEqual(withLines(1))
    expect(cache.get(a)).toBeUndefined()
    cache.productsMoved(['rice'])
    expect(cache.get(a, 'store-1')).toEqual(withLines(2))
    cache.productsMoved(['ghee'])
    expect(cache.get(a, 'store-1')).toBeUndefined()
    expect(cache.get(a, 'store-2')).toBeUndefined()
    // A read that began before the move is not kept.
    const mark = cache.begin()
    cache.productsMoved(['dal'])
    cache.set(a, withLines(2), mark, 'store-1')
    expect(cache.get(a, 'store-1')).toBeUndefined()
  })

  it('does not keep a read that began before a notice of its owner (or of everything)', () => {
    const notices = handNotices()
    const cache = createCartCache({ notices })
    const a = cache.slotOf({ guestCartId: 'guest-a' })!
    const mark = cache.begin()
    notices.send(a.ownerKey)
    cache.set(a, summary(1), mark)
    expect(cache.get(a)).toBeUndefined()
    const later = cache.begin()
    notices.send(null)
    cache.set(a, summary(1), later)
    expect(cache.get(a)).toBeUndefined()
    // Another owner's notice does not stop it.
    const third = cache.begin()
    notices.send(cache.slotOf({ guestCartId: 'guest-b' })!.ownerKey)
    cache.set(a, summary(3), third)
    expect(cache.get(a)).toEqual(summary(3))
  })

  it("keeps a user's summary per access token, only while the token is unexpired, and drops it on the user's notice", () => {
    let clock = 1_800_000_000_000
    const notices = handNotices()
    const cache = createCartCache({ notices, now: () => clock })
    const exp = clock / 1000 + 30
    const one = cache.slotOf({ userId: 'u1', accessToken: jwt(exp, 'one') })!
    const other = cache.slotOf({ userId: 'u1', accessToken: jwt(exp, 'other') })!
    expect(one.ownerKey).toBe('user:u1')
    cache.set(one, summary(4), cache.begin())
    expect(cache.get(one)).toEqual(summary(4))
    // Another session (token) of the same user reads its own.
    expect(cache.get(other)).toBeUndefined()
    clock += 31_000
    expect(cache.get(one)).toBeUndefined()
    clock -= 31_000
    notices.send('user:u1')
    expect(cache.get(one)).toBeUndefined()
    // Nothing kept for a token without `exp`, nor for tokens without their user.
    expect(cache.slotOf({ userId: 'u1', accessToken: jwt(undefined) })).toBeNull()
    expect(cache.slotOf({ userId: 'u1', accessToken: 'not-a-jwt' })).toBeNull()
    expect(cache.slotOf({ accessToken: jwt(exp), guestCartId: 'guest-a' })).toBeNull()
    expect(cache.slotOf({})).toBeNull()
  })

  it(`drops a summary ${CART_CACHE_TTL_MS} ms after it was read, whatever the notices`, async () => {
    const cache = createCartCache({ notices: handNotices() })
    const a = cache.slotOf({ guestCartId: 'guest-a' })!
    cache.set(a, summary(1), cache.begin())
    const realNow = performance.now
    try {
      // lru-cache measures age with performance.now.
      performance.now = () => realNow.call(performance) + CART_CACHE_TTL_MS + 1
      expect(cache.get(a)).toBeUndefined()
    } finally {
      performance.now = realNow
    }
  })
})

describe('whole carts in createCartCache', () => {
  it('keeps a whole cart per store, dropped by its owner, by everything, and by a stock move of one of its products', () => {
    const { notices, cache, a, b } = twoGuests()
    cache.setWhole(a, 'store-1', { lines: ['p1', 'p2'] }, ['p1', 'p2'], cache.begin())
    cache.setWhole(b, 'store-1', { lines: ['p3'] }, ['p3'], cache.begin())
    cache.set(a, summary(2), cache.begin())
    expect(cache.getWhole(a, 'store-1')).toEqual({ lines: ['p1', 'p2'] })
    // Another store's is another read.
    expect(cache.getWhole(a, 'store-2')).toBeUndefined()
    expect(cache.getWhole(a, null)).toBeUndefined()
    // A stock move of p2 drops a's whole cart, not b's, nor a's summary (which shows no stock).
    cache.productsMoved(['p2'])
    expect(cache.getWhole(a, 'store-1')).toBeUndefined()
    expect(cache.getWhole(b, 'store-1')).toEqual({ lines: ['p3'] })
    expect(cache.get(a)).toEqual(summary(2))
    notices.send(b.ownerKey)
    expect(cache.getWhole(b, 'store-1')).toBeUndefined()
    cache.setWhole(a, null, { lines: [] }, [], cache.begin())
    notices.send(null)
    expect(cache.getWhole(a, null)).toBeUndefined()
  })

  it('does not keep a whole cart read before a stock move of one of its products or a notice of its owner', () => {
    const notices = handNotices()
    const cache = createCartCache({ notices })
    const a = cache.slotOf({ guestCartId: 'guest-a' })!
    let mark = cache.begin()
    cache.productsMoved(['p1'])
    cache.setWhole(a, 'store-1', { lines: ['p1'] }, ['p1'], mark)
    expect(cache.getWhole(a, 'store-1')).toBeUndefined()
    // A move of a product it does not hold does not stop it.
    mark = cache.begin()
    cache.productsMoved(['p9'])
    cache.setWhole(a, 'store-1', { lines: ['p1'] }, ['p1'], mark)
    expect(cache.getWhole(a, 'store-1')).toEqual({ lines: ['p1'] })
    mark = cache.begin()
    notices.send(a.ownerKey)
    cache.setWhole(a, 'store-1', { lines: ['p1'] }, ['p1'], mark)
    expect(cache.getWhole(a, 'store-1')).toBeUndefined()
  })
})

describe('the whole carts’ memory', () => {
  it(`keeps at most ${WHOLE_CARTS_MAX_BYTES} bytes of whole carts, and counts back what goes`, () => {
    const notices = handNotices()
    const cache = createCartCache({ notices })
    const big = { lines: 'x'.repeat(WHOLE_CARTS_MAX_BYTES / 4) }
    const slots = Array.from({ length: 5 }, (_, i) => cache.slotOf({ guestCartId: `guest-${i}` })!)
    slots.forEach((slot, i) => cache.setWhole(slot, null, big, [`p${i}`], cache.begin()))
    // Three fit; the fourth and fifth would pass the budget.
    expect(slots.map((slot) => cache.getWhole(slot, null) !== undefined)).toEqual([true, true, true, false, false])
    const held = cache.stats.wholeCartBytes
    expect(held).toBeGreaterThan((WHOLE_CARTS_MAX_BYTES * 3) / 4)
    // A notice, a stock move and everything give their bytes back.
    notices.send(slots[0]!.ownerKey)
    cache.productsMoved(['p1'])
    expect(cache.stats.wholeCartBytes).toBe(held / 3)
    cache.setWhole(slots[3]!, null, big, ['p3'], cache.begin())
    expect(cache.getWhole(slots[3]!, null)).toBeDefined()
    notices.send(null)
    expect(cache.stats.wholeCartBytes).toBe(0)
  })
})
