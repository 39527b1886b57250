/**
 * Typed calls to the upstream address endpoints (docs/commerce-api.md, "Addresses"). Every call is
 * the signed-in shopper's own (Bearer token from the session); another user's address id is a 404.
 */
import { z } from 'zod'
import { AddressSchema, type Address, type CreateAddressSchema } from '../../../contract/address.ts'
import type { RequestSession } from '../session.ts'
import { parseData, upstream, type UpstreamResult } from '../upstream.ts'
import type { Api } from '../api-context.ts'

export { AddressSchema, type Address } from '../../../contract/address.ts'

/** The shopper's live addresses, newest first (GET /api/address/get). */
export async function listAddresses(api: Api, session: RequestSession): Promise<UpstreamResult<Address[]>> {
  return parseData(await upstream(api, 'address/get', { method: 'GET', session }), z.array(AddressSchema))
}

/** Adds an address (POST /api/address/create); 400 with field issues on bad fields. */
export async function createAddress(
  api: Api,
  session: RequestSession,
  fields: z.input<typeof CreateAddressSchema>,
): Promise<UpstreamResult<Address>> {
  return parseData(await upstream(api, 'address/create', { method: 'POST', json: fields, session }), AddressSchema)
}

/** Changes an address (PUT /api/address/update); 404 when it is not the shopper's live address. */
export async function updateAddress(
  api: Api,
  session: RequestSession,
  id: string,
  fields: z.input<typeof CreateAddressSchema>,
): Promise<UpstreamResult<Address>> {
  return parseData(await upstream(api, 'address/update', { method: 'PUT', json: { _id: id, ...fields }, session }), AddressSchema)
}

/** Removes an address (DELETE /api/address/disable: a soft delete; placed orders keep their copy). */
export function disableAddress(api: Api, session: RequestSession, id: string): Promise<UpstreamResult<unknown>> {
  return upstream(api, 'address/disable', { method: 'DELETE', json: { _id: id }, session })
}
