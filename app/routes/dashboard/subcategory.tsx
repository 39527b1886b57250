/**
 * /dashboard/subcategory (spec section 2 "Sub Category admin"; section 4 "Sub category edit" and
 * "Sub category delete"; section 5; section 6 guard; section 7 `subcategory/*` and `file/upload`;
 * section 8 toasts; section 9 "data table default page size 10"). Issue 4 items 2, 4 and 7.
 *
 * - Guard: the loader asks the API who the user is now (`requireAdmin`); a non-admin gets the red
 *   "Do not have permission" box with status 403 and no data.
 * - A header with "Add Sub Category" and a table with a black header: No., Name, Image (a thumbnail
 *   that opens a full-screen viewer), Category (chips), Action (edit and delete icons). Ten rows a
 *   page, `?page=N` with Previous and Next; the loader sends every sub category (the API has no
 *   paging for them), the page is cut here, on the server and in the browser alike.
 * - Dialogs live in the address, the page kept: `?dialog=add`, `?edit=<id>`, `?delete=<id>`,
 *   `?view=<id>`. Without JavaScript they are rendered by the server and close with a link back; with
 *   JavaScript they are modal.
 * - Every form is a multipart POST with an `intent` (`upload`, `add`, `edit`, `delete`), as on the
 *   category page: the server checks name (1..80), image and at least one category and answers with
 *   the messages; success redirects to the same table page with the API's message as a flash toast,
 *   so the modal closes and the list is loaded again.
 */
import { useState } from 'react'
import { data, Form, Link, useNavigation, useSearchParams, type ShouldRevalidateFunctionArgs } from 'react-router'
import { useHydrated } from 'remix-utils/use-hydrated'
import type { Route } from './+types/subcategory'
import * as adminApi from '../../.server/api/admin.ts'
import * as catalogApi from '../../.server/api/catalog.ts'
import { requireAdmin, requireUser } from '../../.server/auth.ts'
import { getSession } from '../../.server/context.ts'
import { redirectWithToast } from '../../.server/toast.ts'
import { AdminGuard, NO_PERMISSION_MESSAGE } from '../../components/admin-guard.tsx'
import {
  IMAGE_FILE_FIELD,
  NAME_MAX_LENGTH,
  PAGE_PARAM,
  adminHref,
  issuesToFieldErrors,
  paginate,
  parseSubCategoryForm,
  readAdminForm,
  readDialog,
  readImageFile,
  readIntent,
  readText,
  type FieldErrors,
  type SubCategoryFormValue,
  type UploadReply,
} from '../../components/catalog-admin.ts'
import { ChipsSelect, type ChipOption } from '../../components/chips-select.tsx'
import { GeneralErrorBoundary } from '../../components/error-boundary.tsx'
import { ErrorList } from '../../components/forms.tsx'
import { SHOP_NAME } from '../../components/header.tsx'
import { ChevronLeftIcon, ChevronRightIcon, PencilIcon, TrashIcon } from '../../components/icons.tsx'
import { ImageUploadField } from '../../components/image-upload-field.tsx'
import { NoData } from '../../components/no-data.tsx'
import { ResponsiveImage } from '../../components/responsive-image.tsx'
import { ToastNotice, type ToastMessage } from '../../components/toasts.tsx'
import { Button, buttonClassName } from '../../components/ui/button.tsx'
import { ConfirmDialog, Dialog } from '../../components/ui/dialog.tsx'
import { Input, Label } from '../../components/ui/input.tsx'

export const meta: Route.MetaFunction = () => [{ title: `Sub Category | ${SHOP_NAME}` }]

const SUBCATEGORY_PATH = '/dashboard/subcategory'
const SUBCATEGORY_FIELDS = ['name', 'image', 'category'] as const
/** The confirm dialog's words (spec section 2, as on the category page). */
const DELETE_TITLE = 'Permanent Deleted'
const DELETE_MESSAGE = 'Are you sure permanent delete ?'

