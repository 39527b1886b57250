/**
 * /dashboard/category (spec section 2 "Category admin"; section 4 "Category add, update or delete:
 * list refetched afterwards; dialogs close"; section 5; section 6 guard; section 7 `category/*` and
 * `file/upload`; section 8 toasts). Issue 4 items 2, 3 and 7.
 *
 * - Guard: the loader asks the API who the user is now (`requireAdmin`); a non-admin gets the red
 *   "Do not have permission" box with status 403 and no list.
 * - The list: category cards (image, name, Edit, Delete) and "Add Category"; empty → No Data.
 * - Dialogs live in the address: `?dialog=add`, `?edit=<id>`, `?delete=<id>`. Without JavaScript
 *   they are rendered by the server and close with a link back; with JavaScript they are modal.
 * - Every form is a multipart POST with an `intent`: `upload` (an image picked with JavaScript is
 *   uploaded at once through a fetcher), `add`, `edit` (without JavaScript the picked file comes
 *   along and is uploaded first), `delete`. The server checks the fields (name 1..80, image) and
 *   answers with the messages; success redirects to the list with the API's message as a flash toast,
 *   so the dialog closes and the list is loaded again. A delete refused by the API (409: the category
 *   is still used) comes back as an error toast.
 */
import { useState } from 'react'
import { data, Form, Link, useNavigation, useSearchParams, type ShouldRevalidateFunctionArgs } from 'react-router'
import { useHydrated } from 'remix-utils/use-hydrated'
import type { Route } from './+types/category'
import * as adminApi from '../../.server/api/admin.ts'
import * as catalogApi from '../../.server/api/catalog.ts'
import { requireAdmin, requireUser } from '../../.server/auth.ts'
import { getSession } from '../../.server/context.ts'
import { redirectWithToast } from '../../.server/toast.ts'
import { AdminGuard, NO_PERMISSION_MESSAGE } from '../../components/admin-guard.tsx'
import {
  IMAGE_FILE_FIELD,
  NAME_MAX_LENGTH,
  adminHref,
  issuesToFieldErrors,
  parseCategoryForm,
  readAdminForm,
  readDialog,
  readImageFile,
  readIntent,
  readText,
  type CategoryFormValue,
  type FieldErrors,
  type UploadReply,
} from '../../components/catalog-admin.ts'
import { GeneralErrorBoundary } from '../../components/error-boundary.tsx'
import { ErrorList } from '../../components/forms.tsx'
import { SHOP_NAME } from '../../components/header.tsx'
import { ImageUploadField } from '../../components/image-upload-field.tsx'
import { NoData } from '../../components/no-data.tsx'
import { ResponsiveImage } from '../../components/responsive-image.tsx'
import { ToastNotice, type ToastMessage } from '../../components/toasts.tsx'
import { Button, buttonClassName } from '../../components/ui/button.tsx'
import { ConfirmDialog, Dialog } from '../../components/ui/dialog.tsx'
import { Input, Label } from '../../components/ui/input.tsx'

export const meta: Route.MetaFunction = () => [{ title: `Category | ${SHOP_NAME}` }]

const CATEGORY_PATH = '/dashboard/category'
const CATEGORY_FIELDS = ['name', 'image'] as const
/** Spec section 2, verbatim. */
const DELETE_TITLE = 'Permanent Deleted'
const DELETE_MESSAGE = 'Are you sure permanent delete ?'

/** The answer of a failed add or edit: the values to refill, the messages, and an error toast. */
interface FormReply {
  intent: 'add' | 'edit'
  _id: string | null
  values: CategoryFormValue
  fieldErrors: FieldErrors
  formError: string | null
  toast: ToastMessage
}
type ActionReply = FormReply | (UploadReply & { toast: ToastMessage | null }) | { intent: null; toast: ToastMessage }

/** The guard's decision and, for an admin, every category (GET category/get). Non-admin: 403, no list. */
export async function loader({ context, url }: Route.LoaderArgs) {
  const { isAdmin } = await requireAdmin(context, new Request(url))
  if (!isAdmin) return data({ isAdmin: false, categories: [] as catalogApi.Category[] }, { status: 403 })
  const categories = await catalogApi.listCategories()
  return data({ isAdmin: true, categories })
}

