/**
 * The Conform form of a page whose action parses the same zod schema (every form of the site: the
 * account pages, profile, address, the admin dialogs and the product form). The checks run in the
 * browser with the server's own schema and messages, first when the form is sent, then on every
 * keystroke of a field already shown wrong; the server checks again either way, so the form works
 * without JavaScript (docs/decisions/0007-progressive-enhancement.md).
 *
 * Never when a field merely loses focus (docs/product.md, "Forms in general"): a message appearing
 * then pushes everything below it down while the mouse button is still pressed, and the click that
 * took the focus away (on "Register", "Forgot password ?", a dialog's Cancel) lands on whatever
 * moved under the pointer. A field shown wrong is checked as it changes, which only happens while
 * the shopper types in it.
 *
 * Messages follow the form's state: a field's message clears as soon as that field changes to
 * something the schema accepts, while a message only the server could give (an email already in use,
 * an unknown category) stays on its field for as long as the field still holds what was refused.
 */
import { useForm, type DefaultValue, type Submission, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { useEffect, useEffectEvent, useRef } from 'react'
import type { z } from 'zod'

/**
 * The HTML constraints (`required`, `maxLength`, …) Conform derives from `schema`, once per schema;
 * none for a schema it cannot read (a preprocessed or transformed whole, like the code boxes' or the
 * product form's): the server checks those either way.
 */
const constraints = new WeakMap<z.ZodType, ReturnType<typeof getZodConstraint> | undefined>()
function constraintOf(schema: z.ZodType) {
  if (!constraints.has(schema)) {
    try {
      constraints.set(schema, getZodConstraint(schema))
    } catch {
      constraints.set(schema, undefined)
    }
  }
  return constraints.get(schema)
}

/**
 * When Conform checks a field: on submit, or on every change. (Conform's third moment, `onBlur`, is
 * left out on purpose: see the module comment.)
 */
type CheckMoment = 'onSubmit' | 'onInput'

/** The form's values as the schema reads them (a schema that takes any input reads a plain record). */
type FormShape<S extends z.ZodType> = z.input<S> extends Record<string, unknown> ? z.input<S> : Record<string, unknown>

/** The value at a dotted/indexed Conform field name (`more_details[0].key`) of a parsed form. */
function valueAt(payload: unknown, name: string): unknown {
  let current = payload
  for (const part of name.split(/\.|\[(\d+)\]/).filter(Boolean)) {
    if (current === null || typeof current !== 'object') return undefined
    current = (current as Record<string, unknown>)[part]
  }
  return current
}

/** The same form value: strings, lists of strings and nested records compared by content. */
function isSameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? '') === JSON.stringify(b ?? '')
}

/**
 * The server's field messages of `lastResult` that still apply to `submission` (the form as it is
 * now): those of a field whose value has not changed since and on which the schema says nothing.
 */
function serverMessagesStillTrue(lastResult: SubmissionResult<string[]> | null | undefined, submission: Submission<unknown>) {
  const kept: Record<string, string[]> = {}
  for (const [name, messages] of Object.entries(lastResult?.error ?? {})) {
    if (name === '' || !messages?.length || (submission.status !== 'success' && submission.error?.[name])) continue
    if (isSameValue(valueAt(lastResult?.initialValue, name), valueAt(submission.payload, name))) kept[name] = messages
  }
  return kept
}

/**
 * `useForm` for form `id` checked with `schema`: `lastResult` is the action's Conform reply (its
 * values and messages refill the form), `defaultValue` the values shown before any submit. The last
 * argument may change when the checks run: first on submit, then on every change by default (the
 * code boxes check on submit only). `Shape` types the
 * fields when the schema's input type is looser than the inputs (lists read from single values).
 * Answers Conform's `[form, fields]`.
 */
export function useSchemaForm<S extends z.ZodType, Shape extends Record<string, unknown> = FormShape<S>>(
  id: string,
  schema: S,
  lastResult: SubmissionResult<string[]> | null | undefined,
  defaultValue?: object,
  { shouldValidate = 'onSubmit', shouldRevalidate = 'onInput' }: { shouldValidate?: CheckMoment; shouldRevalidate?: CheckMoment } = {},
) {
  return useForm<Shape, z.output<S>, string[]>({
    id,
    lastResult,
    // Any record of form values: Conform serialises it (lists, nested records) into the inputs' values.
    defaultValue: defaultValue as DefaultValue<Shape> | undefined,
    constraint: constraintOf(schema),
    shouldValidate,
    shouldRevalidate,
    onValidate: ({ formData }) => {
      // `Shape` is how the page types the inputs' values; the schema reads the same form data.
      const submission = parseWithZod(formData, { schema }) as unknown as Submission<Shape, string[], z.output<S>>
      const kept = serverMessagesStillTrue(lastResult, submission)
      if (Object.keys(kept).length === 0) return submission
      return {
        ...submission,
        reply: (replyOptions = {}) => {
          const fieldErrors = 'fieldErrors' in replyOptions ? replyOptions.fieldErrors : undefined
          return submission.reply({ ...replyOptions, fieldErrors: { ...kept, ...fieldErrors } })
        },
      }
    },
  })
}

/**
 * Checks field `name` of `form` again whenever `value` changes after the first render, while `when`
 * holds: for fields written by script, whose hidden inputs fire no input events (an uploaded image's
 * url, the chips of a category picker). Run after the render that wrote the inputs.
 */
export function useRevalidateOnChange(
  form: { validate: (options: { name: string }) => void },
  name: string,
  value: unknown,
  when: boolean,
) {
  const isFirst = useRef(true)
  // Only a change of `value` is a reason to check again; `form`, `name` and `when` are read as they
  // are then (an effect event reads the latest without being a dependency).
  const check = useEffectEvent(() => {
    if (when) form.validate({ name })
  })
  useEffect(() => {
    if (isFirst.current) {
      isFirst.current = false
      return
    }
    check()
  }, [value])
}

/** A multi-value field's value as Conform holds it (one string, a list, or nothing), as a list of non-empty strings. */
export function listValue(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string' && v !== '')
  return typeof value === 'string' && value ? [value] : []
}
