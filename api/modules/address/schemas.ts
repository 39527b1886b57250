/**
 * Body schemas of the address endpoints (docs/commerce-api.md, "Addresses"). The field rules and
 * messages are the ones the BFF's form uses (contract/address.ts), so a form that passed in the
 * browser is never refused here.
 */
import { z } from 'zod'
import { AddressFieldsSchema } from '../../../contract/address.ts'
import { TargetIdSchema } from '../category/catalog-schemas.ts'

export { INDIAN_STATES } from '../../../contract/address.ts'

/** POST /api/address/create: the address fields. */
export const CreateAddressSchema = AddressFieldsSchema
export type CreateAddressInput = z.output<typeof CreateAddressSchema>

/** PUT /api/address/update: `{ _id, ...fields }` (all fields, as the form sends them). */
export const UpdateAddressSchema = AddressFieldsSchema.extend({ _id: TargetIdSchema })
export type UpdateAddressInput = z.output<typeof UpdateAddressSchema>

/** DELETE /api/address/disable: `{ _id }`. */
export const AddressIdSchema = z.object({ _id: TargetIdSchema })
