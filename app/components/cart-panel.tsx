/**
 * The cart's views (docs/commerce-api.md, "Cart"): the lines with their steppers, the bill and
 * "Proceed" (`CartContents`, shown by the /cart page and the header's drawer), the empty state with
 * "Shop Now", and the sticky bottom bar phones get below 768 px while the cart holds something
 * (`CartBar`, not on /cart or /checkout).
 */
import { useEffect, useRef, useState } from 'react'
import { Link, useFetcher, useLocation } from 'react-router'
import type { Bill, CartLine } from '../.server/api/cart.ts'
import { itemCountLabel, useCartSummary } from '../lib/cart.ts'
import { formatRupees } from '../lib/money.ts'
import { productPath } from '../lib/slug.ts'
import { AddToCart } from './add-to-cart.tsx'
import { BillSummary } from './bill-summary.tsx'
import { CartIcon, CloseIcon } from './icons.tsx'
import { ResponsiveImage } from './responsive-image.tsx'
import { buttonClassName } from './ui/button.tsx'

/** A basket drawn inline: the empty cart's picture. */
function EmptyBasket() {
  return (
    <svg viewBox="0 0 120 96" width="160" height="128" aria-hidden="true" className="mx-auto text-slate-300">
      <path d="M14 34h92l-10 46a8 8 0 0 1-8 6H32a8 8 0 0 1-8-6L14 34Z" fill="currentColor" opacity=".35" />
      <path d="M8 34h104M36 34l16-24M84 34 68 10" stroke="currentColor" strokeWidth="5" strokeLinecap="round" fill="none" />
      <path d="M44 50v20M60 50v20M76 50v20" stroke="currentColor" strokeWidth="5" strokeLinecap="round" />
    </svg>
  )
}

/** The empty cart: a picture, a line of text and "Shop Now". */
export function EmptyCart() {
  return (
    <div className="py-10 text-center">
      <EmptyBasket />
      <p className="mt-4 font-semibold text-slate-700">Your cart is empty</p>
      <p className="mt-1 text-sm text-slate-500">Add groceries and they reach you in 10 minutes.</p>
      <Link to="/" className={`${buttonClassName({ variant: 'primary' })} mt-4`}>
        Shop Now
      </Link>
    </div>
  )
}

/** One cart line: image, name, unit, stepper, line price with the MRP struck. */
function CartLineRow({ line }: { line: CartLine }) {
  const product = line.productId
  const lineTotal = Math.round(product.sellingPrice * 100 * line.quantity) / 100
  const lineMrp = Math.round(Math.max(product.price, product.sellingPrice) * 100 * line.quantity) / 100
  return (
    <li className="flex items-center gap-3 py-3">
      <ResponsiveImage
        src={product.image[0] ?? ''}
        alt=""
        width={64}
        height={64}
        sizes="64px"
        className="size-16 shrink-0 rounded-lg border border-slate-100 object-contain p-1"
      />
      <div className="min-w-0 flex-1">
        <Link to={productPath(product)} className="line-clamp-2 text-sm font-semibold text-slate-800 hover:underline">
          {product.name}
        </Link>
        <p className="text-xs text-slate-500">{product.unit}</p>
        <p className="price mt-0.5">
          <span className="text-sm font-bold">{formatRupees(lineTotal)}</span>
          {lineMrp > lineTotal ? (
            <s className="text-xs text-slate-500">
              <span className="sr-only">MRP </span>
              {formatRupees(lineMrp)}
            </s>
          ) : null}
        </p>
      </div>
      <AddToCart productId={product._id} name={product.name} stock={product.publish === false ? 0 : product.stock} />
    </li>
  )
}

/**
 * The cart's lines, the bill and "Proceed" (to /checkout; a visitor goes through sign-in first).
 * `signedIn` decides where "Proceed" goes.
 */
export function CartContents({ lines, bill, signedIn }: { lines: CartLine[]; bill: Bill; signedIn: boolean }) {
  if (lines.length === 0) return <EmptyCart />
  const proceedTo = signedIn ? '/checkout' : `/login?${new URLSearchParams({ redirectTo: '/checkout' })}`
  return (
    <div className="flex flex-col gap-4">
      <ul aria-label="Cart items" className="divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white px-3">
        {lines.map((line) => (
          <CartLineRow key={line._id} line={line} />
        ))}
      </ul>
      <BillSummary bill={bill} />
      <Link to={proceedTo} className={`${buttonClassName({ variant: 'primary', size: 'lg', fullWidth: true })} justify-between`}>
        <span>{formatRupees(bill.grandTotal)} · TOTAL</span>
        <span>Proceed ›</span>
      </Link>
    </div>
  )
}

