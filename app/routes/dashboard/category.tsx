/**
 * /dashboard/category (docs/product.md, "Category admin", "States and transitions", "Validation
 * rules", "Roles and permissions" and "Toasts"; `category/*` and `file/upload`: docs/api-contract.md,
 * "Endpoints"; without JavaScript: docs/decisions/0007-progressive-enhancement.md).
 *
 * - Guard: the loader asks the API who the user is now (`requireAdmin`); a non-admin gets the red
 *   "Do not have permission" box with status 403 and no list.
 * - Dialogs live in the address (`?dialog=add`, `?edit=<id>`, `?delete=<id>`): without JavaScript
 *   the server renders them and a link back closes them; with JavaScript they are modal.
 * - Every form is a multipart POST with an `intent`: `upload` (an image picked with JavaScript is
 *   uploaded at once through a fetcher), `add`, `edit` (without JavaScript the picked file comes
 *   along and is uploaded first), `delete`. Success redirects to the list with the API's message as
 *   a flash toast, so the dialog closes and the list is loaded again; a delete refused by the API
 *   (409: the category is still used) comes back as an error toast.
 */
import { data, Link, useSearchParams, type ShouldRevalidateFunctionArgs } from 'react-router'
import type { Route } from './+types/category'
import * as catalogApi from '../../.server/api/catalog.ts'
import { requireAdmin } from '../../.server/auth.ts'
import type { CatalogFormReply } from '../../.server/catalog-admin-form.ts'
import { newIdempotencyKey } from '../../.server/idempotency.ts'
import { AdminErrorBoundary } from '../../components/admin-guard.tsx'
import {
  AdminListHeader,
  CatalogFormDialog,
  DeleteDialog,
  MissingDialog,
  NameField,
  useDialogImage,
} from '../../components/catalog-admin-dialogs.tsx'
import { SHOP_NAME } from '../../components/header.tsx'
import { ImageUploadField } from '../../components/image-upload-field.tsx'
import { NoData } from '../../components/no-data.tsx'
import { ResponsiveImage } from '../../components/responsive-image.tsx'
import { ToastNotice } from '../../components/toasts.tsx'
import { useSchemaForm } from '../../components/use-schema-form.ts'
import { adminHref, CATEGORY_PATH, readDialog, shouldRevalidateAdminPage } from '../../lib/admin-urls.ts'
import { CategoryFormSchema } from '../../lib/schemas/catalog.ts'
import { apiOf } from '../../.server/api-context.ts'

export const meta: Route.MetaFunction = () => [
  { title: `Category | ${SHOP_NAME}` },
  { name: 'description', content: 'Admin: add, edit and delete categories.' },
  { name: 'robots', content: 'noindex' },
]

/** For an admin, every category (GET category/get); anyone else gets the thrown 403 of `requireAdmin`. */
export async function loader({ context, url }: Route.LoaderArgs) {
  const api = apiOf(context)
  await requireAdmin(context, url)
  const categories = await catalogApi.listCategories(api)
  return data({ categories, idempotencyKey: newIdempotencyKey() })
}

/** An upload through the fetcher answers data, not a navigation: the list need not be loaded again. */
export function shouldRevalidate(args: ShouldRevalidateFunctionArgs) {
  return shouldRevalidateAdminPage(args)
}

export { action } from './category.server.ts'

type CategoryItem = catalogApi.Category
type ActionReply = Route.ComponentProps['actionData']

/** The guarded page: the category list and the dialog its address names. */
export default function CategoryPage({ loaderData, actionData }: Route.ComponentProps) {
  return <CategoryAdmin categories={loaderData.categories} idempotencyKey={loaderData.idempotencyKey} actionData={actionData} />
}

