/**
 * The action of the category and sub category admin pages (docs/decisions/0008-catalogue-writes.md;
 * docs/decisions/0007-progressive-enhancement.md). Both pages post the same multipart forms, told
 * apart by `intent`:
 *
 * - `upload` (JavaScript): the picked file of field `image` is stored at once through `file/upload`;
 *   answers an AdminUploadReply (app/.server/admin-form.ts).
 * - `delete`: always a redirect to the list with a toast, so the dialog closes and the list is loaded
 *   again; a delete the API refuses (409: still used) is the error toast.
 * - `add`, `edit`: without JavaScript the picked file (`imageFile`) comes along and is stored first.
 *   The form is checked with the page's schema (app/lib/schemas/catalog.ts, the one the dialog checks
 *   with in the browser); a form with errors, or one the API refuses (400 field issues, 409 duplicate
 *   name or a stale edit, said on the name), answers a CatalogFormReply to refill the dialog; a save
 *   redirects to the list with the API's message.
 */
import { parseWithZod } from '@conform-to/zod/v4'
import type { z } from 'zod'
import { adminErrorReply, readAdminForm, storeImage, uploadIntentReply } from './admin-form.ts'
import { failedFormReply, invalidFormReply, readText, type FormReply } from './form.ts'
import type { RequestSession } from './session.ts'
import { formIdempotencyKey } from './idempotency.ts'
import { redirectWithToast } from './toast.ts'
import type { UpstreamResult } from './upstream.ts'
import { IMAGE_FILE_FIELD, readImageFile } from '../lib/uploads.ts'

/** The reply of a failed add or edit: Conform's reply and an error toast, for the dialog of `intent` (and `_id`). */
export type CatalogFormReply = FormReply & { intent: 'add' | 'edit'; _id: string | null }

/** The texts of one page's action ("Category …" or "Sub Category …"). */
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

/**
 * The texts of the page of a `noun` ('category', 'sub category') titled `title` ('Category', 'Sub
 * Category'): "Choose a category to delete", "Category deleted", and so on.
 */
export function catalogActionMessages(noun: string, title: string): CatalogActionMessages {
  return {
    chooseToDelete: `Choose a ${noun} to delete`,
    chooseToEdit: `Choose a ${noun} to edit`,
    deleted: `${title} deleted`,
    added: `${title} added`,
    updated: `${title} updated`,
  }
}

/** What a category or sub category page hands to catalogAdminAction: its form schema and API calls. */
export interface CatalogAdminActionOptions<S extends z.ZodObject> {
  request: Request
  session: RequestSession
  /** Where every redirect goes: the list (for the sub category table, the page it was on). */
  listHref: string
  /** The form's schema (app/lib/schemas/catalog.ts); its keys are the fields the API's issues may name. */
  schema: S
  /** `idempotencyKey`: the add form's key (app/.server/idempotency.ts), so a repeated submit makes one entity. */
  add: (value: z.output<S>, opts: { idempotencyKey?: string }) => Promise<UpstreamResult<unknown>>
  /** `updatedAt`: the version the admin read (a hidden field of the edit form); the API refuses a stale one with 409. */
  update: (value: z.output<S> & { _id: string; updatedAt?: string }) => Promise<UpstreamResult<unknown>>
  remove: (target: { _id: string }) => Promise<UpstreamResult<unknown>>
  messages: CatalogActionMessages
}

/**
 * Runs one submission of a category or sub category admin form (see the module comment). Answers a
 * redirect with a flash toast after a delete or a save; else data with the status: 403 for a session
 * user who is not an ADMIN, the body's 405/413/415/400, 400 for a form with errors or an unknown
 * intent, the upload's or the API's status otherwise (app/.server/failure.ts).
 */
export async function catalogAdminAction<S extends z.ZodObject>(options: CatalogAdminActionOptions<S>) {
  const { request, session, listHref, schema, messages } = options
  const form = await readAdminForm(request, session, {})
  if (!form.ok) return form.response
  const { formData } = form
  const intent = readText(formData, 'intent')

  if (intent === 'upload') return uploadIntentReply(session, formData)

  if (intent === 'delete') {
    const _id = readText(formData, '_id')
    if (!_id) return redirectWithToast(session, listHref, { type: 'error', message: messages.chooseToDelete })
    const result = await options.remove({ _id })
    // Both ways the dialog closes and the list is loaded again; 409 "still used" is the error toast.
    if (!result.ok) return redirectWithToast(session, listHref, { type: 'error', message: result.message })
    return redirectWithToast(session, listHref, { type: 'success', message: result.message || messages.deleted })
  }

  if (intent !== 'add' && intent !== 'edit') return adminErrorReply('Unknown action', 400)
  const _id = intent === 'edit' ? readText(formData, '_id') : null
  if (intent === 'edit' && !_id) return adminErrorReply(messages.chooseToEdit, 400)
  const extra = { intent, _id } satisfies Omit<CatalogFormReply, keyof FormReply>

  // Without JavaScript the picked file arrives with the form: store it first, then check its url.
  const file = readImageFile(formData, IMAGE_FILE_FIELD)
  const stored = file ? await storeImage(session, file) : null
  if (stored?.ok) formData.set('image', stored.url)
  const submission = parseWithZod(formData, { schema })
  // A failed upload's reason replaces "Image is required" on the image field.
  if (stored && !stored.ok) return failedFormReply(submission, stored, { fieldErrors: { image: [stored.message] }, extra })
  if (submission.status !== 'success') {
    const first = Object.values(submission.error ?? {}).flat()[0] ?? 'Check the form'
    return invalidFormReply(submission, { toast: { type: 'error', message: first }, extra })
  }

  const version = readText(formData, 'updatedAt')
  const result = _id
    ? await options.update({ _id, ...(version ? { updatedAt: version } : {}), ...submission.value })
    : await options.add(submission.value, { idempotencyKey: formIdempotencyKey(formData) })
  if (!result.ok) return failedFormReply(submission, result, { fields: Object.keys(schema.shape), conflictField: 'name', extra })
  const fallback = intent === 'add' ? messages.added : messages.updated
  return redirectWithToast(session, listHref, { type: 'success', message: result.message || fallback })
}
