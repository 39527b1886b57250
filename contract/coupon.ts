/**
 * Coupons on the wire (docs/offers.md, "Coupons"): GET /api/coupon/list, POST /api/coupon/create and
 * PUT /api/coupon/update, all ADMIN only. Shared by the API and the BFF's /dashboard/coupons form, so
 * both refuse the same input with the same words. Money is in whole rupees here (a coupon's amounts
 * are whole rupees); the API keeps paise.
 */
import { z } from 'zod'
import { IdSchema, TargetIdSchema, TimestampSchema } from './fields.ts'

/** Flat: a fixed amount off; percent: a share of the basket, capped by `maxDiscount` when set. */
export const COUPON_KINDS = ['flat', 'percent'] as const
export type CouponKind = (typeof COUPON_KINDS)[number]

/** A code: 3 to 20 letters and digits, kept upper-case (a shopper may type it in any case). */
export const COUPON_CODE_PATTERN = /^[A-Z0-9]{3,20}$/
/** Largest amount a coupon names, in rupees (flat off, cap, minimum basket). */
export const COUPON_RUPEES_MAX = 100_000
/** Largest use limit. */
export const COUPON_LIMIT_MAX = 1_000_000
/** Longest description (characters). */
export const COUPON_DESCRIPTION_MAX = 120

/** A moment of the validity window as a datetime-local field gives it, read as IST: 2026-12-01T09:00. */
export const IST_MINUTE_PATTERN = /^20\d\d-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d$/

/** Messages of the coupon rules, shared by the API's answers, the page and the tests. */
export const COUPON_MESSAGES = {
  codeFormat: 'A code is 3 to 20 letters and digits',
  codeTaken: 'Another coupon already has this code',
  amountRequired: 'A flat coupon needs the amount off',
  percentRequired: 'A percent coupon needs the percent off',
  windowOrder: 'The end must be after the start',
  unknownCoupon: 'Coupon not found',
  unknownStore: 'Store not found',
  unknownCategory: 'Category not found',
  nothingToChange: 'Nothing to change',
} as const

const rupees = (label: string, min: number) =>
  z
    .number({ error: `${label} must be a whole number of rupees` })
    .int(`${label} must be a whole number of rupees`)
    .min(min, `${label} must be at least ₹${min}`)
    .max(COUPON_RUPEES_MAX, `${label} must be at most ₹${COUPON_RUPEES_MAX}`)
const limit = (label: string) =>
  z
    .number({ error: `${label} must be a whole number` })
    .int(`${label} must be a whole number`)
    .min(1, `${label} must be at least 1`)
    .max(COUPON_LIMIT_MAX, `${label} must be at most ${COUPON_LIMIT_MAX}`)
const istMinute = (label: string) => z.string().regex(IST_MINUTE_PATTERN, `${label} must be a date and time like 2026-12-01T09:00`)

/** The fields of a coupon as an admin sets them; absent optional fields are "none". */
const couponFields = {
  code: z
    .string({ error: COUPON_MESSAGES.codeFormat })
    .trim()
    .transform((code) => code.toUpperCase())
    .pipe(z.string().regex(COUPON_CODE_PATTERN, COUPON_MESSAGES.codeFormat))
    // The document states what the server accepts: letters in either case, spaces around trimmed.
    .meta({ pattern: '^\\s*[A-Za-z0-9]{3,20}\\s*$' }),
  description: z.string().trim().max(COUPON_DESCRIPTION_MAX, `The description must be at most ${COUPON_DESCRIPTION_MAX} characters`),
  kind: z.enum(COUPON_KINDS, { error: 'Choose flat or percent' }),
  /** Flat: rupees off. */
  amount: rupees('The amount off', 1),
  /** Percent: 1..100. */
  percent: z.number({ error: 'The percent must be a whole number' }).int('The percent must be a whole number').min(1).max(100),
  /** Percent: the most it takes off, rupees. */
  maxDiscount: rupees('The maximum discount', 1),
  /** The basket (items at selling price, in scope) must be at least this, rupees. */
  minBasket: rupees('The minimum basket', 0),
  startsAt: istMinute('The start'),
  endsAt: istMinute('The end'),
  firstOrderOnly: z.boolean(),
  perUserLimit: limit('The per-shopper limit'),
  totalLimit: limit('The total limit'),
  storeId: IdSchema,
  categoryId: IdSchema,
}

