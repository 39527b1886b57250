/**
 * The product form of /dashboard/upload-product (create) and of the edit dialog of /dashboard/product
 * (docs/product.md, "Upload Product"): Name, Description, Image, Category, Sub Category, Unit,
 * Number of Stock, MRP, Selling Price, the Discount derived from the two (shown, not typed), extra
 * fields from "Add Fields", Submit. The rules are app/lib/schemas/product.ts; the server side is
 * app/.server/product-form.ts. Its parts: the images (product-form-images.tsx), the category pickers
 * (product-form-categories.tsx), the extra fields (product-form-extra-fields.tsx) and the Add Field
 * dialog (extra-fields-dialog.tsx).
 *
 * One multipart form that works both ways (docs/decisions/0007-progressive-enhancement.md):
 * - Without JavaScript: images are uploaded when the form is sent, categories are multiple selects,
 *   "Add Fields" and the dialog's "Add Field" send the form with an intent and the server answers it
 *   with the change; every message comes back from the server.
 * - With JavaScript: Conform checks as you type with the same schema; images upload as they are
 *   picked, categories are chips, extra fields are added and removed without a request. Submit is
 *   held while uploads are in flight.
 */
import { getFormProps, getInputProps, getTextareaProps, type FieldMetadata } from '@conform-to/react'
import { useState } from 'react'
import { Form, useNavigate, useNavigation } from 'react-router'
import { useHydrated } from 'remix-utils/use-hydrated'
import { AddFieldDialog } from './extra-fields-dialog.tsx'
import { ErrorList, Field, FormAlert, type FormReplyData } from './forms.tsx'
import { ProductCategories } from './product-form-categories.tsx'
import { extraFieldNames, ProductExtraFields } from './product-form-extra-fields.tsx'
import { ProductImages } from './product-form-images.tsx'
import { Button } from './ui/button.tsx'
import { useSchemaForm } from './use-schema-form.ts'
import {
  PRODUCT_FIELD_LABELS,
  PRODUCT_INTENT,
  ProductFormSchema,
  derivedDiscountText,
  type ProductChoice,
  type SubCategoryChoice,
} from '../lib/schemas/product.ts'

/** The form's values as the inputs hold them (numbers as text; extra fields as a list). */
interface ProductFormShape extends Record<string, unknown> {
  name: string
  description: string
  image: string[]
  category: string[]
  subCategory: string[]
  unit: string
  stock: string
  price: string
  sellingPrice: string
  more_details: Array<{ key: string; value: string }>
  hsn: string
}

/** What the server answered to the last submission of this form (app/.server/product-form.ts `ProductFormReply`). */
type ProductFormServerReply = NonNullable<FormReplyData> & {
  /** The Add Field dialog's message without JavaScript, or null. */
  addFieldError: string | null
  /** True right after an extra field was added without JavaScript: the dialog closes. */
  fieldAdded: boolean
}

export interface ProductFormProps {
  /** The form element's id (the JavaScript-off dialog controls name it). */
  id: string
  /** Where the form posts: the page's path with its own dialog parameters, so errors come back there. */
  action: string
  /** The same address with `add-field=1`: opens the Add Field dialog. */
  addFieldHref: string
  /** True when the address names the Add Field dialog. */
  isAddFieldOpen: boolean
  categories: ProductChoice[]
  subCategories: SubCategoryChoice[]
  /** Starting values (edit); empty for a new product. */
  defaultValue?: Partial<ProductFormShape>
  /** The server's answer to this form's last submission, if any. */
  reply?: ProductFormServerReply | null
  /** The submit button's text ("Submit"). */
  submitLabel?: string
  /** Extra hidden fields posted with the form (the product `_id` when editing). */
  hiddenFields?: Record<string, string>
}

const textareaClass =
  'block min-h-28 w-full rounded-md border border-slate-300 bg-white px-4 py-3 text-base text-slate-900 placeholder:text-slate-400 ' +
  'focus:border-accent focus:outline-none focus:ring-2 focus:ring-accent/30 aria-[invalid=true]:border-red-500'