/** The phone's sticky bottom bar: "n items · ₹x · View Cart" (below 768 px; not on /cart or /checkout). */
export function CartBar() {
  const { count, total } = useCartSummary()
  const { pathname } = useLocation()
  if (count === 0 || pathname === '/cart' || pathname === '/checkout') return null
  return (
    <div className="sticky bottom-0 z-30 p-2 md:hidden">
      <Link
        to="/cart"
        className="flex min-h-12 items-center justify-between rounded-xl bg-accent px-4 font-semibold text-white shadow-lg"
        data-testid="cart-bar"
      >
        <span>
          {itemCountLabel(count)} · {formatRupees(total)}
          <span aria-hidden="true"> · </span>
        </span>
        <span>View Cart ›</span>
      </Link>
    </div>
  )
}

/**
 * The header's "My Cart" ("3 items ₹245", or "My Cart" when empty). Without JavaScript it is a link
 * to /cart; with JavaScript it opens the cart drawer, a modal `<dialog>` (WAI-ARIA APG "Dialog
 * (Modal)": focus moves in and stays, Escape closes, focus returns to the button) whose contents are
 * the /cart loader's, fetched when it opens and refreshed after every cart change.
 */
export function CartButton({ signedIn }: { signedIn: boolean }) {
  const { count, total } = useCartSummary()
  const dialogRef = useRef<HTMLDialogElement>(null)
  const [open, setOpen] = useState(false)
  const fetcher = useFetcher<{ cart: { lines: CartLine[]; bill: Bill } }>({ key: 'cart-drawer' })
  const { pathname } = useLocation()

  useEffect(() => {
    const dialog = dialogRef.current
    if (!dialog) return
    if (open && !dialog.open) dialog.showModal()
    if (!open && dialog.open) dialog.close()
  }, [open])
  // Following a link inside the drawer (a product, Proceed, Shop Now) closes it: the state is
  // adjusted while rendering the new page (react.dev, "Adjusting some state when a prop changes").
  const [openPathname, setOpenPathname] = useState(pathname)
  if (openPathname !== pathname) {
    setOpenPathname(pathname)
    setOpen(false)
  }

  const label = count > 0 ? `${itemCountLabel(count)} ${formatRupees(total)}` : 'My Cart'
  return (
    <>
      <Link
        to="/cart"
        onClick={(event) => {
          if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return
          event.preventDefault()
          setOpen(true)
          void fetcher.load('/cart')
        }}
        aria-haspopup="dialog"
        data-testid="cart-button"
        className="flex min-h-12 items-center gap-2 rounded-lg bg-accent px-4 font-semibold text-white hover:bg-accent-dark"
      >
        <CartIcon size={24} />
        {count > 0 ? (
          <span className="flex flex-col text-left text-sm leading-tight">
            <span>{itemCountLabel(count)}</span>
            <span>{formatRupees(total)}</span>
          </span>
        ) : (
          <span>My Cart</span>
        )}
        <span className="sr-only">{count > 0 ? `: ${label}, open the cart` : ''}</span>
      </Link>
      <dialog
        ref={dialogRef}
        aria-labelledby="cart-drawer-title"
        onClose={() => setOpen(false)}
        onClick={(event) => {
          if (event.target === event.currentTarget) setOpen(false)
        }}
        className="m-0 ml-auto h-full max-h-none w-full max-w-md bg-slate-50 p-0 backdrop:bg-black/40"
      >
        {open ? (
          <div className="flex min-h-full flex-col">
            <div className="sticky top-0 z-10 flex items-center justify-between border-b border-slate-200 bg-white px-4 py-3">
              <h2 id="cart-drawer-title" className="text-lg font-bold">
                My Cart
              </h2>
              <button
                type="button"
                onClick={() => setOpen(false)}
                aria-label="Close the cart"
                className="grid size-10 place-items-center rounded-full hover:bg-slate-100"
              >
                <CloseIcon size={22} />
              </button>
            </div>
            <div className="flex-1 p-4">
              {fetcher.data ? (
                <CartContents lines={fetcher.data.cart.lines} bill={fetcher.data.cart.bill} signedIn={signedIn} />
              ) : (
                <p className="py-10 text-center text-slate-500">Loading your cart…</p>
              )}
            </div>
          </div>
        ) : null}
      </dialog>
    </>
  )
}
