/**
 * Pure helpers of the category and sub category admin pages (issue 4 items 3, 4 and 7; spec
 * section 2 "Category admin", "Sub Category admin", section 5, section 9 "data table default page
 * size 10"). Shared by the server actions and the browser, so both decide with the same rules and
 * messages; nothing here touches React, the session or the network.
 *
 * - Form intents: every admin form is a multipart POST carrying `intent` (upload, add, edit, delete).
 * - Form rules: name 1..80 characters, an image url, and for a sub category at least one category.
 * - Dialog addresses: each dialog is a search parameter (`?dialog=add`, `?edit=<id>`, `?delete=<id>`,
 *   `?view=<id>`), so it opens by URL without JavaScript and closes with a link back.
 * - Paging of the sub category table (`?page=N`, 10 rows a page).
 */
import { FormReadError, readFormOrFail } from '../lib/form-body.ts'
import { z } from 'zod'
import type { ToastMessage } from './toasts.tsx'
import { MULTIPART_OVERHEAD_BYTES, UPLOAD_MAX_BYTES } from '../lib/uploads.ts'

// ---------------------------------------------------------------------------------------------
// Intents
// ---------------------------------------------------------------------------------------------

/** The `intent` values of the admin forms: upload an image, add, edit (save) or delete an entity. */
export const ADMIN_INTENTS = ['upload', 'add', 'edit', 'delete'] as const
export type AdminIntent = (typeof ADMIN_INTENTS)[number]

/** The form's `intent` field, or null when it is missing or not one of ADMIN_INTENTS. */
export function readIntent(formData: FormData): AdminIntent | null {
  const intent = formData.get('intent')
  return typeof intent === 'string' && (ADMIN_INTENTS as readonly string[]).includes(intent) ? (intent as AdminIntent) : null
}

/** A non-empty text field of the form, trimmed, or '' (a File or a missing field gives ''). */
export function readText(formData: FormData, name: string): string {
  const value = formData.get(name)
  return typeof value === 'string' ? value.trim() : ''
}

// ---------------------------------------------------------------------------------------------
// Image files
// ---------------------------------------------------------------------------------------------

/** The image upload cap in bytes (app/lib/uploads.ts). */
export const IMAGE_MAX_BYTES = UPLOAD_MAX_BYTES
export { MULTIPART_OVERHEAD_BYTES }
export const IMAGE_TOO_LARGE_MESSAGE = 'The image is too large: choose one of 5 MB or less'
export const IMAGE_TYPE_MESSAGE = 'Choose a JPEG, PNG, WebP, AVIF or GIF image'
/** The types the API accepts (issue 4 item 8; SVG refused): the file picker's `accept`. */
export const IMAGE_ACCEPT = 'image/jpeg,image/png,image/webp,image/avif,image/gif'
/** Field name of the file input of a form without JavaScript; with JavaScript the file is uploaded at once. */
export const IMAGE_FILE_FIELD = 'imageFile'

/** The chosen file of field `name`, or null when none was chosen (browsers send an empty, nameless part). */
export function readImageFile(formData: FormData, name: string): File | null {
  const value = formData.get(name)
  return value instanceof File && value.size > 0 ? value : null
}

/**
 * The browser-side check of a picked file before it is sent: a message for a file over
 * IMAGE_MAX_BYTES or of a type the API refuses, else null. The API checks the bytes again.
 */
export function checkImageFile(file: { size: number; type: string }): string | null {
  if (file.size > IMAGE_MAX_BYTES) return IMAGE_TOO_LARGE_MESSAGE
  if (file.type && !IMAGE_ACCEPT.split(',').includes(file.type)) return IMAGE_TYPE_MESSAGE
  return null
}

/**
 * Reads an admin form (multipart or urlencoded) with app/lib/form-body.ts: over one image
 * (IMAGE_MAX_BYTES) plus MULTIPART_OVERHEAD_BYTES is a 413 (checked while streaming), another
 * method 405, another content type 415, an unreadable body 400.
 */
