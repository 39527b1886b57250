/**
 * /dashboard/subcategory (docs/product.md, "Sub Category admin", "States and transitions",
 * "Validation rules", "Roles and permissions", "Toasts" and "Constants"; `subcategory/*` and
 * `file/upload`: docs/api-contract.md, "Endpoints"; without JavaScript:
 * docs/decisions/0007-progressive-enhancement.md).
 *
 * - Guard: the loader asks the API who the user is now (`requireAdmin`); a non-admin gets the red
 *   "Do not have permission" box with status 403 and no data.
 * - Ten rows a page (`?page=N`): the API has no paging for sub categories, so the loader sends them
 *   all and the page is cut here, on the server and in the browser alike.
 * - Search and filter (`?q=` part of the name, any case; `?category=<id>`): a GET form, so it works
 *   without JavaScript; the loader narrows the list (sub categories are a few hundred at most, all
 *   read from the catalogue cache), and every link of the page keeps both.
 * - Dialogs live in the address, the page kept (`?dialog=add`, `?edit=<id>`, `?delete=<id>`,
 *   `?view=<id>`): without JavaScript the server renders them and a link back closes them; with
 *   JavaScript they are modal.
 * - Every form is a multipart POST with an `intent` (`upload`, `add`, `edit`, `delete`), as on the
 *   category page; success redirects to the same table page with the API's message as a flash
 *   toast, so the modal closes and the list is loaded again.
 */
import { useState } from 'react'
import { data, Form, Link, useSearchParams, type ShouldRevalidateFunctionArgs } from 'react-router'
import type { Route } from './+types/subcategory'
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
import { ChipsSelect, type ChipOption } from '../../components/chips-select.tsx'
import { SHOP_NAME } from '../../components/header.tsx'
import { ChevronLeftIcon, ChevronRightIcon, PencilIcon, TrashIcon } from '../../components/icons.tsx'
import { ImageUploadField } from '../../components/image-upload-field.tsx'
import { NoData } from '../../components/no-data.tsx'
import { ResponsiveImage } from '../../components/responsive-image.tsx'
import { ToastNotice } from '../../components/toasts.tsx'
import { buttonClassName } from '../../components/ui/button.tsx'
import { Dialog } from '../../components/ui/dialog.tsx'
import { listValue, useRevalidateOnChange, useSchemaForm } from '../../components/use-schema-form.ts'
import {
  PAGE_PARAM,
  SUBCATEGORY_FILTER_PARAMS,
  SUBCATEGORY_PATH,
  adminHref,
  readDialog,
  shouldRevalidateAdminPage,
} from '../../lib/admin-urls.ts'
import { paginate } from '../../lib/paging.ts'
import { SubCategoryFormSchema } from '../../lib/schemas/catalog.ts'
import { apiOf } from '../../.server/api-context.ts'

export const meta: Route.MetaFunction = () => [
  { title: `Sub Category | ${SHOP_NAME}` },
  { name: 'description', content: 'Admin: add, edit and delete sub categories.' },
  { name: 'robots', content: 'noindex' },
]

/** Longest search text read from the address (a sub category name is at most 80 characters). */
const SEARCH_MAX = 80

/** The search text (`?q=`, trimmed, at most SEARCH_MAX characters) and category id (`?category=`) of the address. */
function readSubCategoryFilter(search: URLSearchParams): { q: string; category: string } {
  return { q: (search.get('q') ?? '').trim().slice(0, SEARCH_MAX), category: (search.get('category') ?? '').trim().slice(0, 64) }
}

/** For an admin, every sub category and category; anyone else gets the thrown 403 of `requireAdmin`. */
export async function loader({ context, url }: Route.LoaderArgs) {
  const api = apiOf(context)
  await requireAdmin(context, url)
  const [all, categories] = await Promise.all([catalogApi.listSubCategories(api), catalogApi.listCategories(api)])
  const { q, category } = readSubCategoryFilter(url.searchParams)
  const needle = q.toLowerCase()
  const subCategories = all.filter(
    (item) => (!needle || item.name.toLowerCase().includes(needle)) && (!category || item.category.some((c) => c._id === category)),
  )
  return data({ subCategories, categories, idempotencyKey: newIdempotencyKey() })
}

