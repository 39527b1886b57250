/**
 * The cart in the page's frame (docs/commerce-api.md, "Cart"): the header's "My Cart" with its
 * drawer, and the sticky bottom bar phones get below 768 px while the cart holds something
 * (`CartBar`, not on /cart or /checkout). The drawer's contents (app/components/cart-contents.tsx)
 * are fetched when it first opens, so pages do not carry them in their first-load JavaScript.
 */
import { lazy, Suspense, useEffect, useRef, useState } from 'react'
import { Link, useFetcher, useLocation } from 'react-router'
import type { Bill, CartLine } from '../.server/api/cart.ts'
import { itemCountLabel } from '../lib/cart.ts'
import { useCartSummary } from '../lib/personal.ts'
import { formatRupees } from '../lib/money.ts'
import { CartIcon, CloseIcon } from './icons.tsx'
import { PersonalSlot } from './personal-slot.tsx'

const CartContents = lazy(() => import('./cart-contents.tsx').then((module) => ({ default: module.CartContents })))
const LOADING_CART = <p className="py-10 text-center text-slate-500">Loading your cart…</p>

/**
 * The phone's sticky bottom bar: "n items · ₹x" and "View Cart ›" (below 768 px; not on /cart or
 * /checkout). A personal slot (app/lib/personal-slots.ts).
 */
export function CartBar() {
  return (
    <PersonalSlot slot={{ kind: 'cart-bar' }}>
      <CartBarContent />
    </PersonalSlot>
  )
}

/** The bar itself, or nothing while the cart is empty (what a personal slot of kind `cart-bar` holds). */
export function CartBarContent() {
  const { count, total } = useCartSummary()
  const { pathname } = useLocation()
  if (count === 0 || pathname === '/cart' || pathname === '/checkout') return null
  return (
    <div className="sticky bottom-0 z-30 p-2 md:hidden">
      <Link
        to="/cart"
        className="flex min-h-12 items-center justify-between rounded-xl bg-accent px-4 font-semibold text-white shadow-lg"
        data-testid="cart-bar"
        data-card="cart bar"
      >
        {/* The two ends of the bar: no separator is drawn between them (it would dangle at the end of
            the left one); screen readers get a comma. */}
        <span>
          {itemCountLabel(count)} · {formatRupees(total)}
          <span className="sr-only">, </span>
        </span>
        <span>
          View Cart<span aria-hidden="true"> ›</span>
        </span>
      </Link>
    </div>
  )
}

/** The id of the header's "My Cart", the target of the "Skip to cart" link (app/root.tsx). */
export const CART_BUTTON_ID = 'cart-button'

/**
 * The header's "My Cart" ("3 items ₹245", or "My Cart" when empty). Without JavaScript it is a link
 * to /cart; with JavaScript it opens the cart drawer, a modal `<dialog>` (WAI-ARIA APG "Dialog
 * (Modal)": focus moves in and stays, Escape closes, focus returns to the button) whose contents are
 * the /cart loader's, fetched when it opens and refreshed after every cart change. A link followed
 * from the drawer hands the focus to the next page instead (docs/accessibility.md, "Keyboard and
 * focus"). Its name is its text, said once: "My Cart", or "My Cart: 3 items ₹245".
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
  // A link followed inside the drawer closes it at once (see the dialog's onClick): the dialog hands
  // the focus back to "My Cart" then, before the next page renders, so that page's own first field
  // can take it (its autofocus: the sign-in form after "Proceed"); a modal dialog still open would
  // keep it out (inert). A page with no such field gets the focus on its content, not on the header.
  const leftByLink = useRef(false)
  useEffect(() => {
    if (!leftByLink.current) return
    leftByLink.current = false
    const main = document.getElementById('main')
    if (main && !main.contains(document.activeElement)) main.focus()
  }, [pathname])
  // Following a link inside the drawer (a product, Proceed, Shop Now) closes it: the state is
  // adjusted while rendering the new page (react.dev, "Adjusting some state when a prop changes").
  const [openPathname, setOpenPathname] = useState(pathname)
  if (openPathname !== pathname) {
    setOpenPathname(pathname)
    setOpen(false)
  }

  return (
    <>
      <Link
        to="/cart"
        onClick={(event) => {
          if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return
          event.preventDefault()
          leftByLink.current = false
          setOpen(true)
          void fetcher.load('/cart')
        }}
        aria-haspopup="dialog"
        id={CART_BUTTON_ID}
        data-testid="cart-button"
        className="flex min-h-12 items-center gap-2 rounded-lg bg-accent px-4 font-semibold text-white hover:bg-accent-dark"
      >
        <CartIcon size={24} />
        {count > 0 ? (
          <>
            {/* Named by its own text, each part once: "My Cart: 1 item ₹28" (WCAG 2.5.3, the visible words inside the name). */}
            <span className="sr-only">My Cart: </span>
            <span className="flex flex-col text-left text-sm leading-tight">
              <span>{itemCountLabel(count)}</span>
              <span>{formatRupees(total)}</span>
            </span>
          </>
        ) : (
          <span>My Cart</span>
        )}
      </Link>
      <dialog
        ref={dialogRef}
        aria-labelledby="cart-drawer-title"
        onClose={() => setOpen(false)}
        onClick={(event) => {
          if (event.target === event.currentTarget) {
            setOpen(false)
            return
          }
          // A link the router follows (it prevents the browser's own load): close before the next page.
          const link = event.target instanceof Element ? event.target.closest('a[href]') : null
          if (link && event.isDefaultPrevented()) {
            leftByLink.current = true
            dialogRef.current?.close()
          }
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
                <Suspense fallback={LOADING_CART}>
                  <CartContents lines={fetcher.data.cart.lines} bill={fetcher.data.cart.bill} signedIn={signedIn} />
                </Suspense>
              ) : (
                LOADING_CART
              )}
            </div>
          </div>
        ) : null}
      </dialog>
    </>
  )
}
