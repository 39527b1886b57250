/**
 * Typed calls to the upstream location endpoints (docs/stores.md, "Location (BFF)"; contract/location.ts):
 * which dark store serves a PIN code, the default store, and the shopper's saved location. Each
 * answer is parsed with its contract schema; an answer off contract is a 502 (app/.server/upstream.ts).
 */
import type { RequestSession } from '../session.ts'
import { parseAnswer, parseData, upstream, type UpstreamOptions, type UpstreamResult } from '../upstream.ts'
import { successOf } from '../../../contract/envelope.ts'
import {
  LocationExtraShape,
  LocationSchema,
  StoreSummarySchema,
  type Location,
  type LocationQuery,
  type StoreSummary,
} from '../../../contract/location.ts'
import type { CartChange } from '../../../contract/order.ts'
import type { Api } from '../api-context.ts'

export type { Location, LocationQuery, StoreSummary } from '../../../contract/location.ts'

/** Options of every call: the shopper's address for the API's per-IP limits. */
export interface LocationCallOptions {
  clientIp?: string
}

/**
 * Where a PIN code is and which store serves it (GET /api/location/resolve?pincode=); public, saves
 * nothing. 400 for a PIN code the API's data does not know.
 */
export async function resolvePincode(api: Api, pincode: string, opts: LocationCallOptions = {}): Promise<UpstreamResult<Location>> {
  const query = new URLSearchParams({ pincode })
  return parseData(await upstream(api, `location/resolve?${query}`, { method: 'GET', clientIp: opts.clientIp }), LocationSchema)
}

/** The store a shopper without a location browses (GET /api/location/default-store); 503 when no store exists. */
export async function getDefaultStore(api: Api, opts: LocationCallOptions = {}): Promise<UpstreamResult<StoreSummary>> {
  return parseData(await upstream(api, 'location/default-store', { method: 'GET', clientIp: opts.clientIp }), StoreSummarySchema)
}

/** PUT /api/location's answer: the location in `data`, the cart's changes beside it. */
const SetLocationAnswerSchema = successOf(LocationSchema, LocationExtraShape)

/**
 * Sets the shopper's location (PUT /api/location, `{ pincode }`, `{ lat, lng }` or `{ addressId }`):
 * the signed-in user's (saved to the account) or a visitor's, whose guest cart (`X-Guest-Cart`, as
 * the cart calls send it) is fitted to the new store's stock. Answers the location and the cart's
 * changes. Failures: 400 unknown PIN code or bad fields, 404 an address that is not the shopper's.
 */
export async function setLocation(
  api: Api,
  session: RequestSession,
  query: LocationQuery,
  opts: LocationCallOptions = {},
): Promise<UpstreamResult<{ location: Location; cartChanges: CartChange[] }>> {
  const who: Pick<UpstreamOptions, 'session' | 'headers'> = session.tokens
    ? { session }
    : session.guestCartId
      ? { headers: { 'X-Guest-Cart': session.guestCartId } }
      : {}
  const result = parseAnswer(
    await upstream(api, 'location', { method: 'PUT', json: query, clientIp: opts.clientIp, ...who }),
    SetLocationAnswerSchema,
  )
  if (!result.ok) return result
  return { ...result, data: { location: result.data.data, cartChanges: result.data.cartChanges } }
}

/** The signed-in user's saved location, or null when none was saved (GET /api/location). */
export async function savedLocation(
  api: Api,
  session: RequestSession,
  opts: LocationCallOptions = {},
): Promise<UpstreamResult<Location | null>> {
  return parseData(await upstream(api, 'location', { method: 'GET', session, clientIp: opts.clientIp }), LocationSchema.nullable())
}
