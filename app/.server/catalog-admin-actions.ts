/**
 * The action of the category and sub category admin pages (issue 4 items 3, 4 and 7; spec section 2
 * "Category admin", "Sub Category admin"; section 4 "list refetched afterwards; dialogs close";
 * section 5; section 7 `category/*`, `subcategory/*`, `file/upload`; section 8 toasts). Both pages
 * post the same multipart forms, told apart by `intent` (app/components/catalog-admin.ts):
 *
 * - `upload` (JavaScript): the picked file of field `image` is stored at once through `file/upload`;
 *   answers an UploadReply (no pre-check of the type here: the API judges the bytes and names the
 *   problem). The product pages have their own, stricter upload (app/.server/product-form.ts).
 * - `delete`: always a redirect to the list with a toast, so the dialog closes and the list is loaded
 *   again; a delete the API refuses (409: still used) is the error toast.
 * - `add`, `edit`: without JavaScript the picked file (`imageFile`) comes along and is stored first.
 *   A form with errors, or one the API refuses (400 field issues, 409 duplicate name), answers a
 *   CatalogFormReply to refill the dialog; a save redirects to the list with the API's message.
 */
import { data } from 'react-router'
import * as adminApi from './api/admin.ts'
import type { RequestSession } from './session.ts'
import { redirectWithToast } from './toast.ts'
import { formIdempotencyKey } from './idempotency.ts'
import type { UpstreamResult } from './upstream.ts'
import { NO_PERMISSION_MESSAGE } from '../components/admin-guard.tsx'
import {
  IMAGE_FILE_FIELD,
  issuesToFieldErrors,
  readAdminForm,
  readImageFile,
  readIntent,
  readText,
  type CatalogActionReply,
  type FieldErrors,
  type FormParse,
} from '../components/catalog-admin.ts'

/** The texts of one page's action (spec wording: "Category …" or "Sub Category …"). */
export interface CatalogActionMessages {
  /** Toast of a delete without an `_id`, e.g. 'Choose a category to delete'. */
  chooseToDelete: string
  /** Answer of an edit without an `_id`, e.g. 'Choose a category to edit'. */
  chooseToEdit: string
  /** Success toasts when the API's answer carries no message. */
  deleted: string
  added: string
  updated: string
}

/** What a category or sub category page hands to catalogAdminAction. `V` is its checked form value. */
export interface CatalogAdminActionOptions<V> {
  request: Request
  session: RequestSession
  /** Where every redirect goes: the list (for the sub category table, the page it was on). */
  listHref: string
  /** The form's field names: the API's issues of other fields are shown above the buttons. */
  fields: readonly string[]
  /** Reads and checks the form (app/components/catalog-admin.ts parseCategoryForm, parseSubCategoryForm). */
  parse: (formData: FormData) => FormParse<V>
  /** The API calls of the entity; `add` gets the form's idempotency key (app/.server/idempotency.ts). */
  add: (value: V, opts: { idempotencyKey?: string }) => Promise<UpstreamResult<unknown>>
  /** `updatedAt`: the version the admin read (a hidden field of the edit form); the API refuses a stale one with 409. */
  update: (value: V & { _id: string; updatedAt?: string }) => Promise<UpstreamResult<unknown>>
  remove: (target: { _id: string }) => Promise<UpstreamResult<unknown>>
  messages: CatalogActionMessages
}

/**
 * Runs one submission of a category or sub category admin form (see the module comment). Answers a
 * redirect with a flash toast after a delete or a save; else data of CatalogActionReply<V> with the
 * status: 403 for a session user who is not an ADMIN, 413/400 for a body too large or unreadable,
 * 400 for a form with errors or an unknown intent, the upload's or the API's status otherwise
 * (4xx as answered, 502 for an API fault).
 */
