/**
 * The product form of /dashboard/upload-product (create) and of the edit dialog of
 * /dashboard/product (spec section 2 "Upload Product": Name, Description, Image, Category, Sub
 * Category, Unit, Number of Stock, Price, Discount, extra fields from "Add Fields", Submit; section 5
 * rules, app/lib/schemas/product.ts). Issue 4 items 5 and 7. The server side is
 * app/.server/product-form.ts.
 *
 * One multipart form that works both ways:
 * - Without JavaScript: images are a multiple file input uploaded when the form is sent, already
 *   uploaded ones stay as hidden `image[i]` inputs with a "Remove" checkbox (a thumbnail opens the
 *   full image); categories are multiple selects; "Add Fields" and the dialog's "Add Field" send the
 *   form with an intent and the server answers it with the change; every other message comes back
 *   from the server too.
 * - With JavaScript: Conform checks as you type; each picked image is shown at once and uploaded by
 *   its own fetcher to the page's action (`intent=upload`), its url joining the hidden inputs; a
 *   thumbnail opens a full-screen viewer; remove buttons and the Add Field dialog change the form
 *   without a request; categories are chips. Submit is held while uploads are in flight.
 */
import {
  getFormProps,
  getInputProps,
  getTextareaProps,
  useForm,
  type FieldMetadata,
  type Submission,
  type SubmissionResult,
} from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useEffect, useId, useRef, useState, type ReactNode } from 'react'
import { Form, useFetcher, useNavigate, useNavigation } from 'react-router'
import { useHydrated } from 'remix-utils/use-hydrated'
import { IMAGE_ACCEPT, checkImageFile, type UploadReply } from './catalog-admin.ts'
import { ChipsSelect, type ChipOption } from './chips-select.tsx'
import { AddFieldDialog } from './extra-fields-dialog.tsx'
import { ErrorList, Field } from './forms.tsx'
import { CloseIcon, PlusIcon } from './icons.tsx'
import { showToast } from './toasts.tsx'
import { Button, buttonClassName } from './ui/button.tsx'
import { cn } from './ui/cn.ts'
import { Spinner } from './ui/spinner.tsx'
import { isStoredImageUrl, variantUrl } from '../../contract/images.ts'
import {
  ADD_FIELD_PARAM,
  IMAGE_FILES_FIELD,
  IMAGES_MAX,
  PRODUCT_FIELD_LABELS,
  PRODUCT_INTENT,
  ProductFormSchema,
  REMOVE_IMAGE_FIELD,
} from '../lib/schemas/product.ts'

/** The form's values as the inputs hold them (numbers as text; extra fields as a list). */
export interface ProductFormShape {
  name: string
  description: string
  image: string[]
  category: string[]
  subCategory: string[]
  unit: string
  stock: string
  price: string
  discount: string
  more_details: Array<{ key: string; value: string }>
}

/** A sub category choice with the ids of its categories (to narrow the list to the picked categories). */
export interface SubCategoryOption extends ChipOption {
  categoryIds: string[]
}

