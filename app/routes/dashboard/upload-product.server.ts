/**
 * The action of /dashboard/upload-product (app/routes/dashboard/upload-product.tsx re-exports it;
 * docs/product.md, "Upload Product" and "States and transitions"; `product/create` and
 * `file/upload`: docs/api-contract.md, "Endpoints"). The form is checked as the product grid's edit
 * dialog checks it (app/.server/product-form.ts); what is this page's own is the create call and the
 * answer to a save: a redirect to the success dialog (`?created=<id>`).
 */
import { redirect } from 'react-router'
import type { Route } from './+types/upload-product'
import * as adminApi from '../../.server/api/admin.ts'
import { requireUser } from '../../.server/auth.ts'
import { getSession } from '../../.server/context.ts'
import { formIdempotencyKey } from '../../.server/idempotency.ts'
import { readAdminForm, uploadIntentReply } from '../../.server/admin-form.ts'
import { checkProductForm, PRODUCT_FORM_LIMITS, productSaveRefused } from '../../.server/product-form.ts'
import { UPLOAD_PRODUCT_PATH } from '../../lib/admin-urls.ts'
import { PRODUCT_INTENT } from '../../lib/schemas/product.ts'
import { apiOf } from '../../.server/api-context.ts'

/** The success dialog's text when the API's answer carries no message. */
export const CREATED_FALLBACK_MESSAGE = 'Product Created Successfully'

/**
 * The form's intents (app/.server/product-form.ts): `upload` answers an UploadReply; a saved product
 * redirects to `?created=<id>`, so the form starts empty and a reload does not post again.
 */
export async function action({ request, context, url }: Route.ActionArgs) {
  const api = apiOf(context)
  requireUser(context, url)
  const session = getSession(context)
  const form = await readAdminForm(request, session, PRODUCT_FORM_LIMITS)
  if (!form.ok) return form.response
  const { formData } = form
  if (formData.get('intent') === PRODUCT_INTENT.upload) return uploadIntentReply(api, session, formData)
  const checked = await checkProductForm(api, session, formData)
  if (!checked.ok) return checked.response
  const saved = await adminApi.createProduct(api, session, checked.value, { idempotencyKey: formIdempotencyKey(formData) })
  if (!saved.ok) return productSaveRefused(checked.submission, saved)
  // The server's message travels in the session flash, not the address, so no link can put
  // arbitrary text into the dialog.
  session.flashNotice(saved.message || CREATED_FALLBACK_MESSAGE)
  return redirect(`${UPLOAD_PRODUCT_PATH}?${new URLSearchParams({ created: saved.data._id })}`)
}
