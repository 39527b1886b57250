/**
 * The cart's contents (docs/commerce-api.md, "Cart"): the lines with their steppers, the bill and
 * "Proceed" (`CartContents`, shown by the /cart page and the header's drawer), and the empty state
 * with "Shop Now".
 *
 * Against the serving store's stock (docs/stores.md, "Shopper pages"): a line the store has none of
 * is greyed, says "Unavailable at <store>" and offers "Remove" and "See similar" instead of the
 * stepper; a line above its stock says how many are left. The API's bill counts only what the store
 * can deliver (api/modules/cart/bill.ts `deliverableQuantity`), as checkout does, so the bill is shown
 * as the API gives it and a note under the lines says what checkout will do.
 *
 * The delivery promise (docs/stores.md, "Shopper pages"; app/lib/delivery.ts `deliveryPromise`):
 * above the lines, the chosen store's computed minutes; without a chosen location "Choose your
 * location to see delivery time"; for a PIN code no store serves "Delivery not available at
 * <pincode>" (the cart action refuses adds there, app/routes/cart.tsx). Each links the location picker.
 */
import { Link, useLocation } from 'react-router'
import { CouponBox } from './coupon-box.tsx'
import type { CartCoupon, Offer } from '../../contract/coupon.ts'
import { CART_ACTION_PATH } from '../lib/cart.ts'
import type { Bill, CartLine } from '../.server/api/cart.ts'
import { brandOf } from '../lib/catalog-cards.ts'
import {
  cartLineStock,
  changeLocationHref,
  CHOOSE_LOCATION_TEXT,
  deliveryInLabel,
  notDeliverableLabel,
  unavailableAtLabel,
  type CartLineStock,
} from '../lib/delivery.ts'
import { countLabel } from '../lib/plural.ts'
import { formatRupees, isDiscounted, priceTimes, productPrice } from '../lib/money.ts'
import { productPath } from '../lib/slug.ts'
import { AddToCart, useCartFetcher } from './add-to-cart.tsx'
import { BillSummary } from './bill-summary.tsx'
import { ResponsiveImage } from './responsive-image.tsx'
import { buttonClassName } from './ui/button.tsx'
import { useDeliveryPromise, useShopperLocation } from './use-shopper-location.ts'

/** The store's stock of a line's product: 0 when the product is no longer sold. */
const stockOf = (line: CartLine) => (line.productId.publish === false ? 0 : line.productId.stock)

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

/**
 * The cart's delivery line (see the module comment): the store's minutes, or what stops a promise,
 * with a link to the location picker that comes back here. `empty`: the empty cart's wording.
 */
export function CartDelivery({ empty = false }: { empty?: boolean }) {
  const promise = useDeliveryPromise()
  const { pathname, search } = useLocation()
  const change = changeLocationHref(`${pathname}${search}`)
  if (promise.kind === 'minutes')
    return (
      <p data-testid="cart-delivery" className={empty ? 'mt-1 text-sm text-slate-500' : 'text-sm font-semibold text-accent'}>
        {empty ? `Add groceries and they reach you in ${countLabel(promise.minutes, 'minute')}.` : deliveryInLabel(promise.minutes)}
      </p>
    )
  if (promise.kind === 'not-served')
    return (
      <p role="status" data-testid="cart-delivery" className="mt-1 rounded-lg bg-red-50 p-2 text-sm font-semibold break-words text-red-800">
        {notDeliverableLabel(promise.pincode)}.{' '}
        <Link to={change} className="underline">
          Change location
        </Link>
      </p>
    )
  if (promise.kind === 'choose')
    return (
      <p data-testid="cart-delivery" className="mt-1 text-sm">
        <Link to={change} className="font-semibold text-accent underline">
          {CHOOSE_LOCATION_TEXT}
        </Link>
      </p>
    )
  if (promise.kind === 'closed')
    return (
      <p data-testid="cart-delivery" className="mt-1 text-sm font-semibold text-amber-800">
        {promise.note ?? `Closed now, opens at ${promise.opensAt}`}
      </p>
    )
  return null
}

