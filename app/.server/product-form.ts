/**
 * The BFF side of the product form (docs/product.md, "Upload Product", "Product admin list" and
 * "Validation rules"; docs/api-contract.md, "Catalogue";
 * docs/decisions/0007-progressive-enhancement.md), shared by /dashboard/upload-product (create) and
 * /dashboard/product (edit in a dialog). The page is app/components/product-form.tsx; the rules are
 * app/lib/schemas/product.ts. Each route's action (app/routes/dashboard/upload-product.server.ts,
 * app/routes/dashboard/product/index.server.ts) checks the form here, makes its own API call and
 * answers a refusal with productSaveRefused.
 *
 * Every submission is one multipart POST with an `intent` (PRODUCT_INTENT):
 * - `upload` (JavaScript): one picked image, multipart field `image`, stored at once through
 *   `file/upload`; answers its url for the form's hidden `image[i]` inputs.
 * - `save`, and without JavaScript `add-field`, `remove-field:<i>` and `refresh`: the whole form.
 *   Files of the multiple file input (`imageFile`) are uploaded first and their urls join the kept
 *   ones (less those ticked in `removeImage`), so a form sent back with errors never uploads a file
 *   twice. `save` checks the form with ProductFormSchema for the route to save; the others answer the
 *   form as typed, changed as asked, with no error messages (the admin is not done yet).
 *
 * Answers are Conform replies, so the page refills the form and shows the messages with JavaScript
 * off as well as on.
 */