export async function readAdminForm(
  request: Request,
): Promise<{ ok: true; formData: FormData } | { ok: false; status: 400 | 405 | 413 | 415; message: string }> {
  try {
    return { ok: true, formData: await readFormOrFail(request, { multipartMaxBytes: IMAGE_MAX_BYTES + MULTIPART_OVERHEAD_BYTES }) }
  } catch (err) {
    if (!(err instanceof FormReadError)) throw err
    return { ok: false, status: err.status, message: err.status === 413 ? IMAGE_TOO_LARGE_MESSAGE : err.message }
  }
}

/** What the `upload` intent answers: the stored url, or a message (and the same as a toast). */
export interface UploadReply {
  intent: 'upload'
  url: string | null
  error: string | null
}

// ---------------------------------------------------------------------------------------------
// Form rules
// ---------------------------------------------------------------------------------------------

/** Longest category and sub category name, in characters. */
export const NAME_MAX_LENGTH = 80
export const NAME_REQUIRED_MESSAGE = 'Name is required'
export const NAME_TOO_LONG_MESSAGE = `Name must be at most ${NAME_MAX_LENGTH} characters`
export const IMAGE_REQUIRED_MESSAGE = 'Image is required'
export const CATEGORY_REQUIRED_MESSAGE = 'Select at least one category'

const NameSchema = z.string().trim().min(1, NAME_REQUIRED_MESSAGE).max(NAME_MAX_LENGTH, NAME_TOO_LONG_MESSAGE)
const ImageUrlSchema = z.string().trim().min(1, IMAGE_REQUIRED_MESSAGE)

/** Category add/update (spec section 5): a name and the url of an uploaded image. */
export const CategoryFormSchema = z.object({ name: NameSchema, image: ImageUrlSchema })
export type CategoryFormValue = z.output<typeof CategoryFormSchema>

/** Sub category add/edit (spec section 5, issue 4 item 4): name, image url and at least one category id. */
export const SubCategoryFormSchema = CategoryFormSchema.extend({
  category: z.array(z.string().min(1)).min(1, CATEGORY_REQUIRED_MESSAGE),
})
export type SubCategoryFormValue = z.output<typeof SubCategoryFormSchema>

/** Messages per field name (`name`, `image`, `category`, …); a field without messages is absent. */
export type FieldErrors = Partial<Record<string, string[]>>

/** A parsed form: the value to send, or the values as typed (to refill the form) and the messages. */
export type FormParse<V> = { ok: true; value: V } | { ok: false; values: V; fieldErrors: FieldErrors }

/** The answer of a failed add or edit of a category or sub category (`V`: its form value): the values to refill, the messages, and an error toast. */
export interface CatalogFormReply<V> {
  intent: 'add' | 'edit'
  /** The entity edited, or null for an add. */
  _id: string | null
  values: V
  fieldErrors: FieldErrors
  /** A message for the whole form (shown above the buttons), or null when every message is on a field. */
  formError: string | null
  toast: ToastMessage
}

/** What a category or sub category admin action answers with data (successes redirect instead). */
export type CatalogActionReply<V> =
  CatalogFormReply<V> | (UploadReply & { toast: ToastMessage | null }) | { intent: null; toast: ToastMessage }

function collect<V>(schema: z.ZodType<V>, values: V): FormParse<V> {
  const result = schema.safeParse(values)
  if (result.success) return { ok: true, value: result.data }
  const fieldErrors: FieldErrors = {}
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? '')
    const list = (fieldErrors[field] ??= [])
    if (!list.includes(issue.message)) list.push(issue.message)
  }
  return { ok: false, values, fieldErrors }
}

/** The picked category ids: every `category` field, trimmed, empty ones dropped, duplicates once. */
export function readCategoryIds(formData: FormData, name = 'category'): string[] {
  const ids = formData
    .getAll(name)
    .map((value) => (typeof value === 'string' ? value.trim() : ''))
    .filter(Boolean)
  return [...new Set(ids)]
}

/** Reads and checks a category form (`name`, `image`). */
export function parseCategoryForm(formData: FormData): FormParse<CategoryFormValue> {
  return collect(CategoryFormSchema, { name: readText(formData, 'name'), image: readText(formData, 'image') })
}

