/**
 * Dark stores (docs/stores.md): which store serves a place, whether it is open, how long a delivery
 * takes, the shopper's location, and the admin's store edits.
 *
 * - A store serves a PIN code when the code's centre lies within the store's radius (km, straight
 *   line); of several, the nearest serves. The default store is the first active one by position.
 * - Opening hours are "HH:MM" in India Standard Time (UTC+05:30); closing before opening runs past
 *   midnight; 00:00-24:00 is always open.
 * - Delivery minutes = max(least travel, distance ÷ rider speed) + picking + queue, where the queue
 *   is ⌊open orders ÷ pickers⌋ × picking (docs/stores.md, "Delivery time"), rounded up. The rider
 *   speed is the store's own (`stores.rider_kmph`, 5-60 km/h) when set, else `DELIVERY_RIDER_KMPH`.
 * - The active stores are kept per catalogue cache and dropped whenever that cache is cleared whole
 *   (every store write invalidates it, as catalogue writes do, on every instance); kept apart from
 *   its entries so its hit counts stay those of the catalogue's answers.
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm'
import type { AppDeps } from '../../deps.ts'
import { DEFAULT_DELIVERY_TIME, type CommerceSettings } from '../../config.ts'
import type { Db } from '../../db/client.ts'
import type { Tx } from '../../db/db.ts'
import { addresses, inventory, orders, stores, users, type StoreRow } from '../../db/schema.ts'
import { BadRequest, Conflict, HttpError, NotFound } from '../../lib/errors.ts'
import { distanceKm, lookupPincode, nearestPincode, type PincodePlace } from '../../lib/pincodes.ts'
import { newId } from '../../lib/ids.ts'
import type { CreateStoreInput, Location, LocationQuery, Store, StoreSummary, UpdateStoreInput } from '../../../contract/location.ts'
import { changedFields, recordAudit, type ActorDeps } from '../../lib/audit.ts'
import { bulkStockWrites, refreshStockBits } from '../inventory/stock-bits.ts'
import { gstStateCode, GST_STATE_CODES } from '../../../contract/invoice.ts'

type StoreDeps = Pick<AppDeps, 'db' | 'cache' | 'clock' | 'commerce'>

/** A store with the coordinates in use (its own, else its PIN code's centre). */
export interface StoreInfo extends Omit<StoreRow, 'lat' | 'lng'> {
  lat: number
  lng: number
  coordinatesFromPincode: boolean
}

/** The header a client names its delivery store with, declared once for the API and the BFF (contract/store-header.ts). */
export { STORE_HEADER } from '../../../contract/store-header.ts'

export const STORE_NOT_FOUND = 'Store not found'
/** Message for a PIN code the bundled data does not know. */
export const UNKNOWN_PINCODE = 'We could not find this pincode'

/** India Standard Time's offset from UTC, ms (no daylight saving). */
const IST_OFFSET_MS = 330 * 60_000

/** Minutes since midnight of "HH:MM". */
export function minutesOfDay(time: string): number {
  const [h, m] = time.split(':').map(Number)
  return h! * 60 + m!
}

/** The minute of the day at `now` in India Standard Time (0..1439). */
export function istMinuteOfDay(now: Date): number {
  const ist = new Date(now.getTime() + IST_OFFSET_MS)
  return ist.getUTCHours() * 60 + ist.getUTCMinutes()
}

/** True when a store with these hours is open at `now` (see the module comment). */
export function isOpenAt(hours: { opensAt: string; closesAt: string }, now: Date): boolean {
  const open = minutesOfDay(hours.opensAt)
  const close = minutesOfDay(hours.closesAt)
  const at = istMinuteOfDay(now)
  if (open === close || (open === 0 && close === 1440)) return true
  return open < close ? at >= open && at < close : at >= open || at < close
}

/**
 * Delivery minutes for a rider going `km` from a store with `pickers` pickers and `openOrders`
 * orders not yet out for delivery (see the module comment). Whole minutes, rounded up.
 * `riderKmph`: the store's own rider speed in km/h; null or absent: the settings' (`DELIVERY_RIDER_KMPH`).
 */
export function deliveryMinutes(
  settings: CommerceSettings,
  km: number,
  openOrders: number,
  pickers: number,
  riderKmph?: number | null,
): number {
  const t = settings.deliveryTime ?? DEFAULT_DELIVERY_TIME
  const speed = riderKmph != null && riderKmph > 0 ? riderKmph : t.riderKmph
  const travel = Math.max(t.minTravelMinutes, (km / speed) * 60)
  const queue = Math.floor(openOrders / Math.max(1, pickers)) * t.pickMinutes
  return Math.ceil(travel + t.pickMinutes + queue - 1e-9)
}

