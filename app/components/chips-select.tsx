/**
 * A multi-pick as removable chips (docs/product.md, "Sub Category admin" and "Upload Product": picking
 * in a select appends a chip, a cross removes it; docs/decisions/0007-progressive-enhancement.md:
 * without JavaScript a plain multiple select). Used for the categories of a sub category and, on the
 * product form, for categories and sub categories.
 *
 * - Without JavaScript (and until hydration): `<select multiple name={name}>` with the picks selected.
 * - With JavaScript: a single select whose options are the not-yet-picked ones; each pick becomes a
 *   chip with a remove button, and a hidden input `name` per chip carries the value, so the form
 *   posts the same repeated field either way.
 */
import { useEffect, useId, useRef, useState } from 'react'
import { useHydrated } from 'remix-utils/use-hydrated'
import { CloseIcon } from './icons.tsx'
import { cn } from './ui/cn.ts'
import { inputClassName } from './ui/input.tsx'

/** One choice: the posted `value` (an id) and the `label` shown. */
export interface ChipOption {
  value: string
  label: string
}

/** `values` with `value` appended, unless it is empty or already picked (then `values` itself). */
export function addChip(values: readonly string[], value: string): string[] {
  if (!value || values.includes(value)) return [...values]
  return [...values, value]
}

/** `values` without `value`. */
export function removeChip(values: readonly string[], value: string): string[] {
  return values.filter((v) => v !== value)
}

/** The chips to show for `values`, in pick order, labelled from `options` (an unknown value shows as itself). */
export function chipsFor(values: readonly string[], options: readonly ChipOption[]): ChipOption[] {
  const labels = new Map(options.map((option) => [option.value, option.label]))
  return values.map((value) => ({ value, label: labels.get(value) ?? value }))
}

export interface ChipsSelectProps {
  /** The posted field name, repeated once per pick (e.g. `category`). */
  name: string
  label: string
  options: readonly ChipOption[]
  /** The picks to start with (ids). */
  defaultValue?: readonly string[]
  /** The select's first, empty option with JavaScript (e.g. "Select Category"). */
  placeholder?: string
  errors?: readonly string[] | null
  /** Called with the picks after each change (JavaScript only). */
  onChange?: (values: string[]) => void
  id?: string
}

/** The picker: a multiple select before hydration, a select with removable chips after (see the module comment). */
export function ChipsSelect({ name, label, options, defaultValue = [], placeholder = 'Select', errors, onChange, id }: ChipsSelectProps) {
  const isHydrated = useHydrated()
  const fallbackId = useId()
  const selectId = id ?? fallbackId
  const errorId = `${selectId}-error`
  const hintId = `${selectId}-hint`
  const [values, setValues] = useState<string[]>(() => [...new Set(defaultValue)])
  const hasErrors = Boolean(errors?.length)

  const update = (next: string[]) => {
    setValues(next)
    onChange?.(next)
  }

  // After a chip's remove button takes its chip away, focus would fall to <body>: move it to the
  // chip now in that place (or the last one, or the select when none is left) instead (WCAG 2.4.3).
  const chipList = useRef<HTMLUListElement>(null)
  const selectRef = useRef<HTMLSelectElement>(null)
  const refocusAtRef = useRef<number | null>(null)
  useEffect(() => {
    const at = refocusAtRef.current
    if (at === null) return
    refocusAtRef.current = null
    const buttons = chipList.current?.querySelectorAll<HTMLButtonElement>('button') ?? []
    const target = buttons[Math.min(at, buttons.length - 1)] ?? selectRef.current
    target?.focus()
  }, [values])

  const errorList = hasErrors ? (
    <ul id={errorId} className="mt-1 space-y-0.5 text-sm text-red-600">
      {errors!.map((error) => (
        <li key={error}>{error}</li>
      ))}
    </ul>
  ) : null

  if (!isHydrated) {
    return (
      <div>
        <label htmlFor={selectId} className="mb-1 block text-sm font-medium text-slate-700">
          {label}
        </label>
        <select
          id={selectId}
          name={name}
          multiple
          defaultValue={[...values]}
          size={Math.min(6, Math.max(3, options.length))}
          aria-invalid={hasErrors || undefined}
          aria-describedby={cn(hintId, hasErrors && errorId)}
          className={cn(inputClassName(hasErrors), 'py-2')}
        >
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
        <p id={hintId} className="mt-1 text-xs text-slate-500">
          Hold Ctrl (Cmd on a Mac) to pick more than one.
        </p>
        {errorList}
      </div>
    )
  }

  const chips = chipsFor(values, options)
  const remaining = options.filter((option) => !values.includes(option.value))
  return (
    <div>
      <label htmlFor={selectId} className="mb-1 block text-sm font-medium text-slate-700">
        {label}
      </label>
      <select
        ref={selectRef}
        id={selectId}
        value=""
        onChange={(event) => update(addChip(values, event.currentTarget.value))}
        aria-invalid={hasErrors || undefined}
        aria-describedby={hasErrors ? errorId : undefined}
        className={inputClassName(hasErrors)}
      >
        <option value="">{placeholder}</option>
        {remaining.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      {chips.length > 0 ? (
        <ul ref={chipList} className="mt-2 flex flex-wrap gap-2">
          {chips.map((chip, index) => (
            <li
              key={chip.value}
              className="inline-flex items-center gap-1 rounded-full bg-brand-light py-1 pr-1 pl-3 text-sm text-slate-900 ring-1 ring-brand-dark/40"
            >
              <input type="hidden" name={name} value={chip.value} />
              {chip.label}
              <button
                type="button"
                onClick={() => {
                  refocusAtRef.current = index
                  update(removeChip(values, chip.value))
                }}
                aria-label={`Remove ${chip.label}`}
                className="inline-flex size-7 items-center justify-center rounded-full text-slate-600 hover:bg-red-100 hover:text-red-700 focus-visible:outline-2 focus-visible:outline-red-600"
              >
                <CloseIcon size={16} />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {errorList}
    </div>
  )
}