export async function catalogAdminAction<V>(options: CatalogAdminActionOptions<V>) {
  const { request, session, listHref, messages } = options
  const reply = (body: CatalogActionReply<V>, status: number) => data(body, { status })
  const fail = (message: string, status: number) => reply({ intent: null, toast: { type: 'error', message } }, status)

  // Nothing is forwarded for a user the session knows as a shopper. A stale ADMIN summary is caught
  // by the API, which checks the role on every write (contract, "Defects").
  if (session.user?.role !== 'ADMIN') return fail(NO_PERMISSION_MESSAGE, 403)

  const form = await readAdminForm(request)
  if (!form.ok) return fail(form.message, form.status)
  const { formData } = form
  const intent = readIntent(formData)

  if (intent === 'upload') {
    const file = readImageFile(formData, 'image')
    if (!file) return reply({ intent, url: null, error: 'Choose an image to upload', toast: null }, 400)
    const uploaded = await adminApi.uploadFormImage(session, file)
    if (!uploaded.ok) return reply({ intent, url: null, error: uploaded.message, toast: null }, uploaded.status)
    return reply({ intent, url: uploaded.url, error: null, toast: null }, 200)
  }

  if (intent === 'delete') {
    const _id = readText(formData, '_id')
    if (!_id) return redirectWithToast(session, listHref, { type: 'error', message: messages.chooseToDelete })
    const result = await options.remove({ _id })
    // Both ways the dialog closes and the list is loaded again (spec section 4); 409 "still used" is the error toast.
    if (!result.ok) return redirectWithToast(session, listHref, { type: 'error', message: result.message })
    return redirectWithToast(session, listHref, { type: 'success', message: result.message || messages.deleted })
  }

  if (intent === 'add' || intent === 'edit') {
    const _id = intent === 'edit' ? readText(formData, '_id') : null
    if (intent === 'edit' && !_id) return fail(messages.chooseToEdit, 400)
    // Without JavaScript the picked file arrives with the form: store it first, then save its url.
    let uploadErrors: FieldErrors = {}
    let uploadStatus = 400
    const file = readImageFile(formData, IMAGE_FILE_FIELD)
    if (file) {
      const uploaded = await adminApi.uploadFormImage(session, file)
      if (uploaded.ok) formData.set('image', uploaded.url)
      else {
        uploadErrors = { image: [uploaded.message] }
        uploadStatus = uploaded.status
      }
    }
    const parsed = options.parse(formData)
    const values = parsed.ok ? parsed.value : parsed.values
    const formFailure = (fieldErrors: FieldErrors, formError: string | null, status: number) => {
      const message = formError ?? Object.values(fieldErrors).flat()[0] ?? 'Check the form'
      return reply({ intent, _id, values, fieldErrors, formError, toast: { type: 'error', message } }, status)
    }
    if (!parsed.ok || Object.keys(uploadErrors).length > 0) {
      // A failed upload's reason replaces "Image is required" on the image field.
      return formFailure({ ...(parsed.ok ? {} : parsed.fieldErrors), ...uploadErrors }, null, uploadStatus)
    }
    const version = readText(formData, 'updatedAt')
    const result = _id
      ? await options.update({ _id, ...(version ? { updatedAt: version } : {}), ...parsed.value })
      : await options.add(parsed.value, { idempotencyKey: formIdempotencyKey(formData) })
    if (!result.ok) {
      const fieldErrors = issuesToFieldErrors(result.issues, options.fields)
      // The API's message of a 400 repeats its first field issue (`name: …`): shown on the field only.
      const isOnField = Object.keys(fieldErrors).length > 0
      // 409: an entity of that name exists already; say so on the name.
      if (result.status === 409 && !fieldErrors.name) fieldErrors.name = [result.message]
      return formFailure(fieldErrors, isOnField || result.status === 409 ? null : result.message, adminApi.failureStatus(result))
    }
    const fallback = intent === 'add' ? messages.added : messages.updated
    return redirectWithToast(session, listHref, { type: 'success', message: result.message || fallback })
  }

  return fail('Unknown action', 400)
}
