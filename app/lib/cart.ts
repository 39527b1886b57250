/**
 * What every page knows of the shopper's cart (docs/commerce-api.md, "Cart"): the root loader
 * (app/root.tsx) puts a small summary in its data, so the header, the mobile cart bar and every
 * product card read the count, the total and each product's quantity without a request of their own
 * (`useCartSummary`, app/lib/personal.ts: a page from the page cache carries it beside the page).
 */
import { countLabel } from './plural.ts'
import { DEFAULT_CART_LIMITS } from '../../contract/cart-limits.ts'

/** One product's line in the cart. */
export interface CartLineRef {
  lineId: string
  qty: number
}

/** The cart in brief: item count, grand total in rupees, lines by product id, the per-line maximum. */
export interface CartSummary {
  count: number
  /** Items total in rupees (what the header shows). */
  total: number
  lines: Record<string, CartLineRef>
  maxQtyPerLine: number
}

/**
 * The summary of an empty cart, for a visitor with no cart or a cart call that failed, with the
 * API's default per-line cap (contract/cart-limits.ts; docs/product.md, "Constants"); every cart
 * answer carries the configured cap (`limits.maxQtyPerLine`), which replaces this one, and the API
 * enforces its own.
 */
export const EMPTY_CART_SUMMARY: CartSummary = { count: 0, total: 0, lines: {}, maxQtyPerLine: DEFAULT_CART_LIMITS.maxQtyPerLine }

/** "1 item" / "3 items". */
export function itemCountLabel(count: number): string {
  return countLabel(count, 'item')
}

/** Where every cart form posts (app/routes/cart.tsx): ADD, the stepper, remove. */
export const CART_ACTION_PATH = '/cart'

/**
 * A catalogue page's `shouldRevalidate` (React Router, "shouldRevalidate"): after a cart form's
 * submission only the root loader runs again (it holds the cart summary every ADD and stepper
 * reads); the page's own catalogue data did not change, so it is not fetched and rendered again on
 * each ADD. Anything else keeps React Router's default.
 */
export function revalidateExceptAfterCartWrite({
  formAction,
  defaultShouldRevalidate,
}: {
  formAction?: string
  defaultShouldRevalidate: boolean
}): boolean {
  if (formAction && new URL(formAction, 'http://localhost').pathname === CART_ACTION_PATH) return false
  return defaultShouldRevalidate
}

/** The anchor id of a product's card, the target of the no-JavaScript redirect back (`#p-<id>`). */
export const productAnchor = (productId: string) => `p-${productId}`
