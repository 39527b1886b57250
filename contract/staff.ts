/**
 * The team on the wire (docs/product.md, "Staff"): GET /api/staff/list, POST /api/staff/invite and
 * PUT /api/staff/update, all ADMIN only. Shared by the API and the BFF's /dashboard/staff form, so
 * both refuse the same input with the same words.
 */
import { z } from 'zod'
import { IdSchema, NOT_BLANK_PATTERN, TargetIdSchema, TimestampSchema } from './fields.ts'
import { ID_MAX_LENGTH } from './ids.ts'
import { EmailSchema, NameSchema } from './user.ts'

/**
 * The roles of the team: an admin runs everything; staff run the order desk and stores' stock; a
 * rider delivers one store's orders (docs/delivery.md).
 */
export const TEAM_ROLES = ['ADMIN', 'STAFF', 'RIDER'] as const
export type TeamRole = (typeof TEAM_ROLES)[number]

/** The words the staff page shows for each role (a demotion to USER takes the account off the team). */
export const TEAM_ROLE_LABELS: Record<TeamRole | 'USER', string> = {
  ADMIN: 'Admin',
  STAFF: 'Staff',
  RIDER: 'Rider',
  USER: 'Shopper (remove from the team)',
}

/** Messages of the staff rules (docs/product.md, "Staff"), shared by the API's answers and the tests. */
export const STAFF_MESSAGES = {
  storeRequired: 'Choose the store this staff member works in',
  riderStoreRequired: 'Choose the store this rider delivers for',
  self: 'You cannot change your own role or deactivate yourself: ask another admin',
  lastAdmin: 'The store needs at least one active admin',
  unknownStore: 'Store not found',
  unknownMember: 'Team member not found',
  nothingToChange: 'Nothing to change',
  riderInHand: 'The rider has an order out for delivery: it must be delivered or handed back first',
} as const

/**
 * One member of the team: an ADMIN or STAFF account, active or not. `USER` only in the answer of an
 * update that took the account off the team.
 */
export const StaffMemberSchema = z.object({
  _id: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  mobile: z.string().nullable(),
  role: z.enum([...TEAM_ROLES, 'USER']),
  status: z.enum(['Active', 'Inactive', 'Suspended']),
  storeId: z.string().nullable(),
  /** The store's name, or null without a store (every admin; staff made before stores were set). */
  storeName: z.string().nullable(),
  lastLoginDate: TimestampSchema.nullable(),
  createdAt: TimestampSchema,
})
export type StaffMember = z.infer<typeof StaffMemberSchema>

/**
 * POST /api/staff/invite: the `email`, the `role`, the `storeId` a STAFF member works in or a RIDER
 * delivers for (required for both, ignored for ADMIN) and an optional `name` for a new account. An email, not a mobile number:
 * team accounts sign in with a password, never by SMS code (docs/decisions/0052-phone-sign-in-and-one-time-codes.md).
 */
export const InviteStaffSchema = z.discriminatedUnion(
  'role',
  [
    z.object({ email: EmailSchema, role: z.literal('ADMIN'), name: NameSchema.optional(), storeId: IdSchema.optional() }),
    z.object({
      email: EmailSchema,
      role: z.literal('STAFF'),
      name: NameSchema.optional(),
      storeId: z
        .string({ error: STAFF_MESSAGES.storeRequired })
        .trim()
        .min(1, { error: STAFF_MESSAGES.storeRequired })
        .max(ID_MAX_LENGTH, { error: STAFF_MESSAGES.unknownStore })
        .meta({ pattern: NOT_BLANK_PATTERN }),
    }),
    z.object({
      email: EmailSchema,
      role: z.literal('RIDER'),
      name: NameSchema.optional(),
      storeId: z
        .string({ error: STAFF_MESSAGES.riderStoreRequired })
        .trim()
        .min(1, { error: STAFF_MESSAGES.riderStoreRequired })
        .max(ID_MAX_LENGTH, { error: STAFF_MESSAGES.unknownStore })
        .meta({ pattern: NOT_BLANK_PATTERN }),
    }),
  ],
  { error: 'Choose a role' },
)
export type InviteStaffInput = z.input<typeof InviteStaffSchema>

/** The answer of an invite: the member, and whether the account was made now (else an existing one got the role). */
export const InviteAnswerSchema = z.object({ member: StaffMemberSchema, created: z.boolean() })
export type InviteAnswer = z.infer<typeof InviteAnswerSchema>

/**
 * PUT /api/staff/update: a member's new `role` (USER takes them off the team), `status` (Inactive ends
 * their sessions at once) or `storeId` (null: none). At least one of them.
 */
export const UpdateStaffSchema = z
  .object({
    _id: TargetIdSchema,
    role: z.enum([...TEAM_ROLES, 'USER'], { error: 'Choose a role' }).optional(),
    status: z.enum(['Active', 'Inactive'], { error: 'Status must be Active or Inactive' }).optional(),
    storeId: IdSchema.nullable().optional(),
  })
  .refine((value) => value.role !== undefined || value.status !== undefined || value.storeId !== undefined, {
    error: STAFF_MESSAGES.nothingToChange,
  })
export type UpdateStaffInput = z.input<typeof UpdateStaffSchema>
