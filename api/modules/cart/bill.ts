/**
 * The bill of a cart or an order (docs/commerce-api.md, "Cart"), computed in integer paise so every
 * sum is exact (docs/decisions/0011-commerce-orders-and-money.md), then given to the wire in rupees.
 * The grand total is cash to collect on delivery, so it is rounded to the nearest rupee with the
 * difference shown as "Rounding off" (docs/commerce-api.md, "Money"); every other amount keeps paise.
 */
import type { CommerceSettings, FeeSettings } from '../../config.ts'
import { fromPaise } from '../../lib/money.ts'
import type { Bill } from '../../../contract/cart.ts'

/** A line as the bill needs it: quantity, selling price and MRP per unit in paise. */
export interface BillLine {
  quantity: number
  sellingPaise: number
  mrpPaise: number
}

/**
 * The units of a cart line the serving store can deliver, which are the units the bill counts: none
 * of an unpublished product or one the store has none of, at most the store's stock otherwise
 * (checkout removes such lines or cuts them to the stock: docs/stores.md, "Changing location with a
 * cart"), so the cart's bill is the bill checkout shows.
 */
export function deliverableQuantity(quantity: number, stock: number, published: boolean): number {
  return published ? Math.max(0, Math.min(quantity, stock)) : 0
}

/** A bill in paise. */
export interface BillPaise {
  itemCount: number
  itemsTotalMrpPaise: number
  itemsTotalPaise: number
  deliveryChargePaise: number
  /** Added to items total + delivery − coupon discount to reach the whole-rupee grand total: −49..+50 paise. */
  roundingPaise: number
  grandTotalPaise: number
  /** The coupon applied (docs/offers.md, "Applying a code"): its code and discount, paise; absent: none. */
  coupon?: { code: string; discountPaise: number }
  /** The tip for the delivery partner, paise, whole rupees (docs/commerce-api.md, "Tip and delivery instructions"); absent or 0: none. */
  tipPaise?: number
  /** The named fees (docs/commerce-api.md, "Fees"), paise, each present only when charged. */
  handlingChargePaise?: number
  smallCartFeePaise?: number
  lateNightFeePaise?: number
}

/** The fees of a bill in paise, each 0 when not charged. */
export interface BillFees {
  handlingChargePaise: number
  smallCartFeePaise: number
  lateNightFeePaise: number
}

/** IST is UTC+05:30 all year (no daylight saving): the store's local time (docs/commerce-api.md, "Fees"). */
const IST_OFFSET_MINUTES = 330

/** The minutes after IST midnight of `now` (0..1439). */
export function istMinuteOfDay(now: Date): number {
  const utcMinutes = now.getUTCHours() * 60 + now.getUTCMinutes()
  return (utcMinutes + IST_OFFSET_MINUTES) % 1440
}

/**
 * Whether `now` is inside the late-night hours (minutes after IST midnight): from `startMinute`
 * inclusive to `endMinute` exclusive, across midnight when start > end ("23:00-05:00" is 23:00 to
 * 04:59); start = end is never.
 */
export function isLateNight(now: Date, hours: FeeSettings['lateNightHours']): boolean {
  const { startMinute, endMinute } = hours
  const minute = istMinuteOfDay(now)
  if (startMinute === endMinute) return false
  return startMinute < endMinute ? minute >= startMinute && minute < endMinute : minute >= startMinute || minute < endMinute
}

/**
 * The named fees of a basket of `itemsTotalPaise` (before any coupon, as free delivery reads it)
 * at `now` (docs/commerce-api.md, "Fees"): the handling charge, the small cart fee below
 * `smallCartBelowPaise`, the late-night surcharge inside the late-night hours. None for an empty
 * cart, none without `fees` (an app configured without them), each 0 when configured 0.
 */
export function computeFees(itemCount: number, itemsTotalPaise: number, fees: FeeSettings | undefined, now: Date): BillFees {
  if (!fees || itemCount === 0) return { handlingChargePaise: 0, smallCartFeePaise: 0, lateNightFeePaise: 0 }
  return {
    handlingChargePaise: fees.handlingChargePaise,
    smallCartFeePaise: itemsTotalPaise < fees.smallCartBelowPaise ? fees.smallCartFeePaise : 0,
    lateNightFeePaise: isLateNight(now, fees.lateNightHours) ? fees.lateNightSurchargePaise : 0,
  }
}

/** The sum of a bill's named fees, paise (0 without any). */
export function feesTotalPaise(bill: Pick<BillPaise, 'handlingChargePaise' | 'smallCartFeePaise' | 'lateNightFeePaise'>): number {
  return (bill.handlingChargePaise ?? 0) + (bill.smallCartFeePaise ?? 0) + (bill.lateNightFeePaise ?? 0)
}

/**
 * The cash to collect for `payablePaise` (≥ 0): rounded to the nearest rupee, 50 paise and more
 * upwards, as Indian shops round a cash bill. @returns the rounded total and what rounding added.
 */
export function roundToRupee(payablePaise: number): { grandTotalPaise: number; roundingPaise: number } {
  const grandTotalPaise = Math.floor((payablePaise + 50) / 100) * 100
  return { grandTotalPaise, roundingPaise: grandTotalPaise - payablePaise }
}

