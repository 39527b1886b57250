/**
 * Typed calls to the upstream cart endpoints (docs/commerce-api.md, "Cart" and "Guest carts").
 *
 * Whose cart: a signed-in shopper's (the session's Bearer token) or, for a visitor, the guest cart
 * whose id the BFF keeps in its httpOnly cookie session (`X-Guest-Cart` header). A visitor gets a
 * guest cart id on the first add, never on a mere page view. An expired or unknown guest id (401) is
 * dropped from the session: reads then answer an empty cart, and an add asks for a new id once.
 *
 * Amounts are rupees (numbers with at most two decimals) as the API sends them.
 */
import { z } from 'zod'
import { EMPTY_CART_SUMMARY, type CartSummary } from '../../lib/cart.ts'
import { CartSummaryAnswerSchema, type CartSummaryAnswer } from '../../../contract/cart-summary.ts'
import type { RequestSession } from '../session.ts'
import type { CartCache, CartSlot } from '../cart-cache.ts'
import { parseAnswer, parseData, upstream, type UpstreamOptions, type UpstreamResult } from '../upstream.ts'
import {
  CartExtraShape,
  CartItemSchema,
  GuestCartAnswerSchema,
  type AddToCartSchema,
  type Bill,
  type CartItem,
  type CartLimits,
  type CartLineIdSchema,
  type MergeCartSchema,
  type UpdateQtySchema,
} from '../../../contract/cart.ts'
import { successOf } from '../../../contract/envelope.ts'
import { DEFAULT_CART_LIMITS } from '../../../contract/cart-limits.ts'
import type { Api } from '../api-context.ts'
import { OfferSchema, type ApplyCouponInput, type CartCoupon, type Offer } from '../../../contract/coupon.ts'

export type { Bill, CartLimits } from '../../../contract/cart.ts'
/** One cart line: its id, today's product, the quantity. */
export type CartLine = CartItem

/** A whole cart: lines oldest first, the bill, the limits and the coupon applied (null: none; docs/offers.md, "Applying a code"). */
export interface Cart {
  lines: CartLine[]
  bill: Bill
  limits: CartLimits
  coupon: CartCoupon | null
}

/**
 * An empty cart with the given limits: by default the API's defaults (contract/cart-limits.ts), for
 * a visitor who has no cart (no API call). Any cart answer carries the configured values instead.
 */
export function emptyCart(limits: CartLimits = DEFAULT_CART_LIMITS): Cart {
  return {
    lines: [],
    bill: {
      itemCount: 0,
      itemsTotalMrp: 0,
      productDiscount: 0,
      itemsTotal: 0,
      deliveryCharge: 0,
      freeDeliveryAbove: limits.freeDeliveryAbove,
      roundingOff: 0,
      grandTotal: 0,
      totalSavings: 0,
    },
    limits,
    coupon: null,
  }
}

/** GET /api/cart/get and POST /api/cart/merge: the lines in `data`, the bill and the limits beside them. */
const CartAnswerSchema = successOf(z.array(CartItemSchema), CartExtraShape)

/** Options of every call: the shopper's address for the API's per-IP limits. */
export interface CartCallOptions {
  clientIp?: string
}

/** Whose cart a call names: the signed-in session, or the guest cart header; null = no cart yet. */
function owner(session: RequestSession): Pick<UpstreamOptions, 'session' | 'headers'> | null {
  if (session.tokens) return { session }
  const guest = session.guestCartId
  return guest ? { headers: { 'X-Guest-Cart': guest } } : null
}

/**
 * `who` with `Prefer: return=minimal` (RFC 7240): a write's caller here needs only its message, so
 * the API skips reading the line back (docs/commerce-api.md, "Cart").
 */
function minimal(who: Pick<UpstreamOptions, 'session' | 'headers'>): Pick<UpstreamOptions, 'session' | 'headers'> {
  return { ...who, headers: { ...who.headers, Prefer: 'return=minimal' } }
}

