/**
 * The order endpoints' bodies and answers (docs/commerce-api.md, "Orders"). Money on the wire is in
 * rupees.
 */
import { z } from 'zod'
import { IdSchema, TimestampSchema } from './fields.ts'
import { BillSchema, ShownFeesSchema } from './cart.ts'
import { CartCouponSchema, ShownCouponDiscountSchema } from './coupon.ts'
import { DeliveryInstructionsSchema, ShownTipSchema, TipSchema } from './tip.ts'
import { CANCEL_REASON_MAX } from './order-limits.ts'
import { IDEMPOTENCY_KEY_PATTERN } from './idempotency.ts'
import { OrderPaymentSchema, PAYMENT_STATES } from './payment.ts'
import { ORDER_STATUSES } from './order-status.ts'
import {
  DELIVERY_FAILURE_MESSAGES,
  DELIVERY_FAILURE_NOTE_MAX,
  DELIVERY_FAILURE_REASONS,
  DELIVERY_FAILURE_WORDS,
} from './delivery-failure.ts'

/**
 * POST /api/order/cash-on-delivery: `{ addressId, idempotencyKey?, couponDiscount? }`. The original
 * client's `list_items`, `subTotalAmt` and `totalAmt` are accepted and ignored: the server prices the
 * order. Without a key (header or body) the API derives one from the user, the address and the cart.
 * `couponDiscount`: the coupon discount the checkout showed, rupees (docs/offers.md, "At placement").
 * `tip`, `shownTip` and `deliveryInstructions`: optional, only this storefront's checkout sends them
 * (docs/commerce-api.md, "Tip and delivery instructions"). `shownFees`: the named fees the bill
 * showed, rupees (docs/commerce-api.md, "Fees"), optional as well.
 */
export const PlaceOrderSchema = z.object({
  addressId: IdSchema,
  couponDiscount: ShownCouponDiscountSchema.optional(),
  shownFees: ShownFeesSchema.optional(),
  tip: TipSchema.optional(),
  shownTip: ShownTipSchema.optional(),
  deliveryInstructions: DeliveryInstructionsSchema.optional(),
  idempotencyKey: z.string().optional().meta({ pattern: IDEMPOTENCY_KEY_PATTERN.source }),
  list_items: z.unknown().optional(),
  subTotalAmt: z.unknown().optional(),
  totalAmt: z.unknown().optional(),
})

/** `{ orderId }`: an order's `_id` or its order number. */
export const OrderRefSchema = z.object({ orderId: IdSchema })

export { CANCEL_REASON_MAX }

// Control characters other than line breaks and tabs (a reason may have several lines).
const CONTROL_BUT_LINE_BREAKS = /[^\P{Cc}\n\r\t]/u

/**
 * The optional reason given when an order is cancelled: trimmed, at most {@link CANCEL_REASON_MAX}
 * characters, line breaks allowed, no other control characters. Empty means none.
 */
export const CancelReasonSchema = z
  .string({ error: 'The reason must be text' })
  .trim()
  .max(CANCEL_REASON_MAX, `The reason must be at most ${CANCEL_REASON_MAX} characters`)
  .refine((text) => !CONTROL_BUT_LINE_BREAKS.test(text), 'The reason must be plain text')

/** POST /api/order/cancel: `{ orderId, reason? }`. */
export const CancelOrderSchema = OrderRefSchema.extend({ reason: CancelReasonSchema.optional() })

/** Why a delivery failed, on the wire: one of DELIVERY_FAILURE_REASONS (contract/delivery-failure.ts). */
export const DeliveryFailureReasonSchema = z.enum(DELIVERY_FAILURE_REASONS, { error: DELIVERY_FAILURE_MESSAGES.reasonRequired })

/**
 * The note of a failed delivery: trimmed, at most DELIVERY_FAILURE_NOTE_MAX characters; empty is
 * none. Control characters are refused by the API's text rule for every body (api/lib/safe-text.ts).
 * `other` needs one: a rule across two fields, checked by the API (400 DELIVERY_FAILURE_MESSAGES.noteRequired)
 * and said in words in the document, so the document stays as strict as the server.
 */
export const DeliveryFailureNoteSchema = z
  .string({ error: DELIVERY_FAILURE_MESSAGES.notePlain })
  .trim()
  .max(DELIVERY_FAILURE_NOTE_MAX, DELIVERY_FAILURE_MESSAGES.noteTooLong)

