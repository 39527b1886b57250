/**
 * Which dark store serves a PIN code, and in how many minutes (GET /api/location/resolve?pincode=;
 * docs/stores.md, "Shopper pages"): the checkout asks it for each saved address, to mark the ones
 * the shopper's store does not serve before the order is placed. Public and read-only: nothing is
 * saved. Kept apart from the location calls that change the session's location.
 */
import { LocationSchema, PINCODE_PATTERN, type Location } from '../../../contract/location.ts'
import { parseData, upstream, type UpstreamResult } from '../upstream.ts'
import type { Api } from '../api-context.ts'

export type { Location } from '../../../contract/location.ts'

/** The location of `pincode` (6 digits, first 1-9); a malformed one is a 400 without an API call. */
export async function resolvePincode(api: Api, pincode: string, opts: { clientIp?: string } = {}): Promise<UpstreamResult<Location>> {
  if (!PINCODE_PATTERN.test(pincode)) return { ok: false, status: 400, message: 'Enter a valid 6-digit pincode', issues: [] }
  const query = new URLSearchParams({ pincode })
  return parseData(await upstream(api, `location/resolve?${query}`, { method: 'GET', clientIp: opts.clientIp }), LocationSchema)
}

/**
 * What the checkout knows of an address's PIN code: the store serving it (null: none), its minutes
 * and whether it is open, and the PIN code's district and state (India Post's, as the API answers them).
 */
export interface PincodeService {
  district: string
  state: string
  serviceable: boolean
  storeId: string | null
  storeName: string | null
  storeOpen: boolean
  deliveryMinutes: number | null
}

/**
 * The service of each PIN code in `pincodes` (each asked once, all at once). A PIN code whose answer
 * failed is left out: the page then says nothing about it and the API decides at placement.
 */
export async function resolvePincodes(
  api: Api,
  pincodes: Iterable<string>,
  opts: { clientIp?: string } = {},
): Promise<Map<string, PincodeService>> {
  const unique = [...new Set(pincodes)]
  const answers = await Promise.all(unique.map((pincode) => resolvePincode(api, pincode, opts)))
  const services = new Map<string, PincodeService>()
  unique.forEach((pincode, i) => {
    const answer = answers[i]!
    if (!answer.ok) return
    const { serviceable, store, deliveryMinutes, district, state } = answer.data
    services.set(pincode, {
      district,
      state,
      serviceable,
      storeId: store?._id ?? null,
      storeName: store?.name ?? null,
      storeOpen: store?.open ?? false,
      deliveryMinutes,
    })
  })
  return services
}
