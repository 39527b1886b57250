/**
 * The Conform form of a page whose action parses the same zod schema (the account pages: /login,
 * /register, /forgot-password, /reset-password). Spec section 5's checks run in the browser with the
 * server's own schema and messages, first when a field loses focus, then on every keystroke of a
 * field already shown wrong; the server checks again either way, so the form works without JavaScript.
 */
import { useForm, type DefaultValue, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import type { z } from 'zod'

/**
 * `useForm` for form `id` checked with `schema`: `lastResult` is the action's Conform reply (its
 * values and messages refill the form), `defaultValue` the values shown before any submit. Answers
 * Conform's `[form, fields]`.
 */
export function useSchemaForm<S extends z.ZodType<Record<string, unknown>, Record<string, unknown>>>(
  id: string,
  schema: S,
  lastResult: SubmissionResult<string[]> | null | undefined,
  defaultValue?: DefaultValue<z.input<S>>,
) {
  return useForm<z.input<S>, z.output<S>, string[]>({
    id,
    lastResult,
    defaultValue,
    constraint: getZodConstraint(schema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  })
}
