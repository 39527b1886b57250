/**
 * The "Add Field" dialog of the product form (docs/product.md, "Upload Product": the "Add Fields"
 * button opens a dialog titled "Add Field" with the placeholder "Enter your Field name" and an "Add
 * Field" button; the new field appears as an extra text input labelled with that name). An empty
 * name and a name already used are refused (the original app did not check: docs/product.md,
 * "Differences from the original app"), with the messages of app/lib/schemas/product.ts
 * `fieldNameError`.
 *
 * The dialog lives in the address (`?add-field=1`, app/components/ui/dialog.tsx), so it opens by URL.
 * - With JavaScript: the name is checked in the browser and `onAdd` inserts the field into the form
 *   (no request); the page then closes the dialog.
 * - Without JavaScript: the input and the button belong to the product form (`form` attribute), so
 *   "Add Field" posts everything typed so far with `intent=add-field` to `submitHref`; the server adds
 *   the field (or answers `serverError`) and sends the form back.
 */
import { useId, useState } from 'react'
import { useHydrated } from 'remix-utils/use-hydrated'
import { FIELD_NAME_FIELD, PRODUCT_INTENT, fieldNameError } from '../lib/schemas/product.ts'
import { ErrorList } from './forms.tsx'
import { Button, buttonClassName } from './ui/button.tsx'
import { Dialog } from './ui/dialog.tsx'
import { inputClassName } from './ui/input.tsx'

/** docs/product.md, "Upload Product", verbatim. */
export const ADD_FIELD_TITLE = 'Add Field'
export const FIELD_NAME_PLACEHOLDER = 'Enter your Field name'

export interface AddFieldDialogProps {
  /** The id of the product form the JavaScript-off controls submit. */
  formId: string
  /** Where closing goes: the page's address without `?add-field`. */
  closeHref: string
  /** Where the JavaScript-off "Add Field" posts: the page's address with `?add-field=1`, so errors come back here. */
  submitHref: string
  /** The names of the extra fields the form has already. */
  existingNames: readonly string[]
  /** The server's message after a JavaScript-off attempt, or null. */
  serverError?: string | null
  /** With JavaScript: adds a field called `name` (already checked) to the form. */
  onAdd: (name: string) => void
}

export function AddFieldDialog({ formId, closeHref, submitHref, existingNames, serverError, onAdd }: AddFieldDialogProps) {
  const isHydrated = useHydrated()
  const inputId = useId()
  const errorId = `${inputId}-error`
  const [name, setName] = useState('')
  const [error, setError] = useState<string | null>(null)
  const message = isHydrated ? error : (serverError ?? null)

  const add = () => {
    const problem = fieldNameError(name, existingNames)
    setError(problem)
    if (!problem) onAdd(name.trim())
  }

  return (
    <Dialog title={ADD_FIELD_TITLE} closeTo={closeHref} size="sm">
      <div className="grid gap-4">
        <div>
          <label htmlFor={inputId} className="sr-only">
            Field name
          </label>
          <input
            id={inputId}
            type="text"
            autoComplete="off"
            placeholder={FIELD_NAME_PLACEHOLDER}
            data-autofocus
            aria-invalid={message ? true : undefined}
            aria-describedby={message ? errorId : undefined}
            className={inputClassName(Boolean(message))}
            {...(isHydrated
              ? {
                  value: name,
                  onChange: (event: React.ChangeEvent<HTMLInputElement>) => {
                    setName(event.currentTarget.value)
                    if (error) setError(null)
                  },
                  onKeyDown: (event: React.KeyboardEvent<HTMLInputElement>) => {
                    // Enter adds the field instead of submitting the product form.
                    if (event.key === 'Enter') {
                      event.preventDefault()
                      add()
                    }
                  },
                }
              : { name: FIELD_NAME_FIELD, form: formId })}
          />
          <ErrorList id={errorId} errors={message ? [message] : null} role="alert" />
        </div>
        {isHydrated ? (
          <Button variant="primary" onClick={add} fullWidth>
            {ADD_FIELD_TITLE}
          </Button>
        ) : (
          <button
            type="submit"
            form={formId}
            name="intent"
            value={PRODUCT_INTENT.addField}
            formAction={submitHref}
            formNoValidate
            className={buttonClassName({ variant: 'primary', fullWidth: true })}
          >
            {ADD_FIELD_TITLE}
          </button>
        )}
      </div>
    </Dialog>
  )
}
