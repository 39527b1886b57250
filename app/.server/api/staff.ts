/**
 * Typed calls to the upstream team endpoints (docs/product.md, "Staff"): `staff/list`,
 * `staff/invite` and `staff/update`, ADMIN only (401 without a token, 403 for anyone else). Answers
 * are parsed with contract/staff.ts, so an answer off contract becomes a 502 failure; failures come
 * back as `{ ok: false }`, never thrown.
 */
import { z } from 'zod'
import type { RequestSession } from '../session.ts'
import { parseData, upstream, type UpstreamResult } from '../upstream.ts'
import {
  InviteAnswerSchema,
  StaffMemberSchema,
  type InviteAnswer,
  type InviteStaffInput,
  type StaffMember,
  type UpdateStaffInput,
} from '../../../contract/staff.ts'
import type { Api } from '../api-context.ts'

export type { StaffMember } from '../../../contract/staff.ts'

/** `GET /api/staff/list`: every admin and staff account, active or not, admins first. */
export async function listTeam(api: Api, session: RequestSession): Promise<UpstreamResult<StaffMember[]>> {
  return parseData(await upstream(api, 'staff/list', { session }), z.array(StaffMemberSchema))
}

/**
 * `POST /api/staff/invite` `{ email, role, storeId?, name? }`: the member, and whether the account was
 * made now. Failures: 400 field issues (`storeId` for a missing or unknown store), 409 the admin's own
 * email or the last active admin.
 */
export async function inviteStaff(api: Api, session: RequestSession, input: InviteStaffInput): Promise<UpstreamResult<InviteAnswer>> {
  return parseData(await upstream(api, 'staff/invite', { method: 'POST', json: input, session }), InviteAnswerSchema)
}

/**
 * `PUT /api/staff/update` `{ _id, role?, status?, storeId? }`: the member as changed. Failures: 400
 * unknown store, 404 not on the team, 409 the admin's own account or the last active admin.
 */
export async function updateStaff(api: Api, session: RequestSession, input: UpdateStaffInput): Promise<UpstreamResult<StaffMember>> {
  return parseData(await upstream(api, 'staff/update', { method: 'PUT', json: input, session }), StaffMemberSchema)
}
