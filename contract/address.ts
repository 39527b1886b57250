/**
 * Delivery-address rules shared by the API (api/modules/address) and the BFF's forms
 * (app/lib/schemas/address.ts): one list of states, one set of field rules and messages
 * (docs/commerce-api.md, "Addresses").
 *
 * Sources: India's 28 states and 8 union territories as the Government of India's National Portal
 * lists them (https://knowindia.india.gov.in/states-uts/); the PIN code is 6 digits whose first digit
 * (the postal zone) is 1-9 (India Post, "Know your PIN code"); an Indian mobile number has 10 digits
 * starting 6-9 (TRAI's National Numbering Plan 2003).
 */
import { z } from 'zod'
import { NOT_BLANK_PATTERN, TargetIdSchema, TimestampSchema } from './fields.ts'

/** India's 28 states and 8 union territories, in alphabetical order, as the address `state` values. */
export const INDIAN_STATES = [
  'Andaman and Nicobar Islands',
  'Andhra Pradesh',
  'Arunachal Pradesh',
  'Assam',
  'Bihar',
  'Chandigarh',
  'Chhattisgarh',
  'Dadra and Nagar Haveli and Daman and Diu',
  'Delhi',
  'Goa',
  'Gujarat',
  'Haryana',
  'Himachal Pradesh',
  'Jammu and Kashmir',
  'Jharkhand',
  'Karnataka',
  'Kerala',
  'Ladakh',
  'Lakshadweep',
  'Madhya Pradesh',
  'Maharashtra',
  'Manipur',
  'Meghalaya',
  'Mizoram',
  'Nagaland',
  'Odisha',
  'Puducherry',
  'Punjab',
  'Rajasthan',
  'Sikkim',
  'Tamil Nadu',
  'Telangana',
  'Tripura',
  'Uttar Pradesh',
  'Uttarakhand',
  'West Bengal',
] as const
export type IndianState = (typeof INDIAN_STATES)[number]

/** The only country delivered to. */
export const ADDRESS_COUNTRY = 'India'
/** Longest address line and city, in characters. */
export const ADDRESS_LINE_MAX_LENGTH = 200
export const CITY_MAX_LENGTH = 80

export const ADDRESS_LINE_MESSAGE = 'Enter the address (house, street, area)'
export const CITY_MESSAGE = 'Enter the city'
export const STATE_MESSAGE = 'Choose a state or union territory'
export const PINCODE_MESSAGE = 'Enter a 6-digit pincode (it cannot start with 0)'
export const ADDRESS_MOBILE_MESSAGE = 'Enter a 10-digit mobile number starting with 6, 7, 8 or 9'
export const ADDRESS_LABEL_MESSAGE = 'Choose Home, Work or Other'

/**
 * What a shopper calls an address (docs/commerce-api.md, "Addresses"), as quick-commerce apps offer
 * it: Home, Work or Other. Optional on the wire (the original client never sends it): a new address
 * without one is `Home` (ADDRESS_LABEL_DEFAULT); an update without one keeps the stored label.
 */
export const ADDRESS_LABELS = ['Home', 'Work', 'Other'] as const
export type AddressLabel = (typeof ADDRESS_LABELS)[number]
export const ADDRESS_LABEL_DEFAULT: AddressLabel = 'Home'
/** Longest floor ("3rd floor, flat 302") and landmark ("Opposite the metro station"), in characters. */
export const FLOOR_MAX_LENGTH = 40
export const LANDMARK_MAX_LENGTH = 120
export const COUNTRY_MESSAGE = 'We deliver in India only'

const requiredText = (message: string, max: number) =>
  z.string({ error: message }).trim().min(1, message).max(max, `Use at most ${max} characters`).meta({ pattern: NOT_BLANK_PATTERN })

/**
 * The fields of an address as both sides validate them. Values are trimmed; the mobile number may be
 * typed with spaces, dashes or a +91/0 prefix, and is kept as its 10 digits.
 */
