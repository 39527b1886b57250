/**
 * The one rule of whether a coupon applies to a basket and what it takes off (docs/offers.md,
 * "Applying a code"), pure: the cart's bill, the offers list and order placement all call it with
 * the facts they read (the coupon, the basket's lines, the store, the moment, the uses counted),
 * so they cannot disagree. Money is integer paise (docs/decisions/0011-commerce-orders-and-money.md).
 */
import { COUPON_REASONS } from '../../../contract/coupon.ts'
import type { coupons } from '../../db/schema.ts'

/** The coupon's columns the rule reads. */
export type CouponRule = Pick<
  typeof coupons.$inferSelect,
  | 'code'
  | 'kind'
  | 'amountPaise'
  | 'percent'
  | 'maxDiscountPaise'
  | 'minBasketPaise'
  | 'startsAt'
  | 'endsAt'
  | 'firstOrderOnly'
  | 'perUserLimit'
  | 'totalLimit'
  | 'storeId'
  | 'categoryId'
  | 'active'
>

/** One line of the basket: its total at selling price (paise, deliverable units only) and its product's category ids. */
export interface BasketLine {
  totalPaise: number
  categoryIds: readonly string[]
}

/**
 * The coupon's uses so far, counted from orders that are not cancelled (an expired payment hold is a
 * cancelled order): by everyone, by this shopper, and the shopper's orders of any kind (first order).
 */
export interface CouponUses {
  total: number
  byShopper: number
  shopperOrders: number
}

/** Where and when the basket would be ordered. */
export interface CouponContext {
  storeId: string
  now: Date
  uses: CouponUses
}

/**
 * The verdict: applies, with the discount (paise) and each line's share of it (same order as the
 * lines; 0 for lines out of scope; they add up to the discount exactly), or the reason it does not
 * (contract/coupon.ts `COUPON_REASONS`) and, when the basket is too small, the paise missing.
 */
export type CouponVerdict =
  { applies: true; discountPaise: number; shares: number[] } | { applies: false; reason: string; addMorePaise: number | null }

const no = (reason: string, addMorePaise: number | null = null): CouponVerdict => ({ applies: false, reason, addMorePaise })

/**
 * Evaluates `coupon` against `lines` in `ctx`. Checks, first failing wins: switched off, not yet
 * started, ended (the end is exclusive), another store, used up by this shopper ("Already used"),
 * first order only, used up by everyone, an empty basket (or no item in the category scope), the minimum basket (the
 * in-scope items at selling price). The discount: flat, the amount capped at the in-scope basket;
 * percent, the share rounded down to the paisa, capped at `maxDiscountPaise`.
 */
export function evaluateCoupon(coupon: CouponRule, lines: readonly BasketLine[], ctx: CouponContext): CouponVerdict {
  if (!coupon.active) return no(COUPON_REASONS.inactive)
  if (coupon.startsAt && ctx.now < coupon.startsAt) return no(COUPON_REASONS.notYet)
  if (coupon.endsAt && ctx.now >= coupon.endsAt) return no(COUPON_REASONS.expired)
  if (coupon.storeId && coupon.storeId !== ctx.storeId) return no(COUPON_REASONS.otherStore)
  if (coupon.perUserLimit !== null && ctx.uses.byShopper >= coupon.perUserLimit) return no(COUPON_REASONS.alreadyUsed)
  if (coupon.firstOrderOnly && ctx.uses.shopperOrders > 0) return no(COUPON_REASONS.firstOrder)
  if (coupon.totalLimit !== null && ctx.uses.total >= coupon.totalLimit) return no(COUPON_REASONS.runOut)
  const inScope = lines.map((l) => l.totalPaise > 0 && (coupon.categoryId === null || l.categoryIds.includes(coupon.categoryId)))
  const scopedPaise = lines.reduce((sum, l, i) => sum + (inScope[i] ? l.totalPaise : 0), 0)
  if (scopedPaise === 0) return no(coupon.categoryId === null ? COUPON_REASONS.emptyBasket : COUPON_REASONS.noScopedItems)
  if (scopedPaise < coupon.minBasketPaise) {
    return no(COUPON_REASONS.minBasket(Math.ceil(coupon.minBasketPaise / 100)), coupon.minBasketPaise - scopedPaise)
  }
  let discountPaise: number
  if (coupon.kind === 'flat') discountPaise = Math.min(coupon.amountPaise ?? 0, scopedPaise)
  else {
    discountPaise = Math.floor((scopedPaise * (coupon.percent ?? 0)) / 100)
    if (coupon.maxDiscountPaise !== null) discountPaise = Math.min(discountPaise, coupon.maxDiscountPaise)
  }
  return {
    applies: true,
    discountPaise,
    shares: prorate(
      discountPaise,
      lines.map((l, i) => (inScope[i] ? l.totalPaise : 0)),
    ),
  }
}

/**
 * Splits `totalPaise` over `weights` (paise, ≥ 0) in proportion, by largest remainder: each gets the
 * floor of its exact share, then the paise left go one each to the largest remainders (ties: the
 * earlier line), so the shares add up to `totalPaise` exactly and none exceeds its weight when
 * `totalPaise` ≤ the sum of weights. All zero weights: all shares 0.
 */
export function prorate(totalPaise: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0)
  if (sum === 0 || totalPaise === 0) return weights.map(() => 0)
  // Products stay below 2^53: a discount and a line total are each far below 10^9 paise.
  const shares = weights.map((w) => Math.floor((totalPaise * w) / sum))
  let left = totalPaise - shares.reduce((a, b) => a + b, 0)
  const byRemainder = weights
    .map((w, i) => ({ i, remainder: (totalPaise * w) % sum }))
    .filter((r) => r.remainder > 0)
    .sort((a, b) => b.remainder - a.remainder || a.i - b.i)
  for (const { i } of byRemainder) {
    if (left === 0) break
    shares[i]! += 1
    left -= 1
  }
  return shares
}
