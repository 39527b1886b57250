/**
 * The shopper's delivery location in the BFF (docs/stores.md, "Location (BFF)"): kept in the cookie
 * session for visitors and signed-in shoppers alike (`SessionLocation`: the PIN code and the store
 * serving it), answered to every page by the root loader as a `ShopperLocation` (app/lib/location.ts),
 * and named to the API on every upstream call as `X-Store-Id` (the request's `Api`, app/.server/api-context.ts).
 *
 * - No location chosen: the default store (GET /api/location/default-store), `isDefault`.
 * - A PIN code no store reaches: browsing the default store, `serviceable` false, with the nearest
 *   served area; no `X-Store-Id` is sent (the API's default).
 * - A store that changed since the choice (deactivated, its radius moved) is corrected in the session
 *   on the next page, from the fresh resolve.
 */
import type { MiddlewareFunction } from 'react-router'
import { getSession } from './context.ts'
import { throwFailure } from './failure.ts'
import { notePageStore } from './page-shows.ts'
import type { RequestSession, SessionLocation } from './session.ts'
import { apiClientContext, apiContext, sessionApi, type Api } from './api-context.ts'
import { getDefaultStore, resolvePincode, savedLocation, setLocation, type LocationCallOptions } from './api/location.ts'
import type { ShopperLocation } from '../lib/location.ts'
import type { Location, StoreSummary } from '../../contract/location.ts'
import type { CartChange } from '../../contract/order.ts'

/**
 * Root middleware: puts the request's `Api` into the router context (app/.server/api-context.ts
 * `apiOf`): server.ts's wiring, speaking for the session's store. Runs after the session middleware
 * (app/.server/context.ts).
 */
export const apiMiddleware: MiddlewareFunction<Response> = ({ context }, next) => {
  context.set(apiClientContext, sessionApi(context.get(apiContext), getSession(context)))
  return next()
}

/** What the session keeps of an API location: its PIN code and serving store (null: none serves it). */
export function toSessionLocation(location: Location): SessionLocation {
  return { pincode: location.pincode, storeId: location.serviceable ? (location.store?._id ?? null) : null }
}

/** The store as a page shows it (app/lib/location.ts `ShopperLocation.store`). */
function shownStore(store: StoreSummary): ShopperLocation['store'] {
  return {
    id: store._id,
    name: store.name,
    area: store.area,
    city: store.city,
    open: store.open,
    opensAt: store.opensAt,
    closesAt: store.closesAt,
    closedNote: store.closedNote ?? null,
  }
}

/** No location chosen: the default store, labelled as such (`serviceable`: nothing refused yet). */
export function defaultShopperLocation(store: StoreSummary): ShopperLocation {
  return { pincode: null, area: null, serviceable: true, store: shownStore(store), deliveryMinutes: null, isDefault: true, nearest: null }
}

/**
 * A resolved location as the pages show it: its store when one serves it, else `defaultStore`
 * (browsing only) with the nearest served area. `defaultStore` is needed only when unserviceable.
 */
export function toShopperLocation(location: Location, defaultStore: StoreSummary | null): ShopperLocation {
  const store = location.serviceable && location.store ? location.store : defaultStore
  if (!store) throw new Error('An unserviceable location needs the default store')
  return {
    pincode: location.pincode,
    area: location.area,
    serviceable: location.serviceable && location.store !== null,
    store: shownStore(store),
    deliveryMinutes: location.serviceable ? location.deliveryMinutes : null,
    isDefault: false,
    nearest: location.nearest,
  }
}

/**
 * The shopper's location for the root loader, resolved fresh for the session's PIN code (the
 * delivery minutes move with the store's queue). A PIN code the API no longer knows is dropped from
 * the session (the default store is shown); a store that changed is corrected in the session. The
 * store is noted for the page cache (app/.server/page-shows.ts).
 * @throws the API's failure as an error response when it cannot answer (app/.server/failure.ts)
 */
export async function shopperLocation(api: Api, session: RequestSession, opts: LocationCallOptions = {}): Promise<ShopperLocation> {
  const chosen = session.location
  let shown: ShopperLocation | null = null
  if (chosen) {
    const resolved = await resolvePincode(api, chosen.pincode, opts)
    if (resolved.ok) {
      const fallback = resolved.data.serviceable && resolved.data.store ? null : await requireDefaultStore(api, opts)
      shown = toShopperLocation(resolved.data, fallback)
      session.setLocation(toSessionLocation(resolved.data))
    } else if (resolved.status === 400) session.setLocation(null)
    else throwFailure(resolved)
  }
  shown ??= defaultShopperLocation(await requireDefaultStore(api, opts))
  notePageStore(shown.store.id)
  return shown
}

async function requireDefaultStore(api: Api, opts: LocationCallOptions): Promise<StoreSummary> {
  const store = await getDefaultStore(api, opts)
  if (!store.ok) throwFailure(store)
  return store.data
}

/** The toast after a change of location: where and how fast, or that it is not served and what is nearest. */
export function locationToastMessage(location: Location): string {
  if (location.serviceable && location.store) {
    const minutes = location.deliveryMinutes
    return `Delivering to ${location.area}, ${location.pincode}${minutes === null ? '' : ` in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`}`
  }
  const nearest = location.nearest ? ` Nearest: ${location.nearest.area}, ${location.nearest.city}` : ''
  return `We don't deliver to ${location.area} yet.${nearest}`
}

/** At most this many cart changes travel in the session cookie (a cookie holds about 4 KB, RFC 6265 §6.1). */
export const CART_CHANGES_SHOWN = 8
/** Longest product name kept in a flashed cart change, in characters. */
const CHANGE_NAME_MAX = 60

/** Cart changes trimmed to fit the cookie: the first CART_CHANGES_SHOWN, names cut with "…". */
export function trimCartChanges(changes: CartChange[]): CartChange[] {
  return changes.slice(0, CART_CHANGES_SHOWN).map((change) => ({
    ...change,
    name: change.name.length > CHANGE_NAME_MAX ? `${change.name.slice(0, CHANGE_NAME_MAX - 1)}…` : change.name,
  }))
}

/**
 * Right after a sign-in (app/.server/auth.ts `signIn`): a session without a location takes the
 * account's saved one (GET /api/location); a session with one saves it to the account (PUT, which
 * also fits the account's cart to that store: its changes are flashed). Failures are ignored: the
 * sign-in stands, and the location can be chosen again.
 */
export async function syncLocationAtSignIn(api: Api, session: RequestSession, opts: LocationCallOptions = {}): Promise<void> {
  const chosen = session.location
  if (!chosen) {
    const saved = await savedLocation(api, session, opts)
    if (saved.ok && saved.data) session.setLocation(toSessionLocation(saved.data))
    return
  }
  const result = await setLocation(api, session, { pincode: chosen.pincode }, opts)
  if (!result.ok) return
  session.setLocation(toSessionLocation(result.data.location))
  if (result.data.cartChanges.length > 0) session.flashCartChanges(trimCartChanges(result.data.cartChanges))
}