/** True when a guest call failed because the guest cart is gone; the id is dropped from the session. */
function guestExpired(session: RequestSession, result: UpstreamResult<unknown>): boolean {
  if (result.ok || result.status !== 401 || session.tokens) return false
  session.setGuestCartId(null)
  return true
}

function toCart(result: UpstreamResult<unknown>): UpstreamResult<Cart> {
  if (!result.ok) return result
  const parsed = parseAnswer(result, CartAnswerSchema)
  if (!parsed.ok) return parsed
  return {
    ...parsed,
    data: { lines: parsed.data.data, bill: parsed.data.bill, limits: parsed.data.limits, coupon: parsed.data.coupon ?? null },
  }
}

/**
 * The shopper's or visitor's cart (GET /api/cart/get). A visitor without a guest cart, or whose guest
 * cart expired, gets an empty cart without an error.
 */
export async function getCart(api: Api, session: RequestSession, opts: CartCallOptions = {}): Promise<UpstreamResult<Cart>> {
  const who = owner(session)
  if (!who) return { ok: true, status: 200, message: 'Cart', data: emptyCart(), extra: {} }
  // Kept in memory, per store, until the database says this cart changed or one of its products'
  // stock moved (app/.server/cart-cache.ts).
  const { cache, slot } = cacheSlot(api, session)
  const storeId = api.storeId()
  const kept = slot && cache!.getWhole<UpstreamResult<Cart>>(slot, storeId)
  if (kept) return kept
  const mark = cache?.begin() ?? 0
  const result = await upstream(api, 'cart/get', { method: 'GET', clientIp: opts.clientIp, ...who })
  if (guestExpired(session, result)) return { ok: true, status: 200, message: 'Cart', data: emptyCart(), extra: {} }
  const cart = toCart(result)
  // A cart with a coupon is read each time: whether the code applies also moves with other shoppers'
  // orders and the clock, which no notice of this cart tells.
  if (cart.ok && slot && readWithSlot(session, slot) && !cart.data.coupon)
    cache!.setWhole(
      slot,
      storeId,
      cart,
      cart.data.lines.map((line) => line.productId._id),
      mark,
    )
  return cart
}

/** The request's cart cache and its session's slot in it; both null with the API apart or no cart. */
function cacheSlot(api: Api, session: RequestSession): { cache: CartCache | null; slot: CartSlot | null } {
  const cache = api.wiring.cartCache ?? null
  const slot =
    cache?.slotOf({ userId: session.user?._id, accessToken: session.tokens?.accessToken, guestCartId: session.guestCartId }) ?? null
  return { cache, slot }
}

/** True when the session still holds the slot's credentials after a read (a refresh changes the token). */
function readWithSlot(session: RequestSession, slot: CartSlot): boolean {
  return slot.token === '' ? !session.tokens && session.guestCartId !== null : session.tokens?.accessToken === slot.token
}

/**
 * The pages whose loader reads the whole cart (`getCartForLoaders`): the cart page and checkout. On
 * them the root loader takes its summary from that read (`getCartSummary` with `fromWholeCart`).
 */
export const WHOLE_CART_PAGES: ReadonlySet<string> = new Set(['/cart', '/checkout'])

/** The whole-cart read a request's loaders share (`getCartForLoaders`), by the request's session. */
const loaderCartReads = new WeakMap<RequestSession, Promise<UpstreamResult<Cart>>>()

/**
 * `getCart` for loaders: one read per request, shared by the root loader and the page's loader, so a
 * page that lists the whole cart (the cart page, checkout) costs one cart call, not a summary and a
 * cart. Loaders only: an action that changes the cart must not see a read made before it.
 */
export function getCartForLoaders(api: Api, session: RequestSession, opts: CartCallOptions = {}): Promise<UpstreamResult<Cart>> {
  let read = loaderCartReads.get(session)
  if (!read) {
    read = getCart(api, session, opts)
    loaderCartReads.set(session, read)
  }
  return read
}

