/**
 * Routes of /api/address (docs/commerce-api.md, "Addresses"); every call needs a signed-in user and
 * touches only that user's addresses.
 *
 * - POST /create → 201 Address; GET /get → the live addresses, newest first
 * - PUT /update `{ _id, ...fields }` → Address; DELETE /disable `{ _id }` → null (deleted, or hidden while an order names it)
 */
import { z } from 'zod'
import type { AppDeps } from '../../deps.ts'
import { currentUser, requireUser } from '../../lib/auth.ts'
import { ok } from '../../lib/envelope.ts'
import { AddressIdSchema, AddressSchema, CreateAddressSchema, UpdateAddressSchema } from '../../../contract/address.ts'
import { apiRouter } from '../../lib/openapi.ts'
import { createAddress, disableAddress, listAddresses, updateAddress } from './service.ts'

/** Builds the /api/address router. */
export function addressRoutes(deps: AppDeps) {
  const { router, endpoint } = apiRouter('Address')
  const signedIn = requireUser(deps)

  endpoint(
    {
      method: 'post',
      path: '/create',
      summary: 'Save a delivery address',
      access: 'user',
      body: CreateAddressSchema,
      answers: { 201: { description: 'The new address', data: AddressSchema } },
      errors: [409],
    },
    signedIn,
    async (c, input) => {
      return ok(c, 'Address created successfully', await createAddress(deps, currentUser(c).id, input), {}, 201)
    },
  )

  endpoint(
    {
      method: 'get',
      path: '/get',
      summary: "The user's live addresses, newest first",
      access: 'user',
      answers: { 200: { description: 'The addresses', data: z.array(AddressSchema) } },
    },
    signedIn,
    async (c) => ok(c, 'List of address', await listAddresses(deps, currentUser(c).id)),
  )

  endpoint(
    {
      method: 'put',
      path: '/update',
      summary: "Replace one of the user's addresses",
      access: 'user',
      body: UpdateAddressSchema,
      answers: { 200: { description: 'The updated address', data: AddressSchema } },
      errors: [404],
    },
    signedIn,
    async (c, input) => {
      return ok(c, 'Address updated', await updateAddress(deps, currentUser(c).id, input))
    },
  )

  endpoint(
    {
      method: 'delete',
      path: '/disable',
      summary: 'Remove an address (kept for the orders that name it)',
      access: 'user',
      body: AddressIdSchema,
      answers: { 200: { description: '`data` is null' } },
      errors: [404],
    },
    signedIn,
    async (c, { _id }) => {
      await disableAddress(deps, currentUser(c).id, _id)
      return ok(c, 'Address removed', null)
    },
  )

  return router
}
