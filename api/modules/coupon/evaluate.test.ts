/**
 * The coupon rule (./evaluate.ts; docs/offers.md, "Applying a code"): each reason, the discount of a
 * flat and a percent coupon, the category scope, and the largest-remainder shares.
 */
import { describe, expect, it } from 'vitest'
import { COUPON_REASONS } from '../../../contract/coupon.ts'
import { evaluateCoupon, prorate, type CouponRule, type CouponUses } from './evaluate.ts'

const WELCOME50: CouponRule = {
  code: 'WELCOME50',
  kind: 'flat',
  amountPaise: 5000,
  percent: null,
  maxDiscountPaise: null,
  minBasketPaise: 19900,
  startsAt: null,
  endsAt: null,
  firstOrderOnly: true,
  perUserLimit: 1,
  totalLimit: null,
  storeId: null,
  categoryId: null,
  active: true,
}
const SAVE10: CouponRule = {
  ...WELCOME50,
  code: 'SAVE10',
  kind: 'percent',
  amountPaise: null,
  percent: 10,
  maxDiscountPaise: 7500,
  minBasketPaise: 49900,
  firstOrderOnly: false,
  perUserLimit: null,
}
const fresh: CouponUses = { total: 0, byShopper: 0, shopperOrders: 0 }
const now = new Date('2026-12-01T10:00:00Z')
const ctx = (uses: Partial<CouponUses> = {}, storeId = 'storeA') => ({ storeId, now, uses: { ...fresh, ...uses } })
const lines = (...totals: number[]) => totals.map((totalPaise) => ({ totalPaise, categoryIds: ['dairy'] }))

describe('evaluateCoupon', () => {
  it('takes ₹50 off a first basket of ₹199 or more, and says how much is missing below it', () => {
    expect(evaluateCoupon(WELCOME50, lines(15000, 4900), ctx())).toEqual({ applies: true, discountPaise: 5000, shares: [3769, 1231] })
    expect(evaluateCoupon(WELCOME50, lines(15000), ctx())).toEqual({ applies: false, reason: 'Minimum basket ₹199', addMorePaise: 4900 })
  })

  it('says why: already used, first order only, run out, expired, not yet, another store, switched off, empty', () => {
    expect(evaluateCoupon(WELCOME50, lines(30000), ctx({ byShopper: 1, shopperOrders: 1 }))).toMatchObject({
      reason: COUPON_REASONS.alreadyUsed,
    })
    expect(evaluateCoupon(WELCOME50, lines(30000), ctx({ shopperOrders: 2 }))).toMatchObject({ reason: COUPON_REASONS.firstOrder })
    expect(evaluateCoupon({ ...SAVE10, totalLimit: 3 }, lines(60000), ctx({ total: 3 }))).toMatchObject({ reason: COUPON_REASONS.runOut })
    expect(evaluateCoupon({ ...SAVE10, totalLimit: 3 }, lines(60000), ctx({ total: 2 }))).toMatchObject({ applies: true })
    expect(evaluateCoupon({ ...SAVE10, endsAt: now }, lines(60000), ctx())).toMatchObject({ reason: 'Expired' })
    expect(evaluateCoupon({ ...SAVE10, startsAt: new Date(now.getTime() + 1) }, lines(60000), ctx())).toMatchObject({
      reason: 'Not yet valid',
    })
    expect(evaluateCoupon({ ...SAVE10, storeId: 'storeB' }, lines(60000), ctx())).toMatchObject({ reason: 'Not valid in this store' })
    expect(evaluateCoupon({ ...SAVE10, storeId: 'storeA' }, lines(60000), ctx())).toMatchObject({ applies: true })
    expect(evaluateCoupon({ ...SAVE10, active: false }, lines(60000), ctx())).toMatchObject({ reason: COUPON_REASONS.inactive })
    expect(evaluateCoupon({ ...SAVE10, minBasketPaise: 0 }, [], ctx())).toMatchObject({ reason: COUPON_REASONS.emptyBasket })
  })

  it('percent: rounded down to the paisa, capped at the maximum; flat: at most the basket', () => {
    expect(evaluateCoupon(SAVE10, lines(49999), ctx())).toMatchObject({ applies: true, discountPaise: 4999 })
    expect(evaluateCoupon(SAVE10, lines(90000), ctx())).toMatchObject({ applies: true, discountPaise: 7500 })
    expect(evaluateCoupon({ ...SAVE10, maxDiscountPaise: null }, lines(90000), ctx())).toMatchObject({ discountPaise: 9000 })
    expect(evaluateCoupon({ ...WELCOME50, minBasketPaise: 0 }, lines(3000), ctx())).toMatchObject({ discountPaise: 3000, shares: [3000] })
  })

  it('a category scope counts only its items, for the minimum and the shares', () => {
    const scoped = { ...WELCOME50, categoryId: 'fruit', minBasketPaise: 10000 }
    const basket = [
      { totalPaise: 20000, categoryIds: ['dairy'] },
      { totalPaise: 6000, categoryIds: ['fruit', 'organic'] },
      { totalPaise: 6000, categoryIds: ['fruit'] },
    ]
    expect(evaluateCoupon(scoped, basket.slice(0, 2), ctx())).toEqual({ applies: false, reason: 'Minimum basket ₹100', addMorePaise: 4000 })
    expect(evaluateCoupon(scoped, basket, ctx())).toEqual({ applies: true, discountPaise: 5000, shares: [0, 2500, 2500] })
    expect(evaluateCoupon(scoped, basket.slice(0, 1), ctx())).toMatchObject({ reason: COUPON_REASONS.noScopedItems })
  })
})

describe('prorate', () => {
  it('shares add up exactly, none above its weight, the paise left to the largest remainders (ties: the earlier)', () => {
    expect(prorate(100, [1, 1, 1])).toEqual([34, 33, 33])
    expect(prorate(5000, [9999, 1, 1])).toEqual([4999, 1, 0])
    expect(prorate(0, [5, 5])).toEqual([0, 0])
    expect(prorate(10, [0, 0])).toEqual([0, 0])
    for (let seed = 1; seed < 200; seed++) {
      const weights = [(seed * 37) % 1000, (seed * 91) % 777, 0, ((seed * 13) % 4001) + 1]
      const sum = weights.reduce((a, b) => a + b, 0)
      const total = (seed * 7919) % (sum + 1)
      const shares = prorate(total, weights)
      expect(shares.reduce((a, b) => a + b, 0)).toBe(total)
      shares.forEach((share, i) => expect(share).toBeLessThanOrEqual(weights[i]!))
    }
  })
})