/** An upload through the fetcher answers data, not a navigation: the lists need not be loaded again. */
export function shouldRevalidate(args: ShouldRevalidateFunctionArgs) {
  return shouldRevalidateAdminPage(args)
}

export { action } from './subcategory.server.ts'

type SubCategoryItem = catalogApi.SubCategory
type ActionReply = Route.ComponentProps['actionData']

/** The guarded page: the sub category table and the dialog its address names. */
export default function SubCategoryPage({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <SubCategoryAdmin
      subCategories={loaderData.subCategories}
      categories={loaderData.categories}
      idempotencyKey={loaderData.idempotencyKey}
      actionData={actionData}
    />
  )
}

function SubCategoryAdmin({
  subCategories,
  categories,
  idempotencyKey,
  actionData,
}: {
  subCategories: SubCategoryItem[]
  categories: catalogApi.Category[]
  /** Sent with the add form (app/.server/idempotency.ts). */
  idempotencyKey: string
  actionData: ActionReply | undefined
}) {
  const [searchParams] = useSearchParams()
  const dialog = readDialog(searchParams)
  const table = paginate(subCategories, searchParams.get(PAGE_PARAM))
  const closeTo = adminHref(SUBCATEGORY_PATH, searchParams, null, table.page, SUBCATEGORY_FILTER_PARAMS)
  const href = (next: Parameters<typeof adminHref>[2]) =>
    adminHref(SUBCATEGORY_PATH, searchParams, next, table.page, SUBCATEGORY_FILTER_PARAMS)
  const filter = readSubCategoryFilter(searchParams)
  const formReply = actionData?.intent === 'add' || actionData?.intent === 'edit' ? actionData : null
  const target = dialog && dialog.kind !== 'add' ? subCategories.find((item) => item._id === dialog.id) : undefined
  // The replies the open add or edit dialog shows (a reply for another dialog or entity is not shown).
  const addReply = dialog?.kind === 'add' && formReply?.intent === 'add' ? formReply : null
  const editReply = dialog?.kind === 'edit' && target && formReply?.intent === 'edit' && formReply._id === target._id ? formReply : null
  const options: ChipOption[] = categories.map((category) => ({ value: category._id, label: category.name }))

  return (
    <section className="p-4 md:p-6">
      <AdminListHeader title="Sub Category" addHref={href({ kind: 'add' })} addLabel="Add Sub Category" />

      <Form
        method="get"
        role="search"
        aria-label="Search sub categories"
        className="mb-3 grid grid-cols-2 gap-2 sm:grid-cols-[1fr_1fr_auto]"
      >
        <label className="col-span-2 flex min-w-0 flex-col gap-1 text-sm text-slate-700 sm:col-span-1">
          Search
          <input
            key={filter.q}
            type="search"
            name="q"
            defaultValue={filter.q}
            maxLength={SEARCH_MAX}
            placeholder="Sub category name"
            className="w-full min-w-0 rounded-lg border border-slate-300 bg-white px-2 py-2 text-sm"
          />
        </label>
        <label className="flex min-w-0 flex-col gap-1 text-sm text-slate-700">
          Category
          <select
            key={filter.category}
            name="category"
            defaultValue={filter.category}
            className="w-full min-w-0 rounded-lg border border-slate-300 bg-white px-2 py-2 text-sm"
          >
            <option value="">All categories</option>
            {categories.map((category) => (
              <option key={category._id} value={category._id}>
                {category.name}
              </option>
            ))}
          </select>
        </label>
        <div className="flex items-end">
          <button type="submit" className={buttonClassName({ variant: 'secondary', size: 'sm', fullWidth: true })}>
            Search
          </button>
        </div>
      </Form>

      {subCategories.length === 0 ? (
        <NoData message={filter.q || filter.category ? 'No sub category matches' : undefined} />
      ) : (
        <>
          <div className="overflow-x-auto rounded-lg border border-slate-200">
            <table className="w-full min-w-[640px] border-collapse text-left text-sm">
              <thead className="bg-black text-white">
                <tr>
                  <th scope="col" className="w-14 px-3 py-2 font-semibold">
                    No.
                  </th>
                  <th scope="col" className="px-3 py-2 font-semibold">
                    Name
                  </th>
                  <th scope="col" className="w-20 px-3 py-2 font-semibold">
                    Image
                  </th>
                  <th scope="col" className="px-3 py-2 font-semibold">
                    Category
                  </th>
                  <th scope="col" className="w-28 px-3 py-2 font-semibold">
                    Action
                  </th>
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
                          <li
                            key={category._id}
                            className="rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-800 ring-1 ring-slate-200"
                          >
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
          <TablePager
            page={table.page}
            totalPages={table.totalPages}
            hrefFor={(page) => adminHref(SUBCATEGORY_PATH, searchParams, null, page, SUBCATEGORY_FILTER_PARAMS)}
          />
        </>
      )}

      {dialog?.kind === 'add' ? (
        <SubCategoryFormDialog
          key="add"
          mode="add"
          idempotencyKey={idempotencyKey}
          options={options}
          closeTo={closeTo}
          action={href(dialog)}
          reply={addReply}
        />
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
            reply={editReply}
          />
        ) : (
          <MissingDialog title="Edit Sub Category" noun="sub category" closeTo={closeTo} />
        )
      ) : null}
      {dialog?.kind === 'delete' ? (
        <DeleteDialog targetId={target?._id} noun="sub category" cancelTo={closeTo} action={href(dialog)} />
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
          <MissingDialog title="Image" noun="sub category" closeTo={closeTo} />
        )
      ) : null}
      {/* The open dialog shows its own reply's messages and toast; any other answer (a refused guard, an unreadable body) is a toast. */}
      <ToastNotice toast={addReply || editReply ? null : actionData?.toast} />
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

