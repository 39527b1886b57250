/**
 * The cart's limits in words. Whether a quantity fits is decided once, in SQL (api/db/functions/
 * cart_limit.sql, used by cart_line_add.sql for every add, merge and "Order again", and by
 * cart_set_qty.sql): the functions answer a reason code and the number its message needs. This
 * module only turns a code into the answer the shopper reads (docs/commerce-api.md, "Cart";
 * docs/decisions/0047-cart-rule-and-sql-function-files.md); it never compares quantities itself.
 */
import { Conflict, HttpError, NotFound, Unauthorized } from '../../lib/errors.ts'

/** Different products one cart may hold (passed to the SQL functions as `p_max_lines`). */
export const MAX_LINES_PER_CART = 100

export const CART_EXPIRED = 'Your cart has expired'
export const CART_ITEM_NOT_FOUND = 'Cart item not found'
export const PRODUCT_NOT_FOUND = 'Product not found'
export const OUT_OF_STOCK = 'Out of stock'
/** 409 message when a new line would pass `maxLines` different products. */
export const cartFullMessage = (maxLines: number) => `Your cart is full: at most ${maxLines} different products`
export const CART_FULL = cartFullMessage(MAX_LINES_PER_CART)
/** 409 message when a line would pass the per-line maximum. */
export const maxQtyMessage = (max: number) => `You can add at most ${max} of this item`
/** 409 message when a line would pass the stock. */
export const onlyLeftMessage = (stock: number) => (stock > 0 ? `Only ${stock} left in stock` : OUT_OF_STOCK)

/**
 * Every reason code of the cart's SQL functions: `ok`; `no_cart` (the owner has no cart row);
 * `no_line` (no such line in the owner's cart); `unavailable` (product unknown or unpublished);
 * `out_of_stock`; `stock` (the stock caps the line); `max_per_line` (`CART_MAX_QTY_PER_LINE` caps
 * it); `cart_full` (a new line past `MAX_LINES_PER_CART`).
 */
export const CART_REASONS = ['ok', 'no_cart', 'no_line', 'unavailable', 'out_of_stock', 'stock', 'max_per_line', 'cart_full'] as const
export type CartReason = (typeof CART_REASONS)[number]

/** Why a line was added in part or not at all ("Order again" says it per line: contract/order.ts `REORDER_REASONS`). */
export type LimitReason = Exclude<CartReason, 'ok' | 'no_cart' | 'no_line'>

/**
 * A reason code as the database answered it, checked.
 * @throws Error for a code this module does not know (a function file and this module disagree: a 500)
 */
export function cartReason(code: string | null): CartReason {
  if (!(CART_REASONS as readonly (string | null)[]).includes(code)) throw new Error(`Unknown cart reason code: ${code}`)
  return code as CartReason
}

/**
 * The answer to a refused cart write: 404 for an unknown product or line, 401 for a guest cart gone
 * since the request found it, 409 with the cap's message (`limit`: the stock, the per-line maximum or
 * the line cap, as the SQL function answered it).
 */
export function refusal(reason: Exclude<CartReason, 'ok'>, limit: number | null): HttpError {
  switch (reason) {
    case 'no_cart':
      return Unauthorized(CART_EXPIRED)
    case 'no_line':
      return NotFound(CART_ITEM_NOT_FOUND)
    case 'unavailable':
      return NotFound(PRODUCT_NOT_FOUND)
    case 'out_of_stock':
      return Conflict(OUT_OF_STOCK)
    case 'stock':
      return Conflict(onlyLeftMessage(limit ?? 0))
    case 'max_per_line':
      return Conflict(maxQtyMessage(limit ?? 0))
    case 'cart_full':
      return Conflict(cartFullMessage(limit ?? MAX_LINES_PER_CART))
  }
}