/** An upload through the fetcher answers data, not a navigation: the list need not be loaded again. */
export function shouldRevalidate({ formData, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (formData?.get('intent') === 'upload') return false
  return defaultShouldRevalidate
}

/**
 * The page's forms, by `intent`: upload (answers an UploadReply), add, edit (400/409 with field
 * messages, else a redirect with the API's message as a toast), delete (always a redirect with a toast).
 */
export async function action({ request, context, url }: Route.ActionArgs) {
  requireUser(context, new Request(url))
  const session = getSession(context)
  const reply = (body: ActionReply, status: number) => data(body, { status })
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
    if (!_id) return redirectWithToast(session, CATEGORY_PATH, { type: 'error', message: 'Choose a category to delete' })
    const result = await adminApi.deleteCategory(session, { _id })
    // Both ways the dialog closes and the list is loaded again (spec section 4); 409 "still used" is the error toast.
    if (!result.ok) return redirectWithToast(session, CATEGORY_PATH, { type: 'error', message: result.message })
    return redirectWithToast(session, CATEGORY_PATH, { type: 'success', message: result.message || 'Category deleted' })
  }

  if (intent === 'add' || intent === 'edit') {
    const _id = intent === 'edit' ? readText(formData, '_id') : null
    if (intent === 'edit' && !_id) return fail('Choose a category to edit', 400)
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
    const parsed = parseCategoryForm(formData)
    const values = parsed.ok ? parsed.value : parsed.values
    const formFailure = (fieldErrors: FieldErrors, formError: string | null, status: number) => {
      const message = formError ?? Object.values(fieldErrors).flat()[0] ?? 'Check the form'
      return reply({ intent, _id, values, fieldErrors, formError, toast: { type: 'error', message } }, status)
    }
    if (!parsed.ok || Object.keys(uploadErrors).length > 0) {
      // A failed upload's reason replaces "Image is required" on the image field.
      return formFailure({ ...(parsed.ok ? {} : parsed.fieldErrors), ...uploadErrors }, null, uploadStatus)
    }
    const result = _id
      ? await adminApi.updateCategory(session, { _id, ...parsed.value })
      : await adminApi.addCategory(session, parsed.value)
    if (!result.ok) {
      const fieldErrors = issuesToFieldErrors(result.issues, CATEGORY_FIELDS)
      // The API's message of a 400 repeats its first field issue (`name: …`): shown on the field only.
      const isOnField = Object.keys(fieldErrors).length > 0
      // 409: a category of that name exists already; say so on the name.
      if (result.status === 409 && !fieldErrors.name) fieldErrors.name = [result.message]
      return formFailure(fieldErrors, isOnField || result.status === 409 ? null : result.message, adminApi.failureStatus(result))
    }
    const fallback = intent === 'add' ? 'Category added' : 'Category updated'
    return redirectWithToast(session, CATEGORY_PATH, { type: 'success', message: result.message || fallback })
  }

  return fail('Unknown action', 400)
}

type CategoryItem = catalogApi.Category

/** The guarded page: the category list and the dialog its address names. */
export default function CategoryPage({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <AdminGuard isAdmin={loaderData.isAdmin}>
      <CategoryAdmin categories={loaderData.categories} actionData={actionData} />
    </AdminGuard>
  )
}