/** The empty cart: a picture, a line of text and "Shop Now". */
export function EmptyCart() {
  return (
    <div className="py-10 text-center">
      <EmptyBasket />
      <p className="mt-4 font-semibold text-slate-700">Your cart is empty</p>
      <CartDelivery empty />
      <Link to="/" className={`${buttonClassName({ variant: 'primary' })} mt-4`}>
        Shop Now
      </Link>
    </div>
  )
}

/** What a line's quantity meets in the store, in words ("Unavailable at Indiranagar", "Only 3 left at Indiranagar"). */
function LineStockNote({ stock, storeName }: { stock: CartLineStock; storeName: string | undefined }) {
  if (stock.kind === 'ok') return null
  return (
    <p data-testid="line-stock" className="mt-0.5 text-xs font-semibold break-words text-red-700">
      {stock.kind === 'unavailable'
        ? unavailableAtLabel(storeName)
        : `Only ${stock.left} left${storeName ? ` at ${storeName}` : ''}: reduce to ${stock.left}`}
    </p>
  )
}

/**
 * What an unavailable line offers instead of the stepper: "Remove" (a POST form to the cart action,
 * sent by the product's cart fetcher with JavaScript) and "See similar" (the product page's similar
 * products; a search by name for a product no longer sold, whose page is gone).
 */
function UnavailableLineActions({ line, label }: { line: CartLine; label: string }) {
  const product = line.productId
  const { fetcher, onSubmit } = useCartFetcher(product._id)
  const similarHref =
    product.publish === false ? `/search?${new URLSearchParams({ q: product.name })}` : `${productPath(product)}#similar-products`
  return (
    <div className="flex shrink-0 flex-col items-end gap-1.5">
      <form method="post" action={CART_ACTION_PATH} onSubmit={onSubmit}>
        <input type="hidden" name="intent" value="remove" />
        <input type="hidden" name="lineId" value={line._id} />
        <input type="hidden" name="redirectTo" value={CART_ACTION_PATH} />
        <button type="submit" disabled={fetcher.state !== 'idle'} className={buttonClassName({ variant: 'secondary', size: 'sm' })}>
          Remove<span className="sr-only"> {label}</span>
        </button>
      </form>
      <Link to={similarHref} className="text-accent-dark text-xs font-semibold underline">
        See similar<span className="sr-only"> to {label}</span>
      </Link>
    </div>
  )
}

/** One cart line: image, brand, name, unit, stepper, line price with the MRP struck, and what the store lacks. */
function CartLineRow({ line, storeName }: { line: CartLine; storeName: string | undefined }) {
  const product = line.productId
  const brand = brandOf(product)
  const stock = cartLineStock(line.quantity, stockOf(line))
  // The line's selling and MRP totals, in paise (app/lib/money.ts): never rupee arithmetic here.
  const linePrice = priceTimes(productPrice(product), line.quantity)
  const unavailable = stock.kind === 'unavailable'
  const label = brand ? `${brand} ${product.name}` : product.name
  return (
    <li className="flex items-center gap-3 py-3" data-stock={stock.kind}>
      <ResponsiveImage
        src={product.image[0] ?? ''}
        alt=""
        width={64}
        height={64}
        sizes="64px"
        className={`size-16 shrink-0 rounded-lg border border-slate-100 object-contain p-1${unavailable ? ' opacity-50 grayscale' : ''}`}
      />
      {/* Greyed (picture faded, name in grey: still readable, WCAG 1.4.3) and its price struck: the bill does not count it. */}
      <div className="min-w-0 flex-1" data-greyed={unavailable || undefined}>
        {brand ? <p className="truncate text-xs font-medium text-slate-600">{brand}</p> : null}
        <Link
          to={productPath(product)}
          className={`line-clamp-2 text-sm font-semibold break-words hover:underline ${unavailable ? 'text-slate-500' : 'text-slate-800'}`}
        >
          {product.name}
        </Link>
        <p className="text-xs text-slate-500">{product.unit}</p>
        <p className="price mt-0.5">
          {unavailable ? (
            <s className="text-sm font-bold text-slate-500">
              <span className="sr-only">Not billed: </span>
              {formatRupees(linePrice.sellingPrice)}
            </s>
          ) : (
            <span className="text-sm font-bold">{formatRupees(linePrice.sellingPrice)}</span>
          )}
          {isDiscounted(linePrice) && !unavailable ? (
            <s className="text-xs text-slate-500">
              <span className="sr-only">MRP </span>
              {formatRupees(linePrice.mrp)}
            </s>
          ) : null}
        </p>
        <LineStockNote stock={stock} storeName={storeName} />
      </div>
      {unavailable ? (
        <UnavailableLineActions line={line} label={label} />
      ) : (
        <div className="shrink-0">
          <AddToCart productId={product._id} name={label} stock={stockOf(line)} />
        </div>
      )}
    </li>
  )
}

