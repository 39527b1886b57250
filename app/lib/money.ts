/**
 * Money on the pages (docs/decisions/0051-money-names-on-the-pages.md): the view type `PriceView`
 * (`mrp`, `sellingPrice`, `discount`), cut from the wire's names here and nowhere else, and every
 * sum, product and percentage a page shows, in en-IN format (docs/product.md, "Entities" and
 * "Constants").
 *
 * Units: a product's wire `price` is its MRP in rupees and `sellingPrice` its selling price in
 * rupees (api/db/schema.ts, docs/decisions/0011-commerce-orders-and-money.md); an order line's wire
 * `price` is the selling price paid and `mrp` the MRP (contract/order.ts `OrderLineSchema`); a
 * payment's `amount` is integer paise (contract/payment.ts). View amounts stay rupee numbers with at
 * most two decimals (what loaders send and `formatRupees` prints), but every computation here works
 * in integer paise (₹1 = 100 paise), so 0.1 + 0.2 never drifts and a sum of many lines is exact.
 * Components call these functions and never multiply, add or divide rupees themselves.
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

/** `amount` rupees as a whole number of paise (half away from zero; the 1e-9 absorbs 1.005 × 100 = 100.49999…). */
export function toPaise(amount: number): number {
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
 * The whole percent, rounded down, that a selling price of `selling` rupees is off an MRP of `mrp`
 * rupees, in integer paise arithmetic: ⌊(MRP − selling) × 100 ÷ MRP⌋, so MRP ₹100 and ₹42.61 give
 * 57 (57.39 % off), never 58. 0 when the MRP is not above 0 or the selling price is not below it.
 */
export function wholeDiscountPercent(mrp: number, selling: number): number {
  const mrpPaise = toPaise(mrp)
  const sellingPaise = Math.max(0, toPaise(selling))
  if (!(mrpPaise > 0) || !(sellingPaise < mrpPaise)) return 0
  return Math.floor(((mrpPaise - sellingPaise) * 100) / mrpPaise)
}

/**
 * The shopper pages' badge for a discount of `discount` % (`PriceView.discount`, unrounded): a whole
 * percent rounded down, "57% OFF" for 57.39 % (a badge never claims more than the real discount,
 * and "57.39% OFF" is noise on a card: docs/product.md, "Constants"), or null when less than 1 %
 * is off (0, negative or not a number). Values above 100 read as 100. The wire's `discount` is not
 * this (docs/commerce-api.md, "The discount on the wire").
 */
export function discountLabel(discount: number): string | null {
  // The percent is an exact ratio of whole paise divided once (discountPercentOf): a whole percent
  // comes out exact, and a ratio below a whole percent stays below it, so floor needs no fudge.
  const whole = Math.floor(clampDiscount(discount))
  return whole >= 1 ? `${whole}% OFF` : null
}

/**
 * The admin product form's preview of a discount (app/lib/schemas/product.ts
 * `derivedDiscountText`): up to two decimals, rounded down ("1.56% OFF"), so an admin sees the exact
 * effect of a price; null when there is no discount. Shopper pages use `discountLabel`.
 */
export function preciseDiscountLabel(discount: number): string | null {
  const percent = clampDiscount(discount)
  if (percent <= 0) return null
  return `${PERCENT.format(Math.floor(percent * 100 + 1e-9) / 100)}% OFF`
}

/** `paise` (an integer) as rupees: exact, a number with at most two decimals. Throws a RangeError for a non-integer. */
export function fromPaise(paise: number): number {
  if (!Number.isSafeInteger(paise)) throw new RangeError(`fromPaise: not a whole number of paise: ${paise}`)
  return paise / 100
}

/** An amount in integer paise (a payment's `amount`, contract/payment.ts) in the format of `formatRupees`: 5250 → "₹52.50". */
export function formatPaise(paise: number): string {
  return formatRupees(fromPaise(paise))
}

/**
 * `amount` rupees as the plain decimal text of schema.org's `price` (a number with a dot, no
 * currency sign or grouping: https://schema.org/price): 52.5 → "52.50", 1234 → "1234.00".
 */
export function decimalRupees(amount: number): string {
  if (!Number.isFinite(amount)) throw new RangeError(`decimalRupees: not a finite amount: ${amount}`)
  const paise = toPaise(amount)
  const sign = paise < 0 ? '-' : ''
  const abs = Math.abs(paise)
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`
}

/**
 * The sum in rupees of `amounts` rupees, added as integer paise (exact for any number of lines: a
 * hundred lines of ₹0.10 make ₹10, not ₹9.99999…).
 */
export function sumRupees(amounts: Iterable<number>): number {
  let paise = 0
  for (const amount of amounts) paise += toPaise(amount)
  return paise / 100
}

/** `amount` less `less`, both in rupees, in paise: 199 − 150.3 is 48.70, not 48.69999…. */
export function subtractRupees(amount: number, less: number): number {
  return (toPaise(amount) - toPaise(less)) / 100
}

/** `quantity` units at `unitPrice` rupees each, in rupees (paise × a whole quantity). Throws a RangeError for a quantity that is not a whole number. */
export function lineAmount(unitPrice: number, quantity: number): number {
  if (!Number.isSafeInteger(quantity)) throw new RangeError(`lineAmount: not a whole quantity: ${quantity}`)
  return (toPaise(unitPrice) * quantity) / 100
}

/**
 * A price as pages show it: the view type between the wire's names and the components (the trade's
 * terms, docs/decisions/0051-money-names-on-the-pages.md). Amounts in rupees, exact to the paisa.
 */
export interface PriceView {
  /** Maximum retail price in rupees: struck through when above the selling price. */
  mrp: number
  /** Selling price in rupees: what the shopper pays per unit (or per line, see `priceTimes`). */
  sellingPrice: number
  /** Percent (0-100, unrounded) of the selling price off the MRP, from the two prices: `discountPercentOf`. */
  discount: number
}

/** Whether a price has an MRP above its selling price to strike through. */
export function isDiscounted(price: Pick<PriceView, 'mrp' | 'sellingPrice'>): boolean {
  return toPaise(price.sellingPrice) < toPaise(price.mrp)
}

/** The view of a price from its MRP and selling price in rupees (anything not a number counts as 0). */
function priceOf(mrp: number, selling: number): PriceView {
  const mrpRupees = toPaise(Number(mrp) || 0) / 100
  const sellingRupees = toPaise(Number(selling) || 0) / 100
  return { mrp: mrpRupees, sellingPrice: sellingRupees, discount: discountPercentOf(mrpRupees, sellingRupees) }
}

/**
 * The price view of a product as the API answers it (contract/product.ts `ProductSchema`): wire
 * `price` is the MRP, `sellingPrice` the selling price. The percentage comes from the two prices,
 * not the wire's `discount`, which is tuned for the original client's arithmetic
 * (docs/commerce-api.md, "The discount on the wire"); only an answer without `sellingPrice` falls
 * back to the MRP less that discount.
 */
export function productPrice(wire: { price: number; sellingPrice?: number | null; discount?: number | null }): PriceView {
  const mrp = Number(wire.price) || 0
  return priceOf(mrp, wire.sellingPrice ?? sellingPrice(mrp, Number(wire.discount) || 0))
}

/**
 * The price view of an order line as placed (contract/order.ts `OrderLineSchema`): there the wire's
 * `price` is the selling price paid and `mrp` the MRP, the reverse of a product's naming, which is
 * why pages read `PriceView` and never the wire's `price`.
 */
export function orderLinePrice(wire: { price: number; mrp: number }): PriceView {
  return priceOf(wire.mrp, wire.price)
}

/**
 * `quantity` units of `unit`: the line's selling total and its MRP total (never below the selling
 * total, so a line never shows a struck MRP lower than what is paid), each paise × quantity.
 */
export function priceTimes(unit: Pick<PriceView, 'mrp' | 'sellingPrice'>, quantity: number): PriceView {
  const selling = lineAmount(unit.sellingPrice, quantity)
  const mrp = lineAmount(Math.max(unit.mrp, unit.sellingPrice), quantity)
  return { mrp, sellingPrice: selling, discount: discountPercentOf(mrp, selling) }
}

/**
 * The discount in percent with two decimals (half up) that a selling price of `selling` rupees is
 * off an MRP of `mrp` rupees: the `discount` an admin write sends beside the two prices
 * (docs/commerce-api.md, "Products (addition)"); 0 when there is none.
 */
export function discountToTwoPlaces(mrp: number, selling: number): number {
  const mrpPaise = toPaise(mrp)
  const sellingPaise = toPaise(selling)
  if (!(mrpPaise > 0) || !(sellingPaise < mrpPaise)) return 0
  return Math.round(((mrpPaise - sellingPaise) * 10_000) / mrpPaise) / 100
}