/** The checks across fields, shared by create and by update (on the coupon as it would be). */
export function couponShapeIssues(c: {
  kind?: CouponKind
  amount?: number | null
  percent?: number | null
  startsAt?: string | null
  endsAt?: string | null
}): { path: string; message: string }[] {
  const issues: { path: string; message: string }[] = []
  if (c.kind === 'flat' && c.amount == null) issues.push({ path: 'amount', message: COUPON_MESSAGES.amountRequired })
  if (c.kind === 'percent' && c.percent == null) issues.push({ path: 'percent', message: COUPON_MESSAGES.percentRequired })
  if (c.startsAt && c.endsAt && c.startsAt >= c.endsAt) issues.push({ path: 'endsAt', message: COUPON_MESSAGES.windowOrder })
  return issues
}

/**
 * POST /api/coupon/create: a new coupon, active. `amount` for flat, `percent` (and optionally
 * `maxDiscount`) for percent; the other kind's field is ignored. Times are IST.
 */
const createCommon = {
  code: couponFields.code,
  description: couponFields.description.default(''),
  minBasket: couponFields.minBasket.default(0),
  startsAt: couponFields.startsAt.optional(),
  endsAt: couponFields.endsAt.optional(),
  firstOrderOnly: couponFields.firstOrderOnly.default(false),
  perUserLimit: couponFields.perUserLimit.optional(),
  totalLimit: couponFields.totalLimit.optional(),
  storeId: couponFields.storeId.optional(),
  categoryId: couponFields.categoryId.optional(),
}
export const CreateCouponSchema = z
  .discriminatedUnion(
    'kind',
    [
      z.object({ ...createCommon, kind: z.literal('flat'), amount: couponFields.amount }),
      z.object({
        ...createCommon,
        kind: z.literal('percent'),
        percent: couponFields.percent,
        maxDiscount: couponFields.maxDiscount.optional(),
      }),
    ],
    { error: 'Choose flat or percent' },
  )
  .superRefine((c, ctx) => {
    for (const issue of couponShapeIssues(c)) ctx.addIssue({ code: 'custom', path: [issue.path], message: issue.message })
  })
export type CreateCouponInput = z.input<typeof CreateCouponSchema>
export type CreateCoupon = z.output<typeof CreateCouponSchema>

/**
 * PUT /api/coupon/update: `_id` and the fields to change; `null` clears an optional one (no cap, no
 * window end, no limit, every store...). `active` switches the coupon on or off.
 */
export const UpdateCouponSchema = z
  .object({
    _id: TargetIdSchema,
    description: couponFields.description.optional(),
    amount: couponFields.amount.nullable().optional(),
    percent: couponFields.percent.nullable().optional(),
    maxDiscount: couponFields.maxDiscount.nullable().optional(),
    minBasket: couponFields.minBasket.optional(),
    startsAt: couponFields.startsAt.nullable().optional(),
    endsAt: couponFields.endsAt.nullable().optional(),
    firstOrderOnly: couponFields.firstOrderOnly.optional(),
    perUserLimit: couponFields.perUserLimit.nullable().optional(),
    totalLimit: couponFields.totalLimit.nullable().optional(),
    storeId: couponFields.storeId.nullable().optional(),
    categoryId: couponFields.categoryId.nullable().optional(),
    active: z.boolean({ error: 'active must be true or false' }).optional(),
  })
  .refine((c) => Object.keys(c).some((key) => key !== '_id'), { error: COUPON_MESSAGES.nothingToChange })
export type UpdateCouponInput = z.input<typeof UpdateCouponSchema>

/** A coupon as answered: rupees, IST-independent ISO timestamps, null for "none". */
export const CouponSchema = z
  .object({
    _id: z.string(),
    code: z.string(),
    description: z.string(),
    kind: z.enum(COUPON_KINDS),
    amount: z.number().nullable(),
    percent: z.number().nullable(),
    maxDiscount: z.number().nullable(),
    minBasket: z.number(),
    startsAt: TimestampSchema.nullable(),
    endsAt: TimestampSchema.nullable(),
    firstOrderOnly: z.boolean(),
    perUserLimit: z.number().nullable(),
    totalLimit: z.number().nullable(),
    storeId: z.string().nullable(),
    categoryId: z.string().nullable(),
    active: z.boolean(),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  })
  .meta({ id: 'Coupon' })