/** A store row with its coordinates in use. */
function withCoordinates(row: StoreRow): StoreInfo {
  const centre = lookupPincode(row.pincode)
  const own = row.lat !== null && row.lng !== null
  return {
    ...row,
    lat: own ? row.lat! : (centre?.lat ?? 0),
    lng: own ? row.lng! : (centre?.lng ?? 0),
    coordinatesFromPincode: !own,
  }
}

/** Every store, active or not, by position (fresh from the database). */
export async function allStores(db: Db): Promise<StoreInfo[]> {
  const rows = await db.select().from(stores).orderBy(asc(stores.position), asc(stores.createdAt), asc(stores.id))
  return rows.map(withCoordinates)
}

const activeByCache = new WeakMap<AppDeps['cache'], Promise<StoreInfo[]>>()
const followed = new WeakSet<AppDeps['cache']>()

/** The active stores by position, read once per catalogue cache until it is cleared whole. */
export function activeStores(deps: Pick<AppDeps, 'db' | 'cache'>): Promise<StoreInfo[]> {
  if (!followed.has(deps.cache)) {
    followed.add(deps.cache)
    const drop = (change: { kind: string }) => {
      if (change.kind === 'all') activeByCache.delete(deps.cache)
    }
    deps.cache.onClear(drop)
    deps.cache.onInvalidate(drop)
  }
  let stores = activeByCache.get(deps.cache)
  if (!stores) {
    stores = allStores(deps.db).then((list) => list.filter((s) => s.active))
    stores.catch(() => activeByCache.delete(deps.cache))
    activeByCache.set(deps.cache, stores)
  }
  return stores
}

/**
 * The default store: the first active one by position (every store inactive: the first of all).
 * @throws 503 when there is no store at all
 */
export async function defaultStore(deps: Pick<AppDeps, 'db' | 'cache'>): Promise<StoreInfo> {
  const active = await activeStores(deps)
  if (active[0]) return active[0]
  const [first] = await allStores(deps.db)
  if (!first) throw new HttpError(503, 'No store is set up yet')
  return first
}

/**
 * The store a request names in its `X-Store-Id` header when that store is active, else the default
 * store (the original client names none).
 */
export async function requestStore(deps: Pick<AppDeps, 'db' | 'cache'>, headerValue: string | undefined): Promise<StoreInfo> {
  if (headerValue) {
    const named = (await activeStores(deps)).find((s) => s.id === headerValue)
    if (named) return named
  }
  return defaultStore(deps)
}

/** Of `stores`, the nearest whose radius holds the point, with the distance in km; undefined when none. */
export function nearestServing(stores: StoreInfo[], point: { lat: number; lng: number }): { store: StoreInfo; km: number } | undefined {
  let best: { store: StoreInfo; km: number } | undefined
  for (const store of stores) {
    const km = distanceKm(store, point)
    if (km <= store.radiusKm && (!best || km < best.km)) best = { store, km }
  }
  return best
}

/** The nearest active store whose radius holds the point, with the distance in km; undefined when none. */
export async function servingStore(
  deps: Pick<AppDeps, 'db' | 'cache'>,
  point: { lat: number; lng: number },
): Promise<{ store: StoreInfo; km: number } | undefined> {
  return nearestServing(await activeStores(deps), point)
}

/** The statuses of an order still in its store's queue (not yet out for delivery). */
const OPEN_ORDER_STATUSES = ['placed', 'packed'] as const

/** Orders placed or packed (not yet out for delivery) of one store: the queue of the delivery time. */
export async function openOrderCount(db: Pick<Db, '$count'>, storeId: string): Promise<number> {
  return db.$count(orders, and(eq(orders.storeId, storeId), inArray(orders.status, OPEN_ORDER_STATUSES)))
}

/** A store as a shopper sees it, open or not at `now`. */
export function storeSummary(store: StoreInfo, now: Date): StoreSummary {
  return {
    _id: store.id,
    name: store.name,
    area: store.area,
    city: store.city,
    pincode: store.pincode,
    opensAt: store.opensAt,
    closesAt: store.closesAt,
    open: isTakingOrders(store, now),
    closedNote: store.pausedNote,
  }
}

/** Whether `store` takes orders at `now`: not paused by an admin and within its hours. */
export function isTakingOrders(store: Pick<StoreInfo, 'opensAt' | 'closesAt' | 'pausedNote'>, now: Date): boolean {
  return !store.pausedNote && isOpenAt(store, now)
}

