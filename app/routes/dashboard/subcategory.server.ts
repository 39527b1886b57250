/**
 * The action of /dashboard/subcategory (app/routes/dashboard/subcategory.tsx re-exports it;
 * docs/product.md, "Sub Category admin" and "Toasts"; `subcategory/*` and `file/upload`:
 * docs/api-contract.md, "Endpoints"). The forms are read and answered as the category page's are
 * (app/.server/catalog-admin-form.ts); what is this page's own is its list (the table page it was
 * on, with its filters), its schema, its texts and the `subcategory/*` calls.
 */
import type { Route } from './+types/subcategory'
import * as adminApi from '../../.server/api/admin.ts'
import { requireUser } from '../../.server/auth.ts'
import { catalogActionMessages, catalogDeleteAnswer, catalogSaveAnswer, readCatalogSubmission } from '../../.server/catalog-admin-form.ts'
import { getSession } from '../../.server/context.ts'
import { SUBCATEGORY_FILTER_PARAMS, SUBCATEGORY_PATH, adminHref } from '../../lib/admin-urls.ts'
import { SubCategoryFormSchema } from '../../lib/schemas/catalog.ts'
import { apiOf } from '../../.server/api-context.ts'

const MESSAGES = catalogActionMessages('sub category', 'Sub Category')

/**
 * The page's forms, by `intent`: upload (answers an UploadReply), add, edit (400/409 with field
 * messages, else a redirect to the same table page with the API's message as a toast), delete
 * (always a redirect with a toast).
 */
export async function action({ request, context, url }: Route.ActionArgs) {
  const api = apiOf(context)
  requireUser(context, url)
  const session = getSession(context)
  const page = {
    // After a change the table shows the page it was on (paginate() clamps a page that no longer exists).
    listHref: adminHref(SUBCATEGORY_PATH, url.searchParams, null, undefined, SUBCATEGORY_FILTER_PARAMS),
    schema: SubCategoryFormSchema,
    messages: MESSAGES,
  }
  const submitted = await readCatalogSubmission(api, request, session, page)
  if (submitted.intent === 'answered') return submitted.response
  if (submitted.intent === 'delete')
    return catalogDeleteAnswer(session, page, await adminApi.deleteSubCategory(api, session, { _id: submitted._id }))
  const result =
    submitted.intent === 'add'
      ? await adminApi.createSubCategory(api, session, submitted.value, { idempotencyKey: submitted.idempotencyKey })
      : await adminApi.updateSubCategory(api, session, submitted.value)
  return catalogSaveAnswer(session, page, submitted, result)
}
