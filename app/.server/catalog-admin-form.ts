/**
 * What the actions of the category and sub category admin pages share
 * (docs/decisions/0008-catalogue-writes.md; docs/decisions/0007-progressive-enhancement.md). Each
 * page's action (app/routes/dashboard/category.server.ts, app/routes/dashboard/subcategory.server.ts)
 * reads the submission here, calls its own API, and answers with the helpers here. Both pages post
 * the same multipart forms, told apart by `intent`:
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
import { failedFormReply, invalidFormReply, readText, type AnySubmission, type FormReply } from './form.ts'
import type { RequestSession } from './session.ts'
import { formIdempotencyKey } from './idempotency.ts'
import { redirectWithToast } from './toast.ts'
import type { UpstreamResult } from './upstream.ts'
import { IMAGE_FILE_FIELD, readImageFile } from '../lib/uploads.ts'
import type { Api } from './api-context.ts'

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

/** One page's part in its action: where every redirect goes, its form's schema and its texts. */
export interface CatalogAdminPage<S extends z.ZodObject> {
  /** The list (for the sub category table, the page it was on). */
  listHref: string
  /** The form's schema (app/lib/schemas/catalog.ts); its keys are the fields the API's issues may name. */
  schema: S
  messages: CatalogActionMessages
}

/** The parts of a checked add or edit form that its answer needs (catalogSaveAnswer). */
interface CheckedCatalogForm {
  submission: AnySubmission
  extra: Omit<CatalogFormReply, keyof FormReply>
}

/**
 * One submission of a category or sub category admin form, read and checked (see the module comment):
 * - `answered`: nothing for the page's API to do, `response` is the answer (403 for a session user
 *   who is not an ADMIN, the body's 405/413/415/400, the upload's answer, a delete without `_id`, 400
 *   for an unknown intent, an edit without `_id` or a form with errors, a failed image store);
 * - `delete` of `_id`; `add` of `value` with the add form's `idempotencyKey`
 *   (app/.server/idempotency.ts, so a repeated submit makes one entity); `edit` of `value`, which
 *   carries the `_id` and the `updatedAt` the admin read (the API refuses a stale one with 409).
 */
export async function readCatalogSubmission<S extends z.ZodObject>(
  api: Api,
  request: Request,
  session: RequestSession,
  page: CatalogAdminPage<S>,
) {
  const answered = <R>(response: R) => ({ intent: 'answered' as const, response })
  const form = await readAdminForm(request, session, {})
  if (!form.ok) return answered(form.response)
  const { formData } = form
  const intent = readText(formData, 'intent')

  if (intent === 'upload') return answered(await uploadIntentReply(api, session, formData))

  if (intent === 'delete') {
    const _id = readText(formData, '_id')
    if (!_id) return answered(redirectWithToast(session, page.listHref, { type: 'error', message: page.messages.chooseToDelete }))
    return { intent: 'delete' as const, _id }
  }

  if (intent !== 'add' && intent !== 'edit') return answered(adminErrorReply('Unknown action', 400))
  const _id = intent === 'edit' ? readText(formData, '_id') : null
  if (intent === 'edit' && !_id) return answered(adminErrorReply(page.messages.chooseToEdit, 400))
  const extra = { intent, _id } satisfies Omit<CatalogFormReply, keyof FormReply>

  // Without JavaScript the picked file arrives with the form: store it first, then check its url.
  const file = readImageFile(formData, IMAGE_FILE_FIELD)
  const stored = file ? await storeImage(api, session, file) : null
  if (stored?.ok) formData.set('image', stored.url)
  const submission = parseWithZod(formData, { schema: page.schema })
  // A failed upload's reason replaces "Image is required" on the image field.
  if (stored && !stored.ok) return answered(failedFormReply(submission, stored, { fieldErrors: { image: [stored.message] }, extra }))
  if (submission.status !== 'success') {
    const first = Object.values(submission.error ?? {}).flat()[0] ?? 'Check the form'
    return answered(invalidFormReply(submission, { toast: { type: 'error', message: first }, extra }))
  }

  const checked: CheckedCatalogForm = { submission, extra }
  if (_id) {
    const version = readText(formData, 'updatedAt')
    const value: z.output<S> & { _id: string; updatedAt?: string } = {
      _id,
      ...(version ? { updatedAt: version } : {}),
      ...submission.value,
    }
    return { intent: 'edit' as const, ...checked, value }
  }
  return { intent: 'add' as const, ...checked, value: submission.value, idempotencyKey: formIdempotencyKey(formData) }
}

/** The answer to a delete: a redirect to the list with the API's message, or its refusal (409: still used), as a toast. */
export function catalogDeleteAnswer(session: RequestSession, page: CatalogAdminPage<z.ZodObject>, result: UpstreamResult<unknown>) {
  // Both ways the dialog closes and the list is loaded again; 409 "still used" is the error toast.
  if (!result.ok) return redirectWithToast(session, page.listHref, { type: 'error', message: result.message })
  return redirectWithToast(session, page.listHref, { type: 'success', message: result.message || page.messages.deleted })
}

/**
 * The answer to an add or edit the API was asked to save: its refusal as a CatalogFormReply with
 * the API's status (400 field issues, 409 said on the name; app/.server/failure.ts), else a redirect
 * to the list with the API's message (or the page's "… added" / "… updated") as a toast.
 */
export function catalogSaveAnswer(
  session: RequestSession,
  page: CatalogAdminPage<z.ZodObject>,
  checked: CheckedCatalogForm,
  result: UpstreamResult<unknown>,
) {
  const { submission, extra } = checked
  if (!result.ok) return failedFormReply(submission, result, { fields: Object.keys(page.schema.shape), conflictField: 'name', extra })
  const fallback = extra.intent === 'add' ? page.messages.added : page.messages.updated
  return redirectWithToast(session, page.listHref, { type: 'success', message: result.message || fallback })
}