import type { SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import { storeImage, type AdminErrorReply, type AdminUploadReply } from './admin-form.ts'
import { failedFormReply, invalidFormReply, type AnySubmission, type FormLimits, type FormReply } from './form.ts'
import type { RequestSession } from './session.ts'
import type { UpstreamFailure } from './failure.ts'
import type { ToastMessage } from '../lib/toast.ts'
import { MULTIPART_OVERHEAD_BYTES } from '../lib/uploads.ts'
import { formatByteSize } from '../../contract/file.ts'
import { env } from './env.ts'
import {
  FIELD_NAME_FIELD,
  IMAGE_FILES_FIELD,
  PRODUCT_INTENT,
  ProductFormSchema,
  REMOVE_IMAGE_FIELD,
  fieldNameError,
} from '../lib/schemas/product.ts'
import { PRODUCT_IMAGES_MAX } from '../../contract/product.ts'
import type { Api } from './api-context.ts'

/** The product form's body limits: five images of the upload cap sent at once without JavaScript, plus the fields. */
export const PRODUCT_FORM_LIMITS = {
  multipartMaxBytes: 5 * env.uploadMaxBytes + MULTIPART_OVERHEAD_BYTES,
  tooLargeMessage: `Too many large images at once: upload at most ${formatByteSize(5 * env.uploadMaxBytes)} of images per submit`,
} satisfies FormLimits
const CHECK_FORM_MESSAGE = 'Please correct the highlighted fields'

/** The answer to a form submission that did not save: the form as Conform refills it, and messages. */
export interface ProductFormReply extends FormReply {
  intent: 'form'
  /** The Add Field dialog's message (without JavaScript), or null. */
  addFieldError: string | null
  /** True right after an extra field was added without JavaScript: the dialog closes. */
  fieldAdded: boolean
}

/** What the product routes' actions answer with data (successes redirect instead). */
export type ProductActionReply = ProductFormReply | AdminUploadReply | AdminErrorReply

const IMAGE_ENTRY = /^image(?:\[\d+\])?$/
const EXTRA_ENTRY = /^more_details\[(\d+)\]\.(key|value)$/
/** Names that are never copied into the form Conform parses (controls, files, Conform's own). */
const CONTROL_NAMES = new Set(['intent', IMAGE_FILES_FIELD, REMOVE_IMAGE_FIELD, FIELD_NAME_FIELD, '__intent__', '__state__'])

/** The product form's fields sent as plain name=value pairs (images and extra fields are indexed). */
const PLAIN_FIELDS = new Set(['name', 'description', 'category', 'subCategory', 'unit', 'stock', 'price', 'sellingPrice', 'hsn'])

interface ExtraField {
  key: string
  value: string
}

/** The parts of a submitted product form: kept image urls, extra fields in order, other fields. */
function splitForm(formData: FormData) {
  const images: string[] = []
  const extras = new Map<number, ExtraField>()
  const others: Array<[string, string]> = []
  for (const [name, value] of formData.entries()) {
    if (typeof value !== 'string' || CONTROL_NAMES.has(name)) continue
    if (IMAGE_ENTRY.test(name)) {
      if (value.trim()) images.push(value.trim())
      continue
    }
    const extra = EXTRA_ENTRY.exec(name)
    if (extra) {
      const index = Number(extra[1])
      // A tampered form could send huge indexes; they only order the fields, so that is harmless.
      const field = extras.get(index) ?? { key: '', value: '' }
      field[extra[2] as 'key' | 'value'] = value
      extras.set(index, field)
      continue
    }
    // Only the form's own plain fields: a tampered `more_details=x` or `image.0=…` would give
    // Conform a shape the page cannot render (a string where a list belongs).
    if (PLAIN_FIELDS.has(name)) others.push([name, value])
  }
  const extraList = [...extras.entries()].sort(([a], [b]) => a - b).map(([, field]) => field)
  return { images, extras: extraList, others }
}

/** The form Conform parses: the other fields, then `image[i]` and `more_details[i].key/value` renumbered. */
function joinForm(others: Array<[string, string]>, images: string[], extras: ExtraField[]): FormData {
  const formData = new FormData()
  for (const [name, value] of others) formData.append(name, value)
  images.forEach((url, i) => formData.append(`image[${i}]`, url))
  extras.forEach((field, i) => {
    formData.append(`more_details[${i}].key`, field.key)
    formData.append(`more_details[${i}].value`, field.value)
  })
  return formData
}

/**
 * Uploads the files of the multiple file input (without JavaScript), in order, up to PRODUCT_IMAGES_MAX
 * images in all. Answers the new urls and one message per file that could not be stored.
 */
async function uploadPickedFiles(api: Api, session: RequestSession, formData: FormData, keptCount: number) {
  const files = formData.getAll(IMAGE_FILES_FIELD).filter((value): value is File => value instanceof File && value.size > 0)
  const urls: string[] = []
  const errors: string[] = []
  let status = 400
  for (const file of files) {
    if (keptCount + urls.length >= PRODUCT_IMAGES_MAX) {
      errors.push(`At most ${PRODUCT_IMAGES_MAX} images: ${file.name} was not uploaded`)
      continue
    }
    const uploaded = await storeImage(api, session, file)
    if (uploaded.ok) urls.push(uploaded.url)
    else {
      errors.push(`${file.name}: ${uploaded.message}`)
      status = uploaded.status
    }
  }
  return { urls, errors, status }
}

/**
 * A product form submission, read and checked (see the module comment) for every intent but `upload`
 * and `delete`:
 * - `ok: false`: nothing to save, `response` is the answer, a ProductFormReply: 200 for the
 *   JavaScript-off helpers (add or remove a field, keep the uploads), 400 for a form with errors, the
 *   upload's status when a picked file could not be stored;
 * - `ok: true`: `value` is the checked payload for the route's API call (create or update); answer a
 *   refusal with productSaveRefused(`submission`, …).
 */
export async function checkProductForm(api: Api, session: RequestSession, formData: FormData) {
  const intent = String(formData.get('intent') ?? PRODUCT_INTENT.save)
  const { images, extras, others } = splitForm(formData)

  const removed = new Set(formData.getAll(REMOVE_IMAGE_FIELD).filter((v): v is string => typeof v === 'string'))
  const kept = [...new Set(images.filter((url) => !removed.has(url)))]
  const uploads = await uploadPickedFiles(api, session, formData, kept.length)
  const allImages = [...kept, ...uploads.urls]
  const uploadToast: ToastMessage | null = uploads.errors.length ? { type: 'error', message: uploads.errors[0]! } : null

  const reply = (body: Omit<ProductFormReply, 'intent'>, status: number) =>
    data<ProductActionReply>({ intent: 'form', ...body }, { status })
  const answered = <R>(response: R) => ({ ok: false as const, response })

  // The JavaScript-off helpers: answer the form as typed, with the change asked for and no messages.
  if (intent !== PRODUCT_INTENT.save) {
    let addFieldError: string | null = null
    let fieldAdded = false
    if (intent === PRODUCT_INTENT.addField) {
      const name = String(formData.get(FIELD_NAME_FIELD) ?? '')
      addFieldError = fieldNameError(
        name,
        extras.map((field) => field.key),
      )
      if (!addFieldError) {
        extras.push({ key: name.trim(), value: '' })
        fieldAdded = true
      }
    } else if (intent.startsWith(`${PRODUCT_INTENT.removeField}:`)) {
      const index = Number(intent.slice(PRODUCT_INTENT.removeField.length + 1))
      if (Number.isInteger(index) && index >= 0) extras.splice(index, 1)
    }
    const submission = parseWithZod(joinForm(others, allImages, extras), { schema: ProductFormSchema })
    const result: SubmissionResult<string[]> = {
      ...submission.reply(),
      status: undefined,
      error: uploads.errors.length ? { image: uploads.errors } : undefined,
    }
    return answered(reply({ result, addFieldError, fieldAdded, toast: uploadToast }, uploads.errors.length ? uploads.status : 200))
  }

  const submission = parseWithZod(joinForm(others, allImages, extras), { schema: ProductFormSchema })
  if (uploads.errors.length) {
    // A failed upload's reason replaces "Upload at least one image" on the image field.
    const failure = { status: uploads.status, message: uploads.errors[0]! }
    return answered(failedFormReply(submission, failure, { fieldErrors: { image: uploads.errors }, extra: SAVE_REPLY_KEYS }))
  }
  if (submission.status !== 'success') {
    return answered(invalidFormReply(submission, { toast: { type: 'error', message: CHECK_FORM_MESSAGE }, extra: SAVE_REPLY_KEYS }))
  }
  return { ok: true as const, value: submission.value, submission }
}

/** The keys a ProductFormReply adds to Conform's reply after a `save`. */
const SAVE_REPLY_KEYS = { intent: 'form', addFieldError: null, fieldAdded: false } satisfies Omit<ProductFormReply, keyof FormReply>

/** The answer to a checked form the API refused to save: its issues on the fields, its status (4xx, or 502). */
export function productSaveRefused(submission: AnySubmission, failure: UpstreamFailure) {
  return failedFormReply(submission, failure, { fields: Object.keys(ProductFormSchema.shape), extra: SAVE_REPLY_KEYS })
}
