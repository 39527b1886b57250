/**
 * A tip for the delivery partner and delivery instructions, chosen at checkout (docs/commerce-api.md,
 * "Tip and delivery instructions"; docs/decisions/0070-tip-and-delivery-instructions.md). Shared by
 * the API and the BFF. Money on the wire is whole rupees.
 */
import { z } from 'zod'
import { CONTROL_CHARACTERS, ONE_LINE_OR_EMPTY_PATTERN } from './fields.ts'

/** The tips offered as chips, rupees; "Other" takes any whole amount from 1 to {@link TIP_RUPEES_MAX}. */
export const TIP_PRESETS = [10, 20, 30] as const

/** The largest tip, rupees. */
export const TIP_RUPEES_MAX = 200

/**
 * A tip, whole rupees 1..{@link TIP_RUPEES_MAX}. No tip is the field left out (0 is refused, so a
 * client never stores "a tip of nothing" by mistake).
 */
export const TipSchema = z
  .number({ error: 'The tip must be an amount in rupees' })
  .int('The tip must be whole rupees')
  .min(1, 'The tip must be at least ₹1')
  .max(TIP_RUPEES_MAX, `The tip must be at most ₹${TIP_RUPEES_MAX}`)

/** The tip the checkout's bill showed, rupees: 0 (none) up to {@link TIP_RUPEES_MAX}. */
export const ShownTipSchema = z
  .number({ error: 'shownTip must be an amount in rupees' })
  .int('shownTip must be whole rupees')
  .min(0, 'shownTip cannot be negative')
  .max(TIP_RUPEES_MAX, `shownTip must be at most ₹${TIP_RUPEES_MAX}`)

/** The instruction chips: key (stored) and label (shown). */
export const INSTRUCTION_CHIPS = [
  { key: 'no_bell', label: "Don't ring the bell" },
  { key: 'leave_at_door', label: 'Leave at the door' },
  { key: 'avoid_calling', label: 'Avoid calling' },
  { key: 'pet_at_home', label: 'Pet at home' },
] as const
export type InstructionChip = (typeof INSTRUCTION_CHIPS)[number]['key']
export const INSTRUCTION_CHIP_KEYS = INSTRUCTION_CHIPS.map((c) => c.key) as [InstructionChip, ...InstructionChip[]]

/** Longest free text of the instructions, characters after trimming. */
export const INSTRUCTIONS_NOTE_MAX = 120

/** The free text of the instructions: trimmed, at most {@link INSTRUCTIONS_NOTE_MAX} characters, no control characters. */
export const InstructionsNoteSchema = z
  .string({ error: 'The instructions must be text' })
  .trim()
  .max(INSTRUCTIONS_NOTE_MAX, `The instructions must be at most ${INSTRUCTIONS_NOTE_MAX} characters`)
  // One line for the rider: line breaks are refused with every other control character.
  .refine((text) => !CONTROL_CHARACTERS.test(text), 'The instructions must be plain text on one line')
  .meta({ pattern: ONE_LINE_OR_EMPTY_PATTERN })

/**
 * Delivery instructions: `chips` (keys of {@link INSTRUCTION_CHIPS}, each once, kept in the chips'
 * order) and `note` (free text, '' for none).
 */
export const DeliveryInstructionsSchema = z
  .object({
    chips: z
      .array(z.enum(INSTRUCTION_CHIP_KEYS, { error: `A chip must be one of ${INSTRUCTION_CHIP_KEYS.join(', ')}` }))
      .max(INSTRUCTION_CHIPS.length)
      .default([])
      .transform((keys) => INSTRUCTION_CHIP_KEYS.filter((k) => keys.includes(k))),
    note: InstructionsNoteSchema.default(''),
  })
  .meta({ id: 'DeliveryInstructions' })
export type DeliveryInstructions = z.output<typeof DeliveryInstructionsSchema>

/** True when the instructions say nothing (no chip, no text): the order keeps none. */
export function instructionsEmpty(i: DeliveryInstructions | null | undefined): boolean {
  return !i || (i.chips.length === 0 && i.note === '')
}

/** The instructions as words for a page, a slip or a CSV: the chips' labels, then the text, joined by " · ". */
export function instructionsWords(i: DeliveryInstructions): string {
  const labels = i.chips.map((k) => INSTRUCTION_CHIPS.find((c) => c.key === k)?.label ?? k)
  return [...labels, ...(i.note ? [i.note] : [])].join(' · ')
}

/** GET /api/order/checkout-preferences: the shopper's remembered tip, rupees (0: none or never chosen). */
export const CheckoutPreferencesSchema = z.object({ tip: z.number().int() }).meta({ id: 'CheckoutPreferences' })
export type CheckoutPreferences = z.output<typeof CheckoutPreferencesSchema>

/**
 * `bill` with `tip` rupees (0: none) in place of its own tip: the grand total less the bill's tip
 * plus this one. The tip is whole rupees, so it never moves the rounding to the rupee (the rule of
 * api/modules/cart/bill.ts `computeBill`); the checkout shows this bill and posts its tip as
 * `shownTip`, which the API checks (docs/commerce-api.md, "Tip and delivery instructions").
 */
export function billWithTip<B extends { grandTotal: number; tip?: number }>(bill: B, tip: number): B {
  const { tip: before = 0, ...rest } = bill
  // Whole rupees on both sides: the sum stays exact in floating point for any bill below ₹2^53 / 100.
  const grandTotal = Math.round((bill.grandTotal - before + tip) * 100) / 100
  return { ...rest, grandTotal, ...(tip > 0 ? { tip } : {}) } as B
}