/** The area to show for a PIN code: a store's own area when the code is a store's, else the data's. */
function areaOf(place: PincodePlace, active: StoreInfo[]): string {
  return active.find((s) => s.pincode === place.pincode)?.area ?? place.area
}

/**
 * Where the place is and what serves it (contract/location.ts `LocationSchema`).
 * @throws 400 for a PIN code the data does not know
 */
export async function locate(deps: StoreDeps, place: PincodePlace): Promise<Location> {
  const active = await activeStores(deps)
  const served = await servingStore(deps, place)
  const base = { pincode: place.pincode, area: areaOf(place, active), district: place.district, state: place.state }
  if (!served) {
    let nearest: { store: StoreInfo; km: number } | undefined
    for (const store of active) {
      const km = distanceKm(store, place)
      if (!nearest || km < nearest.km) nearest = { store, km }
    }
    return {
      ...base,
      serviceable: false,
      store: null,
      deliveryMinutes: null,
      distanceKm: null,
      nearest: nearest
        ? { area: nearest.store.area, pincode: nearest.store.pincode, city: nearest.store.city, distanceKm: round1(nearest.km) }
        : null,
    }
  }
  const open = await openOrderCount(deps.db, served.store.id)
  return {
    ...base,
    serviceable: true,
    store: storeSummary(served.store, deps.clock()),
    deliveryMinutes: deliveryMinutes(deps.commerce, served.km, open, served.store.pickers, served.store.riderKmph),
    distanceKm: round1(served.km),
    nearest: null,
  }
}

const round1 = (km: number) => Math.round(km * 10) / 10

/** The place of a PIN code. @throws 400 UNKNOWN_PINCODE */
export function placeOfPincode(pincode: string): PincodePlace {
  const place = lookupPincode(pincode)
  if (!place) throw BadRequest(UNKNOWN_PINCODE, [{ path: 'pincode', message: UNKNOWN_PINCODE }])
  return place
}

/**
 * The place a location query names: a PIN code, the PIN code nearest to coordinates, or the PIN
 * code of one of `userId`'s live addresses.
 * @throws 400 unknown PIN code; 401-like 404 "Address not found" for another user's or no address
 */
export async function placeOf(deps: Pick<AppDeps, 'db'>, query: LocationQuery, userId: string | undefined): Promise<PincodePlace> {
  if ('pincode' in query) return placeOfPincode(query.pincode)
  if ('lat' in query) {
    const place = nearestPincode({ lat: query.lat, lng: query.lng })
    if (!place) throw BadRequest(UNKNOWN_PINCODE)
    return place
  }
  if (!userId) throw NotFound('Address not found')
  const [address] = await deps.db
    .select({ pincode: addresses.pincode })
    .from(addresses)
    .where(and(eq(addresses.id, query.addressId), eq(addresses.userId, userId), eq(addresses.status, true)))
  if (!address) throw NotFound('Address not found')
  return placeOfPincode(address.pincode)
}

/** Saves `pincode` as the user's delivery location. */
export async function saveUserLocation(db: Db, userId: string, pincode: string): Promise<void> {
  await db.update(users).set({ locationPincode: pincode }).where(eq(users.id, userId))
}

/** The user's saved delivery PIN code, or null. */
export async function userLocationPincode(db: Db, userId: string): Promise<string | null> {
  const [row] = await db.select({ pincode: users.locationPincode }).from(users).where(eq(users.id, userId))
  return row?.pincode ?? null
}

/**
 * Why an order from `store` to an address at `pincode` cannot be placed at `now`, or null when it
 * can: the address outside the store's radius, the store paused by an admin, or closed.
 */
export function deliveryRefusal(store: StoreInfo, place: PincodePlace | undefined, now: Date): string | null {
  if (!place || distanceKm(store, place) > store.radiusKm)
    return `${store.name} does not deliver to pincode ${place?.pincode ?? 'of this address'}. Change your delivery location to this address's pincode, or choose an address near ${store.area}.`
  if (store.pausedNote) return `${store.name} is not taking orders now: ${store.pausedNote}.`
  if (!isOpenAt(store, now)) return `${store.name} is closed now. It opens at ${store.opensAt}.`
  return null
}

