/**
 * The address form's server side, shared by /dashboard/address and /checkout: parse the posted form
 * with `AddressSchema` and create or update the address through the API, answering a Conform reply
 * (field messages, the API's own field issues under their fields) or the saved address.
 */
import { parseWithZod } from '@conform-to/zod/v4'
import * as addressApi from './api/address.ts'
import type { Api } from './api-context.ts'
import type { RequestSession } from './session.ts'
import { failedFormReply, invalidFormReply } from './form.ts'
import { AddressSchema } from '../lib/schemas/address.ts'

const ADDRESS_FIELDS = Object.keys(AddressSchema.shape)

/** The outcome: the saved address, or the page's 4xx answer with the form's messages. */
export type SaveAddressOutcome =
  | { ok: true; address: addressApi.Address; message: string }
  | { ok: false; response: ReturnType<typeof invalidFormReply> | ReturnType<typeof failedFormReply> }

/** Creates (no `_id`) or updates (with `_id`) the shopper's address from `formData`. */
export async function saveAddressFromForm(api: Api, session: RequestSession, formData: FormData): Promise<SaveAddressOutcome> {
  const submission = parseWithZod(formData, { schema: AddressSchema })
  if (submission.status !== 'success') return { ok: false, response: invalidFormReply(submission) }
  // The form always shows the floor and landmark: a blank one (Conform reads '' as undefined) clears it.
  const { _id, ...rest } = submission.value
  const fields = { ...rest, floor: rest.floor ?? '', landmark: rest.landmark ?? '' }
  const result = _id ? await addressApi.updateAddress(api, session, _id, fields) : await addressApi.createAddress(api, session, fields)
  if (!result.ok) return { ok: false, response: failedFormReply(submission, result, { fields: ADDRESS_FIELDS }) }
  return { ok: true, address: result.data, message: result.message }
}
