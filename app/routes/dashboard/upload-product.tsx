/**
 * /dashboard/upload-product (docs/product.md, "Upload Product"; after a successful create the form
 * resets to empty and a success dialog shows the server message with a green confirm button:
 * docs/product.md, "States and transitions"; rules: docs/product.md, "Validation rules"; guard:
 * docs/product.md, "Roles and permissions"; `product/create` and `file/upload`: docs/api-contract.md,
 * "Endpoints"; without JavaScript: docs/decisions/0007-progressive-enhancement.md).
 *
 * - Guard: the loader asks the API who the user is now (`requireAdmin`); anyone but an admin gets
 *   the red "Do not have permission" box (403) and no form.
 * - The form is app/components/product-form.tsx; its server side app/.server/product-form.ts, and this
 *   page's action app/routes/dashboard/upload-product.server.ts.
 * - Dialogs live in the address: `?add-field=1` (Add Field), `?created=<id>` (the
 *   success dialog). A saved product redirects to the latter, so the form starts empty (it is keyed
 *   by the created id) and a reload does not post again; "Confirm" goes back to the empty form.
 */
import { data, useSearchParams, type ShouldRevalidateFunctionArgs } from 'react-router'
import type { Route } from './+types/upload-product'
import * as catalogApi from '../../.server/api/catalog.ts'
import { requireAdmin } from '../../.server/auth.ts'
import { getSession } from '../../.server/context.ts'
import { newIdempotencyKey } from '../../.server/idempotency.ts'
import type { ProductActionReply } from '../../.server/product-form.ts'
import { CREATED_FALLBACK_MESSAGE } from './upload-product.server.ts'
import { AdminErrorBoundary } from '../../components/admin-guard.tsx'
import { SHOP_NAME } from '../../components/header.tsx'
import { ProductForm } from '../../components/product-form.tsx'
import { ToastNotice } from '../../components/toasts.tsx'
import { ButtonLink } from '../../components/ui/button.tsx'
import { Dialog } from '../../components/ui/dialog.tsx'
import { shouldRevalidateAdminPage, UPLOAD_PRODUCT_PATH, withAddField } from '../../lib/admin-urls.ts'
import { ADD_FIELD_PARAM, productFormOptions } from '../../lib/schemas/product.ts'
import { apiOf } from '../../.server/api-context.ts'

export const meta: Route.MetaFunction = () => [
  { title: `Upload Product | ${SHOP_NAME}` },
  { name: 'description', content: 'Admin: add a product to the catalogue.' },
  { name: 'robots', content: 'noindex' },
]

const FORM_ID = 'upload-product'

export async function loader({ context, url }: Route.LoaderArgs) {
  const api = apiOf(context)
  await requireAdmin(context, url)
  const [categories, subCategories] = await Promise.all([catalogApi.listCategories(api), catalogApi.listSubCategories(api)])
  const createdId = url.searchParams.get('created')?.trim()
  const created = createdId ? { _id: createdId, message: getSession(context).takeNotice() || CREATED_FALLBACK_MESSAGE } : null
  return data({ ...productFormOptions(categories, subCategories), created, idempotencyKey: newIdempotencyKey() })
}

export function shouldRevalidate(args: ShouldRevalidateFunctionArgs) {
  return shouldRevalidateAdminPage(args)
}

export { action } from './upload-product.server.ts'

export default function UploadProduct({ loaderData, actionData }: Route.ComponentProps) {
  return <UploadProductPage loaderData={loaderData} actionData={actionData} />
}

function UploadProductPage({ loaderData, actionData }: Pick<Route.ComponentProps, 'loaderData' | 'actionData'>) {
  const [searchParams] = useSearchParams()
  const reply = (actionData as ProductActionReply | undefined) ?? null
  const formReply = reply?.intent === 'form' ? reply : null
  const { created } = loaderData
  const isAddFieldOpen = !created && searchParams.has(ADD_FIELD_PARAM) && !formReply?.fieldAdded

  return (
    <section className="p-4 md:p-6">
      <div className="sticky top-0 z-10 -mx-4 -mt-4 mb-4 flex items-center justify-between gap-3 border-b border-slate-200 bg-white px-4 py-3 md:-mx-6 md:-mt-6 md:px-6">
        <h1 className="text-lg font-semibold text-slate-900">Upload Product</h1>
      </div>
      <div className="max-w-3xl">
        <ProductForm
          // A new product starts from an empty form (docs/product.md, "States and transitions": the
          // form resets to empty).
          key={created?._id ?? 'new'}
          id={FORM_ID}
          action={UPLOAD_PRODUCT_PATH}
          addFieldHref={withAddField(UPLOAD_PRODUCT_PATH)}
          isAddFieldOpen={isAddFieldOpen}
          categories={loaderData.categories}
          subCategories={loaderData.subCategories}
          reply={formReply}
          // A save posted twice (double click, browser retry) makes one product (app/.server/idempotency.ts).
          hiddenFields={{ idempotencyKey: loaderData.idempotencyKey }}
        />
      </div>
      {created ? (
        <Dialog title={created.message} closeTo={UPLOAD_PRODUCT_PATH} size="sm">
          <div className="flex justify-end">
            <ButtonLink to={UPLOAD_PRODUCT_PATH} replace preventScrollReset variant="primary" data-autofocus>
              Confirm
            </ButtonLink>
          </div>
        </Dialog>
      ) : null}
      {/* The form shows its own reply's messages and toast; any other answer (a refused guard, an unreadable body) is a toast. */}
      <ToastNotice toast={formReply ? null : reply?.toast} />
    </section>
  )
}

export { AdminErrorBoundary as ErrorBoundary }