/** Reads and checks a sub category form (`name`, `image`, repeated `category`). */
export function parseSubCategoryForm(formData: FormData): FormParse<SubCategoryFormValue> {
  return collect(SubCategoryFormSchema, {
    name: readText(formData, 'name'),
    image: readText(formData, 'image'),
    category: readCategoryIds(formData),
  })
}

/**
 * The API's field issues (`{ path: 'category.0', message }`) as messages on the form's fields: the
 * first path segment names the field; issues of other fields are left out (the caller shows the
 * API's message at the top instead).
 */
export function issuesToFieldErrors(issues: ReadonlyArray<{ path: string; message: string }>, fields: readonly string[]): FieldErrors {
  const fieldErrors: FieldErrors = {}
  for (const issue of issues) {
    const field = issue.path.split('.')[0] ?? ''
    if (!fields.includes(field)) continue
    const list = (fieldErrors[field] ??= [])
    if (!list.includes(issue.message)) list.push(issue.message)
  }
  return fieldErrors
}

// ---------------------------------------------------------------------------------------------
// Dialog addresses
// ---------------------------------------------------------------------------------------------

/** The search parameter of the table's page (`?page=N`, 1-based). */
export const PAGE_PARAM = 'page'

/** The dialog a URL opens: add, edit, delete or view (an image) of the entity `id`, or none. */
export type AdminDialog =
  { kind: 'add' } | { kind: 'edit'; id: string } | { kind: 'delete'; id: string } | { kind: 'view'; id: string } | null

/** The dialog named by `search` (`?dialog=add`, `?edit=<id>`, `?delete=<id>`, `?view=<id>`); the first found wins. */
export function readDialog(search: URLSearchParams): AdminDialog {
  if (search.get('dialog') === 'add') return { kind: 'add' }
  for (const kind of ['edit', 'delete', 'view'] as const) {
    const id = search.get(kind)?.trim()
    if (id) return { kind, id }
  }
  return null
}

/** The search parameters of `dialog` (empty for none). */
export function dialogParams(dialog: AdminDialog): Record<string, string> {
  if (!dialog) return {}
  if (dialog.kind === 'add') return { dialog: 'add' }
  return { [dialog.kind]: dialog.id }
}

/**
 * `pathname` with the table page of `search` kept (when above 1) and `dialog` opened, e.g.
 * `/dashboard/subcategory?page=2&edit=ab12`. Every other parameter is dropped, so closing a dialog is
 * a link to `adminHref(path, search, null)`.
 */
export function adminHref(pathname: string, search: URLSearchParams, dialog: AdminDialog, page?: number): string {
  const next = new URLSearchParams()
  const keptPage = page ?? Number(search.get(PAGE_PARAM))
  if (Number.isInteger(keptPage) && keptPage > 1) next.set(PAGE_PARAM, String(keptPage))
  for (const [key, value] of Object.entries(dialogParams(dialog))) next.set(key, value)
  const query = next.toString()
  return query ? `${pathname}?${query}` : pathname
}

// ---------------------------------------------------------------------------------------------
// Paging
// ---------------------------------------------------------------------------------------------

/** Spec section 9: the data table's default page size. */
export const TABLE_PAGE_SIZE = 10

/** One page of a list: its rows, the 1-based page shown, the page count and the serial number of the first row. */
export interface Page<T> {
  rows: T[]
  page: number
  totalPages: number
  /** Serial number ("No.") of the first row: (page - 1) * size + 1. */
  firstSerial: number
}

/**
 * Page `requested` (1-based; a number or the raw `?page=` text) of `items`, `size` rows a page. A
 * missing, malformed or too small page gives page 1, one past the end the last page; an empty list
 * has one empty page.
 */
export function paginate<T>(items: readonly T[], requested: number | string | null | undefined, size = TABLE_PAGE_SIZE): Page<T> {
  const totalPages = Math.max(1, Math.ceil(items.length / size))
  const asNumber = typeof requested === 'number' ? requested : Number.parseInt(String(requested ?? ''), 10)
  const page = Number.isFinite(asNumber) ? Math.min(Math.max(1, Math.trunc(asNumber)), totalPages) : 1
  const start = (page - 1) * size
  return { rows: items.slice(start, start + size), page, totalPages, firstSerial: start + 1 }
}