/**
 * What every page shows of the cart (GET /api/cart/summary: counts and line ids, no products): the
 * root loader's and the page cache's read (docs/commerce-api.md, "Cart summary"). No cart, an expired
 * guest cart or a failed read: the empty summary, never an error page. With `fromWholeCart` (a page
 * whose loader reads the whole cart, `getCartForLoaders`) it is taken from that same read.
 */
export async function getCartSummary(
  api: Api,
  session: RequestSession,
  opts: CartCallOptions = {},
  fromWholeCart = false,
): Promise<CartSummary> {
  if (fromWholeCart) {
    const cart = await getCartForLoaders(api, session, opts)
    return cart.ok ? summaryOfCart(cart.data) : EMPTY_CART_SUMMARY
  }
  const who = owner(session)
  if (!who) return EMPTY_CART_SUMMARY
  // Kept in memory, per store, until the database says this cart changed or one of its products' stock
  // moved (app/.server/cart-cache.ts).
  const { cache, slot } = cacheSlot(api, session)
  const storeId = api.storeId()
  const kept = slot && cache!.get(slot, storeId)
  if (kept) return kept
  const mark = cache?.begin() ?? 0
  const result = await upstream(api, 'cart/summary', { method: 'GET', clientIp: opts.clientIp, ...who })
  if (guestExpired(session, result)) return EMPTY_CART_SUMMARY
  const parsed = parseData(result, CartSummaryAnswerSchema)
  if (!parsed.ok) return EMPTY_CART_SUMMARY
  const summary = summaryOf(parsed.data)
  // Kept only when read with the slot's own credentials: not after a refresh changed the token.
  if (slot && readWithSlot(session, slot)) cache!.set(slot, summary, mark, storeId)
  return summary
}

/**
 * The summary of a whole cart: the same count, items total and lines as the API's summary, which
 * computes them with the same bill arithmetic, of the lines the store can deliver
 * (docs/commerce-api.md, "Cart summary").
 */
export function summaryOfCart(cart: Cart): CartSummary {
  const lines: CartSummary['lines'] = {}
  for (const line of cart.lines) lines[line.productId._id] = { lineId: line._id, qty: line.quantity }
  return { count: cart.bill.itemCount, total: cart.bill.itemsTotal, lines, maxQtyPerLine: cart.limits.maxQtyPerLine }
}

/** The API's cart summary as pages read it: lines by product id. */
export function summaryOf(answer: CartSummaryAnswer): CartSummary {
  const lines: CartSummary['lines'] = {}
  for (const line of answer.lines) lines[line.productId] = { lineId: line._id, qty: line.quantity }
  return { count: answer.itemCount, total: answer.itemsTotal, lines, maxQtyPerLine: answer.maxQtyPerLine }
}

/** Asks the API for a new guest cart and keeps its id in the session. */
async function startGuestCart(api: Api, session: RequestSession, opts: CartCallOptions): Promise<UpstreamResult<unknown>> {
  const result = await upstream<unknown>(api, 'cart/guest', { method: 'POST', json: {}, clientIp: opts.clientIp })
  const parsed = parseData(result, GuestCartAnswerSchema)
  if (parsed.ok) session.setGuestCartId(parsed.data.guestCartId)
  return parsed
}

/** Runs a cart write; for a visitor it first makes a guest cart, and once more if the old one expired. */
async function write(
  api: Api,
  session: RequestSession,
  opts: CartCallOptions,
  call: (who: Pick<UpstreamOptions, 'session' | 'headers'>) => Promise<UpstreamResult<unknown>>,
): Promise<UpstreamResult<unknown>> {
  let who = owner(session)
  if (!who) {
    const started = await startGuestCart(api, session, opts)
    if (!started.ok) return started
    who = owner(session)!
  }
  const result = await call(who)
  if (!guestExpired(session, result)) return result
  const started = await startGuestCart(api, session, opts)
  if (!started.ok) return started
  return call(owner(session)!)
}

