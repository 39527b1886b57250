/**
 * The checkout's "Place Order" form (docs/commerce-api.md, "Orders"): the chosen address and the
 * idempotency key the page was rendered with (8-128 of `[A-Za-z0-9_-]`), so a double submit, a
 * refresh or a retry places one order, and how to pay (UPI, card, netbanking, wallet or cash on
 * delivery). The only amounts posted are the coupon discount and the tip the page's bill showed,
 * which the server checks against its own (docs/offers.md, "At placement"; docs/commerce-api.md, "Tip
 * and delivery instructions"), and the tip chosen: the server prices the order.
 */
import { z } from 'zod'
import { IDEMPOTENCY_KEY_PATTERN } from '../../../contract/idempotency.ts'
import { PLAUSIBLE_ID } from '../../../contract/ids.ts'
import { PAYMENT_CHOICES } from '../../../contract/payment.ts'
import { DeliveryInstructionsSchema, ShownTipSchema, TIP_PRESETS, TIP_RUPEES_MAX, TipSchema } from '../../../contract/tip.ts'

export const CHOOSE_ADDRESS_MESSAGE = 'Choose a delivery address'

/** The tip radios' values: none, a preset (rupees as text) or "other" (the amount typed in `tipOther`). */
export const TIP_CHOICES = ['0', ...TIP_PRESETS.map(String), 'other'] as const
export type TipChoiceValue = (typeof TIP_CHOICES)[number]

/** The radio value showing `tip` rupees: a preset's own, "0" for none, else "other". */
export function tipChoiceOf(tip: number): TipChoiceValue {
  if (tip <= 0) return '0'
  return (TIP_PRESETS as readonly number[]).includes(tip) ? (String(tip) as TipChoiceValue) : 'other'
}

const OTHER_TIP_MESSAGE = `Enter a tip of ₹1 to ₹${TIP_RUPEES_MAX} in whole rupees`

/**
 * The tip chosen: the radio's preset, or the "Other" amount (whole rupees 1..₹200, contract/tip.ts
 * `TipSchema`); 0 for none. @returns the rupees, or an error message for a bad "Other" amount
 */
export function tipFromChoice(choice: TipChoiceValue, other: string | undefined): number | { error: string } {
  if (choice !== 'other') return Number(choice)
  const text = (other ?? '').trim()
  if (!/^\d{1,3}$/.test(text)) return { error: OTHER_TIP_MESSAGE }
  const tip = TipSchema.safeParse(Number(text))
  return tip.success ? tip.data : { error: OTHER_TIP_MESSAGE }
}

/** Place Order; `chips` is every ticked instruction checkbox (the action reads them with `getAll`). */
export const PlaceOrderFormSchema = z
  .object({
    addressId: z.string({ error: CHOOSE_ADDRESS_MESSAGE }).trim().regex(PLAUSIBLE_ID, CHOOSE_ADDRESS_MESSAGE),
    idempotencyKey: z.string({ error: 'Reload the page and try again' }).regex(IDEMPOTENCY_KEY_PATTERN, 'Reload the page and try again'),
    /** How to pay: an online method (the provider's checkout opens) or cash on delivery (docs/payments.md). */
    payment: z.enum(PAYMENT_CHOICES, { error: 'Choose how to pay' }).default('cod'),
    /** The coupon discount the page showed, rupees (docs/offers.md, "At placement"): the API refuses a different one. */
    couponDiscount: z.coerce.number({ error: 'Reload the page and try again' }).min(0).max(100_000).default(0),
    tip: z.enum(TIP_CHOICES, { error: 'Choose a tip' }).default('0'),
    tipOther: z.string().max(20).optional(),
    /** The tip the page's bill showed, rupees: the API refuses a placement whose tip is another (409 with the bill). */
    shownTip: z.coerce.number({ error: 'Reload the page and try again' }).pipe(ShownTipSchema).default(0),
    /** The named fees the page's bill showed, rupees (docs/commerce-api.md, "Fees"): the API refuses other fees (409 with the bill). */
    shownFees: z.coerce.number({ error: 'Reload the page and try again' }).min(0).max(300_000).optional(),
    chips: z.array(z.string().max(40)).max(10).default([]),
    note: z.string().max(1000).default(''),
  })
  .transform((form, ctx) => {
    const tip = tipFromChoice(form.tip, form.tipOther)
    if (typeof tip !== 'number') {
      ctx.addIssue({ code: 'custom', message: tip.error, path: ['tipOther'] })
      return z.NEVER
    }
    // A textarea lets Enter through: the note is one line for the rider, so line breaks become spaces.
    const instructions = DeliveryInstructionsSchema.safeParse({ chips: form.chips, note: form.note.replace(/\s*[\r\n]+\s*/g, ' ') })
    if (!instructions.success) {
      const issue = instructions.error.issues[0]!
      ctx.addIssue({ code: 'custom', message: issue.message, path: [issue.path[0] === 'note' ? 'note' : 'chips'] })
      return z.NEVER
    }
    return { ...form, tipRupees: tip, deliveryInstructions: instructions.data }
  })