function CategoryAdmin({
  categories,
  idempotencyKey,
  actionData,
}: {
  categories: CategoryItem[]
  /** Sent with the add form (app/.server/idempotency.ts). */
  idempotencyKey: string
  actionData: ActionReply | undefined
}) {
  const [searchParams] = useSearchParams()
  const dialog = readDialog(searchParams)
  const listHref = CATEGORY_PATH
  const formReply = actionData?.intent === 'add' || actionData?.intent === 'edit' ? actionData : null
  const target = dialog && dialog.kind !== 'add' ? categories.find((category) => category._id === dialog.id) : undefined
  // The replies the open add or edit dialog shows (a reply for another dialog or entity is not shown).
  const addReply = dialog?.kind === 'add' && formReply?.intent === 'add' ? formReply : null
  const editReply = dialog?.kind === 'edit' && target && formReply?.intent === 'edit' && formReply._id === target._id ? formReply : null

  return (
    <section className="p-4 md:p-6">
      <AdminListHeader title="Category" addHref={adminHref(CATEGORY_PATH, searchParams, { kind: 'add' })} addLabel="Add Category" />

      {categories.length === 0 ? (
        <NoData />
      ) : (
        <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 md:grid-cols-4 lg:grid-cols-5 xl:grid-cols-6">
          {categories.map((category) => (
            <li key={category._id} data-card="category" className="flex flex-col rounded-lg border border-slate-200 bg-white p-2 shadow-sm">
              <div className="flex aspect-square items-center justify-center overflow-hidden rounded-md bg-slate-50">
                <ResponsiveImage
                  src={category.image}
                  alt={category.name}
                  width={160}
                  height={160}
                  sizes="160px"
                  className="size-full object-contain"
                />
              </div>
              <p className="mt-2 line-clamp-2 min-h-10 text-center text-sm font-medium text-slate-800">{category.name}</p>
              <div className="mt-2 grid grid-cols-2 gap-2">
                <Link
                  to={adminHref(CATEGORY_PATH, searchParams, { kind: 'edit', id: category._id })}
                  preventScrollReset
                  aria-label={`Edit ${category.name}`}
                  className="inline-flex min-h-10 items-center justify-center rounded-md bg-green-100 text-sm font-medium text-green-800 hover:bg-green-200"
                >
                  Edit
                </Link>
                <Link
                  to={adminHref(CATEGORY_PATH, searchParams, { kind: 'delete', id: category._id })}
                  preventScrollReset
                  aria-label={`Delete ${category.name}`}
                  className="inline-flex min-h-10 items-center justify-center rounded-md bg-red-100 text-sm font-medium text-red-700 hover:bg-red-200"
                >
                  Delete
                </Link>
              </div>
            </li>
          ))}
        </ul>
      )}

      {dialog?.kind === 'add' ? (
        <CategoryFormDialog key="add" mode="add" idempotencyKey={idempotencyKey} closeTo={listHref} reply={addReply} />
      ) : null}
      {dialog?.kind === 'edit' ? (
        target ? (
          <CategoryFormDialog key={target._id} mode="edit" category={target} closeTo={listHref} reply={editReply} />
        ) : (
          <MissingDialog title="Edit Category" noun="category" closeTo={listHref} />
        )
      ) : null}
      {dialog?.kind === 'delete' ? (
        <DeleteDialog targetId={target?._id} noun="category" cancelTo={listHref} action={adminHref(CATEGORY_PATH, searchParams, dialog)} />
      ) : null}
      {/* The open dialog shows its own reply's messages and toast; any other answer (a refused guard, an unreadable body) is a toast. */}
      <ToastNotice toast={addReply || editReply ? null : actionData?.toast} />
    </section>
  )
}

/**
 * Add or edit one category: name and image (the upload waits for a name; the submit looks active only
 * with both). The checks and buttons are CatalogFormDialog's; the rules app/lib/schemas/catalog.ts.
 */
function CategoryFormDialog({
  mode,
  category,
  idempotencyKey,
  closeTo,
  reply,
}: {
  mode: 'add' | 'edit'
  category?: CategoryItem
  idempotencyKey?: string
  closeTo: string
  reply: CatalogFormReply | null
}) {
  const [searchParams] = useSearchParams()
  const formId = mode === 'add' ? 'category-add' : `category-edit-${category!._id}`
  const [form, fields] = useSchemaForm(formId, CategoryFormSchema, reply?.result, { name: category?.name, image: category?.image })
  const image = useDialogImage(form, fields.image)
  const name = fields.name.value ?? ''
  const isReady = Boolean(name.trim() && image.url) && !image.isUploading
  const self = adminHref(CATEGORY_PATH, searchParams, mode === 'add' ? { kind: 'add' } : { kind: 'edit', id: category!._id })

  return (
    <CatalogFormDialog
      title={mode === 'add' ? 'Add Category' : 'Edit Category'}
      form={form}
      reply={reply}
      mode={mode}
      _id={category?._id}
      version={category?.updatedAt}
      idempotencyKey={idempotencyKey}
      action={self}
      closeTo={closeTo}
      isUploading={image.isUploading}
      isReady={isReady}
      onUploadPending={image.onUploadPending}
    >
      <NameField meta={fields.name} placeholder="Enter category name" />
      <ImageUploadField
        label="Image"
        uploadAction={CATEGORY_PATH}
        disabled={!name.trim()}
        disabledHint="Enter the name first, then upload the image."
        {...image.fieldProps}
      />
    </CatalogFormDialog>
  )
}

/** Failures of the loader (an API fault: 502) as the fallback page of docs/product.md, "Error catalogue". */
export { AdminErrorBoundary as ErrorBoundary }