/** A store as the admin sees it. */
export function toStoreAnswer(store: StoreInfo, openOrders: number): Store {
  return {
    _id: store.id,
    name: store.name,
    area: store.area,
    city: store.city,
    addressLine: store.addressLine,
    pincode: store.pincode,
    lat: store.lat,
    lng: store.lng,
    coordinatesFromPincode: store.coordinatesFromPincode,
    radiusKm: Number(store.radiusKm),
    opensAt: store.opensAt,
    closesAt: store.closesAt,
    pickers: store.pickers,
    riderKmph: store.riderKmph === null ? null : Number(store.riderKmph),
    active: store.active,
    position: store.position,
    openOrders,
    gstin: store.gstin,
    registeredAddress: store.registeredAddress,
    invoiceCode: store.invoiceCode,
    pausedNote: store.pausedNote,
    version: store.version,
    createdAt: store.createdAt.toISOString(),
    updatedAt: store.updatedAt.toISOString(),
  }
}

/** Every store for the admin, with its open orders. */
export async function listStoresForAdmin(deps: Pick<AppDeps, 'db'>): Promise<Store[]> {
  const [list, counts] = await Promise.all([
    allStores(deps.db),
    deps.db
      .select({ storeId: orders.storeId, n: sql<number>`count(*)::int` })
      .from(orders)
      .where(inArray(orders.status, OPEN_ORDER_STATUSES))
      .groupBy(orders.storeId),
  ])
  const open = new Map(counts.map((c) => [c.storeId, c.n]))
  return list.map((s) => toStoreAnswer(s, open.get(s.id) ?? 0))
}

/** Coordinates must be given together. @throws 400 */
function checkCoordinates(input: { lat?: number | null; lng?: number | null }): void {
  if ((input.lat === undefined || input.lat === null) !== (input.lng === undefined || input.lng === null))
    throw BadRequest('Give both latitude and longitude, or neither', [
      { path: input.lat == null ? 'lat' : 'lng', message: 'Give both latitude and longitude' },
    ])
}

/**
 * A store's tax identity must fit its place: the GSTIN's state code is the state of its PIN code (a
 * GSTIN is a registration in one State, CGST Act 2017 s. 25(1)); the invoice code is no other
 * store's. `excludeId`: the store being edited.
 * @throws 400 with the issue on `gstin`; 409 with the issue on `invoiceCode`
 */
async function checkTaxIdentity(
  db: Db | Tx,
  input: { gstin?: string | null; pincode: string; invoiceCode?: string },
  excludeId: string | null,
): Promise<void> {
  if (input.gstin) {
    const place = lookupPincode(input.pincode)
    const code = place ? gstStateCode(place.state) : null
    if (code && input.gstin.slice(0, 2) !== code) {
      const message = `This GSTIN is registered in ${GST_STATE_CODES[input.gstin.slice(0, 2)] ?? `state ${input.gstin.slice(0, 2)}`}; a store in ${place!.state} needs a GSTIN starting with ${code}`
      throw BadRequest(message, [{ path: 'gstin', message }])
    }
  }
  if (input.invoiceCode) {
    const [other] = await db.select({ id: stores.id, name: stores.name }).from(stores).where(eq(stores.invoiceCode, input.invoiceCode))
    if (other && other.id !== excludeId) {
      const message = `Invoice code ${input.invoiceCode} is ${other.name}'s: choose another`
      throw new HttpError(409, message, { issues: [{ path: 'invoiceCode', message }] })
    }
  }
}

/**
 * Creates a store (at the end of the order). Its stock starts empty (0 of every product: no
 * `inventory` row), or, with `copyStockFrom`, as a copy of that store's stock (its `inventory` rows,
 * one INSERT … SELECT in the create's transaction; the audit entry of the create names the source
 * store and how many rows were copied).
 * @throws 400 unknown PIN code or half coordinates; 400 on `copyStockFrom` when no store has that id
 */
export async function createStore(deps: Pick<AppDeps, 'db' | 'cache'> & ActorDeps, input: CreateStoreInput): Promise<Store> {
  placeOfPincode(input.pincode)
  checkCoordinates(input)
  await checkTaxIdentity(deps.db, input, null)
  const id = newId()
  const values = {
    name: input.name,
    area: input.area,
    city: input.city,
    addressLine: input.addressLine,
    pincode: input.pincode,
    lat: input.lat ?? null,
    lng: input.lng ?? null,
    radiusKm: input.radiusKm,
    opensAt: input.opensAt,
    closesAt: input.closesAt,
    pickers: input.pickers,
    riderKmph: input.riderKmph ?? null,
    active: input.active,
    gstin: input.gstin ?? null,
    registeredAddress: input.registeredAddress ?? null,
  }
  // No code given: the column's default (S1, S2, …; migration 0026_tax_invoices).
  const code = input.invoiceCode ? { invoiceCode: input.invoiceCode } : {}
  await deps.db.transaction(async (tx) => {
    await tx.insert(stores).values({ id, ...values, ...code, position: sql`(select coalesce(max(position), 0) + 1 from stores)` })
    const copied = input.copyStockFrom
      ? { stockCopiedFrom: input.copyStockFrom, stockRowsCopied: await copyStock(tx, input.copyStockFrom, id) }
      : {}
    await recordAudit(tx, {
      actor: deps.actor,
      action: 'create',
      entity: 'store',
      entityId: id,
      before: null,
      after: { ...values, ...copied },
    })
  })
  deps.cache.invalidate()
  const created = (await allStores(deps.db)).find((s) => s.id === id)!
  return toStoreAnswer(created, 0)
}

