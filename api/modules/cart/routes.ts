/**
 * Routes of /api/cart (docs/commerce-api.md, "Cart" and "Guest carts"). A request names its cart by
 * the user's access token (Bearer or cookie) or, for a visitor, by `X-Guest-Cart: <guestCartId>`; the
 * token wins when both are sent, and a bad token is a 401 (never a silent fall back to a guest cart).
 *
 * - POST /guest → `{ guestCartId }` (a signed id; no row until the first line)
 * - POST /create `{ productId }` → the line, 200 whether new or incremented (`data: null` with
 *   `Prefer: return=minimal`, RFC 7240, as for /update-qty)
 * - GET /get → CartItem[] with `bill` and `limits` beside `data`
 * - PUT /update-qty `{ _id, qty }` → the line, or null when qty is 0
 * - DELETE /delete-cart-item `{ _id }` → null
 * - POST /merge `{ guestCartId }` (user) → the merged cart
 *
 * Every write spends the cart's write budget and, for a guest cart, its address's (IPv6 per /64);
 * a spent budget is a 429 with `Retry-After` (docs/security.md, "Carts").
 */
import type { Context, Next } from 'hono'
import { z } from 'zod'
import type { AppDeps } from '../../deps.ts'
import { STORE_HEADER, requestStore } from '../store/service.ts'
import { authenticate, currentUser, hasAccessToken, requireUser } from '../../lib/auth.ts'
import { addressGroup, clientIp } from '../../lib/client-ip.ts'
import { ok } from '../../lib/envelope.ts'
import { Unauthorized } from '../../lib/errors.ts'
import { consumeEach } from '../../lib/rate-limit.ts'
import { applyMinimal, prefersMinimal } from '../../lib/prefer.ts'
import {
  AddToCartSchema,
  CartExtraShape,
  CartItemSchema,
  CartLineIdSchema,
  GuestCartAnswerSchema,
  GuestCartIdSchema,
  MergeCartSchema,
  UpdateQtySchema,
} from '../../../contract/cart.ts'
import { CartSummaryAnswerSchema } from '../../../contract/cart-summary.ts'
import { ApplyCouponSchema, OfferSchema } from '../../../contract/coupon.ts'
import { apiRouter } from '../../lib/openapi.ts'
import {
  addToCart,
  applyCoupon,
  cartBudgetKey,
  cartOffers,
  removeCoupon,
  lineAnswer,
  getCart,
  getCartSummary,
  guestOwner,
  issueGuestCartId,
  mergeGuestCart,
  removeLine,
  updateQuantity,
  type CartOwner,
} from './service.ts'

/** 401 message when a request names no cart at all. */
export const NO_CART = 'Sign in or start a guest cart'
/** 429 message of a spent cart write budget. */
export const CART_TOO_FAST = 'Too many cart changes: please wait a moment'

/**
 * Spends one cart write: from the cart's own budget, and for a guest cart from its address's too
 * (a signed-in shopper is never refused because of others behind the same address). Every request
 * that writes a cart spends it, "Order again" included (docs/security.md, "Carts").
 * @throws 429 CART_TOO_FAST with Retry-After
 */
export async function spendCartWrite(deps: Pick<AppDeps, 'rateLimits'>, c: Context, owner: CartOwner): Promise<void> {
  const limits = deps.rateLimits
  const byCart = { limiter: limits.cartWriteByCart, key: cartBudgetKey(owner) }
  // A guest write's two budgets in one statement (api/lib/rate-limit.ts `consumeEach`).
  const spends = owner.kind === 'guest' ? [{ limiter: limits.cartWriteByIp, key: addressGroup(clientIp(c)) }, byCart] : [byCart]
  await consumeEach(limits, spends, CART_TOO_FAST)
}

/**
 * A cart write's answer: the line as `data` (today's product, what the original client shows), or,
 * when the request prefers `return=minimal` (RFC 7240; the BFF does), `data: null` without reading
 * the cart again (docs/commerce-api.md, "Cart").
 */
