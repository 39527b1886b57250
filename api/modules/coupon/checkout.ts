/**
 * Coupons at the cart and checkout (docs/offers.md, "Applying a code"): the code a signed-in shopper
 * applied lives with the cart (`carts.coupon_code`, migration 0039) and is checked again on every read
 * by the one rule (./evaluate.ts), against the uses counted from orders that are not cancelled. Order
 * placement locks the coupon's row and counts again (api/modules/order/service.ts `placeFromCart`).
 * Amounts are integer paise here, rupees on the wire.
 */
import { and, asc, eq, inArray, notInArray, or, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { carts, coupons, orders, productCategories } from '../../db/schema.ts'
import { fromPaise } from '../../lib/money.ts'
import { RETURNED_STATUSES } from '../../../contract/order-status.ts'
import { COUPON_REASONS, couponOffWords, type CartCoupon, type Offer } from '../../../contract/coupon.ts'
import { couponAnswer } from './service.ts'
import { evaluateCoupon, type BasketLine, type CouponUses, type CouponVerdict } from './evaluate.ts'

type Executor = Pick<Db, 'select' | 'update'>
type CouponRow = typeof coupons.$inferSelect

/** The code applied to the user's cart, or null (no cart, no code). */
export async function cartCouponCode(db: Executor, userId: string): Promise<string | null> {
  const [row] = await db.select({ code: carts.couponCode }).from(carts).where(eq(carts.userId, userId))
  return row?.code ?? null
}

/** Sets (or clears, `null`) the code applied to the user's cart; no cart: nothing. */
export async function setCartCouponCode(db: Executor, userId: string, code: string | null): Promise<void> {
  await db.update(carts).set({ couponCode: code }).where(eq(carts.userId, userId))
}

/** The coupon whose code is `code` (upper-case), locked (`for update`) in a placement's transaction when `lock`. */
export async function couponByCode(db: Executor, code: string, lock = false): Promise<CouponRow | undefined> {
  const query = db.select().from(coupons).where(eq(coupons.code, code))
  const [row] = lock ? await query.for('update') : await query
  return row
}

/**
 * The uses of `couponId` (docs/offers.md, "Uses"): orders naming it that are not cancelled (nor
 * returned after a failed delivery: docs/delivery.md, "Could not deliver"), all and the user's, and
 * the user's orders that are not cancelled or failed (the first-order rule). One statement on
 * the index `orders_coupon_user_idx` and the user's orders.
 */
export async function couponUses(db: Executor, couponId: string, userId: string): Promise<CouponUses> {
  const [row] = await db
    .select({
      total: sql<number>`count(*) filter (where ${orders.couponId} = ${couponId})::int`,
      byShopper: sql<number>`count(*) filter (where ${orders.couponId} = ${couponId} and ${orders.userId} = ${userId})::int`,
      shopperOrders: sql<number>`count(*) filter (where ${orders.userId} = ${userId})::int`,
    })
    .from(orders)
    .where(and(notInArray(orders.status, [...RETURNED_STATUSES]), or(eq(orders.couponId, couponId), eq(orders.userId, userId))))
  return { total: row?.total ?? 0, byShopper: row?.byShopper ?? 0, shopperOrders: row?.shopperOrders ?? 0 }
}

/** The category ids of each of `productIds` (a coupon's category scope reads them). */
export async function categoryIdsOf(db: Executor, productIds: readonly string[]): Promise<Map<string, string[]>> {
  const byProduct = new Map<string, string[]>()
  if (productIds.length === 0) return byProduct
  const rows = await db
    .select({ productId: productCategories.productId, categoryId: productCategories.categoryId })
    .from(productCategories)
    .where(inArray(productCategories.productId, [...productIds]))
    .orderBy(asc(productCategories.productId), asc(productCategories.position))
  for (const row of rows) byProduct.set(row.productId, [...(byProduct.get(row.productId) ?? []), row.categoryId])
  return byProduct
}

/** A coupon and its verdict for a basket. */
export interface Evaluated {
  coupon: CouponRow
  verdict: CouponVerdict
}

/** Evaluates `coupon` for the user's basket `lines` in `storeId` at `now`, counting its uses on `db`. */
export async function evaluateFor(
  db: Executor,
  coupon: CouponRow,
  ctx: { userId: string; storeId: string; now: Date },
  lines: readonly BasketLine[],
): Promise<CouponVerdict> {
  const uses = await couponUses(db, coupon.id, ctx.userId)
  return evaluateCoupon(coupon, lines, { storeId: ctx.storeId, now: ctx.now, uses })
}

/** The cart's coupon on the wire (contract/coupon.ts `CartCouponSchema`). */
export function cartCouponAnswer(code: string, evaluated: Evaluated | undefined): CartCoupon {
  if (!evaluated) return { code, description: '', applied: false, discount: 0, reason: COUPON_REASONS.unknown }
  const { coupon, verdict } = evaluated
  return {
    code,
    description: coupon.description,
    applied: verdict.applies,
    discount: verdict.applies ? fromPaise(verdict.discountPaise) : 0,
    reason: verdict.applies ? null : verdict.reason,
  }
}

/**
 * The user's cart coupon against `lines` (the deliverable basket, as the bill counts it): null
 * without a code; else the code's answer (applied with the discount, or the reason) and, when it
 * applies, what the bill takes off.
 */
export async function cartCoupon(
  db: Executor,
  ctx: { userId: string; storeId: string; now: Date },
  lines: readonly BasketLine[],
): Promise<{ answer: CartCoupon; off?: { code: string; discountPaise: number } } | null> {
  const code = await cartCouponCode(db, ctx.userId)
  if (!code) return null
  const coupon = await couponByCode(db, code)
  if (!coupon) return { answer: cartCouponAnswer(code, undefined) }
  const verdict = await evaluateFor(db, coupon, ctx, lines)
  return {
    answer: cartCouponAnswer(code, { coupon, verdict }),
    off: verdict.applies && verdict.discountPaise > 0 ? { code, discountPaise: verdict.discountPaise } : undefined,
  }
}

/** Most offers listed (active coupons, the first by code). */
export const OFFERS_MAX = 20

/**
 * The offers for the user's basket `lines` (GET /api/coupon/offers): every active coupon of this store
 * (or every store) that has not ended, each with its verdict; `nearest` marks the one with the
 * fewest rupees missing to unlock. Applying ones first, then those nearest to unlock, then the rest.
 */
export async function offersFor(
  db: Executor,
  ctx: { userId: string; storeId: string; now: Date },
  lines: readonly BasketLine[],
): Promise<Offer[]> {
  const rows = await db
    .select()
    .from(coupons)
    .where(
      and(
        eq(coupons.active, true),
        or(sql`${coupons.storeId} is null`, eq(coupons.storeId, ctx.storeId)),
        or(sql`${coupons.endsAt} is null`, sql`${coupons.endsAt} > ${ctx.now.toISOString()}::timestamptz`),
      ),
    )
    .orderBy(asc(coupons.code))
    .limit(OFFERS_MAX)
  const offers: Offer[] = []
  for (const coupon of rows) {
    const verdict = await evaluateFor(db, coupon, ctx, lines)
    const wire = couponAnswer(coupon)
    offers.push({
      code: coupon.code,
      description: coupon.description,
      off: couponOffWords(wire),
      applies: verdict.applies,
      discount: verdict.applies ? fromPaise(verdict.discountPaise) : 0,
      reason: verdict.applies ? null : verdict.reason,
      addMore: !verdict.applies && verdict.addMorePaise !== null ? fromPaise(verdict.addMorePaise) : null,
      nearest: false,
    })
  }
  const rank = (o: Offer) => (o.applies ? 0 : o.addMore !== null ? 1 : 2)
  offers.sort((a, b) => rank(a) - rank(b) || (a.addMore ?? 0) - (b.addMore ?? 0) || b.discount - a.discount)
  const nearest = offers.find((o) => o.addMore !== null)
  if (nearest) nearest.nearest = true
  return offers
}