/**
 * The cart's lines, the bill and "Proceed" (to /checkout; a visitor goes through sign-in first).
 * `signedIn` decides where "Proceed" goes. `coupon` (the cart page, signed in): the coupon field
 * above the bill, posting to /cart (app/components/coupon-box.tsx), with `offers` the offers the
 * basket qualifies for and `couponReply` the reason a code was refused and the code typed.
 */
export function CartContents({
  lines,
  bill,
  signedIn,
  coupon,
  offers = [],
  couponReply,
}: {
  lines: CartLine[]
  bill: Bill
  signedIn: boolean
  coupon?: CartCoupon | null
  offers?: Offer[]
  couponReply?: { couponError: string; typed: string } | null
}) {
  const storeName = useShopperLocation()?.store.name
  if (lines.length === 0) return <EmptyCart />
  const unavailable = lines.filter((line) => cartLineStock(line.quantity, stockOf(line)).kind === 'unavailable').length
  const over = lines.filter((line) => cartLineStock(line.quantity, stockOf(line)).kind === 'over').length
  const proceedTo = signedIn ? '/checkout' : `/login?${new URLSearchParams({ redirectTo: '/checkout' })}`
  return (
    <div className="flex flex-col gap-4">
      <CartDelivery />
      <ul
        aria-label="Cart items"
        data-card="cart lines"
        className="divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white px-3"
      >
        {lines.map((line) => (
          <CartLineRow key={line._id} line={line} storeName={storeName} />
        ))}
      </ul>
      {unavailable + over > 0 ? (
        <p
          role="status"
          data-testid="cart-stock-note"
          className="rounded-xl border border-amber-300 bg-amber-50 p-3 text-sm break-words text-amber-900"
        >
          {unavailable > 0
            ? `${unavailable === 1 ? 'An item is' : `${unavailable} items are`} unavailable${storeName ? ` at ${storeName}` : ''}: the bill below leaves ${unavailable === 1 ? 'it' : 'them'} out, and checkout removes ${unavailable === 1 ? 'it' : 'them'}. `
            : ''}
          {over > 0
            ? `${over === 1 ? 'A quantity is' : `${over} quantities are`} above what is left: the bill counts what is left, and checkout brings ${over === 1 ? 'it' : 'them'} down.`
            : ''}
        </p>
      ) : null}
      {signedIn && coupon !== undefined ? (
        <CouponBox
          action="/cart"
          coupon={coupon}
          offers={offers}
          error={couponReply?.couponError ?? null}
          typed={couponReply?.typed ?? ''}
        />
      ) : null}
      <BillSummary bill={bill} />
      {/* Two things, two labels: the total is read as "Total ₹x", the link as "Proceed". */}
      <div data-card="proceed" className="flex items-center justify-between gap-3 rounded-xl border border-slate-200 bg-white p-3">
        <p className="flex min-w-0 flex-col leading-tight">
          <span className="text-xs font-medium text-slate-600">Total</span>
          <span className="text-lg font-bold text-slate-900">{formatRupees(bill.grandTotal)}</span>
        </p>
        <Link to={proceedTo} className={`${buttonClassName({ variant: 'primary', size: 'lg' })} shrink-0`}>
          Proceed<span aria-hidden="true"> ›</span>
        </Link>
      </div>
    </div>
  )
}