async function answerWrite(c: Context, message: string, line: () => Promise<unknown>) {
  if (!prefersMinimal(c)) return ok(c, message, await line())
  applyMinimal(c)
  return ok(c, message, null)
}

declare module 'hono' {
  interface ContextVariableMap {
    /** The cart a cart write names, found and charged by the write's guard (`cartRoutes`). */
    cartOwner: CartOwner
  }
}

/** Builds the /api/cart router. */
export function cartRoutes(deps: AppDeps) {
  /** The cart a request names (see the module comment). */
  const ownerOf = async (c: Context): Promise<CartOwner> => {
    if (hasAccessToken(c)) return { kind: 'user', userId: (await authenticate(c, deps)).id }
    const guest = c.req.header('x-guest-cart')
    if (!guest) throw Unauthorized(NO_CART)
    const parsed = GuestCartIdSchema.safeParse(guest)
    if (!parsed.success) throw Unauthorized('Your cart has expired')
    return guestOwner(deps, parsed.data)
  }

  const spendWrite = (c: Context, owner: CartOwner) => spendCartWrite(deps, c, owner)
  /** Guard of a write: the cart it names (401, 404) and one write spent (429), before the body is read. */
  const cartWrite = async (c: Context, next: Next) => {
    const owner = await ownerOf(c)
    await spendWrite(c, owner)
    c.set('cartOwner', owner)
    await next()
  }
  // The cart's lines are capped by the stock of the store the request names (docs/stores.md).
  const storeDeps = async (c: Context) => ({ ...deps, storeId: (await requestStore(deps, c.req.header(STORE_HEADER))).id })

  const { router, endpoint } = apiRouter('Cart')
  const guestHeader = z.object({
    'x-guest-cart': z
      .string()
      .regex(/^[A-Za-z0-9_-]{20,128}$/)
      .optional()
      .meta({ description: 'The guest cart id from POST /api/cart/guest' }),
  })
  const writeHeaders = guestHeader.extend({
    prefer: z.string().optional().meta({ description: '`return=minimal` (RFC 7240): answer `data: null` instead of the line' }),
  })
  const wholeCart = {
    description: 'The lines, oldest first, with the bill and the limits beside them',
    data: z.array(CartItemSchema),
    extra: CartExtraShape,
  }

  endpoint(
    {
      method: 'post',
      path: '/guest',
      summary: 'Start a guest cart: a signed id, stored nowhere until its first line is added',
      access: 'public',
      answers: { 201: { description: 'The guest cart id, for the X-Guest-Cart header', data: GuestCartAnswerSchema } },
    },
    (c) => ok(c, 'Guest cart started', { guestCartId: issueGuestCartId(deps) }, {}, 201),
  )

  endpoint(
    {
      method: 'post',
      path: '/create',
      summary: 'Add one unit of a product to the cart',
      access: 'cart',
      body: AddToCartSchema,
      headers: writeHeaders,
      answers: {
        200: { description: 'The line, new or incremented; null with `Prefer: return=minimal`', data: CartItemSchema.nullable() },
      },
      errors: [404, 409, 429],
    },
    cartWrite,
    async (c, { productId }) => {
      const owner = c.get('cartOwner')
      const store = await storeDeps(c)
      const written = await addToCart(store, owner, productId)
      return answerWrite(c, 'Item added to cart', () => lineAnswer(store, written.owner, written.lineId!))
    },
  )

  endpoint(
    {
      method: 'get',
      path: '/get',
      summary: "The cart at today's prices",
      access: 'cart',
      headers: guestHeader,
      answers: { 200: wholeCart },
    },
    async (c) => {
      const cart = await getCart(await storeDeps(c), await ownerOf(c))
      return ok(c, 'Cart items', cart.items, { bill: cart.bill, limits: cart.limits, coupon: cart.coupon })
    },
  )

  endpoint(
    {
      method: 'get',
      path: '/summary',
      summary: 'The cart in brief: line ids, product ids and quantities, item count and items total',
      access: 'cart',
      headers: guestHeader,
      answers: {
        200: { description: 'What every page shows of the cart (docs/commerce-api.md, "Cart summary")', data: CartSummaryAnswerSchema },
      },
    },
    async (c) => {
      return ok(c, 'Cart summary', await getCartSummary(await storeDeps(c), await ownerOf(c)))
    },
  )

  endpoint(
    {
      method: 'put',
      path: '/update-qty',
      summary: "Set a line's quantity (0 removes it)",
      access: 'cart',
      body: UpdateQtySchema,
      headers: writeHeaders,
      answers: { 200: { description: 'The line, or null when removed or with `Prefer: return=minimal`', data: CartItemSchema.nullable() } },
      errors: [404, 409, 429],
    },
    cartWrite,
    async (c, { _id, qty }) => {
      const owner = c.get('cartOwner')
      const store = await storeDeps(c)
      const { lineId, owner: written } = await updateQuantity(store, owner, _id, qty)
      return answerWrite(c, lineId ? 'Cart updated' : 'Item removed from cart', async () =>
        lineId ? lineAnswer(store, written, lineId) : null,
      )
    },
  )

  endpoint(
    {
      method: 'delete',
      path: '/delete-cart-item',
      summary: 'Remove a line',
      access: 'cart',
      body: CartLineIdSchema,
      headers: guestHeader,
      answers: { 200: { description: '`data` is null' } },
      errors: [404, 429],
    },
    cartWrite,
    async (c, { _id }) => {
      await removeLine(await storeDeps(c), c.get('cartOwner'), _id)
      return ok(c, 'Item removed from cart', null)
    },
  )

  endpoint(
    {
      method: 'post',
      path: '/merge',
      summary: "Move a guest cart's lines into the signed-in user's cart",
      access: 'user',
      body: MergeCartSchema,
      answers: { 200: wholeCart },
      errors: [404, 429],
    },
    requireUser(deps),
    async (c, next) => {
      await spendWrite(c, { kind: 'user', userId: currentUser(c).id })
      await next()
    },
    async (c, { guestCartId }) => {
      const cart = await mergeGuestCart(await storeDeps(c), currentUser(c).id, guestCartId)
      return ok(c, 'Cart merged', cart.items, { bill: cart.bill, limits: cart.limits, coupon: cart.coupon })
    },
  )

  // Coupons (docs/offers.md, "Applying a code"): a signed-in shopper's cart only.
  endpoint(
    {
      method: 'post',
      path: '/coupon',
      summary: "Apply a coupon code to the signed-in shopper's cart (kept only when it applies now)",
      access: 'user',
      body: ApplyCouponSchema,
      answers: { 200: wholeCart },
      errors: [404, 422, 429],
    },
    requireUser(deps),
    async (c, next) => {
      await spendWrite(c, { kind: 'user', userId: currentUser(c).id })
      await next()
    },
    async (c, { code }) => {
      const cart = await applyCoupon(await storeDeps(c), currentUser(c).id, code)
      return ok(c, 'Coupon applied', cart.items, { bill: cart.bill, limits: cart.limits, coupon: cart.coupon })
    },
  )

  endpoint(
    {
      method: 'delete',
      path: '/coupon',
      summary: "Remove the coupon from the signed-in shopper's cart",
      access: 'user',
      answers: { 200: wholeCart },
      errors: [429],
    },
    requireUser(deps),
    async (c, next) => {
      await spendWrite(c, { kind: 'user', userId: currentUser(c).id })
      await next()
    },
    async (c) => {
      const cart = await removeCoupon(await storeDeps(c), currentUser(c).id)
      return ok(c, 'Coupon removed', cart.items, { bill: cart.bill, limits: cart.limits, coupon: cart.coupon })
    },
  )

  endpoint(
    {
      method: 'get',
      path: '/offers',
      summary: "The offers for the signed-in shopper's cart: each applies, or why not and how much more to add",
      access: 'user',
      answers: {
        200: { description: 'Applying offers first, then the nearest to unlock (`nearest`), then the rest', data: z.array(OfferSchema) },
      },
    },
    requireUser(deps),
    async (c) => ok(c, 'Offers', await cartOffers(await storeDeps(c), currentUser(c).id)),
  )

  return router
}
