/**
 * What of a page is the visitor's own (docs/decisions/0032-personal-parts-spliced.md): the signed-in
 * user's summary and the cart summary. Every other part of a home page, listing, product page or
 * search page is the same for every shopper of a store, so the page cache renders it once
 * (app/.server/page-cache.ts) and splices in, per request, only the "personal slots": the header's
 * account and cart, the phone's cart bar and the ADD/stepper of each product in the cart.
 *
 * Components read personal data only through `usePersonal()`, which answers, in this order:
 * 1. the value of `PersonalOverride` (the server's splice render of one slot);
 * 2. on the client, while the root loader's data is still the shared render's (`shared: true`), the
 *    visitor's own data the server embedded in the page as JSON (`PERSONAL_DATA_ID`), so the first
 *    client render hydrates exactly the spliced HTML;
 * 3. otherwise the root loader's own `user` and `cart` (a page rendered for this request, or any
 *    data the root loader answered after the first navigation or cart change).
 */
import { createContext, useContext } from 'react'
import type { CartCoupon, Offer } from '../../contract/coupon.ts'
import { useRouteLoaderData } from 'react-router'
import { EMPTY_CART_SUMMARY, type CartSummary } from './cart.ts'
import type { Bill, CartItem, CartLimits } from '../../contract/cart.ts'
import type { ProductCardData } from './catalog-cards.ts'

/** The signed-in user as the header shows it (the session's user summary, app/.server/session.ts). */
export interface PersonalUser {
  _id: string
  name: string
  email: string
  mobile: string | null
  avatar: string
  role: 'ADMIN' | 'STAFF' | 'RIDER' | 'USER'
}

/** A whole cart as the cart page lists it: the lines with their products, the bill and the limits. */
export interface WholeCart {
  lines: CartItem[]
  bill: Bill
  limits: CartLimits
  /** A signed-in shopper's coupon (docs/offers.md, "Applying a code"); null or absent: none. */
  coupon?: CartCoupon | null
}

/**
 * A visitor's own part of a page: who is signed in (or null), their cart summary and, on the cart
 * page only, their whole cart.
 */
export interface Personal {
  user: PersonalUser | null
  cart: CartSummary
  wholeCart?: WholeCart
  /** On the home page only, for a signed-in shopper: their "Buy again" cards (docs/recommendations.md). */
  buyAgain?: ProductCardData[]
  /** On the cart page only, beside `wholeCart`: its "You might have missed" cards (docs/recommendations.md). */
  missed?: ProductCardData[]
  /** On the cart page only, for a signed-in shopper: the offers the basket qualifies for (docs/offers.md, "Applying a code"). */
  offers?: Offer[]
}

/** What a visitor with nothing of their own sees: nobody signed in, an empty cart. */
export const ANONYMOUS: Personal = { user: null, cart: EMPTY_CART_SUMMARY }

/** The id of the `<script type="application/json">` holding a spliced page's `Personal`. */
export const PERSONAL_DATA_ID = 'personal-data'

/** Set by the server's splice render around one slot; null everywhere else. */
export const PersonalOverride = createContext<Personal | null>(null)

/** The part of the root loader's data this module reads. */
interface RootPersonalData {
  shared?: boolean
  user?: PersonalUser | null
  cart?: CartSummary
}

let embedded: Personal | null | undefined

/** The `Personal` embedded in this document by a splice (parsed once), or null when there is none. */
function embeddedPersonal(): Personal | null {
  if (embedded !== undefined) return embedded
  if (typeof document === 'undefined') return null
  const text = document.getElementById(PERSONAL_DATA_ID)?.textContent
  embedded = text ? parsePersonal(text) : null
  return embedded
}

/** Reads a `Personal` from its JSON, or null when it does not have the expected shape. */
export function parsePersonal(text: string): Personal | null {
  try {
    const value = JSON.parse(text) as Partial<Personal> | null
    if (!value || typeof value !== 'object' || !value.cart || typeof value.cart.count !== 'number') return null
    const whole = value.wholeCart
    const wholeCart = whole && typeof whole === 'object' && Array.isArray(whole.lines) && whole.bill && whole.limits ? whole : undefined
    const personal: Personal = wholeCart
      ? { user: value.user ?? null, cart: value.cart, wholeCart }
      : { user: value.user ?? null, cart: value.cart }
    if (Array.isArray(value.buyAgain)) personal.buyAgain = value.buyAgain
    if (wholeCart && Array.isArray(value.missed)) personal.missed = value.missed
    if (wholeCart && Array.isArray(value.offers)) personal.offers = value.offers
    return personal
  } catch {
    return null
  }
}

/**
 * The JSON of `personal` as it goes inside a `<script type="application/json">`: `<` is escaped so
 * that no value can close the script element (HTML Living Standard, "Restrictions for contents of
 * script elements").
 */
export function personalScriptJson(personal: Personal): string {
  return JSON.stringify(personal).replace(/</g, '\\u003c')
}

/** The visitor's own part of the page (see the module comment for where it comes from). */
export function usePersonal(): Personal {
  const override = useContext(PersonalOverride)
  const root = useRouteLoaderData('root') as RootPersonalData | undefined
  if (override) return override
  if (root?.shared) return embeddedPersonal() ?? ANONYMOUS
  return { user: root?.user ?? null, cart: root?.cart ?? EMPTY_CART_SUMMARY }
}

/** The visitor's cart summary (empty outside the app's tree, e.g. in a unit test). */
export function useCartSummary(): CartSummary {
  return usePersonal().cart
}

/** True in a render for the page cache on the server: personal slots then mark where they are. */
export function useMarksPersonalSlots(): boolean {
  const override = useContext(PersonalOverride)
  const root = useRouteLoaderData('root') as RootPersonalData | undefined
  return typeof document === 'undefined' && Boolean(root?.shared) && override === null
}
