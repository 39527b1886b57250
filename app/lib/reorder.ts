/**
 * "Order again" in words (docs/product.md, "Order again"): the toast after it and the list of what
 * was left out, shared by the server that queues them and the cart page that shows the list.
 */
import { itemCountLabel } from './cart.ts'
import type { ReorderLeftOut } from '../../contract/order.ts'

/** Lines of the left-out list carried to the cart page; the rest are counted ("and 2 more"). */
export const LEFT_OUT_SHOWN = 5
/** Longest product name carried (a name is cut with "…"): the list travels in the session cookie, which holds about 4 KB. */
export const LEFT_OUT_NAME_MAX = 80

/** What the cart page shows after "Order again" left something out: each line's name, unit and reason in words. */
export interface LeftOutNotice {
  items: { name: string; unit: string; message: string }[]
  /** Further lines left out beyond `items`. */
  more: number
}

/** The toast after "Order again": "Added 3 items to your cart", or that nothing could be added. */
export function reorderToast(added: number): { type: 'success' | 'error'; message: string } {
  return added > 0
    ? { type: 'success', message: `Added ${itemCountLabel(added)} to your cart` }
    : { type: 'error', message: 'Nothing could be added to your cart' }
}

/** The notice for the cart page of the API's `leftOut` (null when nothing was left out): at most LEFT_OUT_SHOWN lines, names cut to LEFT_OUT_NAME_MAX. */
export function leftOutNotice(leftOut: ReorderLeftOut[]): LeftOutNotice | null {
  if (leftOut.length === 0) return null
  const cut = (name: string) => (name.length > LEFT_OUT_NAME_MAX ? `${name.slice(0, LEFT_OUT_NAME_MAX - 1)}…` : name)
  return {
    items: leftOut.slice(0, LEFT_OUT_SHOWN).map((l) => ({ name: cut(l.name), unit: cut(l.unit), message: l.message })),
    more: Math.max(0, leftOut.length - LEFT_OUT_SHOWN),
  }
}

/** The form field value naming a post as "Order again" (`intent`), beside a page's own actions. */
export const REORDER_INTENT = 'reorder'
