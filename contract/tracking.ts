/**
 * Live tracking on the wire (docs/delivery.md, "Live tracking"): the rider's position report
 * (`POST /api/rider/position`, RIDER only) and the shopper's view of an order out for delivery
 * (`POST /api/tracking/order`, the order's shopper or an admin). Shared by the API, the BFF and the
 * pages, so the arrival estimate is computed by one function everywhere: on the API for the answer,
 * on the server-rendered page, and in the browser after each position event.
 *
 * Units: degrees (WGS 84) for `lat`/`lng`, metres for `accuracyM` and `distanceM`, minutes for the
 * estimate, km/h for the rider's speed; times are ISO 8601 UTC.
 */
import { z } from 'zod'
import { IdSchema, TimestampSchema } from './fields.ts'

/** Mean Earth radius, km (IUGG): the haversine formula's sphere. */
export const EARTH_RADIUS_KM = 6371.0088

/**
 * Positions kept per order at most one per this many ms (docs/delivery.md, "Live tracking"): the
 * rider's page sends one every 10 s; a second report inside the window is answered 200 with
 * `stored: false` and is not kept (a retried or doubled send is harmless).
 */
export const POSITION_MIN_INTERVAL_MS = 5_000

/** How often the rider's page sends its position while an order is out (ms). */
export const POSITION_SEND_EVERY_MS = 10_000

/** How long positions are kept after the order was delivered, cancelled or handed back (ms): 24 h. */
export const POSITION_RETENTION_MS = 24 * 60 * 60 * 1000

/** Worst accuracy a report may claim, metres (a reading worse than 10 km locates nothing). */
export const ACCURACY_MAX_M = 10_000

/** A coordinate in degrees, finite and within range. */
const degrees = (max: number, label: string) =>
  z
    .number({ error: `${label} must be a number of degrees` })
    .finite()
    .min(-max, { error: `${label} must be between -${max} and ${max}` })
    .max(max, { error: `${label} must be between -${max} and ${max}` })

/**
 * POST /api/rider/position: where the rider is (`navigator.geolocation`'s `coords`, W3C Geolocation
 * API, "GeolocationCoordinates"): `lat` −90..90, `lng` −180..180, `accuracyM` 0..ACCURACY_MAX_M
 * metres (rounded to the metre when kept).
 */
export const RiderPositionSchema = z.object({
  orderId: IdSchema,
  lat: degrees(90, 'Latitude'),
  lng: degrees(180, 'Longitude'),
  accuracyM: z
    .number({ error: 'Accuracy must be a number of metres' })
    .finite()
    .min(0, { error: 'Accuracy cannot be negative' })
    .max(ACCURACY_MAX_M, { error: `Accuracy must be at most ${ACCURACY_MAX_M} metres` }),
})
export type RiderPositionInput = z.infer<typeof RiderPositionSchema>

/** The answer of POST /api/rider/position: whether this report was kept (false: inside the window). */
export const PositionAnswerSchema = z.object({ stored: z.boolean(), recordedAt: TimestampSchema })

/** A point: degrees. */
export const PointSchema = z.object({ lat: z.number(), lng: z.number() })
export type Point = z.infer<typeof PointSchema>

/** The rider's last position: the point, its accuracy (m) and when it was taken. */
export const LastPositionSchema = PointSchema.extend({ accuracyM: z.number(), recordedAt: TimestampSchema })

/**
 * POST /api/tracking/order `{ orderId }`: the live view of an order out for delivery. `tracking` is
 * null in any other status (nothing to show, nothing kept to reveal). Never the rider's phone, email
 * or other orders: its first name only.
 */
export const TrackingSchema = z.object({
  orderId: IdSchema,
  status: z.string(),
  tracking: z
    .object({
      riderFirstName: z.string(),
      store: PointSchema.extend({ name: z.string() }),
      /** The delivery address's point: its PIN code's centre (docs/stores.md, "Delivery time"). */
      address: PointSchema,
      /** The store's rider speed in use, km/h (its own, else DELIVERY_RIDER_KMPH). */
      riderKmph: z.number(),
      /** null until the rider's page sent a first position. */
      position: LastPositionSchema.nullable(),
      /** From the rider's last position (or, before any, the store) to the address, metres. */
      distanceM: z.number().int(),
      /** `etaMinutes(distanceM, riderKmph)`. */
      etaMinutes: z.number().int(),
    })
    .nullable(),
})
export type Tracking = z.infer<typeof TrackingSchema>
export type TrackingView = NonNullable<Tracking['tracking']>

/** The `position` event of the order's live stream (app/.server/order-stream.ts). */
export const PositionEventSchema = z.object({
  orderId: z.string(),
  lat: z.number(),
  lng: z.number(),
  accuracyM: z.number(),
  recordedAt: z.string(),
})
export type PositionEvent = z.infer<typeof PositionEventSchema>

const toRadians = (deg: number) => (deg * Math.PI) / 180

/** Great-circle distance between two points, metres (haversine formula on a sphere of EARTH_RADIUS_KM). */
export function haversineMetres(a: Point, b: Point): number {
  const dLat = toRadians(b.lat - a.lat)
  const dLng = toRadians(b.lng - a.lng)
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(toRadians(a.lat)) * Math.cos(toRadians(b.lat)) * Math.sin(dLng / 2) ** 2
  return 2 * EARTH_RADIUS_KM * 1000 * Math.asin(Math.min(1, Math.sqrt(h)))
}

/**
 * Minutes to ride `distanceM` metres at `riderKmph` km/h, rounded up, at least 1 (the rider is not
 * there yet while the order is out). The travel term of docs/stores.md, "Delivery time", without the
 * picking (the order is already out) and without the least travel time (the rider may be near).
 */
export function etaMinutes(distanceM: number, riderKmph: number): number {
  const speed = riderKmph > 0 ? riderKmph : 20
  return Math.max(1, Math.ceil((distanceM / 1000 / speed) * 60 - 1e-9))
}

/** "Arriving in about N min" (the words of the page and the tests). */
export function arrivalWords(minutes: number): string {
  return `Arriving in about ${minutes} min`
}

/** A distance for people: "850 m" under a km, "2.4 km" from there. */
export function distanceWords(metres: number): string {
  return metres < 1000 ? `${Math.round(metres / 10) * 10} m` : `${(metres / 1000).toFixed(1)} km`
}

/** The view after a new position: the point, and the distance and estimate recomputed from it. */
export function withPosition(view: TrackingView, event: Omit<PositionEvent, 'orderId'>): TrackingView {
  const position = { lat: event.lat, lng: event.lng, accuracyM: event.accuracyM, recordedAt: event.recordedAt }
  const distanceM = Math.round(haversineMetres(position, view.address))
  return { ...view, position, distanceM, etaMinutes: etaMinutes(distanceM, view.riderKmph) }
}
