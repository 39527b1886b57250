/**
 * The /location forms' rules (docs/stores.md, "Location (BFF)"), shared by the browser (Conform) and
 * the BFF action: a PIN code (contract/location.ts `PincodeSchema`: "Enter a valid 6-digit pincode"),
 * the coordinates "Use my current location" sends, or one of the shopper's saved addresses. Each
 * form carries `redirectTo`, the page to go back to (checked by app/.server/request.ts `safeRedirect`).
 */
import { z } from 'zod'
import { IdSchema } from '../../../contract/fields.ts'
import { LatitudeSchema, LongitudeSchema, PincodeSchema } from '../../../contract/location.ts'

/** Longest `redirectTo` kept, in characters (the cart forms' bound, app/lib/schemas/cart.ts). */
const REDIRECT_MAX = 2048
const redirectTo = z.string().max(REDIRECT_MAX).optional()

/** The PIN code form. */
export const PincodeFormSchema = z.object({ intent: z.literal('pincode'), pincode: PincodeSchema, redirectTo })

/** "Use my current location": the browser's coordinates (WGS 84 degrees). */
export const CoordinatesFormSchema = z.object({ intent: z.literal('coords'), lat: LatitudeSchema, lng: LongitudeSchema, redirectTo })

/** A saved address picked as the location (the signed-in shopper's own; the API checks). */
export const AddressPickSchema = z.object({ intent: z.literal('address'), addressId: IdSchema, redirectTo })
