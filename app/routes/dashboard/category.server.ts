/**
 * The action of /dashboard/category (app/routes/dashboard/category.tsx re-exports it; docs/product.md,
 * "Category admin" and "Toasts"; `category/*` and `file/upload`: docs/api-contract.md, "Endpoints").
 * The forms are read and answered as the sub category page's are (app/.server/catalog-admin-form.ts);
 * what is this page's own is its list, its schema, its texts and the `category/*` calls.
 */
import type { Route } from './+types/category'
import * as adminApi from '../../.server/api/admin.ts'
import { requireUser } from '../../.server/auth.ts'
import { catalogActionMessages, catalogDeleteAnswer, catalogSaveAnswer, readCatalogSubmission } from '../../.server/catalog-admin-form.ts'
import { getSession } from '../../.server/context.ts'
import { CATEGORY_PATH } from '../../lib/admin-urls.ts'
import { CategoryFormSchema } from '../../lib/schemas/catalog.ts'
import { apiOf } from '../../.server/api-context.ts'

const CATEGORY_PAGE = { listHref: CATEGORY_PATH, schema: CategoryFormSchema, messages: catalogActionMessages('category', 'Category') }

/**
 * The page's forms, by `intent`: upload (answers an UploadReply), add, edit (400/409 with field
 * messages, else a redirect with the API's message as a toast), delete (always a redirect with a toast).
 */
export async function action({ request, context, url }: Route.ActionArgs) {
  const api = apiOf(context)
  requireUser(context, url)
  const session = getSession(context)
  const submitted = await readCatalogSubmission(api, request, session, CATEGORY_PAGE)
  if (submitted.intent === 'answered') return submitted.response
  // A 409 here means the category is still used; it comes back as the error toast.
  if (submitted.intent === 'delete')
    return catalogDeleteAnswer(session, CATEGORY_PAGE, await adminApi.deleteCategory(api, session, { _id: submitted._id }))
  const result =
    submitted.intent === 'add'
      ? await adminApi.addCategory(api, session, submitted.value, { idempotencyKey: submitted.idempotencyKey })
      : await adminApi.updateCategory(api, session, submitted.value)
  return catalogSaveAnswer(session, CATEGORY_PAGE, submitted, result)
}
