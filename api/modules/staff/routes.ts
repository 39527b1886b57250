/**
 * Routes of /api/staff (ADMIN only; docs/product.md, "Staff"):
 *
 * - GET /api/staff/list → every admin and staff account, active or not
 * - POST /api/staff/invite `{ email, role, storeId?, name? }` → 201 `{ member, created }`
 * - PUT /api/staff/update `{ _id, role?, status?, storeId? }` → the member
 */
import { z } from 'zod'
import type { AppDeps } from '../../deps.ts'
import { currentUser, requireAdmin } from '../../lib/auth.ts'
import { ok } from '../../lib/envelope.ts'
import { apiRouter } from '../../lib/openapi.ts'
import { InviteAnswerSchema, InviteStaffSchema, StaffMemberSchema, UpdateStaffSchema } from '../../../contract/staff.ts'
import { inviteStaff, listTeam, updateStaff } from './service.ts'

/** Builds the /api/staff router. */
export function staffRoutes(deps: AppDeps) {
  const { router, endpoint } = apiRouter('Staff')
  const admin = requireAdmin(deps)
  const staffDeps = (actor: string) => ({ ...deps, actor })

  endpoint(
    {
      method: 'get',
      path: '/list',
      summary: 'Every admin and staff account, active or not, admins first (ADMIN)',
      access: 'admin',
      answers: { 200: { description: 'The team', data: z.array(StaffMemberSchema) } },
    },
    admin,
    async (c) => ok(c, 'Team', await listTeam(deps.db)),
  )

  endpoint(
    {
      method: 'post',
      path: '/invite',
      summary: 'Add an email to the team as ADMIN or STAFF (ADMIN)',
      description:
        'An existing account gets the role; otherwise one is made and mailed how to set its password. Team accounts sign in with email and password, never by SMS code.',
      access: 'admin',
      body: InviteStaffSchema,
      answers: { 201: { description: 'The member, and whether the account was made now', data: InviteAnswerSchema } },
      errors: [409],
    },
    admin,
    async (c, input) => {
      const answer = await inviteStaff(staffDeps(currentUser(c).id), input)
      return ok(c, answer.created ? 'Invited' : 'Role granted', answer, {}, 201)
    },
  )

  endpoint(
    {
      method: 'put',
      path: '/update',
      summary: "Change a member's role, status or store (ADMIN); Inactive ends their sessions",
      access: 'admin',
      body: UpdateStaffSchema,
      answers: { 200: { description: 'The member', data: StaffMemberSchema } },
      errors: [404, 409],
    },
    admin,
    async (c, input) => ok(c, 'Team member updated', await updateStaff(staffDeps(currentUser(c).id), input)),
  )

  return router
}
