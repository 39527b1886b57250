/**
 * The cart page's heading and contents, the page's one personal slot (app/lib/personal-slots.ts,
 * `cart-page`): the visitor's whole cart when the page was spliced for them (`usePersonal().wholeCart`:
 * the server's slot render, or the browser's first render of a spliced page), else the cart the
 * route's loader read (`cart`, `signedIn`). `notice` sits between the heading and the lines (what
 * "Order again" left out: shown once, so never on a spliced page). Below the bill, "You might have
 * missed" (docs/recommendations.md): `usePersonal().missed` on a spliced page, else `missed` from the
 * loader. The first list that has cards is kept for the page's life: the cart's next read leaves
 * out what the shopper just added, and the card (with its stepper and the focus) must not vanish
 * under their finger.
 */
import { useState, type ReactNode } from 'react'
import type { ProductCardData } from '../lib/catalog-cards.ts'
import type { Offer } from '../../contract/coupon.ts'
import { itemCountLabel } from '../lib/cart.ts'
import { usePersonal, type WholeCart } from '../lib/personal.ts'
import { CartContents } from './cart-contents.tsx'
import { ProductRow } from './product-row.tsx'

export function CartPageBody({
  cart: loaderCart,
  missed: loaderMissed,
  offers: loaderOffers,
  signedIn: loaderSignedIn,
  notice,
  couponReply,
}: {
  cart: WholeCart
  missed?: ProductCardData[]
  /** The offers for the basket (signed in; docs/offers.md, "Applying a code"). */
  offers?: Offer[]
  signedIn: boolean
  notice?: ReactNode
  /** The reason a code was refused and the code typed (the cart page's action), or null. */
  couponReply?: { couponError: string; typed: string } | null
}) {
  const personal = usePersonal()
  const cart = personal.wholeCart ?? loaderCart
  const signedIn = personal.wholeCart ? personal.user !== null : loaderSignedIn
  const offers = (personal.wholeCart ? personal.offers : loaderOffers) ?? []
  const seen = personal.wholeCart ? personal.missed : loaderMissed
  const [first] = useState(seen)
  const missed = first && first.length > 0 ? first : (seen ?? [])
  return (
    <>
      <h1 className="mb-3 text-xl font-bold text-slate-900">
        My Cart
        {cart.bill.itemCount > 0 ? (
          <span className="ml-2 text-base font-normal text-slate-600">({itemCountLabel(cart.bill.itemCount)})</span>
        ) : null}
      </h1>
      {notice}
      <CartContents
        lines={cart.lines}
        bill={cart.bill}
        signedIn={signedIn}
        coupon={cart.coupon ?? null}
        offers={offers}
        couponReply={couponReply}
      />
      {cart.lines.length > 0 && missed.length > 0 ? (
        <ProductRow title="You might have missed" products={missed} headingId="you-might-have-missed" />
      ) : null}
    </>
  )
}
