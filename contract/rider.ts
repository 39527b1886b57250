/**
 * Delivery partners and dispatch on the wire (docs/delivery.md): the rider's own calls under
 * /api/rider (RIDER only) and the dispatch board and reassignment under /api/dispatch. Shared by the
 * API and the BFF's /rider pages, so both refuse the same input with the same words. Money is integer
 * paise (`…Paise`).
 */
import { z } from 'zod'
import { IdSchema, TimestampSchema } from './fields.ts'
import { ORDER_STATUSES } from './order-status.ts'
import { DeliveryFailureNoteSchema, DeliveryFailureReasonSchema } from './order.ts'
import { DeliveryInstructionsSchema } from './tip.ts'

/** The rules' messages (docs/delivery.md), shared by the API's answers, the pages and the tests. */
export const RIDER_MESSAGES = {
  noStore: 'You are not attached to a store yet: ask an admin',
  notRider: 'Permission denied: riders only',
  inHand: 'Deliver the order in your hands, or mark it "Could not deliver", before going off shift',
  cashRequired: 'Enter the cash you collected',
  nothingToCollect: 'Nothing to collect: the order is paid online',
  reasonRequired: 'Say why the order could not be delivered',
  notOutForDelivery: 'Mark the order picked up first',
  riderUnknown: 'Rider not found in the order’s store',
  riderOffShift: 'The rider is off shift',
  riderFull: 'The rider already holds as many orders as allowed',
  notPacked: 'Only a packed order waiting or given to a rider can be reassigned: this one has left the store',
  codeRequired: 'Ask the customer for the 4-digit delivery code',
  codeLocked: 'Too many wrong codes: call the store to hand this order over',
} as const

/** Wrong delivery codes a rider may type for one order before it must call the store (docs/delivery.md, "Delivery code"). */
export const DELIVERY_CODE_MAX_ATTEMPTS = 5

/** The message of a wrong delivery code, with the tries left (1..DELIVERY_CODE_MAX_ATTEMPTS − 1). */
export function wrongCodeMessage(triesLeft: number): string {
  return `That code is not right: ${triesLeft} ${triesLeft === 1 ? 'try' : 'tries'} left`
}

/** A delivery code as typed: 4 digits, spaces around trimmed. */
export const DeliveryCodeSchema = z
  .string({ error: RIDER_MESSAGES.codeRequired })
  .trim()
  .regex(/^\d{4}$/, { error: 'The delivery code is 4 digits' })

/** Most paise a rider may record as collected: ₹1,00,000 (far above any order: a typo guard). */
export const CASH_COLLECTED_MAX_PAISE = 10_000_000

/** POST /api/rider/shift: go on shift (`true`) or off shift (`false`). */
export const RiderShiftSchema = z.object({ onShift: z.boolean({ error: 'onShift must be true or false' }) })

/** POST /api/rider/picked-up: the rider has the packed order in hand. */
export const RiderOrderRefSchema = z.object({ orderId: IdSchema })

/**
 * POST /api/rider/delivered: the order was handed over; `cashCollectedPaise` is required for a
 * cash-on-delivery order (whole paise, 0 to ₹1,00,000) and must be absent or 0 for a paid one;
 * `deliveryCode` is required for an order that needs one.
 */
export const RiderDeliveredSchema = z.object({
  orderId: IdSchema,
  /** The code the customer says, for an order that needs one (`needsCode`). */
  deliveryCode: DeliveryCodeSchema.optional(),
  cashCollectedPaise: z
    .number({ error: RIDER_MESSAGES.cashRequired })
    .int({ error: 'Cash must be whole paise' })
    .min(0, { error: 'Cash cannot be negative' })
    .max(CASH_COLLECTED_MAX_PAISE, { error: 'That is more cash than any order' })
    .optional(),
})

/**
 * POST /api/rider/could-not-deliver: why, from the fixed list (contract/delivery-failure.ts), and a
 * short note (required for `other`, at most 120 characters). The order ends `delivery_failed`,
 * returned to the store (docs/delivery.md, "Could not deliver").
 */
export const RiderCouldNotDeliverSchema = z.object({
  orderId: IdSchema,
  reason: DeliveryFailureReasonSchema,
  /** Required for `other` (400 "Say in a few words…", checked by the API: a rule across two fields). */
  note: DeliveryFailureNoteSchema.optional(),
})

