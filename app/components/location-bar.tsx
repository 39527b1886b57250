/**
 * The shopper's delivery location in the header (docs/stores.md, "Location (BFF)"): a link to
 * /location with the delivery time and the place ("Delivery in 9 minutes", "Indiranagar, 560038"),
 * the default store when none was chosen, or "We don't deliver to … yet" while browsing. Two lines
 * beside the logo's mark at every width (cut with "…" where narrow; 360 px fits, docs/product.md,
 * "Look and feel").
 * Also the notice of what a change of location did to the cart (`CartChangesNotice`).
 */
import { Link, useLocation } from 'react-router'
import type { ShopperLocation } from '../lib/location.ts'
import { changeLocationHref, locationLabel } from '../lib/location-labels.ts'
import { formatRupees } from '../lib/money.ts'
import type { CartChange } from '../../contract/order.ts'
import { ChevronDownIcon } from './icons.tsx'

/** The header's location link (see the module comment). */
export function LocationBar({ location, className = '' }: { location: ShopperLocation; className?: string }) {
  const { pathname, search } = useLocation()
  const label = locationLabel(location)
  return (
    <Link
      to={changeLocationHref(`${pathname}${search}`)}
      data-testid="location-link"
      className={`flex min-h-11 min-w-0 items-center gap-1 rounded-lg px-1 text-slate-900 hover:bg-black/5 ${className}`}
    >
      <span className="flex min-w-0 flex-col leading-tight">
        {label.browsing ? (
          // Two short lines on a phone: the refusal is the news; the store browsed follows from 768 px.
          <span className="line-clamp-2 text-xs font-extrabold text-red-800 md:line-clamp-1 md:text-sm">{label.headline}</span>
        ) : (
          <span className="truncate text-sm font-extrabold md:text-base">{label.headline}</span>
        )}
        {label.browsing ? <span className="sr-only">(browsing)</span> : null}
        <span className={`truncate text-xs text-slate-800 md:text-sm ${label.browsing ? 'hidden md:block' : ''}`}>{label.detail}</span>
      </span>
      <span className="sr-only">, change location</span>
      <ChevronDownIcon size={18} className="shrink-0" />
    </Link>
  )
}

/** One cart change in words, as the checkout says it (app/routes/checkout/index.tsx). */
export function cartChangeText(change: CartChange): string {
  if (change.kind === 'price') return `${change.name}: price changed from ${formatRupees(change.before)} to ${formatRupees(change.after)}`
  if (change.kind === 'removed') return `${change.name}: no longer sold, removed`
  if (change.after === 0) return `${change.name}: not available at this store`
  return `${change.name}: only ${change.after} left here, quantity changed from ${change.before}`
}

/** What a change of location did to the cart, shown once on the next page (the root loader's `cartChanges`). */
export function CartChangesNotice({ changes, storeName }: { changes: CartChange[]; storeName: string }) {
  return (
    <div className="mx-auto max-w-7xl px-3 pt-3 sm:px-4">
      <section role="status" data-card="location cart changes" className="rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm">
        <h2 className="mb-2 font-bold text-amber-900">Your cart was updated for {storeName}</h2>
        <ul className="list-disc pl-5 break-words text-amber-900">
          {changes.map((change, i) => (
            <li key={`${change.productId}-${change.kind}-${i}`}>{cartChangeText(change)}</li>
          ))}
        </ul>
        <p className="mt-2">
          <Link to="/cart" className="font-semibold text-amber-900 underline">
            Review your cart
          </Link>
        </p>
      </section>
    </div>
  )
}
