/**
 * Body schemas of the order endpoints (docs/commerce-api.md, "Orders").
 */
import { z } from 'zod'
import { IdSchema } from '../category/catalog-schemas.ts'
import { ORDER_STATUSES } from './status.ts'

/**
 * POST /api/order/cash-on-delivery: `{ addressId, idempotencyKey? }`. The original client's
 * `list_items`, `subTotalAmt` and `totalAmt` are accepted and ignored: the server prices the order.
 */
export const PlaceOrderSchema = z.object({
  addressId: IdSchema,
  idempotencyKey: z.string().optional(),
  list_items: z.unknown().optional(),
  subTotalAmt: z.unknown().optional(),
  totalAmt: z.unknown().optional(),
})

/** `{ orderId }`: an order's `_id` or its order number. */
export const OrderRefSchema = z.object({ orderId: IdSchema })

/** PUT /api/order/update-status (admin): `{ orderId, status, version? }`. */
export const UpdateStatusSchema = z.object({
  orderId: IdSchema,
  status: z.enum(ORDER_STATUSES, { error: `status must be one of ${ORDER_STATUSES.join(', ')}` }),
  version: z.coerce.number().int().min(1).optional(),
})

/** POST /api/order/admin-list: `{ status?, page, limit }` (limit at most 50). */
export const AdminListSchema = z.object({
  status: z.enum(ORDER_STATUSES).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(50).default(10),
})