/** POST /api/dispatch/assign (ADMIN): give a packed order to `riderId`, or `null` to put it back in the store's queue. */
export const AssignRiderSchema = z.object({ orderId: IdSchema, riderId: IdSchema.nullable() })

/** A delivery address as the rider reads it: the line, floor and landmark when given, city and PIN code. */
export const RiderAddressSchema = z.object({
  line: z.string(),
  floor: z.string().nullable(),
  landmark: z.string().nullable(),
  city: z.string(),
  pincode: z.string(),
})

/**
 * One order in a rider's hands: the store, the address, the customer's first name (no surname, email
 * or phone), what to collect (`collectPaise`, 0 when paid online), the shopper's delivery
 * instructions when given, and whether "Delivered" needs the delivery code (docs/delivery.md, "The
 * rider's pages").
 */
export const RiderOrderSchema = z.object({
  _id: z.string(),
  orderId: z.string(),
  status: z.enum(ORDER_STATUSES),
  store: z.object({ _id: z.string(), name: z.string(), area: z.string() }),
  address: RiderAddressSchema,
  customerFirstName: z.string(),
  collectPaise: z.number().int(),
  itemCount: z.number().int(),
  dispatchedAt: TimestampSchema.nullable(),
  version: z.number().int(),
  /** "Delivered" asks for the customer's delivery code (never the code itself: docs/delivery.md, "Delivery code"). */
  needsCode: z.boolean(),
  /** The shopper's delivery instructions (docs/commerce-api.md, "Tip and delivery instructions"); absent: none. */
  deliveryInstructions: DeliveryInstructionsSchema.optional(),
})
export type RiderOrder = z.infer<typeof RiderOrderSchema>

/** GET /api/rider/me: the rider's shift, store and orders in hand (oldest given first). */
export const RiderStateSchema = z.object({
  onShift: z.boolean(),
  /** Since when the rider has been free (on shift with nothing in hand), or null. */
  freeSince: TimestampSchema.nullable(),
  store: z.object({ _id: z.string(), name: z.string(), area: z.string() }).nullable(),
  batchSize: z.number().int(),
  orders: z.array(RiderOrderSchema),
})
export type RiderState = z.infer<typeof RiderStateSchema>

/** One order on the dispatch board: waiting (no rider) or with its rider. */
export const BoardOrderSchema = z.object({
  _id: z.string(),
  orderId: z.string(),
  status: z.enum(ORDER_STATUSES),
  createdAt: TimestampSchema,
  /** The last rider's "Could not deliver" reason: the order waits for an admin, not for the next rider. */
  deliveryIssue: z.string().nullable(),
})

/** One rider of a store on the board. */
export const BoardRiderSchema = z.object({
  _id: z.string(),
  name: z.string(),
  onShift: z.boolean(),
  freeSince: TimestampSchema.nullable(),
  orders: z.array(BoardOrderSchema),
})

/** GET /api/dispatch/board: per store, the orders waiting for a rider (oldest first) and its riders. */
export const DispatchBoardSchema = z.array(
  z.object({
    store: z.object({ _id: z.string(), name: z.string() }),
    waiting: z.array(BoardOrderSchema),
    riders: z.array(BoardRiderSchema),
  }),
)
export type DispatchBoard = z.infer<typeof DispatchBoardSchema>

/** The answer of an assignment: the order and its rider now (null: back in the queue). */
export const AssignAnswerSchema = z.object({ orderId: z.string(), riderId: z.string().nullable(), version: z.number().int() })

/**
 * The "Delivered" form's cash field on the /rider page: rupees as typed ("254", "254.5", "254.50"),
 * turned into whole paise for POST /api/rider/delivered.
 */
export const CashRupeesSchema = z
  .string({ error: RIDER_MESSAGES.cashRequired })
  .trim()
  .regex(/^\d{1,6}(\.\d{1,2})?$/, { error: 'Enter the cash in rupees, such as 254 or 254.50' })
  .transform((text) => {
    const [whole = '0', fraction = ''] = text.split('.')
    return Number(whole) * 100 + Number(fraction.padEnd(2, '0'))
  })