/** PUT /api/order/update-status (admin): `{ orderId, status, version?, reason?, failureReason?, failureNote? }`; `reason` is kept for a cancellation only, `failureReason` (required) and `failureNote` (required for `other`) for a failed delivery only. */
// A failed delivery's `failureReason` (and `failureNote` for `other`) is required by the API (400):
// a rule across fields, said in the endpoint's words (api/modules/order/service.ts `changeStatus`).
export const UpdateStatusSchema = z.object({
  orderId: IdSchema,
  status: z.enum(ORDER_STATUSES, { error: `status must be one of ${ORDER_STATUSES.join(', ')}` }),
  version: z.coerce.number().int().min(1).optional().meta({ type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
  reason: CancelReasonSchema.optional(),
  failureReason: DeliveryFailureReasonSchema.optional(),
  failureNote: DeliveryFailureNoteSchema.optional(),
})

/** A failed delivery on an order's answer: the reason, its words (the note for `other`), the note and when. */
export const DeliveryFailureSchema = z
  .object({
    reason: z.enum(DELIVERY_FAILURE_REASONS),
    /** In words: DELIVERY_FAILURE_WORDS, or the note for `other` (contract/delivery-failure.ts `deliveryFailureText`). */
    text: z.string().meta({ examples: [DELIVERY_FAILURE_WORDS.not_reachable] }),
    note: z.string().nullable(),
    at: TimestampSchema,
  })
  .meta({ id: 'DeliveryFailure' })

/** The admin list's orders (docs/commerce-api.md, "Admin orders at volume"): newest or oldest first, or by grand total. */
export const ADMIN_ORDER_SORTS = ['newest', 'oldest', 'total_desc', 'total_asc'] as const
export type AdminOrderSort = (typeof ADMIN_ORDER_SORTS)[number]

/** Longest search text the admin list accepts (characters, after trimming). */
export const ADMIN_ORDER_QUERY_MAX = 100

/**
 * A day in India (IST) as `YYYY-MM-DD`, a real calendar day of 2000–2099 (leap years included). One
 * pattern says it all, so the OpenAPI document is exactly as strict as the server.
 */
export const IST_DAY_PATTERN =
  /^20(?:\d{2}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)|02-(?:0[1-9]|1\d|2[0-8]))|(?:[02468][048]|[13579][26])-02-29)$/

/** A day in India (IST) as `YYYY-MM-DD` ({@link IST_DAY_PATTERN}). */
export const IstDaySchema = z.string().regex(IST_DAY_PATTERN, 'A date must be a real day of 2000–2099 like 2026-11-26')

/** A yes/no filter from JSON (a boolean) or a query string (`1`, `true`, `on` or `0`, `false`). */
const FilterFlagSchema = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0', 'on']).transform((v) => v === 'true' || v === '1' || v === 'on')])
  .optional()
  .meta({ anyOf: [{ type: 'boolean' }, { type: 'string', enum: ['true', 'false', '1', '0', 'on'] }] })

/**
 * The admin list's filters, shared by the list and the CSV export: `q` (order number exact or
 * prefix, the shopper's phone, email or name, the delivery PIN code, the delivery address's line,
 * landmark or city; case-insensitive), `status`, `from`/`to` (IST days,
 * both included) and `sort`. The store and payment filters join here as one more key each.
 */
export const AdminOrderFilterShape = {
  q: z
    .string()
    .trim()
    .max(ADMIN_ORDER_QUERY_MAX, `The search must be at most ${ADMIN_ORDER_QUERY_MAX} characters`)
    .optional()
    .transform((q) => q || undefined),
  status: z.enum(ORDER_STATUSES).optional(),
  /** One dark store's orders (docs/stores.md). */
  store: IdSchema.optional(),
  /** Orders in one payment state (docs/payments.md, "Payment states"). */
  payment: z.enum(PAYMENT_STATES).optional(),
  /** Only orders delivered after their promised time. */
  late: FilterFlagSchema,
  /** Only open orders (placed, packed, out for delivery) whose promised time has passed: the late-orders view. */
  overdue: FilterFlagSchema,
  from: IstDaySchema.optional(),
  to: IstDaySchema.optional(),
  sort: z.enum(ADMIN_ORDER_SORTS).default('newest'),
}
const datesInOrder = (f: { from?: string; to?: string }) => !f.from || !f.to || f.from <= f.to
const DATES_OUT_OF_ORDER = { message: 'The start date must not be after the end date', path: ['to'] }
export const AdminOrderFilterSchema = z.object(AdminOrderFilterShape).refine(datesInOrder, DATES_OUT_OF_ORDER)
export type AdminOrderFilter = z.output<typeof AdminOrderFilterSchema>

