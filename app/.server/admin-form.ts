/**
 * What the admin catalogue forms share on the server (category, sub category and product pages;
 * docs/decisions/0008-catalogue-writes.md): the guard and body read before anything else, the error
 * answer of a submission with no form to refill, and image uploads.
 *
 * Images reach the BFF two ways (docs/decisions/0007-progressive-enhancement.md): with JavaScript a
 * picked file is posted at once as `intent=upload` (multipart field `image`) and its url goes into the
 * form; without JavaScript the files travel with the form itself and are stored before it is checked.
 * Either way a file over the cap or of a type the API refuses is answered here without calling it;
 * the API checks the bytes again.
 */
import { data } from 'react-router'
import * as adminApi from './api/admin.ts'
import type { Api } from './api-context.ts'
import { tryReadForm, type FormLimits } from './form.ts'
import type { RequestSession } from './session.ts'
import { isAdminRole, isStaffRole, NO_PERMISSION_MESSAGE } from '../lib/roles.ts'
import type { ToastMessage } from '../lib/toast.ts'
import { CHOOSE_IMAGE_MESSAGE, checkImageFile, imageTooLargeMessage, readImageFile, type UploadReply } from '../lib/uploads.ts'
import { env } from './env.ts'

/** The answer to a submission with no form to refill (refused guard, unreadable body, unknown intent). */
export interface AdminErrorReply {
  intent: 'error'
  toast: ToastMessage
}

/** The `upload` intent's answer, as data of the admin pages' actions. */
export type AdminUploadReply = UploadReply & { toast: null }

/** `message` as an error toast with `status`, for a submission with no form to refill. */
export function adminErrorReply(message: string, status: number) {
  return data<AdminErrorReply>({ intent: 'error', toast: { type: 'error', message } }, { status })
}

/**
 * The body of an admin form, read only for a session user who is an ADMIN, or ADMIN or STAFF with
 * `staff: true` (the order desk and stock forms); nothing is forwarded for anyone else, and a stale
 * role in the summary is caught by the API, which checks the role on every write.
 * Else the answer to send: 403, or the body's 405/413/415/400 (app/.server/form.ts).
 */
export async function readAdminForm(
  request: Request,
  session: RequestSession,
  limits: FormLimits & { staff?: boolean },
): Promise<{ ok: true; formData: FormData } | { ok: false; response: ReturnType<typeof adminErrorReply> }> {
  const allowed = limits.staff ? isStaffRole(session.user?.role) : isAdminRole(session.user?.role)
  if (!allowed) return { ok: false, response: adminErrorReply(NO_PERMISSION_MESSAGE, 403) }
  const read = await tryReadForm(request, { tooLargeMessage: imageTooLargeMessage(env.uploadMaxBytes), ...limits })
  if (!read.ok) return { ok: false, response: adminErrorReply(read.message, read.status) }
  return { ok: true, formData: read.formData }
}

/**
 * Stores one picked image through `file/upload`: refused first when over the cap (413) or of a type
 * the API refuses (415). Answers its url, or the status and message to show.
 */
export async function storeImage(
  api: Api,
  session: RequestSession,
  file: File,
): Promise<{ ok: true; url: string } | { ok: false; status: number; message: string }> {
  const problem = checkImageFile(file, env.uploadMaxBytes)
  if (problem) return { ok: false, status: file.size > env.uploadMaxBytes ? 413 : 415, message: problem }
  return adminApi.uploadFormImage(api, session, file)
}

/** The `upload` intent: stores the file of field `image`; answers its url, or the reason with the API's status. */
export async function uploadIntentReply(api: Api, session: RequestSession, formData: FormData) {
  const reply = (url: string | null, error: string | null, status: number) =>
    data<AdminUploadReply>({ intent: 'upload', url, error, toast: null }, { status })
  const file = readImageFile(formData, 'image')
  if (!file) return reply(null, CHOOSE_IMAGE_MESSAGE, 400)
  const stored = await storeImage(api, session, file)
  return stored.ok ? reply(stored.url, null, 200) : reply(null, stored.message, stored.status)
}