/**
 * Adds up `lines`: items total at MRP and at selling price, the delivery charge (free from
 * `freeDeliveryAbovePaise` of items total, none for an empty cart) and the grand total, rounded to
 * the rupee ({@link roundToRupee}: the order is paid in cash on delivery). A `coupon` (its discount
 * at most the items total, api/modules/coupon/evaluate.ts) comes off before rounding; free delivery
 * reads the items total before the discount (docs/offers.md, "Applying a code"). A `tipPaise` (whole
 * rupees, so it never moves the rounding) is added before rounding: the grand total is what is
 * collected, tip included (docs/commerce-api.md, "Tip and delivery instructions"). The named fees
 * of `settings.fees` ({@link computeFees} at `now`: the clock is the caller's, so a test fixes it)
 * are added before rounding too (docs/commerce-api.md, "Fees").
 */
export function computeBill(
  lines: BillLine[],
  settings: Pick<CommerceSettings, 'deliveryChargePaise' | 'freeDeliveryAbovePaise' | 'fees'>,
  coupon?: { code: string; discountPaise: number },
  tipPaise = 0,
  now: Date = new Date(),
): BillPaise {
  let itemCount = 0
  let itemsTotalMrpPaise = 0
  let itemsTotalPaise = 0
  for (const line of lines) {
    itemCount += line.quantity
    itemsTotalMrpPaise += line.quantity * Math.max(line.mrpPaise, line.sellingPaise)
    itemsTotalPaise += line.quantity * line.sellingPaise
  }
  const deliveryChargePaise = itemCount === 0 || itemsTotalPaise >= settings.freeDeliveryAbovePaise ? 0 : settings.deliveryChargePaise
  const discountPaise = coupon && coupon.discountPaise > 0 ? Math.min(coupon.discountPaise, itemsTotalPaise) : 0
  const fees = computeFees(itemCount, itemsTotalPaise, settings.fees, now)
  const feesPaise = fees.handlingChargePaise + fees.smallCartFeePaise + fees.lateNightFeePaise
  return {
    itemCount,
    itemsTotalMrpPaise,
    itemsTotalPaise,
    deliveryChargePaise,
    ...roundToRupee(itemsTotalPaise + deliveryChargePaise + feesPaise - discountPaise + tipPaise),
    ...(discountPaise > 0 ? { coupon: { code: coupon!.code, discountPaise } } : {}),
    ...(tipPaise > 0 ? { tipPaise } : {}),
    ...(fees.handlingChargePaise > 0 ? { handlingChargePaise: fees.handlingChargePaise } : {}),
    ...(fees.smallCartFeePaise > 0 ? { smallCartFeePaise: fees.smallCartFeePaise } : {}),
    ...(fees.lateNightFeePaise > 0 ? { lateNightFeePaise: fees.lateNightFeePaise } : {}),
  }
}

/** "HH:MM" of minutes after midnight. */
function clockText(minute: number): string {
  return `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`
}

/**
 * A bill in paise as the wire's rupees. `totalSavings` is the product discount plus, when delivery
 * is free, the delivery charge saved, plus the coupon's discount; `couponCode` and `couponDiscount`
 * only when a coupon applies; `tip` only with a tip (it is no saving); each named fee only when
 * charged (the original client's bill is unchanged without them). `withRules` (a cart's or a
 * checkout's bill, not a placed order's, whose fees were the rules of its day) adds the rule behind
 * a charged fee for its info tip: `smallCartBelow` (rupees) and `lateNightHours` ("23:00-05:00", IST).
 */
export function billToWire(
  bill: BillPaise,
  settings: Pick<CommerceSettings, 'deliveryChargePaise' | 'freeDeliveryAbovePaise' | 'fees'>,
  withRules = true,
): Bill {
  const discountPaise = bill.itemsTotalMrpPaise - bill.itemsTotalPaise
  const deliverySavedPaise = bill.itemCount > 0 && bill.deliveryChargePaise === 0 ? settings.deliveryChargePaise : 0
  return {
    itemCount: bill.itemCount,
    itemsTotalMrp: fromPaise(bill.itemsTotalMrpPaise),
    productDiscount: fromPaise(discountPaise),
    itemsTotal: fromPaise(bill.itemsTotalPaise),
    deliveryCharge: fromPaise(bill.deliveryChargePaise),
    freeDeliveryAbove: fromPaise(settings.freeDeliveryAbovePaise),
    roundingOff: fromPaise(bill.roundingPaise),
    grandTotal: fromPaise(bill.grandTotalPaise),
    totalSavings: fromPaise(discountPaise + deliverySavedPaise + (bill.coupon?.discountPaise ?? 0)),
    ...(bill.coupon ? { couponCode: bill.coupon.code, couponDiscount: fromPaise(bill.coupon.discountPaise) } : {}),
    ...(bill.tipPaise ? { tip: fromPaise(bill.tipPaise) } : {}),
    ...(bill.handlingChargePaise ? { handlingCharge: fromPaise(bill.handlingChargePaise) } : {}),
    ...(bill.smallCartFeePaise ? { smallCartFee: fromPaise(bill.smallCartFeePaise) } : {}),
    ...(bill.smallCartFeePaise && withRules && settings.fees ? { smallCartBelow: fromPaise(settings.fees.smallCartBelowPaise) } : {}),
    ...(bill.lateNightFeePaise ? { lateNightFee: fromPaise(bill.lateNightFeePaise) } : {}),
    ...(bill.lateNightFeePaise && withRules && settings.fees
      ? {
          lateNightHours: `${clockText(settings.fees.lateNightHours.startMinute)}-${clockText(settings.fees.lateNightHours.endMinute)}`,
        }
      : {}),
  }
}