/** The answer of a failed add or edit: the values to refill, the messages, and an error toast. */
interface FormReply {
  intent: 'add' | 'edit'
  _id: string | null
  values: SubCategoryFormValue
  fieldErrors: FieldErrors
  formError: string | null
  toast: ToastMessage
}
type ActionReply = FormReply | (UploadReply & { toast: ToastMessage | null }) | { intent: null; toast: ToastMessage }

/** The guard's decision and, for an admin, every sub category and category. Non-admin: 403, no data. */
export async function loader({ context, url }: Route.LoaderArgs) {
  const { isAdmin } = await requireAdmin(context, new Request(url))
  if (!isAdmin) {
    return data({ isAdmin: false, subCategories: [] as catalogApi.SubCategory[], categories: [] as catalogApi.Category[] }, { status: 403 })
  }
  const [subCategories, categories] = await Promise.all([catalogApi.listSubCategories(), catalogApi.listCategories()])
  return data({ isAdmin: true, subCategories, categories })
}

/** An upload through the fetcher answers data, not a navigation: the lists need not be loaded again. */
export function shouldRevalidate({ formData, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (formData?.get('intent') === 'upload') return false
  return defaultShouldRevalidate
}

/**
 * The page's forms, by `intent`: upload (answers an UploadReply), add, edit (400/409 with field
 * messages, else a redirect to the same table page with the API's message as a toast), delete
 * (always a redirect with a toast).
 */
export async function action({ request, context, url }: Route.ActionArgs) {
  requireUser(context, new Request(url))
  const session = getSession(context)
  const reply = (body: ActionReply, status: number) => data(body, { status })
  const fail = (message: string, status: number) => reply({ intent: null, toast: { type: 'error', message } }, status)
  // After a change the table shows the page it was on (paginate() clamps a page that no longer exists).
  const listHref = adminHref(SUBCATEGORY_PATH, url.searchParams, null)

  // Nothing is forwarded for a user the session knows as a shopper; the API checks the role anyway.
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
    if (!_id) return redirectWithToast(session, listHref, { type: 'error', message: 'Choose a sub category to delete' })
    const result = await adminApi.deleteSubCategory(session, { _id })
    // Spec section 4: success shows the message, reloads the list and closes the dialog.
    if (!result.ok) return redirectWithToast(session, listHref, { type: 'error', message: result.message })
    return redirectWithToast(session, listHref, { type: 'success', message: result.message || 'Sub Category deleted' })
  }

  if (intent === 'add' || intent === 'edit') {
    const _id = intent === 'edit' ? readText(formData, '_id') : null
    if (intent === 'edit' && !_id) return fail('Choose a sub category to edit', 400)
    // Without JavaScript the picked file arrives with the form: store it first, then save its url.
    let uploadErrors: FieldErrors = {}
    let status = 400
    const file = readImageFile(formData, IMAGE_FILE_FIELD)
    if (file) {
      const uploaded = await adminApi.uploadFormImage(session, file)
      if (uploaded.ok) formData.set('image', uploaded.url)
      else {
        uploadErrors = { image: [uploaded.message] }
        status = uploaded.status
      }
    }
    const parsed = parseSubCategoryForm(formData)
    const values = parsed.ok ? parsed.value : parsed.values
    const formFailure = (fieldErrors: FieldErrors, formError: string | null, code: number) => {
      const message = formError ?? Object.values(fieldErrors).flat()[0] ?? 'Check the form'
      return reply({ intent, _id, values, fieldErrors, formError, toast: { type: 'error', message } }, code)
    }
    if (!parsed.ok || Object.keys(uploadErrors).length > 0) {
      // A failed upload's reason replaces "Image is required" on the image field.
      return formFailure({ ...(parsed.ok ? {} : parsed.fieldErrors), ...uploadErrors }, null, status)
    }
    const result = _id
      ? await adminApi.updateSubCategory(session, { _id, ...parsed.value })
      : await adminApi.createSubCategory(session, parsed.value)
    if (!result.ok) {
      const fieldErrors = issuesToFieldErrors(result.issues, SUBCATEGORY_FIELDS)
      // The API's message of a 400 repeats its first field issue (`name: …`): shown on the field only.
      const isOnField = Object.keys(fieldErrors).length > 0
      if (result.status === 409 && !fieldErrors.name) fieldErrors.name = [result.message]
      return formFailure(fieldErrors, isOnField || result.status === 409 ? null : result.message, adminApi.failureStatus(result))
    }
    const fallback = intent === 'add' ? 'Sub Category added' : 'Sub Category updated'
    return redirectWithToast(session, listHref, { type: 'success', message: result.message || fallback })
  }

  return fail('Unknown action', 400)
}

