/**
 * Routes of /api/address (docs/commerce-api.md, "Addresses"); every call needs a signed-in user and
 * touches only that user's addresses.
 *
 * - POST /create → 201 Address; GET /get → the live addresses, newest first
 * - PUT /update `{ _id, ...fields }` → Address; DELETE /disable `{ _id }` → null (soft delete)
 */
import { Hono } from 'hono'
import type { AppDeps } from '../../deps.ts'
import { currentUser, requireUser } from '../../lib/auth.ts'
import { ok } from '../../lib/envelope.ts'
import { readBody } from '../../lib/validate.ts'
import { AddressIdSchema, CreateAddressSchema, UpdateAddressSchema } from '../../../contract/address.ts'
import { createAddress, disableAddress, listAddresses, updateAddress } from './service.ts'

/** Builds the /api/address router. */
export function addressRoutes(deps: AppDeps) {
  const r = new Hono()
  r.use('*', requireUser(deps))

  r.post('/create', async (c) => {
    const input = await readBody(c, CreateAddressSchema)
    return ok(c, 'Address created successfully', await createAddress(deps, currentUser(c).id, input), {}, 201)
  })

  r.get('/get', async (c) => ok(c, 'List of address', await listAddresses(deps, currentUser(c).id)))

  r.put('/update', async (c) => {
    const input = await readBody(c, UpdateAddressSchema)
    return ok(c, 'Address updated', await updateAddress(deps, currentUser(c).id, input))
  })

  r.delete('/disable', async (c) => {
    const { _id } = await readBody(c, AddressIdSchema)
    await disableAddress(deps, currentUser(c).id, _id)
    return ok(c, 'Address removed', null)
  })

  return r
}