/** POST /api/order/admin-list: the filters above with `page` and `limit` (at most 50). */
export const AdminListSchema = z
  .object({
    ...AdminOrderFilterShape,
    page: z.coerce.number().int().min(1).max(100_000).default(1),
    limit: z.coerce.number().int().min(1).max(50).default(10),
  })
  .refine(datesInOrder, DATES_OUT_OF_ORDER)

/** Most orders one bulk status change or one packing-slip print takes. */
export const BULK_ORDERS_MAX = 100

/** POST /api/order/bulk-status (admin): `{ orderIds, status, reason? }`, each order moved on its own. */
export const BulkStatusSchema = z.object({
  orderIds: z
    .array(IdSchema)
    .min(1, 'Choose at least one order')
    .max(BULK_ORDERS_MAX, `Choose at most ${BULK_ORDERS_MAX} orders`)
    .transform((ids) => [...new Set(ids)]),
  // `delivery_failed` is refused (400 DELIVERY_FAILURE_MESSAGES.bulkRefused): each needs its reason (PUT /update-status).
  status: z.enum(ORDER_STATUSES, { error: `status must be one of ${ORDER_STATUSES.join(', ')}` }),
  reason: CancelReasonSchema.optional(),
})

/** One order's outcome in a bulk status change: moved (`ok`, its new status and version) or refused with the reason. */
export const BulkStatusOutcomeSchema = z
  .object({
    orderId: z.string(),
    orderNumber: z.string().nullable(),
    ok: z.boolean(),
    status: z.enum(ORDER_STATUSES).nullable(),
    message: z.string(),
  })
  .meta({ id: 'BulkStatusOutcome' })
export type BulkStatusOutcome = z.output<typeof BulkStatusOutcomeSchema>

/** One line of an order as priced when it was placed (rupees). */
export const OrderLineSchema = z
  .object({
    productId: z.string().nullable(),
    name: z.string(),
    image: z.string(),
    unit: z.string(),
    brand: z.string(),
    quantity: z.number(),
    price: z.number(),
    mrp: z.number(),
    discount: z.number(),
    lineTotal: z.number(),
    /** The line's share of the order's coupon discount, rupees (docs/offers.md, "At placement"); absent without a coupon. */
    couponShare: z.number().optional(),
  })
  .meta({ id: 'OrderLine' })

/**
 * The delivery address as it was when the order was placed (a snapshot). `label`, `floor` and
 * `landmark` (migration 0031) are absent from orders placed before them.
 */
export const OrderAddressSchema = z
  .object({
    address_line: z.string(),
    city: z.string(),
    state: z.string(),
    pincode: z.string(),
    country: z.string(),
    mobile: z.string(),
    label: z.string().optional(),
    floor: z.string().optional(),
    landmark: z.string().optional(),
  })
  .meta({ id: 'OrderAddress' })

/**
 * What the original client's My Orders reads of an order (it made one order per product): the first
 * line's name ("+ N more" for the others) and the lines' image urls.
 */
export const ProductDetailsSchema = z.object({ name: z.string(), image: z.array(z.string()) }).meta({ id: 'OrderProductDetails' })

/**
 * An order as the API answers it; `customer` only to an admin. `totalAmt` is `bill.grandTotal`, the
 * cash to collect rounded to the rupee; `cancelReason` is null unless a cancelled order was given one.
 */
export const OrderSchema = z
  .object({
    _id: z.string(),
    orderId: z.string(),
    userId: z.string(),
    status: z.enum(ORDER_STATUSES),
    payment_status: z.string(),
    delivery_address: OrderAddressSchema,
    items: z.array(OrderLineSchema),
    product_details: ProductDetailsSchema,
    subTotalAmt: z.number(),
    totalAmt: z.number(),
    bill: BillSchema,
    cancelReason: z.string().nullable(),
    statusHistory: z.array(z.object({ status: z.string(), at: z.string() })),
    version: z.number(),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
    customer: z.object({ name: z.string(), email: z.string() }).optional(),
    /** The dark store delivering it (docs/stores.md). */
    store: z.object({ _id: z.string(), name: z.string(), area: z.string() }),
    /** The delivery time promised at placement, minutes, and the moment it ends (null: placed before stores). */
    promisedMinutes: z.number().int().nullable(),
    promisedAt: z.string().nullable(),
    /** When it was delivered (null until then); `late` when after `promisedAt`. */
    deliveredAt: z.string().nullable(),
    late: z.boolean(),
    /** How it is paid and its refunds (docs/payments.md, "Payment states"). */
    payment: OrderPaymentSchema,
    /**
     * Out for delivery, in the shopper's own answer: the 4-digit code to tell the rider (orders of at
     * least DELIVERY_CODE_ABOVE; docs/delivery.md, "Delivery code"). Only ours: the original client ignores it.
     */
    deliveryCode: z.string().optional(),
    /** The shopper's delivery instructions (docs/commerce-api.md, "Tip and delivery instructions"); absent: none. */
    deliveryInstructions: DeliveryInstructionsSchema.optional(),
    /** Present only on a `delivery_failed` order (docs/delivery.md, "Could not deliver"): why, and when. */
    deliveryFailure: DeliveryFailureSchema.optional(),
  })
  .meta({ id: 'Order' })
