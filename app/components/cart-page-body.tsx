/**
 * The cart page's heading and contents, the page's one personal slot (app/lib/personal-slots.ts,
 * `cart-page`): the visitor's whole cart when the page was spliced for them (`usePersonal().wholeCart`:
 * the server's slot render, or the browser's first render of a spliced page), else the cart the
 * route's loader read (`cart`, `signedIn`). `notice` sits between the heading and the lines (what
 * "Order again" left out: shown once, so never on a spliced page).
 */
import type { ReactNode } from 'react'
import { itemCountLabel } from '../lib/cart.ts'
import { usePersonal, type WholeCart } from '../lib/personal.ts'
import { CartContents } from './cart-contents.tsx'

export function CartPageBody({
  cart: loaderCart,
  signedIn: loaderSignedIn,
  notice,
  couponReply,
}: {
  cart: WholeCart
  signedIn: boolean
  notice?: ReactNode
  /** The reason a code was refused and the code typed (the cart page's action), or null. */
  couponReply?: { couponError: string; typed: string } | null
}) {
  const personal = usePersonal()
  const cart = personal.wholeCart ?? loaderCart
  const signedIn = personal.wholeCart ? personal.user !== null : loaderSignedIn
  return (
    <>
      <h1 className="mb-3 text-xl font-bold text-slate-900">
        My Cart
        {cart.bill.itemCount > 0 ? (
          <span className="ml-2 text-base font-normal text-slate-600">({itemCountLabel(cart.bill.itemCount)})</span>
        ) : null}
      </h1>
      {notice}
      <CartContents lines={cart.lines} bill={cart.bill} signedIn={signedIn} coupon={cart.coupon ?? null} couponReply={couponReply} />
    </>
  )
}