/**
 * Add or edit one sub category: name, image upload with preview, category picker with chips, Submit
 * (opens prefilled; a new file replaces the image, picking appends a category, the cross removes it).
 * The submit looks active only with a name, an image and a category; the checks and buttons are
 * CatalogFormDialog's, the rules app/lib/schemas/catalog.ts.
 */
function SubCategoryFormDialog({
  mode,
  subCategory,
  idempotencyKey,
  options,
  closeTo,
  action,
  reply,
}: {
  mode: 'add' | 'edit'
  subCategory?: SubCategoryItem
  idempotencyKey?: string
  options: ChipOption[]
  closeTo: string
  action: string
  reply: CatalogFormReply | null
}) {
  const formId = mode === 'add' ? 'subcategory-add' : `subcategory-edit-${subCategory!._id}`
  const [form, fields] = useSchemaForm(formId, SubCategoryFormSchema, reply?.result, {
    name: subCategory?.name,
    image: subCategory?.image,
    category: subCategory?.category.map((category) => category._id),
  })
  const initialCategories = listValue(fields.category.initialValue)
  const image = useDialogImage(form, fields.image)
  const [categoryIds, setCategoryIds] = useState<string[]>(initialCategories)
  useRevalidateOnChange(form, fields.category.name, categoryIds, Boolean(fields.category.errors?.length) || categoryIds.length === 0)
  const isReady = Boolean((fields.name.value ?? '').trim() && image.url && categoryIds.length > 0) && !image.isUploading

  return (
    <CatalogFormDialog
      title={mode === 'add' ? 'Add Sub Category' : 'Edit Sub Category'}
      form={form}
      reply={reply}
      mode={mode}
      _id={subCategory?._id}
      version={subCategory?.updatedAt}
      idempotencyKey={idempotencyKey}
      action={action}
      closeTo={closeTo}
      isUploading={image.isUploading}
      isReady={isReady}
      onUploadPending={image.onUploadPending}
    >
      <NameField meta={fields.name} placeholder="Enter sub category name" />
      <ImageUploadField label="Image" uploadAction={SUBCATEGORY_PATH} {...image.fieldProps} />
      <ChipsSelect
        id="subcategory-category"
        name={fields.category.name}
        label="Select Category"
        placeholder="Select Category"
        options={options}
        defaultValue={initialCategories}
        errors={fields.category.errors}
        onChange={setCategoryIds}
      />
    </CatalogFormDialog>
  )
}

/** Failures of the loader (an API fault: 502) as the fallback page of docs/product.md, "Error catalogue". */
export { AdminErrorBoundary as ErrorBoundary }