export type Order = z.output<typeof OrderSchema>

/** A cart line that changed since the shopper saw it: price in rupees or quantity, before and now. */
export const CartChangeSchema = z
  .object({ productId: z.string(), name: z.string(), kind: z.enum(['price', 'stock', 'removed']), before: z.number(), after: z.number() })
  .meta({ id: 'CartChange' })
export type CartChange = z.output<typeof CartChangeSchema>

/**
 * The keys of a placement's 409 beside the failure envelope: `changes` when prices or stock moved;
 * `coupon` and `bill` when the coupon no longer gives what the checkout showed (the cart's coupon now,
 * applied or with its reason, and the bill as it now is; docs/offers.md, "At placement").
 */
export const PlacementConflictShape = {
  changes: z.array(CartChangeSchema).optional(),
  coupon: CartCouponSchema.optional(),
  bill: BillSchema.optional(),
}

/**
 * Why a line of a past order was left out of "Order again" or added in part (docs/commerce-api.md,
 * "Order again"): `no_longer_sold` (unpublished or deleted), `out_of_stock`, `stock` (capped by the
 * stock), `max_per_line` (capped by the per-line maximum), `cart_full` (the cart holds 100 products).
 */
export const REORDER_REASONS = ['no_longer_sold', 'out_of_stock', 'stock', 'max_per_line', 'cart_full'] as const
export type ReorderReason = (typeof REORDER_REASONS)[number]

/**
 * One line of a past order that "Order again" left out or added in part: the line as sold, the
 * units ordered then and added now, the reason, and the reason in words ("out of stock", "no longer
 * sold", "only 3 added: stock").
 */
export const ReorderLeftOutSchema = z
  .object({
    productId: z.string().nullable(),
    name: z.string(),
    unit: z.string(),
    ordered: z.number(),
    added: z.number(),
    reason: z.enum(REORDER_REASONS),
    message: z.string(),
  })
  .meta({ id: 'ReorderLeftOut' })
export type ReorderLeftOut = z.output<typeof ReorderLeftOutSchema>

/** The keys answered beside the cart's lines by POST /api/order/reorder: units added, lines left out. */
export const ReorderExtraShape = { added: z.number(), leftOut: z.array(ReorderLeftOutSchema) }

/**
 * POST /api/order/admin/packing-slips (admin or staff; docs/commerce-api.md, "Packing slips"): one
 * store's packed orders (`storeId`), oldest first, at most {@link BULK_ORDERS_MAX}; or the orders
 * named (`orderIds`: `_id`s or order numbers, at most {@link BULK_ORDERS_MAX}). Exactly one of the
 * two: the route answers 400 for neither or both (a rule across keys the OpenAPI document states in
 * words, so the document stays exactly as strict as this schema).
 */
export const PackingSlipsSchema = z.object({
  storeId: IdSchema.optional(),
  orderIds: z
    .array(IdSchema)
    .max(BULK_ORDERS_MAX, `Print at most ${BULK_ORDERS_MAX} packing slips at a time`)
    .transform((ids) => [...new Set(ids)])
    .optional(),
})
export type PackingSlipsInput = z.output<typeof PackingSlipsSchema>

/**
 * A line of a packing slip: the order line with its product's aisle, the product's first category
 * and first sub category by the catalogue's link positions (null: the product is gone or has none).
 */
export const PickLineSchema = OrderLineSchema.extend({ category: z.string().nullable(), subCategory: z.string().nullable() }).meta({
  id: 'PickLine',
})
export type PickLine = z.output<typeof PickLineSchema>

/**
 * An order as its packing slip prints it: the order (with the customer) whose `items` are in pick
 * order (docs/commerce-api.md, "Packing slips": by category, then sub category, then product name).
 */
export const PackingSlipSchema = OrderSchema.extend({ items: z.array(PickLineSchema) }).meta({ id: 'PackingSlip' })
export type PackingSlip = z.output<typeof PackingSlipSchema>

/** The keys answered beside the slips: how many orders matched (a store's packed orders may be more than printed) and the refs not found. */
export const PackingSlipsExtraShape = { totalCount: z.number().int(), missing: z.array(z.string()) }
