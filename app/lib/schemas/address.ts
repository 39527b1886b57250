/**
 * The delivery-address form (docs/commerce-api.md, "Addresses"): the API's own field rules and
 * messages (contract/address.ts), so the browser (Conform, as you type) and the BFF action decide
 * alike and the API never refuses what the form accepted. `_id` is set when editing.
 */
import { z } from 'zod'
import { AddressFieldsSchema } from '../../../contract/address.ts'

export { INDIAN_STATES, ADDRESS_COUNTRY } from '../../../contract/address.ts'

/** Add or edit an address; `_id` names the address being edited. */
export const AddressSchema = AddressFieldsSchema.extend({ _id: z.string().trim().min(1).max(64).optional() })

/** An address on one line: "12, MG Road, Bengaluru, Karnataka 560038". */
export function addressLine(a: { address_line: string; city: string; state: string; pincode: string }): string {
  return `${a.address_line}, ${a.city}, ${a.state} ${a.pincode}`
}
