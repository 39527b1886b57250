/**
 * The extra fields of the product form (app/components/product-form.tsx; `more_details`): one text
 * input per field, labelled with its name, each with a remove control; "Add Fields", which opens the
 * Add Field dialog (app/components/extra-fields-dialog.tsx, rendered by the form outside its <form>)
 * by its address; and the list's own messages (a missing or repeated name).
 *
 * - With JavaScript: remove and add change the form without a request (Conform's list intents).
 * - Without JavaScript: remove and "Add Fields" send the form with an intent (`remove-field:<i>`,
 *   `refresh` to the dialog's address) and the server answers it changed, so nothing typed is lost.
 */
import { getInputProps, type FieldMetadata } from '@conform-to/react'
import { useNavigate } from 'react-router'
import { useHydrated } from 'remix-utils/use-hydrated'
import { ErrorList, Field } from './forms.tsx'
import { CloseIcon, PlusIcon } from './icons.tsx'
import { hiddenProps } from './product-form-images.tsx'
import { Button, buttonClassName } from './ui/button.tsx'
import { cn } from './ui/cn.ts'
import { PRODUCT_INTENT } from '../lib/schemas/product.ts'

/** The names of the extra fields `field` (the `more_details` list) holds now. */
export function extraFieldNames(field: FieldMetadata<Array<{ key: string; value: string }>>): string[] {
  return field.getFieldList().map((item) => item.getFieldset().key.value ?? '')
}

/**
 * The extra fields of the form (`field` is its `more_details` list; `form.remove` takes one away)
 * and "Add Fields", which opens `addFieldHref` (the form's address with the Add Field dialog open).
 */
export function ProductExtraFields({
  form,
  field,
  addFieldHref,
}: {
  form: { remove(options: { name: string; index: number }): void }
  field: FieldMetadata<Array<{ key: string; value: string }>>
  addFieldHref: string
}) {
  const isHydrated = useHydrated()
  const navigate = useNavigate()
  const items = field.getFieldList()

  return (
    <>
      {items.length > 0 ? (
        <div className="grid gap-5">
          {items.map((item, index) => {
            const extra = item.getFieldset()
            const label = extra.key.value ?? extra.key.initialValue ?? ''
            return (
              <div key={item.key} className="flex items-start gap-2">
                <input {...hiddenProps(extra.key)} />
                <Field
                  className="min-w-0 flex-1"
                  labelProps={{ children: label }}
                  inputProps={{
                    ...getInputProps(extra.value, { type: 'text' }),
                    placeholder: `Enter ${label}`,
                    autoComplete: 'off',
                    'aria-required': true,
                  }}
                  errors={extra.value.errors}
                />
                {isHydrated ? (
                  <Button
                    variant="ghost"
                    size="icon"
                    className="mt-7"
                    aria-label={`Remove field ${label}`}
                    onClick={() => form.remove({ name: field.name, index })}
                  >
                    <CloseIcon size={18} />
                  </Button>
                ) : (
                  <button
                    type="submit"
                    name="intent"
                    value={`${PRODUCT_INTENT.removeField}:${index}`}
                    formNoValidate
                    aria-label={`Remove field ${label}`}
                    className={cn(buttonClassName({ variant: 'ghost', size: 'icon' }), 'mt-7')}
                  >
                    <CloseIcon size={18} />
                  </button>
                )}
              </div>
            )
          })}
        </div>
      ) : null}
      <ErrorList id={field.errorId} errors={field.errors} role="alert" />

      <div>
        {isHydrated ? (
          <Button variant="brand" onClick={() => navigate(addFieldHref, { preventScrollReset: true })}>
            <PlusIcon size={18} />
            Add Fields
          </Button>
        ) : (
          // Without JavaScript the dialog opens as the answer to the typed form, so nothing is lost.
          <button
            type="submit"
            name="intent"
            value={PRODUCT_INTENT.refresh}
            formAction={addFieldHref}
            formNoValidate
            className={buttonClassName({ variant: 'brand' })}
          >
            <PlusIcon size={18} />
            Add Fields
          </button>
        )}
      </div>
    </>
  )
}