export type Coupon = z.output<typeof CouponSchema>

/** What a coupon takes off, in words: "₹50 off", "10% off up to ₹75". */
export function couponOffWords(c: Pick<Coupon, 'kind' | 'amount' | 'percent' | 'maxDiscount'>): string {
  if (c.kind === 'flat') return `₹${c.amount} off`
  return c.maxDiscount == null ? `${c.percent}% off` : `${c.percent}% off up to ₹${c.maxDiscount}`
}

/**
 * Why a code does not apply to a basket (docs/offers.md, "Applying a code"), in the words the
 * shopper reads on the coupon field; shared by the API's answers, the pages and the tests.
 * `minBasket` names the rupees the basket must reach.
 */
export const COUPON_REASONS = {
  unknown: 'No such coupon',
  inactive: 'This coupon is no longer offered',
  notYet: 'Not yet valid',
  expired: 'Expired',
  otherStore: 'Not valid in this store',
  firstOrder: 'Only on your first order',
  alreadyUsed: 'Already used',
  runOut: 'This offer has run out',
  noScopedItems: 'No items of this offer in your basket',
  emptyBasket: 'Your basket is empty',
  minBasket: (rupees: number) => `Minimum basket ₹${rupees}`,
} as const

/** Longest text the coupon field accepts (characters) before the code rule is checked. */
export const COUPON_FIELD_MAX = 40

/**
 * POST /api/coupon/apply `{ code }` (a signed-in shopper): the code in any case, spaces around
 * trimmed. Also the cart and checkout pages' coupon form (Conform), which adds `intent`.
 */
export const ApplyCouponSchema = z.object({
  code: z
    .string({ error: 'Enter a coupon code' })
    .trim()
    .min(1, 'Enter a coupon code')
    .max(COUPON_FIELD_MAX, COUPON_MESSAGES.codeFormat)
    .transform((code) => code.toUpperCase())
    .pipe(z.string().regex(COUPON_CODE_PATTERN, COUPON_MESSAGES.codeFormat))
    // The document states what the server accepts: letters in either case, spaces around trimmed.
    .meta({ pattern: '^\\s*[A-Za-z0-9]{3,20}\\s*$' }),
})
export type ApplyCouponInput = z.input<typeof ApplyCouponSchema>

/**
 * The code applied to a cart as it stands now: `applied` with the discount (rupees), or not applied
 * with the reason ("Minimum basket ₹499"): a code that stops applying stays named, with why.
 */
export const CartCouponSchema = z
  .object({
    code: z.string(),
    description: z.string(),
    applied: z.boolean(),
    discount: z.number(),
    reason: z.string().nullable(),
  })
  .meta({ id: 'CartCoupon' })
export type CartCoupon = z.output<typeof CartCouponSchema>

/**
 * One offer of GET /api/coupon/offers: an active coupon against the shopper's cart now, what it takes
 * off in words, whether it applies (and the discount, rupees) or why not, and for a basket too small
 * the rupees missing (`addMore`, null otherwise). `nearest`: the one offer the page words as "Add ₹x
 * more to unlock …" (the smallest `addMore`).
 */
export const OfferSchema = z
  .object({
    code: z.string(),
    description: z.string(),
    off: z.string(),
    applies: z.boolean(),
    discount: z.number(),
    reason: z.string().nullable(),
    addMore: z.number().nullable(),
    nearest: z.boolean(),
  })
  .meta({ id: 'Offer' })
export type Offer = z.output<typeof OfferSchema>

/**
 * The coupon discount a checkout showed, rupees (read to the paisa, 0: it showed none), sent
 * with a placement: the server recomputes it and refuses a different one with 409 and the bill as it
 * now is (docs/offers.md, "At placement").
 */
export const ShownCouponDiscountSchema = z
  .number({ error: 'couponDiscount must be an amount in rupees' })
  .min(0, 'couponDiscount cannot be negative')
  .max(COUPON_RUPEES_MAX, `couponDiscount must be at most ₹${COUPON_RUPEES_MAX}`)

/** "Add ₹120 more to unlock ₹50 off" for the nearest offer. */
export function unlockWords(offer: Pick<Offer, 'addMore' | 'off'>): string {
  return `Add ₹${offer.addMore} more to unlock ${offer.off}`
}
