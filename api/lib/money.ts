/**
 * Money on the API side: amounts are kept as integer paise (₹1 = 100 paise) so that sums are
 * exact; rupee numbers with at most two decimals are only a wire format
 * (docs/decisions/0011-commerce-orders-and-money.md).
 */

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
 * to the paisa; the discount is clamped to 0-100.
 */
export function sellingPaiseFromDiscount(mrpPaise: number, discountPercent: number): number {
  const d = Math.min(100, Math.max(0, discountPercent))
  // Work in hundredths of a percent so that a two-decimal discount stays an integer.
  return Math.round((mrpPaise * (10_000 - Math.round(d * 100))) / 10_000)
}

/**
 * The discount in percent (two decimals, for display) of a selling price against an MRP; 0 when the
 * MRP is 0 or the selling price is not below it.
 */
export function discountFromPrices(mrpPaise: number, sellingPaise: number): number {
  if (!(mrpPaise > 0) || sellingPaise >= mrpPaise) return 0
  return Math.round(((mrpPaise - sellingPaise) * 10_000) / mrpPaise) / 100
}
