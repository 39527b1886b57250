/**
 * What the shopper pages say about a dark store's delivery (docs/stores.md, "Shopper pages"): the
 * badge's minutes, the "Only N left" label, the promised time of an order and its countdown, and
 * whether a delivered order was late. Pure functions: the card, the cart, the checkout and the order
 * pages share them, on the server and in the browser. Times are shown in India Standard Time.
 */
import { shownAvailability } from '../../contract/availability.ts'
import { countLabel } from './plural.ts'
import type { ShopperLocation } from './location.ts'

/**
 * The minutes the success page shows for an order placed before orders kept their promise
 * (`promisedMinutes` absent). Never shown as a promise of a page: those are the store's computed
 * minutes (`deliveryPromise`).
 */
export const DEFAULT_DELIVERY_MINUTES = 10

/** What a page without a chosen location says instead of a delivery time (it links the location picker). */
export const CHOOSE_LOCATION_TEXT = 'Choose your location to see delivery time'

/**
 * The one delivery promise every shopper page shows (docs/stores.md, "Shopper pages"), from the
 * root loader's location (app/lib/location.ts `ShopperLocation`):
 * - `minutes`: the chosen store's computed minutes to the chosen PIN code (docs/stores.md,
 *   "Delivery time");
 * - `choose`: no location chosen (or none known): no time is promised;
 * - `not-served`: no store delivers to the chosen PIN code: nothing can be added to the cart;
 * - `closed`: the store is closed now and says when it opens, or, paused by an admin, why (`note`);
 * - `unknown`: served and open, but the API answered no minutes: nothing is promised.
 */
export type DeliveryPromise =
  | { kind: 'minutes'; minutes: number }
  | { kind: 'choose' }
  | { kind: 'not-served'; pincode: string }
  | { kind: 'closed'; opensAt: string; note: string | null }
  | { kind: 'unknown' }

/** The delivery promise of `location` (see `DeliveryPromise`). */
export function deliveryPromise(location: ShopperLocation | undefined): DeliveryPromise {
  if (!location || location.isDefault || location.pincode === null) return { kind: 'choose' }
  if (!location.serviceable) return { kind: 'not-served', pincode: location.pincode }
  if (!location.store.open) return { kind: 'closed', opensAt: location.store.opensAt, note: location.store.closedNote }
  const minutes = location.deliveryMinutes
  return typeof minutes === 'number' && Number.isInteger(minutes) && minutes > 0 ? { kind: 'minutes', minutes } : { kind: 'unknown' }
}

/** "Delivery not available at 799001": a card, the product page and the cart for a PIN code no store serves. */
export function notDeliverableLabel(pincode: string): string {
  return `Delivery not available at ${pincode}`
}

/**
 * The delivery badge's text for `promise`: "9 min", "Opens at 06:00" ("Closed now" when paused), "Delivery not available at
 * 799001"; null when nothing is promised (no location chosen, or no minutes known).
 */
export function deliveryBadgeLabel(promise: DeliveryPromise): string | null {
  switch (promise.kind) {
    case 'minutes':
      return `${promise.minutes} min`
    case 'not-served':
      return notDeliverableLabel(promise.pincode)
    case 'closed':
      // A pause has no opening time: the card says only that it is closed (the header says why).
      return promise.note ? 'Closed now' : `Opens at ${promise.opensAt}`
    default:
      return null
  }
}

/**
 * "Only 3 left" for 1..LOW_STOCK_SHOWN units (contract/availability.ts `shownAvailability`), else
 * null: out of stock has its own label, and above the bound the number is not shown.
 */
export function lowStockLabel(stock: number): string | null {
  const shown = shownAvailability(stock)
  return shown.startsWith('only-') ? `Only ${shown.slice('only-'.length)} left` : null
}

const CLOCK = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'Asia/Kolkata' })

/** An ISO 8601 time as a 24-hour clock in India Standard Time: "21:47"; the input itself when unreadable. */
export function formatClock(iso: string): string {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : CLOCK.format(date)
}