/** What the server answered to the last submission of this form (app/.server/product-form.ts). */
export interface ProductFormServerReply {
  result: SubmissionResult<string[]>
  addFieldError: string | null
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
  categories: ChipOption[]
  subCategories: SubCategoryOption[]
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

/** A value Conform holds for a multi-value field, as a list. */
function asList(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string' && v !== '')
  return typeof value === 'string' && value ? [value] : []
}

/** The props of a hidden input for `meta`, with React's `key` taken out of the spread. */
function hiddenProps(meta: FieldMetadata<string>) {
  const { key: _key, ...props } = getInputProps(meta, { type: 'hidden' })
  return props
}

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
  const [form, fields] = useForm<ProductFormShape>({
    id,
    lastResult: reply?.result,
    defaultValue,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    // The schema's input type is looser than the form's shape (it also reads single values as lists).
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ProductFormSchema }) as unknown as Submission<ProductFormShape>,
  })
  const [uploadsInFlight, setUploadsInFlight] = useState(0)
  const [pickedCategories, setPickedCategories] = useState(() => asList(fields.category.initialValue))
  const [pickedSubCategories, setPickedSubCategories] = useState(() => asList(fields.subCategory.initialValue))

  const isSaving =
    navigation.state !== 'idle' &&
    navigation.formData?.get('intent') === PRODUCT_INTENT.save &&
    navigation.formAction?.split('?')[0] === action.split('?')[0]

  // Re-check the categories when chips change (they post through hidden inputs that fire no events).
  const isCategoryChecked = useRef(false)
  useEffect(() => {
    if (!isCategoryChecked.current) {
      isCategoryChecked.current = true
      return
    }
    if (fields.category.errors?.length || pickedCategories.length === 0) form.validate({ name: fields.category.name as string })
  }, [pickedCategories])

  // With JavaScript, the sub category choices are those of the picked categories (plus any picked).
  const subCategoryOptions =
    isHydrated && pickedCategories.length > 0
      ? subCategories.filter(
          (option) =>
            option.categoryIds.some((categoryId) => pickedCategories.includes(categoryId)) || pickedSubCategories.includes(option.value),
        )
      : subCategories

  const extraFields = fields.more_details.getFieldList()
  const extraNames = extraFields.map((item) => item.getFieldset().key.value ?? '')

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

        <ChipsSelect
          name={fields.category.name}
          label={PRODUCT_FIELD_LABELS.category}
          placeholder="Select Category"
          options={categories}
          defaultValue={asList(fields.category.initialValue)}
          errors={fields.category.errors}
          onChange={setPickedCategories}
        />
        <ChipsSelect
          name={fields.subCategory.name}
          label={PRODUCT_FIELD_LABELS.subCategory}
          placeholder="Select Sub Category"
          options={subCategoryOptions}
          defaultValue={asList(fields.subCategory.initialValue)}
          errors={fields.subCategory.errors}
          onChange={setPickedSubCategories}
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
        <div className="grid gap-5 sm:grid-cols-3">
          <Field
            labelProps={{ children: PRODUCT_FIELD_LABELS.stock }}
            inputProps={{
              ...getInputProps(fields.stock, { type: 'number' }),
              min: 0,
              step: 1,
              inputMode: 'numeric',
              placeholder: 'Enter product stock',
              'aria-required': true,
            }}
            errors={fields.stock.errors}
          />
          <Field
            labelProps={{ children: PRODUCT_FIELD_LABELS.price }}
            inputProps={{
              ...getInputProps(fields.price, { type: 'number' }),
              min: 0.01,
              step: 0.01,
              inputMode: 'decimal',
              placeholder: 'Enter product price',
              'aria-required': true,
            }}
            errors={fields.price.errors}
          />
          <Field
            labelProps={{ children: PRODUCT_FIELD_LABELS.discount }}
            inputProps={{
              ...getInputProps(fields.discount, { type: 'number' }),
              min: 0,
              max: 100,
              step: 0.01,
              inputMode: 'decimal',
              placeholder: 'Enter product discount',
              'aria-required': true,
            }}
            errors={fields.discount.errors}
          />
        </div>

        {extraFields.length > 0 ? (
          <div className="grid gap-5">
            {extraFields.map((item, index) => {
              const field = item.getFieldset()
              const label = field.key.value ?? field.key.initialValue ?? ''
              return (
                <div key={item.key} className="flex items-start gap-2">
                  <input {...hiddenProps(field.key)} />
                  <Field
                    className="min-w-0 flex-1"
                    labelProps={{ children: label }}
                    inputProps={{
                      ...getInputProps(field.value, { type: 'text' }),
                      placeholder: `Enter ${label}`,
                      autoComplete: 'off',
                      'aria-required': true,
                    }}
                    errors={field.value.errors}
                  />
                  {isHydrated ? (
                    <Button
                      variant="ghost"
                      size="icon"
                      className="mt-7"
                      aria-label={`Remove field ${label}`}
                      onClick={() => form.remove({ name: fields.more_details.name as string, index })}
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
        <ErrorList id={fields.more_details.errorId} errors={fields.more_details.errors} role="alert" />

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

        <ErrorList id={form.errorId} errors={form.errors} role="alert" />
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
          existingNames={extraNames}
          serverError={reply?.addFieldError}
          onAdd={(name) => {
            form.insert<ProductFormShape['more_details']>({
              name: fields.more_details.name as string,
              defaultValue: { key: name, value: '' },
            })
            navigate(action, { replace: true, preventScrollReset: true })
          }}
        />
      ) : null}
    </>
  )
}

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

/** The url of a thumbnail of `url` (a 256 px variant of a stored image). */
function thumbnailSrc(url: string): string {
  return isStoredImageUrl(url) ? variantUrl(url, 256) : url
}

interface PendingImage {
  id: string
  file: File
  preview: string
}

type ProductFormMetadata = ReturnType<typeof useForm<ProductFormShape>>[0]

/**
 * The Image field: thumbnails of the uploaded images (hidden `image[i]` inputs), each with a remove
 * control, plus the picker. See the module comment for the two modes.
 */
function ProductImages({
  form,
  field,
  uploadAction,
  onInFlightChange,
}: {
  form: ProductFormMetadata
  field: FieldMetadata<string[]>
  uploadAction: string
  onInFlightChange: (count: number) => void
}) {
  const isHydrated = useHydrated()
  const inputId = useId()
  const [pending, setPending] = useState<PendingImage[]>([])
  const [clientErrors, setClientErrors] = useState<string[]>([])
  const [viewing, setViewing] = useState<string | null>(null)
  const images = field.getFieldList()
  const room = IMAGES_MAX - images.length - pending.length

  useEffect(() => onInFlightChange(pending.length), [pending.length])

  const finish = (upload: PendingImage, answer: UploadReply) => {
    URL.revokeObjectURL(upload.preview)
    setPending((list) => list.filter((item) => item.id !== upload.id))
    if (answer.url) form.insert({ name: field.name, defaultValue: answer.url })
    else {
      const message = `${upload.file.name}: ${answer.error ?? 'Upload failed'}`
      setClientErrors((list) => [...list, message])
      showToast({ type: 'error', message })
    }
  }

  const pick = (files: FileList | null) => {
    const problems: string[] = []
    const accepted: PendingImage[] = []
    for (const file of Array.from(files ?? [])) {
      const problem = checkImageFile(file)
      if (problem) problems.push(`${file.name}: ${problem}`)
      else if (accepted.length >= room) problems.push(`At most ${IMAGES_MAX} images: ${file.name} was left out`)
      else accepted.push({ id: `${Date.now()}-${Math.random().toString(36).slice(2)}`, file, preview: URL.createObjectURL(file) })
    }
    setClientErrors(problems)
    if (accepted.length) setPending((list) => [...list, ...accepted])
  }

  const messages = [...clientErrors, ...(field.errors ?? [])]
  const errorId = `${inputId}-error`
  const hintId = `${inputId}-hint`

  return (
    <div>
      <label htmlFor={inputId} className="mb-1 block text-sm font-medium text-slate-700">
        {PRODUCT_FIELD_LABELS.image}
      </label>
      <div className="flex flex-wrap gap-3">
        {images.map((item, index) => {
          const url = item.value ?? item.initialValue ?? ''
          return (
            <Thumbnail key={item.key} url={url} label={`Image ${index + 1}`} onView={isHydrated ? () => setViewing(url) : undefined}>
              <input {...hiddenProps(item)} />
              {isHydrated ? (
                <button
                  type="button"
                  onClick={() => form.remove({ name: field.name, index })}
                  aria-label={`Remove image ${index + 1}`}
                  className="absolute top-1 right-1 inline-flex size-8 items-center justify-center rounded-full bg-white/90 text-slate-700 shadow ring-1 ring-black/10 hover:bg-red-100 hover:text-red-700 focus-visible:outline-2 focus-visible:outline-red-600 sm:opacity-0 sm:group-hover:opacity-100 sm:focus-visible:opacity-100"
                >
                  <CloseIcon size={16} />
                </button>
              ) : (
                <label className="absolute inset-x-0 bottom-0 flex items-center gap-1 bg-white/90 px-1.5 py-1 text-xs font-medium text-slate-800">
                  <input type="checkbox" name={REMOVE_IMAGE_FIELD} value={url} className="size-4" />
                  Remove
                </label>
              )}
            </Thumbnail>
          )
        })}
        {pending.map((upload) => (
          <PendingThumbnail key={upload.id} upload={upload} action={uploadAction} onDone={finish} />
        ))}
        {images.length === 0 && pending.length === 0 ? (
          <div className="flex size-24 items-center justify-center rounded-lg border border-dashed border-slate-300 bg-slate-50 text-center text-xs text-slate-500">
            No Image
          </div>
        ) : null}
      </div>
      <div className="mt-3">
        <input
          id={inputId}
          type="file"
          accept={IMAGE_ACCEPT}
          multiple
          name={isHydrated ? undefined : IMAGE_FILES_FIELD}
          disabled={isHydrated && room <= 0}
          aria-invalid={messages.length > 0 || undefined}
          aria-describedby={cn(hintId, messages.length > 0 && errorId)}
          onChange={(event) => {
            pick(event.currentTarget.files)
            // The files are uploaded by fetchers; the input is cleared so the same file can be picked again.
            event.currentTarget.value = ''
          }}
          className={cn(
            'block w-full text-sm text-slate-700 file:mr-3 file:min-h-10 file:rounded-lg file:border-0 file:bg-brand file:px-4 file:font-semibold file:text-slate-900 hover:file:bg-brand-dark',
            'disabled:cursor-not-allowed disabled:opacity-60',
          )}
        />
        <p id={hintId} className="mt-1 text-xs text-slate-500">
          {isHydrated
            ? `JPEG, PNG, WebP, AVIF or GIF, 5 MB each, up to ${IMAGES_MAX} images. They upload as soon as you pick them.`
            : `JPEG, PNG, WebP, AVIF or GIF, 5 MB each, up to ${IMAGES_MAX} images. They upload when you submit.`}
        </p>
        {!isHydrated ? (
          <button
            type="submit"
            name="intent"
            value={PRODUCT_INTENT.refresh}
            formNoValidate
            className={cn(buttonClassName({ variant: 'secondary', size: 'sm' }), 'mt-2')}
          >
            Upload selected images
          </button>
        ) : null}
        <ErrorList id={errorId} errors={messages} role="alert" />
      </div>
      {viewing ? <ImageViewer url={viewing} onClose={() => setViewing(null)} /> : null}
    </div>
  )
}

/**
 * A square thumbnail. With `onView` a click opens the viewer; without JavaScript it is a link to the
 * full image in a new tab (click to enlarge either way).
 */
function Thumbnail({ url, label, onView, children }: { url: string; label: string; onView?: () => void; children?: ReactNode }) {
  const image = <img src={thumbnailSrc(url)} alt={label} width={96} height={96} loading="lazy" className="size-full object-contain" />
  return (
    <div className="group relative size-24 overflow-hidden rounded-lg border border-slate-200 bg-slate-50">
      {onView ? (
        <button type="button" onClick={onView} aria-label={`Enlarge ${label.toLowerCase()}`} className="block size-full cursor-zoom-in">
          {image}
        </button>
      ) : (
        <a href={url} target="_blank" rel="noreferrer" aria-label={`Open ${label.toLowerCase()} full size`} className="block size-full">
          {image}
        </a>
      )}
      {children}
    </div>
  )
}

/** An image being uploaded: the local preview under a spinner; its own fetcher posts it once. */
function PendingThumbnail({
  upload,
  action,
  onDone,
}: {
  upload: PendingImage
  action: string
  onDone: (upload: PendingImage, answer: UploadReply) => void
}) {
  const fetcher = useFetcher<UploadReply>()
  const isSent = useRef(false)
  const isDone = useRef(false)

  useEffect(() => {
    if (isSent.current) return
    isSent.current = true
    const formData = new FormData()
    formData.set('intent', PRODUCT_INTENT.upload)
    formData.set('image', upload.file, upload.file.name)
    fetcher.submit(formData, { method: 'post', action, encType: 'multipart/form-data' })
  }, [])

  useEffect(() => {
    if (fetcher.state !== 'idle' || !fetcher.data || isDone.current) return
    isDone.current = true
    onDone(upload, fetcher.data)
  }, [fetcher.state, fetcher.data])

  return (
    <div className="relative size-24 overflow-hidden rounded-lg border border-slate-200 bg-slate-50">
      <img
        src={upload.preview}
        alt={`Uploading ${upload.file.name}`}
        width={96}
        height={96}
        className="size-full object-contain opacity-60"
      />
      <span className="absolute inset-0 flex items-center justify-center">
        <Spinner size={28} label={`Uploading ${upload.file.name}`} />
      </span>
    </div>
  )
}

/** The full-screen viewer of one image (JavaScript only): a modal dialog, Escape or × closes it. */
function ImageViewer({ url, onClose }: { url: string; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null)
  useEffect(() => {
    const dialog = ref.current
    if (dialog && !dialog.open) dialog.showModal()
  }, [])
  return (
    <dialog
      ref={ref}
      aria-label="Image viewer"
      onClose={onClose}
      onClick={(event) => {
        if (event.target === event.currentTarget) ref.current?.close()
      }}
      className="fixed inset-0 m-0 h-full max-h-none w-full max-w-none bg-black/90 p-0 backdrop:bg-black/60"
    >
      <div className="flex h-full flex-col">
        <div className="flex justify-end p-3">
          <button
            type="button"
            autoFocus
            onClick={() => ref.current?.close()}
            aria-label="Close"
            className={cn(buttonClassName({ variant: 'ghost', size: 'icon' }), 'text-white hover:bg-white/10')}
          >
            <CloseIcon size={22} />
          </button>
        </div>
        <div className="flex min-h-0 flex-1 items-center justify-center p-4" onClick={() => ref.current?.close()}>
          <img src={url} alt="Full size product image" className="max-h-full max-w-full object-contain" />
        </div>
      </div>
    </dialog>
  )
}

/** The Category and Sub Category choices of the form, from the catalogue lists (in their order). */
export function productFormOptions(
  categories: ReadonlyArray<{ _id: string; name: string }>,
  subCategories: ReadonlyArray<{ _id: string; name: string; category: ReadonlyArray<{ _id: string } | string> }>,
): { categories: ChipOption[]; subCategories: SubCategoryOption[] } {
  return {
    categories: categories.map((category) => ({ value: category._id, label: category.name })),
    subCategories: subCategories.map((sub) => ({
      value: sub._id,
      label: sub.name,
      categoryIds: (sub.category ?? []).map((ref) => (typeof ref === 'string' ? ref : ref._id)),
    })),
  }
}

/**
 * For the `shouldRevalidate` of a page with the product form: an image upload through a fetcher
 * and opening or closing the Add Field dialog (only `add-field` differs in the address) change no
 * data, so the page's loader is not run again for them.
 */
export function shouldRevalidateProductForm({
  formData,
  currentUrl,
  nextUrl,
  defaultShouldRevalidate,
}: {
  formData?: FormData
  currentUrl: URL
  nextUrl: URL
  defaultShouldRevalidate: boolean
}): boolean {
  if (formData?.get('intent') === PRODUCT_INTENT.upload) return false
  if (!formData && currentUrl.pathname === nextUrl.pathname) {
    const strip = (url: URL) => {
      const params = new URLSearchParams(url.search)
      params.delete(ADD_FIELD_PARAM)
      params.sort()
      return params.toString()
    }
    if (strip(currentUrl) === strip(nextUrl)) return false
  }
  return defaultShouldRevalidate
}

/** `href` with `add-field=1` added to its query: the address of the open Add Field dialog. */
export function withAddField(href: string): string {
  const [path, query = ''] = href.split('?')
  const params = new URLSearchParams(query)
  params.set(ADD_FIELD_PARAM, '1')
  return `${path}?${params.toString()}`
}
