/**
 * Prices in Indian rupees, en-IN format (docs/product.md, "Entities" and "Constants"). A product's
 * `price` is its MRP in rupees and `sellingPrice` the selling price in rupees as the catalogue
 * stores it; `discount` is a percentage derived from the two (api/db/schema.ts,
 * docs/decisions/0011-commerce-orders-and-money.md). Pages show the API's `sellingPrice`;
 * `sellingPrice()` here only stands in when an older answer lacks that field.
 *
 * Amounts are rupees as JavaScript numbers. To avoid binary-fraction drift (0.1 + 0.2) every result
 * is rounded to whole paise (1/100 rupee) by working in integer paise.
 */

const WHOLE_RUPEES = new Intl.NumberFormat('en-IN', {
  style: 'currency',
  currency: 'INR',
  minimumFractionDigits: 0,
  maximumFractionDigits: 0,
})
const WITH_PAISE = new Intl.NumberFormat('en-IN', {
  style: 'currency',
  currency: 'INR',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
})
const PERCENT = new Intl.NumberFormat('en-IN', { maximumFractionDigits: 2 })

/** `amount` rupees as a whole number of paise (half away from zero). */
function toPaise(amount: number): number {
  return Math.sign(amount) * Math.round(Math.abs(amount) * 100 + 1e-9)
}

/**
 * `amount` rupees in en-IN currency format with Indian digit grouping: ₹1,23,456 for whole rupees
 * (".00" is noise on a price tag) and ₹52.50 otherwise (always two digits of paise).
 * Throws a RangeError for NaN or ±Infinity: a broken price must not print as "₹NaN".
 */
export function formatRupees(amount: number): string {
  if (!Number.isFinite(amount)) throw new RangeError(`formatRupees: not a finite amount: ${amount}`)
  const paise = toPaise(amount)
  const rupees = paise / 100
  // Normalise -0 so a zero price never prints as "-₹0".
  return paise % 100 === 0 ? WHOLE_RUPEES.format(rupees || 0) : WITH_PAISE.format(rupees)
}

/** A discount percentage clamped to 0-100; anything not a finite number counts as no discount. */
function clampDiscount(discountPercent: number): number {
  return Number.isFinite(discountPercent) ? Math.min(100, Math.max(0, discountPercent)) : 0
}

/**
 * The selling price in rupees of an item with MRP `mrp` rupees and `discountPercent` % off, rounded
 * to paise (half up). Discounts are clamped to 0-100 %, so the price is never above the MRP or
 * below zero. Example: sellingPrice(99, 33) = 66.33.
 */
export function sellingPrice(mrp: number, discountPercent: number): number {
  const mrpPaise = toPaise(mrp)
  return Math.round((mrpPaise * (100 - clampDiscount(discountPercent))) / 100) / 100
}

/**
 * The discount in percent that a selling price of `selling` rupees is off an MRP of `mrp` rupees,
 * unrounded (the badge floors it: `discountLabel`); 0 when the MRP is not above 0 or the selling
 * price is not below it. Pages show this, not the API's `discount`, which is tuned for the original
 * client's arithmetic (docs/commerce-api.md, "The discount on the wire") and may read a little
 * higher than the real discount.
 */
export function discountPercentOf(mrp: number, selling: number): number {
  const mrpPaise = toPaise(mrp)
  const sellingPaise = toPaise(selling)
  if (!(mrpPaise > 0) || !(sellingPaise < mrpPaise)) return 0
  return ((mrpPaise - Math.max(0, sellingPaise)) * 100) / mrpPaise
}

/**
 * The badge text for a discount of `discount` %: "23% OFF", "12.5% OFF" (up to two decimals, never
 * rounded up to claim more than the real discount), or null when there is no discount (0, negative
 * or not a number). Values above 100 read as 100.
 */
export function discountLabel(discount: number): string | null {
  const percent = clampDiscount(discount)
  if (percent <= 0) return null
  return `${PERCENT.format(Math.floor(percent * 100 + 1e-9) / 100)}% OFF`
}
