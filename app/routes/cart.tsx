/**
 * /cart (docs/commerce-api.md, "Cart"): the cart page, and the action every cart button posts to.
 *
 * The page lists the lines, the bill and "Proceed", then "You might have missed" (products often
 * bought with the cart's: docs/recommendations.md); it is the cart panel without JavaScript and on
 * phones. The action reads `CartActionSchema` (app/lib/schemas/cart.ts): without JavaScript it
 * answers a redirect back to the page the button was on, at the product's card (`#p-<id>`), with a
 * flash toast; a fetcher (JavaScript, `js=1`) gets `{ ok, message }` instead, so the page stays put.
 * An add is refused (422, "Delivery not available at <pincode>") while the chosen PIN code has no store.
 * After "Order again" the page lists what was left out and why (docs/product.md, "Order again").
 * A signed-in shopper's coupon field (intents `coupon-apply`, `coupon-remove`; docs/offers.md,
 * "Applying a code") answers the page again, the reason a code does not apply on the field.
 */
import { data, type ShouldRevalidateFunction } from 'react-router'
import type { Route } from './+types/cart'
import { failureInit, failureMessage, throwFailure } from '../.server/failure.ts'
import { getSession } from '../.server/context.ts'
import { addToCart, applyCoupon, getCartForLoaders, getOffers, removeCartLine, removeCoupon, updateCartQty } from '../.server/api/cart.ts'
import { missedCards } from '../.server/api/recommend.ts'
import { COUPON_APPLY_INTENT, COUPON_REMOVE_INTENT } from '../components/coupon-box.tsx'
import { ApplyCouponSchema, COUPON_FIELD_MAX } from '../../contract/coupon.ts'
import { readForm } from '../.server/form.ts'
import { clientIp, safeRedirect, sameOriginReferer } from '../.server/request.ts'
import { redirectWithToast } from '../.server/toast.ts'
import { CartPageBody } from '../components/cart-page-body.tsx'
import { PersonalSlot } from '../components/personal-slot.tsx'
import type { CartActionData } from '../components/add-to-cart.tsx'
import { GeneralErrorBoundary } from '../components/error-boundary.tsx'
import { SHOP_NAME } from '../components/header.tsx'
import { productAnchor } from '../lib/cart.ts'
import { notDeliverableLabel } from '../lib/delivery.ts'
import { PERSONAL_SLOTS_HANDLE } from '../lib/personal-slots.ts'
import type { LeftOutNotice } from '../lib/reorder.ts'
import { CartActionSchema } from '../lib/schemas/cart.ts'
import { PLAUSIBLE_ID } from '../../contract/ids.ts'
import { apiOf } from '../.server/api-context.ts'

export const meta: Route.MetaFunction = () => [{ title: `My Cart | ${SHOP_NAME}` }, { name: 'robots', content: 'noindex' }]

// Personal: no shared cache may keep it.
export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

// The page's heading and contents are one personal slot: a shopper's cart page is the shared page
// with their cart spliced in (docs/decisions/0032-personal-parts-spliced.md).
export const handle = PERSONAL_SLOTS_HANDLE

