/**
 * The shopper's delivery location as the pages see it (docs/stores.md, "Location"): the root
 * loader answers it as `location` on every page (useRouteLoaderData('root')), from the session.
 * Without a chosen location the default store is shown, labelled (`isDefault`).
 */

/** What every page knows of where the shopper is and which dark store serves them. */
export interface ShopperLocation {
  /** The chosen PIN code and its area; null when none was chosen (`isDefault`). */
  pincode: string | null
  area: string | null
  /** False when no store reaches the chosen PIN code: browsing the default store, no checkout. */
  serviceable: boolean
  /** The store whose catalogue and stock the pages show. */
  store: {
    id: string
    name: string
    area: string
    city: string
    open: boolean
    opensAt: string
    closesAt: string
    /** The admin's pause note when the store is paused ("Closed for stock-taking"); null otherwise. */
    closedNote: string | null
  }
  /** Delivery minutes from that store to the chosen PIN code now; null when unserviceable or none chosen. */
  deliveryMinutes: number | null
  /** True when no location was chosen: the default store is shown. */
  isDefault: boolean
  /** When unserviceable: the nearest served area. */
  nearest: { area: string; pincode: string; city: string; distanceKm: number } | null
}