/** The form (see the module comment). */
export function ProductForm({
  id,
  action,
  addFieldHref,
  isAddFieldOpen,
  categories,
  subCategories,
  defaultValue,
  reply,
  submitLabel = 'Submit',
  hiddenFields = {},
}: ProductFormProps) {
  const isHydrated = useHydrated()
  const navigate = useNavigate()
  const navigation = useNavigation()
  const [form, fields] = useSchemaForm<typeof ProductFormSchema, ProductFormShape>(id, ProductFormSchema, reply?.result, defaultValue)
  const [uploadsInFlight, setUploadsInFlight] = useState(0)
  const discountId = `${id}-discount`

  const isSaving =
    navigation.state !== 'idle' &&
    navigation.formData?.get('intent') === PRODUCT_INTENT.save &&
    navigation.formAction?.split('?')[0] === action.split('?')[0]

  const numberField = (
    meta: FieldMetadata<string>,
    extra: { min: number; max?: number; step: number; inputMode: 'numeric' | 'decimal' },
  ) => ({
    ...getInputProps(meta, { type: 'number' }),
    ...extra,
    'aria-required': true,
  })

  return (
    <>
      <Form method="post" action={action} encType="multipart/form-data" {...getFormProps(form)} className="grid gap-5">
        {!isHydrated ? (
          // Without JavaScript, Enter in a text input clicks the form's first submit button: make that
          // the action the admin is in (Submit, or Add Field while that dialog is open).
          <button
            type="submit"
            name="intent"
            value={isAddFieldOpen ? PRODUCT_INTENT.addField : PRODUCT_INTENT.save}
            formAction={isAddFieldOpen ? addFieldHref : undefined}
            tabIndex={-1}
            aria-hidden="true"
            className="sr-only"
          >
            {submitLabel}
          </button>
        ) : null}
        {Object.entries(hiddenFields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}

        <Field
          labelProps={{ children: PRODUCT_FIELD_LABELS.name }}
          inputProps={{
            ...getInputProps(fields.name, { type: 'text' }),
            placeholder: 'Enter product name',
            autoComplete: 'off',
            'aria-required': true,
          }}
          errors={fields.name.errors}
        />

        <TextArea label={PRODUCT_FIELD_LABELS.description} meta={fields.description} placeholder="Enter product description" />

        <ProductImages form={form} field={fields.image} uploadAction={action} onInFlightChange={setUploadsInFlight} />

        <ProductCategories
          form={form}
          category={fields.category}
          subCategory={fields.subCategory}
          categories={categories}
          subCategories={subCategories}
        />

        <Field
          labelProps={{ children: PRODUCT_FIELD_LABELS.unit }}
          inputProps={{
            ...getInputProps(fields.unit, { type: 'text' }),
            placeholder: 'Enter product unit, e.g. 500 g',
            autoComplete: 'off',
            'aria-required': true,
          }}
          errors={fields.unit.errors}
        />
        <Field
          labelProps={{ children: PRODUCT_FIELD_LABELS.hsn }}
          inputProps={{
            ...getInputProps(fields.hsn, { type: 'text' }),
            placeholder: 'e.g. 0401; empty: the shelf’s heading',
            inputMode: 'numeric',
            maxLength: 8,
            autoComplete: 'off',
          }}
          errors={fields.hsn.errors}
        />
        <div className="grid gap-5 sm:grid-cols-3">
          <Field
            labelProps={{ children: PRODUCT_FIELD_LABELS.stock }}
            inputProps={{ ...numberField(fields.stock, { min: 0, step: 1, inputMode: 'numeric' }), placeholder: 'Enter product stock' }}
            errors={fields.stock.errors}
          />
          <Field
            labelProps={{ children: PRODUCT_FIELD_LABELS.price }}
            inputProps={{
              ...numberField(fields.price, { min: 0.01, step: 0.01, inputMode: 'decimal' }),
              placeholder: 'Enter product price',
            }}
            errors={fields.price.errors}
          />
          <Field
            labelProps={{ children: PRODUCT_FIELD_LABELS.sellingPrice }}
            inputProps={{
              ...numberField(fields.sellingPrice, { min: 0, step: 0.01, inputMode: 'decimal' }),
              placeholder: 'Enter selling price',
            }}
            errors={fields.sellingPrice.errors}
          />
        </div>
        {/* Derived, never typed: a typed percentage made the API recompute the selling price
            (app/lib/schemas/product.ts). Updates as the admin types with JavaScript; without it,
            it shows the values the page was drawn with. */}
        <p className="-mt-2 text-sm text-slate-700">
          <label htmlFor={discountId} className="font-medium">
            {PRODUCT_FIELD_LABELS.discount}
          </label>
          {': '}
          <output id={discountId} htmlFor={`${fields.price.id} ${fields.sellingPrice.id}`} aria-live="polite">
            {derivedDiscountText(fields.price.value, fields.sellingPrice.value) ?? '—'}
          </output>
        </p>

        <ProductExtraFields form={form} field={fields.more_details} addFieldHref={addFieldHref} />

        <FormAlert form={form} reply={reply} />
        <Button
          type="submit"
          name="intent"
          value={PRODUCT_INTENT.save}
          variant="primary"
          size="lg"
          isPending={isSaving}
          disabled={uploadsInFlight > 0}
          className="w-full"
        >
          {uploadsInFlight > 0 ? 'Uploading images…' : isSaving ? 'Saving…' : submitLabel}
        </Button>
      </Form>

      {isAddFieldOpen ? (
        <AddFieldDialog
          formId={form.id}
          closeHref={action}
          submitHref={addFieldHref}
          existingNames={extraFieldNames(fields.more_details)}
          serverError={reply?.addFieldError}
          onAdd={(name) => {
            form.insert({ name: fields.more_details.name, defaultValue: { key: name, value: '' } })
            navigate(action, { replace: true, preventScrollReset: true })
          }}
        />
      ) : null}
    </>
  )
}

/** A labelled multi-line input with its error list beneath. */
function TextArea({ label, meta, placeholder }: { label: string; meta: FieldMetadata<string>; placeholder: string }) {
  const { key: _key, ...props } = getTextareaProps(meta)
  const errorId = meta.errors?.length ? meta.errorId : undefined
  return (
    <div>
      <label htmlFor={meta.id} className="mb-1 block text-sm font-medium text-slate-700">
        {label}
      </label>
      <textarea
        {...props}
        rows={4}
        placeholder={placeholder}
        aria-required
        aria-invalid={errorId ? true : undefined}
        aria-describedby={errorId}
        className={textareaClass}
      />
      <ErrorList id={errorId} errors={meta.errors} />
    </div>
  )
}