/**
 * Adds one of `productId` (POST /api/cart/create; an existing line goes up by one).
 * Failures: 404 unknown product; 409 "Out of stock", "Only N left in stock" or "You can add at most
 * 12 of this item".
 */
export function addToCart(
  api: Api,
  session: RequestSession,
  productId: string,
  opts: CartCallOptions = {},
): Promise<UpstreamResult<unknown>> {
  return write(api, session, opts, (who) =>
    upstream(api, 'cart/create', {
      method: 'POST',
      json: { productId } satisfies z.input<typeof AddToCartSchema>,
      clientIp: opts.clientIp,
      ...minimal(who),
    }),
  )
}

/** Sets a line's quantity (PUT /api/cart/update-qty); 0 removes it. 409 above the cap or the stock. */
export function updateCartQty(
  api: Api,
  session: RequestSession,
  lineId: string,
  qty: number,
  opts: CartCallOptions = {},
): Promise<UpstreamResult<unknown>> {
  return write(api, session, opts, (who) =>
    upstream(api, 'cart/update-qty', {
      method: 'PUT',
      json: { _id: lineId, qty } satisfies z.input<typeof UpdateQtySchema>,
      clientIp: opts.clientIp,
      ...minimal(who),
    }),
  )
}

/** Removes a line (DELETE /api/cart/delete-cart-item). */
export function removeCartLine(
  api: Api,
  session: RequestSession,
  lineId: string,
  opts: CartCallOptions = {},
): Promise<UpstreamResult<unknown>> {
  return write(api, session, opts, (who) =>
    upstream(api, 'cart/delete-cart-item', {
      method: 'DELETE',
      json: { _id: lineId } satisfies z.input<typeof CartLineIdSchema>,
      clientIp: opts.clientIp,
      ...who,
    }),
  )
}

/**
 * Right after a sign-in or registration: merges the visitor's guest cart into the account's cart
 * (POST /api/cart/merge; quantities added, capped) and forgets the guest id. Does nothing without a
 * guest cart. A failed merge keeps the id, so the next sign-in can try again.
 */
export async function mergeGuestCart(api: Api, session: RequestSession, opts: CartCallOptions = {}): Promise<void> {
  const guestCartId = session.guestCartId
  if (!guestCartId || !session.tokens) return
  const result = await upstream(api, 'cart/merge', {
    method: 'POST',
    json: { guestCartId } satisfies z.input<typeof MergeCartSchema>,
    session,
    clientIp: opts.clientIp,
  })
  if (result.ok || result.status === 404) session.setGuestCartId(null)
}

/**
 * Applies a coupon code to the signed-in shopper's cart (POST /api/cart/coupon): the cart as it now
 * is, or the API's refusal (404 unknown code, 422 with the reason on the field `code`: "Minimum
 * basket ₹499", "Already used"...; docs/offers.md, "Applying a code").
 */
export async function applyCoupon(
  api: Api,
  session: RequestSession,
  code: string,
  opts: CartCallOptions = {},
): Promise<UpstreamResult<Cart>> {
  return toCart(
    await upstream(api, 'cart/coupon', { method: 'POST', json: { code } satisfies ApplyCouponInput, session, clientIp: opts.clientIp }),
  )
}

/** Removes the coupon from the signed-in shopper's cart (DELETE /api/cart/coupon). */
export async function removeCoupon(api: Api, session: RequestSession, opts: CartCallOptions = {}): Promise<UpstreamResult<Cart>> {
  return toCart(await upstream(api, 'cart/coupon', { method: 'DELETE', session, clientIp: opts.clientIp }))
}

/** The offers for the signed-in shopper's cart (GET /api/cart/offers): applying first, then the nearest to unlock. */
export async function getOffers(api: Api, session: RequestSession, opts: CartCallOptions = {}): Promise<UpstreamResult<Offer[]>> {
  return parseData(await upstream(api, 'cart/offers', { method: 'GET', session, clientIp: opts.clientIp }), z.array(OfferSchema))
}