/** "Arriving by 21:47 (9 minutes)": the promise made at placement. */
export function arrivingByLabel(promisedAt: string, promisedMinutes: number): string {
  return `Arriving by ${formatClock(promisedAt)} (${countLabel(promisedMinutes, 'minute')})`
}

/**
 * Whole minutes left until `promisedAt` at `nowMs` (ms since the epoch), rounded up so "1 minute
 * left" lasts until the promised moment; 0 once it has passed.
 */
export function minutesLeft(promisedAt: string, nowMs: number): number {
  const end = new Date(promisedAt).getTime()
  if (Number.isNaN(end)) return 0
  return Math.max(0, Math.ceil((end - nowMs) / 60_000))
}

/** The countdown's text: "9 minutes left", "1 minute left", and "Any moment now" once the promised time has passed. */
export function countdownLabel(minutes: number): string {
  return minutes > 0 ? `${countLabel(minutes, 'minute')} left` : 'Any moment now'
}

/** "Delivered late" or "Delivered on time" for a delivered order (`late`: delivered after `promisedAt`, from the API). */
export function deliveryVerdict(late: boolean): string {
  return late ? 'Delivered late' : 'Delivered on time'
}

/** "Delivery in 9 minutes", or "Delivery in 1 minute". */
export function deliveryInLabel(minutes: number): string {
  return `Delivery in ${countLabel(minutes, 'minute')}`
}

/** What a cart line's quantity meets in the store: all there, more than is left, or nothing left. */
export type CartLineStock = { kind: 'ok' } | { kind: 'unavailable' } | { kind: 'over'; left: number }

/**
 * A cart line of `quantity` against the store's `stock` (0 for an unpublished product): unavailable
 * at 0 or less (checkout removes the line, api/modules/order/service.ts), `over` when the quantity
 * passes the stock (checkout brings it down to `left`).
 */
export function cartLineStock(quantity: number, stock: number): CartLineStock {
  if (stock <= 0) return { kind: 'unavailable' }
  return quantity > stock ? { kind: 'over', left: stock } : { kind: 'ok' }
}

/**
 * True when the serving store can deliver some of a cart line: its product is still sold and in
 * stock there. The bill counts only such lines (api/modules/cart/bill.ts `deliverableQuantity`).
 */
export function isDeliverable(line: { productId: { publish?: boolean; stock: number } }): boolean {
  return line.productId.publish !== false && line.productId.stock > 0
}

/** "Unavailable at Indiranagar", or "Unavailable here" when the store is not known. */
export function unavailableAtLabel(storeName: string | null | undefined): string {
  return storeName ? `Unavailable at ${storeName}` : 'Unavailable here'
}

/** What the checkout knows of an address's PIN code (app/.server/api/location-resolve.ts `PincodeService`). */
export interface AddressService {
  serviceable: boolean
  storeId: string | null
  storeName: string | null
  deliveryMinutes: number | null
}

/**
 * Whether the shopper's store (`storeId`) delivers to an address whose PIN code has `service`:
 * `served` with the minutes when the store serving that PIN code is this one (the API refuses any
 * other, docs/stores.md, "Shopper pages"); `not-served` when another store or none serves it;
 * `unknown` when the PIN code could not be resolved (the API decides at placement).
 */
export function addressVerdict(
  service: AddressService | undefined,
  storeId: string | undefined,
): { kind: 'served'; minutes: number | null } | { kind: 'not-served' } | { kind: 'unknown' } {
  if (!service || !storeId) return { kind: 'unknown' }
  if (service.serviceable && service.storeId === storeId) return { kind: 'served', minutes: service.deliveryMinutes }
  return { kind: 'not-served' }
}

/** The link that changes the delivery location and comes back to `back` (the /location page, docs/stores.md, "Shopper pages"). */
export function changeLocationHref(back: string): string {
  return `/location?${new URLSearchParams({ redirectTo: back })}`
}