/**
 * A refused coupon (4xx) still reads the cart again: the page served may be the shared page whose
 * own cart is empty (the shopper's was spliced in), and React Router skips revalidation after an
 * action's error status by default.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formData, defaultShouldRevalidate }) => {
  const intent = formData?.get('intent')
  return intent === COUPON_APPLY_INTENT || intent === COUPON_REMOVE_INTENT ? true : defaultShouldRevalidate
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const api = apiOf(context)
  const session = getSession(context)
  // The offers the basket qualifies for (a signed-in shopper's; docs/offers.md, "Applying a code"):
  // a help, not the cart, so the page works without them.
  const [cart, offers] = await Promise.all([
    getCartForLoaders(api, session, { clientIp: clientIp(request) }),
    session.user ? getOffers(api, session, { clientIp: clientIp(request) }) : null,
  ])
  if (!cart.ok) throwFailure(cart)
  // "You might have missed" (docs/recommendations.md): read after the cart, for its products.
  const missed = await missedCards(api, cart.data, { clientIp: clientIp(request) })
  return { cart: cart.data, missed, offers: offers?.ok ? offers.data : [], signedIn: Boolean(session.user), leftOut: session.takeLeftOut() }
}

export async function action({ context, request }: Route.ActionArgs) {
  const api = apiOf(context)
  const session = getSession(context)
  const formData = await readForm(request)
  const viaFetcher = formData.get('js') === '1'
  // The coupon field (docs/offers.md, "Applying a code"): applied or removed, then the page again; a
  // code that does not apply comes back on the field with the API's reason.
  const intent = formData.get('intent')
  if (intent === COUPON_APPLY_INTENT || intent === COUPON_REMOVE_INTENT) {
    const typed = typeof formData.get('code') === 'string' ? String(formData.get('code')).slice(0, COUPON_FIELD_MAX) : ''
    if (!session.user) return data({ couponError: 'Sign in to use a coupon', typed }, { status: 401 })
    if (intent === COUPON_REMOVE_INTENT) {
      const removed = await removeCoupon(api, session, { clientIp: clientIp(request) })
      if (!removed.ok) return data({ couponError: removed.message, typed }, failureInit(removed))
      return redirectWithToast(session, '/cart', { type: 'success', message: 'Coupon removed' })
    }
    const code = ApplyCouponSchema.safeParse({ code: typed })
    if (!code.success) return data({ couponError: code.error.issues[0]!.message, typed }, { status: 400 })
    const applied = await applyCoupon(api, session, code.data.code, { clientIp: clientIp(request) })
    if (!applied.ok) return data({ couponError: applied.issues[0]?.message ?? applied.message, typed }, failureInit(applied))
    return redirectWithToast(session, '/cart', { type: 'success', message: `Coupon ${code.data.code} applied` })
  }
  const parsed = CartActionSchema.safeParse(Object.fromEntries(formData))
  const productId = typeof formData.get('productId') === 'string' ? String(formData.get('productId')) : ''
  const validProduct = PLAUSIBLE_ID.test(productId)
  // Back to the page the button was on: `redirectTo` when the form names it, else the same-origin
  // Referer (the cards leave it out to keep the home page small), else the product's own page.
  const back = () => {
    const fallback = validProduct ? `/product/p-${productId}` : '/cart'
    const to = safeRedirect(formData.get('redirectTo') ?? sameOriginReferer(request), fallback)
    return validProduct && !to.includes('#') ? `${to}#${productAnchor(productId)}` : to
  }
  // A fetcher gets the API's status, and with a 429 its Retry-After (failureInit).
  const answer = (ok: boolean, message: string, init: ResponseInit = { status: ok ? 200 : 400 }) =>
    viaFetcher
      ? data<CartActionData>({ ok, message }, init)
      : redirectWithToast(session, back(), { type: ok ? 'success' : 'error', message })

  if (!parsed.success) return answer(false, 'That cart request was not understood: please try again')
  const input = parsed.data
  // A PIN code no store serves (docs/stores.md, "Shopper pages"): nothing is added before a cart
  // fills, whatever the page showed (a stale page, a hand-made form). Taking out stays possible.
  const chosen = session.location
  if (input.intent === 'add' && chosen && chosen.storeId === null)
    return answer(false, notDeliverableLabel(chosen.pincode), { status: 422 })
  const opts = { clientIp: clientIp(request) }
  const result =
    input.intent === 'add'
      ? await addToCart(api, session, input.productId, opts)
      : input.intent === 'set'
        ? await updateCartQty(api, session, input.lineId, input.qty, opts)
        : await removeCartLine(api, session, input.lineId, opts)
  if (!result.ok) return answer(false, failureMessage(result), failureInit(result))
  return answer(true, result.message)
}

export default function CartPage({ loaderData, actionData }: Route.ComponentProps) {
  const { cart, missed, offers, signedIn, leftOut } = loaderData
  const couponReply = actionData && 'couponError' in actionData ? (actionData as { couponError: string; typed: string }) : null
  return (
    <div className="mx-auto max-w-2xl px-3 py-4 sm:px-4 md:py-6">
      <PersonalSlot slot={{ kind: 'cart-page' }}>
        <CartPageBody
          cart={cart}
          missed={missed}
          offers={offers}
          signedIn={signedIn}
          notice={leftOut ? <LeftOutList notice={leftOut} /> : null}
          couponReply={couponReply}
        />
      </PersonalSlot>
    </div>
  )
}

/** What "Order again" left out or cut, each with its reason in words; shown once, with or without JavaScript. */
function LeftOutList({ notice }: { notice: LeftOutNotice }) {
  return (
    <section
      role="status"
      aria-labelledby="left-out-title"
      data-card="left out"
      className="mb-3 rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm break-words text-slate-800"
    >
      <h2 id="left-out-title" className="font-semibold text-slate-900">
        Not everything from your order was added
      </h2>
      <ul className="mt-2 list-disc space-y-1 pl-5">
        {notice.items.map((item, i) => (
          <li key={i}>
            <span className="font-medium">{item.name}</span>
            {item.unit ? ` (${item.unit})` : ''}: {item.message}
          </li>
        ))}
        {notice.more > 0 ? <li>and {notice.more} more</li> : null}
      </ul>
    </section>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
