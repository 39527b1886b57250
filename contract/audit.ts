/**
 * The audit trail on the wire (docs/product.md, "Audit trail"): GET /api/audit/list (ADMIN) with its
 * filters in the query, answering one page of entries, newest first.
 */
import { z } from 'zod'
import { IstDaySchema } from './order.ts'

/** What an entry is about. */
export const AUDIT_ENTITIES = ['category', 'sub_category', 'product', 'inventory', 'store', 'order', 'user', 'coupon'] as const
export type AuditEntity = (typeof AUDIT_ENTITIES)[number]

/**
 * What was done: create/update/delete one row; `bulk_update` (the product grid's bulk edit),
 * `import` (a product CSV applied), `stock` (a store's stock set), `status` (an order moved, one or
 * in bulk; an account activated or deactivated), `cancel` (an order cancelled), `role` (an account's role
 * granted), `invite` (an account made for the team at /dashboard/staff), `data_fix` (a one-off
 * data fix run at start-up changed the row; its actor is `system`; api/db/seed/data-fixes.ts),
 * `dispatch` (the dispatch rule gave an order to a rider; no actor), `assign` (an admin gave an order
 * to a rider or put it back in the queue), `shift` (a rider went on or off shift; docs/delivery.md),
 * `reject` (a shopper's problem report rejected; docs/help-after-delivery.md; an approved or automatic one is a `refund`).
 */
export const AUDIT_ACTIONS = [
  'create',
  'update',
  'delete',
  'bulk_update',
  'import',
  'stock',
  'status',
  'cancel',
  'refund',
  'role',
  'invite',
  'data_fix',
  'dispatch',
  'assign',
  'shift',
  'reject',
] as const
export type AuditAction = (typeof AUDIT_ACTIONS)[number]

/** Labels the audit page shows for each entity and action. */
export const AUDIT_ENTITY_LABELS: Record<AuditEntity, string> = {
  category: 'Category',
  sub_category: 'Sub category',
  product: 'Product',
  inventory: 'Store stock',
  store: 'Store',
  order: 'Order',
  user: 'User',
  coupon: 'Coupon',
}
export const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  create: 'Created',
  update: 'Updated',
  delete: 'Deleted',
  bulk_update: 'Bulk edit',
  import: 'CSV import',
  stock: 'Stock set',
  status: 'Status changed',
  cancel: 'Cancelled',
  refund: 'Line refunded',
  role: 'Role granted',
  invite: 'Invited to the team',
  data_fix: 'Data fix',
  dispatch: 'Given to a rider',
  assign: 'Rider reassigned',
  shift: 'Shift',
  reject: 'Report rejected',
}

/** Longest actor search (characters). */
export const AUDIT_ACTOR_MAX = 100
/** Entries on one page of the audit list. */
export const AUDIT_PAGE_SIZE = 25

/**
 * GET /api/audit/list's query: `actor` (part of the author's email, case-insensitive), `entity`,
 * `action`, `from`/`to` (IST days, both included), `page` (1-based, AUDIT_PAGE_SIZE a page).
 * The page's form (app/routes/dashboard/audit.tsx) drops empty fields before asking.
 */
export const AuditQuerySchema = z
  .object({
    // Trimmed by the reader (api/modules/audit/service.ts): blank is no filter.
    actor: z.string().max(AUDIT_ACTOR_MAX, `The actor must be at most ${AUDIT_ACTOR_MAX} characters`).optional(),
    entity: z.enum(AUDIT_ENTITIES, { error: `entity must be one of ${AUDIT_ENTITIES.join(', ')}` }).optional(),
    action: z.enum(AUDIT_ACTIONS, { error: `action must be one of ${AUDIT_ACTIONS.join(', ')}` }).optional(),
    from: IstDaySchema.optional(),
    to: IstDaySchema.optional(),
    page: z
      .string()
      .regex(/^(?:[1-9][0-9]{0,3}|10000)$/, 'The page must be a whole number from 1 to 10000')
      .optional()
      .meta({ description: 'A whole number from 1 to 10000; absent = 1' }),
  })
  .refine((f) => !f.from || !f.to || f.from <= f.to, { message: 'The start date must not be after the end date', path: ['to'] })
export type AuditQuery = z.output<typeof AuditQuerySchema>

/** One entry as answered: `actor` is the author's email (null: the operator's command line; `system`: a data fix). */
export const AuditEntrySchema = z
  .object({
    _id: z.string(),
    at: z.string(),
    actor: z.string().nullable(),
    action: z.enum(AUDIT_ACTIONS),
    entity: z.enum(AUDIT_ENTITIES),
    entityId: z.string(),
    before: z.record(z.string(), z.unknown()).nullable(),
    after: z.record(z.string(), z.unknown()).nullable(),
  })
  .meta({ id: 'AuditEntry' })
export type AuditEntryAnswer = z.output<typeof AuditEntrySchema>
