/**
 * What the header says about the shopper's location (docs/stores.md, "Location (BFF)"), from the root
 * loader's `ShopperLocation` (app/lib/location.ts): a headline and a detail line.
 *
 * - Served: "Delivery in 9 minutes" / "Indiranagar, 560038" (store closed: "Closed now, opens at 06:00").
 * - None chosen: "Choose your location" / "to see delivery time" (one sentence over two lines: no
 *   time is promised before a location is chosen, docs/stores.md, "Shopper pages").
 * - Not served: "We don't deliver to Agartala yet" / "Browsing Indiranagar store".
 */
import type { ShopperLocation } from './location.ts'
import { countLabel } from './plural.ts'

/** The two lines of the header's location link, and whether the shopper is only browsing. */
export interface LocationLabel {
  headline: string
  detail: string
  /** True when no store delivers to the chosen PIN code: the catalogue is the default store's. */
  browsing: boolean
}

/** The header's words for `location` (see the module comment). */
export function locationLabel(location: ShopperLocation): LocationLabel {
  if (location.isDefault || location.pincode === null)
    return { headline: 'Choose your location', detail: 'to see delivery time', browsing: false }
  if (!location.serviceable)
    return {
      headline: `We don't deliver to ${location.area ?? location.pincode} yet`,
      detail: `Browsing ${location.store.area} store`,
      browsing: true,
    }
  const place = `${location.area ?? location.store.area}, ${location.pincode}`
  if (!location.store.open) {
    const headline = location.store.closedNote ?? `Closed now, opens at ${location.store.opensAt}`
    return { headline, detail: place, browsing: false }
  }
  const minutes = location.deliveryMinutes
  return {
    headline: minutes === null ? `Delivery from ${location.store.area}` : `Delivery in ${countLabel(minutes, 'minute')}`,
    detail: place,
    browsing: false,
  }
}

/** The /location link that comes back to `pathAndQuery` afterwards (itself when already there). */
export function changeLocationHref(pathAndQuery: string): string {
  if (pathAndQuery === '/' || pathAndQuery.startsWith('/location')) return '/location'
  return `/location?${new URLSearchParams({ redirectTo: pathAndQuery })}`
}