/**
 * Copies store `fromId`'s stock rows to the new store `toId` (which has none yet), in `tx`.
 * @returns how many rows were copied
 * @throws 400 on `copyStockFrom` when no store has id `fromId`
 */
async function copyStock(tx: Tx, fromId: string, toId: string): Promise<number> {
  const [source] = await tx.select({ id: stores.id }).from(stores).where(eq(stores.id, fromId))
  if (!source) {
    const message = 'Choose an existing store to copy the stock from'
    throw BadRequest(message, [{ path: 'copyStockFrom', message }])
  }
  // Thousands of rows at once: the availability bits are built once for the new store, not row by row (../inventory/stock-bits.ts).
  await bulkStockWrites(tx)
  const rows = await tx
    .insert(inventory)
    .select(
      tx
        .select({
          storeId: sql<string>`${toId}`.as('store_id'),
          productId: inventory.productId,
          stock: inventory.stock,
          updatedAt: sql<Date>`now()`.as('updated_at'),
        })
        .from(inventory)
        .where(eq(inventory.storeId, fromId)),
    )
    .returning({ productId: inventory.productId })
  await refreshStockBits(tx, [toId])
  return rows.length
}

/**
 * Updates a store's fields; with `version`, only when nobody changed it since (409 otherwise).
 * `lat`/`lng` null go back to the PIN code's centre.
 * @throws 404 STORE_NOT_FOUND; 409 stale version; 400 unknown PIN code or half coordinates
 */
export async function updateStore(deps: Pick<AppDeps, 'db' | 'cache'> & ActorDeps, input: UpdateStoreInput): Promise<Store> {
  if (input.pincode) placeOfPincode(input.pincode)
  if (input.lat !== undefined || input.lng !== undefined) checkCoordinates(input)
  const { _id, version, ...fields } = input
  const set: Partial<typeof stores.$inferInsert> = {}
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) (set as Record<string, unknown>)[key] = value
  await deps.db.transaction(async (tx) => {
    const [current] = await tx.select().from(stores).where(eq(stores.id, _id)).for('update')
    if (!current) throw NotFound(STORE_NOT_FOUND)
    if (version !== undefined && current.version !== version)
      throw Conflict('This store was changed by someone else. Reload it and try again.')
    const gstinAfter = input.gstin === undefined ? current.gstin : input.gstin
    if (input.gstin !== undefined || input.pincode !== undefined || input.invoiceCode !== undefined)
      await checkTaxIdentity(tx, { gstin: gstinAfter, pincode: input.pincode ?? current.pincode, invoiceCode: input.invoiceCode }, _id)
    await tx
      .update(stores)
      .set({ ...set, version: sql`${stores.version} + 1`, updatedAt: sql`now()` })
      .where(eq(stores.id, _id))
    const before = {
      ...current,
      radiusKm: Number(current.radiusKm),
      riderKmph: current.riderKmph === null ? null : Number(current.riderKmph),
    }
    await recordAudit(tx, { actor: deps.actor, action: 'update', entity: 'store', entityId: _id, ...changedFields(before, set) })
  })
  deps.cache.invalidate()
  const [answer] = (await listStoresForAdmin(deps)).filter((s) => s._id === _id)
  return answer!
}

/**
 * The product reads' dependencies for a request: the catalogue's, and the store its `X-Store-Id`
 * header names (else the default store).
 */
export async function productReadDeps(
  deps: Pick<AppDeps, 'db' | 'cache'>,
  headerValue: string | undefined,
): Promise<{ db: Db; cache: AppDeps['cache']; storeId: string }> {
  const store = await requestStore(deps, headerValue)
  return { db: deps.db, cache: deps.cache, storeId: store.id }
}