function CategoryAdmin({ categories, actionData }: { categories: CategoryItem[]; actionData: ActionReply | undefined }) {
  const [searchParams] = useSearchParams()
  const navigation = useNavigation()
  const dialog = readDialog(searchParams)
  const listHref = CATEGORY_PATH
  const formReply = actionData && (actionData.intent === 'add' || actionData.intent === 'edit') ? actionData : null
  const target = dialog && dialog.kind !== 'add' ? categories.find((category) => category._id === dialog.id) : undefined
  const isDeleting = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'delete'

  return (
    <section className="p-4 md:p-6">
      <div className="sticky top-0 z-10 -mx-4 -mt-4 mb-4 flex items-center justify-between gap-3 border-b border-slate-200 bg-white px-4 py-3 md:-mx-6 md:-mt-6 md:px-6">
        <h1 className="text-lg font-semibold text-slate-900">Category</h1>
        <Link to={adminHref(CATEGORY_PATH, searchParams, { kind: 'add' })} preventScrollReset className={buttonClassName({ variant: 'brand', size: 'sm' })}>
          Add Category
        </Link>
      </div>

      {categories.length === 0 ? (
        <NoData />
      ) : (
        <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 md:grid-cols-4 lg:grid-cols-5 xl:grid-cols-6">
          {categories.map((category) => (
            <li key={category._id} className="flex flex-col rounded-lg border border-slate-200 bg-white p-2 shadow-sm">
              <div className="flex aspect-square items-center justify-center overflow-hidden rounded-md bg-slate-50">
                <ResponsiveImage src={category.image} alt={category.name} width={160} height={160} sizes="160px" className="size-full object-contain" />
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
        <CategoryFormDialog key="add" mode="add" closeTo={listHref} reply={formReply?.intent === 'add' ? formReply : null} />
      ) : null}
      {dialog?.kind === 'edit' ? (
        target ? (
          <CategoryFormDialog
            key={target._id}
            mode="edit"
            category={target}
            closeTo={listHref}
            reply={formReply?.intent === 'edit' && formReply._id === target._id ? formReply : null}
          />
        ) : (
          <MissingDialog title="Edit Category" closeTo={listHref} />
        )
      ) : null}
      {dialog?.kind === 'delete' ? (
        target ? (
          <ConfirmDialog
            title={DELETE_TITLE}
            message={DELETE_MESSAGE}
            cancelTo={listHref}
            action={adminHref(CATEGORY_PATH, searchParams, dialog)}
            fields={{ intent: 'delete', _id: target._id }}
            isPending={isDeleting}
          />
        ) : (
          <MissingDialog title={DELETE_TITLE} closeTo={listHref} />
        )
      ) : null}
      <ToastNotice toast={actionData?.toast} />
    </section>
  )
}

/** A dialog whose category is gone (deleted meanwhile, or a mistyped address). */
function MissingDialog({ title, closeTo }: { title: string; closeTo: string }) {
  return (
    <Dialog title={title} closeTo={closeTo} size="sm">
      <p className="text-slate-700">This category does not exist any more.</p>
    </Dialog>
  )
}

/**
 * Add or edit one category: name and image (spec section 5: the upload is disabled until a name is
 * given; the submit looks active only with both). With JavaScript, a submit with a missing field is
 * stopped here with the server's own messages; the server checks again either way.
 */
function CategoryFormDialog({
  mode,
  category,
  closeTo,
  reply,
}: {
  mode: 'add' | 'edit'
  category?: CategoryItem
  closeTo: string
  reply: FormReply | null
}) {
  const isHydrated = useHydrated()
  const navigation = useNavigation()
  const [searchParams] = useSearchParams()
  const [name, setName] = useState(reply?.values.name ?? category?.name ?? '')
  const [image, setImage] = useState(reply?.values.image ?? category?.image ?? '')
  const [isUploading, setUploading] = useState(false)
  const [clientErrors, setClientErrors] = useState<FieldErrors | null>(null)
  const isSaving = navigation.state !== 'idle' && navigation.formData?.get('intent') === mode
  const fieldErrors = clientErrors ?? reply?.fieldErrors ?? {}
  const isReady = Boolean(name.trim() && image) && !isUploading
  const self = adminHref(CATEGORY_PATH, searchParams, mode === 'add' ? { kind: 'add' } : { kind: 'edit', id: category!._id })
  const title = mode === 'add' ? 'Add Category' : 'Edit Category'

  return (
    <Dialog title={title} closeTo={closeTo} size="md">
      <Form
        method="post"
        action={self}
        encType="multipart/form-data"
        noValidate
        className="grid gap-4"
        onSubmit={(event) => {
          if (isUploading) {
            event.preventDefault()
            setClientErrors({ image: ['Wait until the image is uploaded'] })
            return
          }
          const parsed = parseCategoryForm(new FormData(event.currentTarget))
          if (!parsed.ok) {
            event.preventDefault()
            setClientErrors(parsed.fieldErrors)
            return
          }
          setClientErrors(null)
        }}
      >
        <input type="hidden" name="intent" value={mode} />
        {category ? <input type="hidden" name="_id" value={category._id} /> : null}
        <div>
          <Label htmlFor="category-name">Name</Label>
          <Input
            id="category-name"
            name="name"
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            maxLength={NAME_MAX_LENGTH}
            placeholder="Enter category name"
            autoComplete="off"
            data-autofocus
            aria-invalid={fieldErrors.name?.length ? true : undefined}
            aria-describedby={fieldErrors.name?.length ? 'category-name-error' : undefined}
          />
          <ErrorList id="category-name-error" errors={fieldErrors.name} />
        </div>
        <ImageUploadField
          label="Image"
          uploadAction={CATEGORY_PATH}
          defaultValue={image}
          disabled={!name.trim()}
          disabledHint="Enter the name first, then upload the image."
          errors={fieldErrors.image}
          onChange={setImage}
          onPendingChange={setUploading}
        />
        <ErrorList errors={reply?.formError ? [reply.formError] : null} role="alert" />
        <div className="flex justify-end gap-2">
          <Link to={closeTo} replace preventScrollReset className={buttonClassName({ variant: 'secondary' })}>
            Cancel
          </Link>
          <Button
            type="submit"
            isPending={isSaving}
            // Spec section 5: it looks active only with a name and an image; a click still explains what is missing.
            aria-disabled={isHydrated && !isReady ? true : undefined}
          >
            {isSaving ? 'Saving…' : 'Submit'}
          </Button>
        </div>
      </Form>
    </Dialog>
  )
}

/** Failures of the loader (an API fault: 502) as the fallback page of spec section 8. */
export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
