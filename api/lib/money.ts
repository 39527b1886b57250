/**
 * Money on the API side: amounts are kept as integer paise (₹1 = 100 paise) so that sums are
 * exact; rupee numbers with at most two decimals are only a wire format
 * (docs/decisions/0011-commerce-orders-and-money.md).
 */
import { DISCOUNT_DECIMALS_MAX } from '../../contract/product.ts'

export { DISCOUNT_DECIMALS_MAX }

/** Rupees (a number with at most two decimals, or a numeric column's text) → integer paise. */
export function toPaise(rupees: number | string): number {
  const n = typeof rupees === 'string' ? Number(rupees) : rupees
  if (!Number.isFinite(n)) throw new RangeError(`Not an amount: ${rupees}`)
  // Math.round absorbs the binary representation error of a two-decimal value (0.29 * 100 = 28.999…).
  return Math.round(n * 100)
}

/** Integer paise → rupees for the wire (exact for every amount below 2^53 paise). */
export function fromPaise(paise: number): number {
  return paise / 100
}

/**
 * The selling price in paise of an MRP of `mrpPaise` with `discountPercent` % off, rounded half up
 * to the paisa; the discount is clamped to 0-100. Exact for any discount of up to
 * DISCOUNT_DECIMALS_MAX decimals (BigInt arithmetic on the decimal digits as written, so neither
 * `0.29 * 100` nor a ten-decimal discount of a crore MRP drifts by a paisa).
 */
export function sellingPaiseFromDiscount(mrpPaise: number, discountPercent: number): number {
  const d = Math.min(100, Math.max(0, discountPercent))
  const digits = Math.min(decimalsOf(d), DISCOUNT_DECIMALS_MAX)
  const scale = 10n ** BigInt(digits)
  const discountScaled = BigInt(Math.round(d * 10 ** digits))
  const whole = 100n * scale
  // round half up of mrp × (100 − d) / 100, in integers: floor((2·num + den) / (2·den)).
  const numerator = BigInt(mrpPaise) * (whole - discountScaled)
  return Number((2n * numerator + whole) / (2n * whole))
}

/** Decimal places of a finite number as its shortest round-trip text writes it (`25.45` → 2, `1e-7` → 7). */
function decimalsOf(value: number): number {
  const [mantissa, exponent = '0'] = String(Math.abs(value)).split('e')
  return Math.max(0, (mantissa.split('.')[1]?.length ?? 0) - Number(exponent))
}

/**
 * The discount in percent (two decimals, for display) of a selling price against an MRP; 0 when the
 * MRP is 0 or the selling price is not below it.
 */
export function discountFromPrices(mrpPaise: number, sellingPaise: number): number {
  if (!(mrpPaise > 0) || sellingPaise >= mrpPaise) return 0
  return Math.round(((mrpPaise - sellingPaise) * 10_000) / mrpPaise) / 100
}

/**
 * The `discount` a product answers on the wire (docs/commerce-api.md, "The discount on the wire"):
 * the percentage with which the original single-page client's price arithmetic lands on our
 * selling price. That client shows `price − Math.ceil(price × discount / 100)` (a discount taken off
 * in whole rupees), and other clients `price × (1 − discount / 100)`; with this discount the first
 * is within ₹0.50 of the selling price (the nearest whole-rupee discount, half up) and the second
 * within ₹0.50 too, and to the paisa whenever the amount off is not rounded down to a whole rupee.
 * Our own pages read `sellingPrice` and derive the percentage they show from the two prices.
 *
 * The amount off aimed at is the exact amount off, capped at the nearest whole rupee; the answer is
 * the shortest decimal (2 to DISCOUNT_DECIMALS_MAX places, the nearest or the one below) that gives, in IEEE double arithmetic as
 * JavaScript computes it, that whole rupee under `Math.ceil` and the aimed amount within half a paisa.
 * @param mrpPaise the MRP in paise; @param sellingPaise the selling price in paise
 * @returns a percentage 0-100; 0 when the MRP is not above 0, or the selling price not below it, or
 *   less than ₹0.50 below it
 */
export function wireDiscount(mrpPaise: number, sellingPaise: number): number {
  if (!(mrpPaise > 0) || sellingPaise >= mrpPaise) return 0
  const offPaise = mrpPaise - Math.max(0, sellingPaise)
  const wholeRupeesOff = Math.floor((offPaise + 50) / 100)
  const targetPaise = Math.min(offPaise, wholeRupeesOff * 100)
  if (targetPaise === 0) return 0
  const mrp = mrpPaise / 100
  const exact = (targetPaise * 100) / mrpPaise
  const fits = (d: number) => {
    if (!(d > 0 && d <= 100)) return false
    const off = (mrp * d) / 100
    return Math.ceil(off) === wholeRupeesOff && Math.abs(off * 100 - targetPaise) < 0.49
  }
  for (let digits = 2; digits <= DISCOUNT_DECIMALS_MAX; digits++) {
    const scale = 10 ** digits
    // The nearest decimal, else the one below it: an exact amount off such as 35.2 % of ₹375
    // computes as 132.00000000000003 and Math.ceil would take ₹133 off.
    const nearest = Math.round(exact * scale)
    for (const candidate of [nearest, nearest - 1]) if (fits(candidate / scale)) return candidate / scale
  }
  // Not reached for any MRP up to PRICE_MAX (api/lib/money.test.ts tries the whole range); the
  // whole-rupee amount off just below, so Math.ceil still lands on it.
  return Math.floor(((wholeRupeesOff - 0.005) * 100 * 10 ** DISCOUNT_DECIMALS_MAX) / mrp) / 10 ** DISCOUNT_DECIMALS_MAX
}