type SubCategoryItem = catalogApi.SubCategory

/** The guarded page: the sub category table and the dialog its address names. */
export default function SubCategoryPage({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <AdminGuard isAdmin={loaderData.isAdmin}>
      <SubCategoryAdmin subCategories={loaderData.subCategories} categories={loaderData.categories} actionData={actionData} />
    </AdminGuard>
  )
}

function SubCategoryAdmin({
  subCategories,
  categories,
  actionData,
}: {
  subCategories: SubCategoryItem[]
  categories: catalogApi.Category[]
  actionData: ActionReply | undefined
}) {
  const [searchParams] = useSearchParams()
  const navigation = useNavigation()
  const dialog = readDialog(searchParams)
  const table = paginate(subCategories, searchParams.get(PAGE_PARAM))
  const closeTo = adminHref(SUBCATEGORY_PATH, searchParams, null, table.page)
  const href = (next: Parameters<typeof adminHref>[2]) => adminHref(SUBCATEGORY_PATH, searchParams, next, table.page)
  const formReply = actionData && (actionData.intent === 'add' || actionData.intent === 'edit') ? actionData : null
  const target = dialog && dialog.kind !== 'add' ? subCategories.find((item) => item._id === dialog.id) : undefined
  const options: ChipOption[] = categories.map((category) => ({ value: category._id, label: category.name }))
  const isDeleting = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'delete'

  return (
    <section className="p-4 md:p-6">
      <div className="sticky top-0 z-10 -mx-4 -mt-4 mb-4 flex items-center justify-between gap-3 border-b border-slate-200 bg-white px-4 py-3 md:-mx-6 md:-mt-6 md:px-6">
        <h1 className="text-lg font-semibold text-slate-900">Sub Category</h1>
        <Link to={href({ kind: 'add' })} preventScrollReset className={buttonClassName({ variant: 'brand', size: 'sm' })}>
          Add Sub Category
        </Link>
      </div>

      {subCategories.length === 0 ? (
        <NoData />
      ) : (
        <>
          <div className="overflow-x-auto rounded-lg border border-slate-200">
            <table className="w-full min-w-[640px] border-collapse text-left text-sm">
              <thead className="bg-black text-white">
                <tr>
                  <th scope="col" className="w-14 px-3 py-2 font-semibold">No.</th>
                  <th scope="col" className="px-3 py-2 font-semibold">Name</th>
                  <th scope="col" className="w-20 px-3 py-2 font-semibold">Image</th>
                  <th scope="col" className="px-3 py-2 font-semibold">Category</th>
                  <th scope="col" className="w-28 px-3 py-2 font-semibold">Action</th>
                </tr>
              </thead>
              <tbody>
                {table.rows.map((item, index) => (
                  <tr key={item._id} className="border-t border-slate-200 odd:bg-white even:bg-slate-50">
                    <td className="px-3 py-2 text-slate-600">{table.firstSerial + index}</td>
                    <td className="px-3 py-2 font-medium text-slate-900">{item.name}</td>
                    <td className="px-3 py-2">
                      <Link
                        to={href({ kind: 'view', id: item._id })}
                        preventScrollReset
                        aria-label={`View ${item.name} full screen`}
                        className="block size-10 overflow-hidden rounded bg-slate-100 ring-1 ring-slate-200 hover:ring-accent"
                      >
                        <ResponsiveImage src={item.image} alt="" width={40} height={40} sizes="40px" className="size-10 object-contain" />
                      </Link>
                    </td>
                    <td className="px-3 py-2">
                      <ul className="flex flex-wrap gap-1">
                        {item.category.map((category) => (
                          <li key={category._id} className="rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-800 ring-1 ring-slate-200">
                            {category.name}
                          </li>
                        ))}
                      </ul>
                    </td>
                    <td className="px-3 py-2">
                      <div className="flex items-center gap-1">
                        <Link
                          to={href({ kind: 'edit', id: item._id })}
                          preventScrollReset
                          aria-label={`Edit ${item.name}`}
                          className="inline-flex size-10 items-center justify-center rounded-full bg-green-100 text-green-700 hover:bg-green-200"
                        >
                          <PencilIcon size={18} />
                        </Link>
                        <Link
                          to={href({ kind: 'delete', id: item._id })}
                          preventScrollReset
                          aria-label={`Delete ${item.name}`}
                          className="inline-flex size-10 items-center justify-center rounded-full bg-red-100 text-red-600 hover:bg-red-200"
                        >
                          <TrashIcon size={18} />
                        </Link>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <TablePager page={table.page} totalPages={table.totalPages} hrefFor={(page) => adminHref(SUBCATEGORY_PATH, searchParams, null, page)} />
        </>
      )}

      {dialog?.kind === 'add' ? (
        <SubCategoryFormDialog key="add" mode="add" options={options} closeTo={closeTo} action={href(dialog)} reply={formReply?.intent === 'add' ? formReply : null} />
      ) : null}
      {dialog?.kind === 'edit' ? (
        target ? (
          <SubCategoryFormDialog
            key={target._id}
            mode="edit"
            subCategory={target}
            options={options}
            closeTo={closeTo}
            action={href(dialog)}
            reply={formReply?.intent === 'edit' && formReply._id === target._id ? formReply : null}
          />
        ) : (
          <MissingDialog title="Edit Sub Category" closeTo={closeTo} />
        )
      ) : null}
      {dialog?.kind === 'delete' ? (
        target ? (
          <ConfirmDialog
            title={DELETE_TITLE}
            message={DELETE_MESSAGE}
            cancelTo={closeTo}
            action={href(dialog)}
            fields={{ intent: 'delete', _id: target._id }}
            isPending={isDeleting}
          />
        ) : (
          <MissingDialog title={DELETE_TITLE} closeTo={closeTo} />
        )
      ) : null}
      {dialog?.kind === 'view' ? (
        target ? (
          <Dialog title={`Image of ${target.name}`} hideTitle size="full" closeTo={closeTo}>
            <div className="flex flex-1 items-center justify-center p-4">
              {/* The full stored image (at most 1024 px wide), scaled down to the screen. */}
              <img src={target.image} alt={target.name} className="max-h-[85vh] max-w-full object-contain" />
            </div>
          </Dialog>
        ) : (
          <MissingDialog title="Image" closeTo={closeTo} />
        )
      ) : null}
      <ToastNotice toast={actionData?.toast} />
    </section>
  )
}

/** Previous, "Page x of y", Next (links, so they work without JavaScript); an end is shown inactive. */
function TablePager({ page, totalPages, hrefFor }: { page: number; totalPages: number; hrefFor: (page: number) => string }) {
  const step = (to: number, label: string, icon: React.ReactNode, iconFirst: boolean) => {
    const content = iconFirst ? (
      <>
        {icon}
        {label}
      </>
    ) : (
      <>
        {label}
        {icon}
      </>
    )
    const style = buttonClassName({ variant: 'secondary', size: 'sm' })
    if (to < 1 || to > totalPages) {
      return (
        <span aria-disabled="true" className={style}>
          {content}
        </span>
      )
    }
    return (
      <Link to={hrefFor(to)} preventScrollReset className={style}>
        {content}
      </Link>
    )
  }
  return (
    <nav aria-label="Sub category pages" className="mt-4 flex items-center justify-between gap-2">
      {step(page - 1, 'Previous', <ChevronLeftIcon size={18} />, true)}
      <p className="text-sm text-slate-700" aria-live="polite">
        Page {page} of {totalPages}
      </p>
      {step(page + 1, 'Next', <ChevronRightIcon size={18} />, false)}
    </nav>
  )
}

/** A dialog whose sub category is gone (deleted meanwhile, or a mistyped address). */
function MissingDialog({ title, closeTo }: { title: string; closeTo: string }) {
  return (
    <Dialog title={title} closeTo={closeTo} size="sm">
      <p className="text-slate-700">This sub category does not exist any more.</p>
    </Dialog>
  )
}

/**
 * Add or edit one sub category (spec section 2: name, image upload with preview, category picker
 * with chips, Submit; section 4: opens prefilled, a new file replaces the image, picking appends a
 * category, the cross removes it). The submit looks active only with a name, an image and a category
 * (spec section 5); with JavaScript a submit with a missing field is stopped here with the server's
 * own messages, and the server checks again either way.
 */
function SubCategoryFormDialog({
  mode,
  subCategory,
  options,
  closeTo,
  action,
  reply,
}: {
  mode: 'add' | 'edit'
  subCategory?: SubCategoryItem
  options: ChipOption[]
  closeTo: string
  action: string
  reply: FormReply | null
}) {
  const isHydrated = useHydrated()
  const navigation = useNavigation()
  const initialCategories = reply?.values.category ?? subCategory?.category.map((category) => category._id) ?? []
  const [name, setName] = useState(reply?.values.name ?? subCategory?.name ?? '')
  const [image, setImage] = useState(reply?.values.image ?? subCategory?.image ?? '')
  const [categoryIds, setCategoryIds] = useState<string[]>(initialCategories)
  const [isUploading, setUploading] = useState(false)
  const [clientErrors, setClientErrors] = useState<FieldErrors | null>(null)
  const isSaving = navigation.state !== 'idle' && navigation.formData?.get('intent') === mode
  const fieldErrors = clientErrors ?? reply?.fieldErrors ?? {}
  const isReady = Boolean(name.trim() && image && categoryIds.length > 0) && !isUploading

  return (
    <Dialog title={mode === 'add' ? 'Add Sub Category' : 'Edit Sub Category'} closeTo={closeTo} size="md">
      <Form
        method="post"
        action={action}
        encType="multipart/form-data"
        noValidate
        className="grid gap-4"
        onSubmit={(event) => {
          if (isUploading) {
            event.preventDefault()
            setClientErrors({ image: ['Wait until the image is uploaded'] })
            return
          }
          const parsed = parseSubCategoryForm(new FormData(event.currentTarget))
          if (!parsed.ok) {
            event.preventDefault()
            setClientErrors(parsed.fieldErrors)
            return
          }
          setClientErrors(null)
        }}
      >
        <input type="hidden" name="intent" value={mode} />
        {subCategory ? <input type="hidden" name="_id" value={subCategory._id} /> : null}
        <div>
          <Label htmlFor="subcategory-name">Name</Label>
          <Input
            id="subcategory-name"
            name="name"
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            maxLength={NAME_MAX_LENGTH}
            placeholder="Enter sub category name"
            autoComplete="off"
            data-autofocus
            aria-invalid={fieldErrors.name?.length ? true : undefined}
            aria-describedby={fieldErrors.name?.length ? 'subcategory-name-error' : undefined}
          />
          <ErrorList id="subcategory-name-error" errors={fieldErrors.name} />
        </div>
        <ImageUploadField
          label="Image"
          uploadAction={SUBCATEGORY_PATH}
          defaultValue={image}
          errors={fieldErrors.image}
          onChange={setImage}
          onPendingChange={setUploading}
        />
        <ChipsSelect
          id="subcategory-category"
          name="category"
          label="Select Category"
          placeholder="Select Category"
          options={options}
          defaultValue={initialCategories}
          errors={fieldErrors.category}
          onChange={setCategoryIds}
        />
        <ErrorList errors={reply?.formError ? [reply.formError] : null} role="alert" />
        <div className="flex justify-end gap-2">
          <Link to={closeTo} replace preventScrollReset className={buttonClassName({ variant: 'secondary' })}>
            Cancel
          </Link>
          <Button
            type="submit"
            isPending={isSaving}
            // Spec section 5: it looks active only when complete; a click still explains what is missing.
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
