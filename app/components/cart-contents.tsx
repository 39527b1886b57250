/**
 * The cart's contents (docs/commerce-api.md, "Cart"): the lines with their steppers, the bill and
 * "Proceed" (`CartContents`, shown by the /cart page and the header's drawer), and the empty state
 * with "Shop Now".
 */
import { Link } from 'react-router'
import type { Bill, CartLine } from '../.server/api/cart.ts'
import { brandOf } from '../lib/catalog-cards.ts'
import { formatRupees } from '../lib/money.ts'
import { productPath } from '../lib/slug.ts'
import { AddToCart } from './add-to-cart.tsx'
import { BillSummary } from './bill-summary.tsx'
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

/** One cart line: image, brand, name, unit, stepper, line price with the MRP struck. */
function CartLineRow({ line }: { line: CartLine }) {
  const product = line.productId
  const brand = brandOf(product)
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
        {brand ? <p className="truncate text-xs font-medium text-slate-600">{brand}</p> : null}
        <Link to={productPath(product)} className="line-clamp-2 text-sm font-semibold break-words text-slate-800 hover:underline">
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
      <div className="shrink-0">
        <AddToCart
          productId={product._id}
          name={brand ? `${brand} ${product.name}` : product.name}
          stock={product.publish === false ? 0 : product.stock}
        />
      </div>
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
      <ul
        aria-label="Cart items"
        data-card="cart lines"
        className="divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white px-3"
      >
        {lines.map((line) => (
          <CartLineRow key={line._id} line={line} />
        ))}
      </ul>
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