export const AddressFieldsSchema = z.object({
  address_line: requiredText(ADDRESS_LINE_MESSAGE, ADDRESS_LINE_MAX_LENGTH),
  city: requiredText(CITY_MESSAGE, CITY_MAX_LENGTH),
  state: z.enum(INDIAN_STATES, { error: STATE_MESSAGE }),
  pincode: z
    .string({ error: PINCODE_MESSAGE })
    .trim()
    .regex(/^[1-9][0-9]{5}$/, PINCODE_MESSAGE),
  country: z
    .string()
    .trim()
    .optional()
    .transform((country) => country || ADDRESS_COUNTRY)
    .refine((country) => country.toLowerCase() === ADDRESS_COUNTRY.toLowerCase(), COUNTRY_MESSAGE)
    .transform(() => ADDRESS_COUNTRY)
    // India in any case, or nothing (the default).
    .meta({ type: 'string', pattern: '^(?:[Ii][Nn][Dd][Ii][Aa])?$' }),
  mobile: z
    .union([z.string(), z.number()], { error: ADDRESS_MOBILE_MESSAGE })
    .transform((mobile) =>
      String(mobile)
        .replace(/[\s-]/g, '')
        .replace(/^(\+91|91(?=\d{10}$)|0(?=\d{10}$))/, ''),
    )
    .pipe(z.string().regex(/^[6-9][0-9]{9}$/, ADDRESS_MOBILE_MESSAGE))
    .meta({
      anyOf: [
        { type: 'string', pattern: '^(?:\\+91|0)?[6-9][0-9]{9}$' },
        { type: 'integer', minimum: 6_000_000_000, maximum: 9_999_999_999 },
      ],
    }),
})
export type AddressFields = z.output<typeof AddressFieldsSchema>

/** An optional free-text field: trimmed, blank is '' (no value), at most `max` characters. */
const optionalText = (max: number) => z.string().trim().max(max, `Use at most ${max} characters`).optional()

/**
 * The optional extras of an address (migration 0031): its label, floor and landmark. All three may be
 * left out, so the original client's bodies stay valid (docs/commerce-api.md, "Addresses"); on create a
 * missing label is ADDRESS_LABEL_DEFAULT and a missing floor or landmark is ''; on update a missing
 * field keeps its stored value.
 */
export const AddressExtrasSchema = z.object({
  label: z.enum(ADDRESS_LABELS, { error: ADDRESS_LABEL_MESSAGE }).optional(),
  floor: optionalText(FLOOR_MAX_LENGTH),
  landmark: optionalText(LANDMARK_MAX_LENGTH),
})
export type AddressExtras = z.output<typeof AddressExtrasSchema>

/** POST /api/address/create: the address fields. */
export const CreateAddressSchema = AddressFieldsSchema.extend(AddressExtrasSchema.shape)
export type CreateAddressInput = z.output<typeof CreateAddressSchema>

/** PUT /api/address/update: `_id` and every field (a whole address replaces the old one; an extra left out keeps its value). */
export const UpdateAddressSchema = CreateAddressSchema.extend({ _id: TargetIdSchema })
export type UpdateAddressInput = z.output<typeof UpdateAddressSchema>

/** DELETE /api/address/disable: `{ _id }`. */
export const AddressIdSchema = z.object({ _id: TargetIdSchema })

/** An address as the API answers it; `status` false once removed (kept for the orders that name it). */
export const AddressSchema = z
  .object({
    _id: z.string(),
    address_line: z.string(),
    city: z.string(),
    state: z.string(),
    pincode: z.string(),
    country: z.string(),
    mobile: z.string(),
    label: z.enum(ADDRESS_LABELS),
    /** '' when none was given. */
    floor: z.string(),
    landmark: z.string(),
    status: z.boolean(),
    userId: z.string(),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  })
  .meta({ id: 'Address' })
export type Address = z.output<typeof AddressSchema>

/** What `addressOneLine` reads of an address or an order's snapshot (extras absent on old orders). */
export interface PrintableAddress {
  address_line: string
  city: string
  state: string
  pincode: string
  floor?: string
  landmark?: string
}

/** A floor as printed: "Floor 3" for a bare number, else as typed ("3rd floor, flat 302"); '' for none. */
export function floorText(floor: string | undefined): string {
  const text = floor?.trim() ?? ''
  return /^\d+$/.test(text) ? `Floor ${text}` : text
}

/**
 * An address on one line, as the pages, the packing slip, the invoice and the confirmation mail
 * print it: "Floor 3, 12, MG Road, Bengaluru, Karnataka 560038 (Landmark: Near the metro)". The floor
 * is printed as typed, prefixed "Floor " only when it is a bare number; no floor or landmark, no part.
 */
export function addressOneLine(a: PrintableAddress): string {
  const floor = floorText(a.floor)
  const landmark = a.landmark?.trim() ?? ''
  const floorPart = floor ? `${floor}, ` : ''
  return `${floorPart}${a.address_line}, ${a.city}, ${a.state} ${a.pincode}${landmark ? ` (Landmark: ${landmark})` : ''}`
}
