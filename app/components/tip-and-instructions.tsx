/**
 * The checkout's "Tip your delivery partner" and "Delivery instructions" groups (docs/commerce-api.md,
 * "Tip and delivery instructions"): radio chips None, ₹10, ₹20, ₹30 and Other (a whole-rupee amount
 * up to ₹200), checkboxes for the instruction chips and a one-line text of at most 120 characters.
 * Their inputs belong to the place-order form through the `form` attribute, so they are posted with
 * it without JavaScript. With JavaScript `onTip` is told each valid tip chosen (the page's bill then
 * shows it at once); without it the bill shows the tip on the next page (a placement whose tip is not
 * the bill's is refused with the bill that has it).
 */
import { INSTRUCTION_CHIPS, INSTRUCTIONS_NOTE_MAX, TIP_PRESETS, TIP_RUPEES_MAX } from '../../contract/tip.ts'
import { tipChoiceOf, tipFromChoice, type TipChoiceValue } from '../lib/schemas/checkout.ts'

/** What the groups show as chosen: the tip radio, the "Other" amount, the ticked chips and the text. */
export interface TipAndInstructionsValue {
  choice: TipChoiceValue
  other: string
  chips: readonly string[]
  note: string
}

/** The chosen values for a tip of `tip` rupees (a preset's radio, else "Other" with the amount) and no instructions. */
export function tipDefaults(tip: number): TipAndInstructionsValue {
  const choice = tipChoiceOf(tip)
  return { choice, other: choice === 'other' ? String(tip) : '', chips: [], note: '' }
}

const chip =
  'flex cursor-pointer items-center gap-2 rounded-full border border-slate-300 px-3 py-1.5 text-sm has-[:checked]:border-accent has-[:checked]:bg-emerald-50 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-accent'

export function TipAndInstructions({
  formId,
  value,
  error,
  onTip,
}: {
  formId: string
  value: TipAndInstructionsValue
  /** A refused tip amount or instruction text (the form's message), shown under the groups. */
  error?: string | null
  onTip?: (tip: number) => void
}) {
  const tell = (form: HTMLFormElement | null) => {
    if (!form || !onTip) return
    const data = new FormData(form)
    const tip = tipFromChoice((data.get('tip') as TipChoiceValue | null) ?? '0', String(data.get('tipOther') ?? ''))
    if (typeof tip === 'number') onTip(tip)
  }
  const changed = (e: React.ChangeEvent<HTMLInputElement>) => tell(e.currentTarget.form)
  return (
    <>
      <section aria-labelledby="checkout-tip" data-card="tip" className="rounded-xl border border-slate-200 bg-white p-4">
        <h2 id="checkout-tip" className="font-bold">
          Tip your delivery partner
        </h2>
        <p className="mb-2 text-sm text-slate-600">Optional. All of it goes to your delivery partner.</p>
        <fieldset className="flex flex-wrap items-center gap-2">
          <legend className="sr-only">Tip amount</legend>
          {[{ v: '0', label: 'None' }, ...TIP_PRESETS.map((p) => ({ v: String(p), label: `₹${p}` })), { v: 'other', label: 'Other' }].map(
            (o) => (
              <label key={o.v} className={chip}>
                <input
                  type="radio"
                  name="tip"
                  value={o.v}
                  form={formId}
                  defaultChecked={value.choice === o.v}
                  onChange={changed}
                  className="size-4 accent-[var(--color-accent)]"
                />
                {o.label}
              </label>
            ),
          )}
          <label className="flex items-center gap-1 text-sm">
            <span>Other ₹</span>
            <input
              type="number"
              name="tipOther"
              inputMode="numeric"
              min={1}
              max={TIP_RUPEES_MAX}
              step={1}
              form={formId}
              defaultValue={value.other}
              onChange={changed}
              aria-label={`Other tip amount in rupees, up to ₹${TIP_RUPEES_MAX}`}
              className="w-20 rounded-lg border border-slate-300 px-2 py-1"
            />
          </label>
        </fieldset>
      </section>
      <section aria-labelledby="checkout-instructions" data-card="instructions" className="rounded-xl border border-slate-200 bg-white p-4">
        <h2 id="checkout-instructions" className="mb-2 font-bold">
          Delivery instructions
        </h2>
        <fieldset className="flex flex-wrap gap-2">
          <legend className="sr-only">Choose any that apply</legend>
          {INSTRUCTION_CHIPS.map((c) => (
            <label key={c.key} className={chip}>
              <input
                type="checkbox"
                name="chips"
                value={c.key}
                form={formId}
                defaultChecked={value.chips.includes(c.key)}
                className="size-4 accent-[var(--color-accent)]"
              />
              {c.label}
            </label>
          ))}
        </fieldset>
        <label className="mt-3 block text-sm">
          <span className="mb-1 block text-slate-700">Anything else for your delivery partner (optional)</span>
          <textarea
            name="note"
            form={formId}
            rows={2}
            maxLength={INSTRUCTIONS_NOTE_MAX}
            defaultValue={value.note}
            placeholder="e.g. Gate code 4521, second floor"
            className="w-full rounded-lg border border-slate-300 px-2 py-1"
          />
        </label>
        {error ? (
          <p role="alert" className="mt-2 text-sm text-red-700">
            {error}
          </p>
        ) : null}
      </section>
    </>
  )
}
