/**
 * /dashboard/product, the admin product grid (docs/product.md, "Product admin list", "States and
 * transitions", "Constants" and "Roles and permissions"; the grid's filters, bulk edit, export and
 * import: docs/product-csv.md, "The admin grid"; `product/admin-list`, `product/bulk-update`,
 * `product/update-product-details`, `product/delete-product`: docs/api-contract.md, "Endpoints";
 * without JavaScript: docs/decisions/0007-progressive-enhancement.md).
 *
 * - Guard: `requireAdmin` asks the API who the user is now; others see "Do not have permission".
 * - The address holds the state (`?q=&stock=&category=&subCategory=&brand=&sort=&page=`,
 *   app/lib/product-grid.ts), Previous and Next are links and the filters a GET form, so every view
 *   works without JavaScript. Each row shows MRP, selling price, the default store's stock, the
 *   published state, brand and SKU. The search box (name, brand or SKU) is a GET form that, with
 *   JavaScript, submits itself without `page`, so a new search starts at page 1.
 * - Bulk edit: each row's tick belongs to the bulk form below the grid (`form=` attribute), which
 *   sets the MRP, selling price and/or stock of every ticked product through `product/bulk-update`
 *   (one transaction); a success redirects back with a toast, a refusal names each refused product
 *   under its row and nothing is written.
 * - "Export CSV" downloads the products the filters select (/dashboard/product/export); "Import CSV"
 *   opens /dashboard/product/import.
 * - `?edit=<id>` (app/components/product-form.tsx in a dialog) and `?delete=<id>` post to this page
 *   and redirect back to the grid (same filters and page) with the API's message as a toast.
 * - The edit dialog also lists the product's stock in every dark store (docs/stores.md, "Admin"),
 *   saved by its own form (`intent=store-stock`, app/components/product-store-stock.tsx).
 */
import { useEffect, useRef } from 'react'
import { getFormProps, getInputProps } from '@conform-to/react'
import { data, Form, Link, redirect, useNavigation, useSearchParams, useSubmit, type ShouldRevalidateFunctionArgs } from 'react-router'
import { useHydrated } from 'remix-utils/use-hydrated'
import type { Route } from './+types/index'
import { throwFailure } from '../../../.server/failure.ts'
import * as catalogApi from '../../../.server/api/catalog.ts'
import * as gridApi from '../../../.server/api/product-admin.ts'
import * as storeApi from '../../../.server/api/store.ts'
import { requireAdmin } from '../../../.server/auth.ts'
import { getSession } from '../../../.server/context.ts'
import type { ProductActionReply } from '../../../.server/product-form.ts'
import type { BulkEditReply } from './index.server.ts'
import { AdminErrorBoundary } from '../../../components/admin-guard.tsx'
import { DeleteDialog, MissingDialog } from '../../../components/catalog-admin-dialogs.tsx'
import { ErrorList, FormAlert } from '../../../components/forms.tsx'
import { SHOP_NAME } from '../../../components/header.tsx'
import { ChevronLeftIcon, ChevronRightIcon, SearchIcon } from '../../../components/icons.tsx'
import { NoData } from '../../../components/no-data.tsx'
import { ProductForm } from '../../../components/product-form.tsx'
import { ProductGridFilters, ProductGridHeader, ProductGridItem, productGridRow } from '../../../components/product-grid.tsx'
import { ProductStoreStock, type StoreStockReply } from '../../../components/product-store-stock.tsx'
import { ToastNotice } from '../../../components/toasts.tsx'
import { buttonClassName } from '../../../components/ui/button.tsx'
import { cn } from '../../../components/ui/cn.ts'
import { Dialog } from '../../../components/ui/dialog.tsx'
import { inputClassName } from '../../../components/ui/input.tsx'
import { Spinner } from '../../../components/ui/spinner.tsx'
import { useSchemaForm } from '../../../components/use-schema-form.ts'
import { SEARCH_DEBOUNCE_MS, useDebouncedCallback } from '../../../lib/use-debounce.ts'
import { shouldRevalidateAdminPage, withAddField } from '../../../lib/admin-urls.ts'
import { countLabel } from '../../../lib/plural.ts'
import { PRODUCT_LIST_PATH, productGridQuery, productListHref, readProductGrid } from '../../../lib/product-grid.ts'
import { BULK_EDIT_MAX, BulkEditFormSchema } from '../../../lib/schemas/product-grid.ts'
import { ADD_FIELD_PARAM, productFormDefaults, productFormOptions } from '../../../lib/schemas/product.ts'
import { ADMIN_PRODUCT_QUERY_MAX, type AdminProductFilter } from '../../../../contract/product-admin.ts'
import { type Api, apiOf } from '../../../.server/api-context.ts'

export const meta: Route.MetaFunction = () => [
  { title: `Product | ${SHOP_NAME}` },
  { name: 'description', content: 'Admin: the product grid, with filters, bulk edit, export and import.' },
  { name: 'robots', content: 'noindex' },
]

/** docs/product.md, "Constants": the product admin list's page size. */
const PRODUCT_LIST_PAGE_SIZE = 12
/** docs/product.md, "Product admin list", verbatim. */
const SEARCH_PLACEHOLDER = 'Search product here ...'
const EDIT_FORM_ID = 'edit-product'
const BULK_FORM_ID = 'bulk-edit'

/** The grid's state: its filters and page (app/lib/product-grid.ts). */
type GridState = { filter: AdminProductFilter; page: number }

/** The dialog the address names: `?edit=<id>` or `?delete=<id>`, else none. */
function readDialog(search: URLSearchParams): { kind: 'edit' | 'delete'; id: string } | null {
  for (const kind of ['edit', 'delete'] as const) {
    const id = search.get(kind)?.trim()
    if (id) return { kind, id }
  }
  return null
}

export async function loader({ context, url }: Route.LoaderArgs) {
  const api = apiOf(context)
  await requireAdmin(context, url)
  const { filter, page, errors } = readProductGrid(url.searchParams)

  const session = getSession(context)
  const dialog = readDialog(url.searchParams)
  const [list, categories, subCategories, edit] = await Promise.all([
    gridApi.listProductGrid(api, session, { ...filter, page, limit: PRODUCT_LIST_PAGE_SIZE }),
    catalogApi.listCategories(api),
    catalogApi.listSubCategories(api),
    dialog?.kind === 'edit' ? loadEdit(api, session, dialog.id) : null,
  ])
  if (!list.ok) throwFailure(list)

  const totalPages = Math.max(1, list.data.totalNoPage)
  // Past the last page (the last product of the last page was deleted): show the last page.
  if (page > totalPages && list.data.totalCount > 0) {
    throw redirect(productListHref({ filter, page: totalPages }, dialog ?? undefined))
  }

  let deleting: { _id: string; name: string } | null = null
  if (dialog?.kind === 'delete') {
    const onPage = list.data.rows.find((product) => product._id === dialog.id)
    const found = onPage ?? (await catalogApi.productDetails(api, dialog.id))
    deleting = found ? { _id: found._id, name: found.name } : null
  }
  return data({
    rows: list.data.rows.map(productGridRow),
    brands: list.data.brands,
    categories: categories.map((c) => ({ _id: c._id, name: c.name })),
    subCategories: subCategories.map((s) => ({ _id: s._id, name: s.name, categoryIds: s.category.map((c) => c._id) })),
    totalCount: list.data.totalCount,
    totalPages,
    page,
    filter,
    errors,
    edit,
    deleting,
  })
}

/**
 * The edit dialog's data: the product as form values, the category choices and its stock in every
 * store (empty when the API cannot say: the section is then left out); product null when it is gone.
 */
async function loadEdit(api: Api, session: ReturnType<typeof getSession>, productId: string) {
  const [product, categories, subCategories, stocks] = await Promise.all([
    catalogApi.productDetails(api, productId),
    catalogApi.listCategories(api),
    catalogApi.listSubCategories(api),
    storeApi.productStocks(api, session, productId),
  ])
  if (!product) return { product: null, stocks: [] as storeApi.ProductStock[], ...productFormOptions(categories, subCategories) }
  return {
    product: { _id: product._id, name: product.name, updatedAt: product.updatedAt ?? '', values: productFormDefaults(product) },
    stocks: stocks.ok ? stocks.data : [],
    ...productFormOptions(categories, subCategories),
  }
}

export function shouldRevalidate(args: ShouldRevalidateFunctionArgs) {
  return shouldRevalidateAdminPage(args)
}

export { action } from './index.server.ts'

export default function ProductAdmin({ loaderData, actionData }: Route.ComponentProps) {
  return <ProductAdminPage loaderData={loaderData} actionData={actionData} />
}

function ProductAdminPage({ loaderData, actionData }: Pick<Route.ComponentProps, 'loaderData' | 'actionData'>) {
  const { rows, brands, categories, subCategories, totalCount, totalPages, page, filter, errors, edit, deleting } = loaderData
  const [searchParams] = useSearchParams()
  const navigation = useNavigation()
  const anyReply = (actionData as ProductActionReply | StoreStockReply | BulkEditReply | undefined) ?? null
  const stockReply = anyReply?.intent === 'store-stock' ? anyReply : null
  const bulkReply = anyReply?.intent === 'bulk' ? anyReply : null
  const reply = anyReply?.intent === 'store-stock' || anyReply?.intent === 'bulk' ? null : anyReply
  const formReply = reply?.intent === 'form' ? reply : null
  const dialog = readDialog(searchParams)
  const state: GridState = { filter, page }
  const listHref = productListHref(state)
  const exportQuery = productGridQuery({ ...filter, sort: 'newest' })
  const isLoadingList = navigation.state === 'loading' && navigation.location?.pathname === PRODUCT_LIST_PATH && !navigation.formData
  const isFiltered = Boolean(filter.q || filter.stock || filter.category || filter.subCategory || filter.brand)

  return (
    <section className="p-4 md:p-6">
      <div className="sticky top-0 z-10 -mx-4 -mt-4 mb-4 flex flex-wrap items-center justify-between gap-3 border-b border-slate-200 bg-white px-4 py-3 md:-mx-6 md:-mt-6 md:px-6">
        <h1 className="text-lg font-semibold text-slate-900">Product</h1>
        <SearchBox filter={filter} />
      </div>

      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-slate-600" aria-live="polite">
          {countLabel(totalCount, 'product')}
        </p>
        <div className="flex flex-wrap gap-2">
          <a
            href={`${PRODUCT_LIST_PATH}/export${exportQuery ? `?${exportQuery}` : ''}`}
            download
            className={buttonClassName({ variant: 'secondary', size: 'sm' })}
          >
            Export CSV
          </a>
          <Link to={`${PRODUCT_LIST_PATH}/import`} className={buttonClassName({ variant: 'secondary', size: 'sm' })}>
            Import CSV
          </Link>
        </div>
      </div>

      <ProductGridFilters filter={filter} categories={categories} subCategories={subCategories} brands={brands} />
      {errors.length > 0 ? (
        <ul role="alert" className="mb-3 rounded-lg border border-red-200 bg-red-50 p-2 text-sm text-red-800">
          {errors.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      ) : null}

      <div className="relative min-h-40" aria-busy={isLoadingList || undefined}>
        {rows.length === 0 ? (
          <NoData message={isFiltered ? 'No product matches these filters' : 'No Data'} />
        ) : (
          <>
            <ProductGridHeader selectAll={<SelectAll />} />
            <ul aria-label="Products" className={cn('grid gap-2', isLoadingList && 'opacity-50')}>
              {rows.map((row, index) => (
                <ProductGridItem
                  key={row._id}
                  row={row}
                  form={BULK_FORM_ID}
                  checked={Boolean(bulkReply && ticked(bulkReply).has(row._id))}
                  error={bulkReply?.rowErrors[row._id]}
                  editHref={productListHref(state, { kind: 'edit', id: row._id })}
                  deleteHref={productListHref(state, { kind: 'delete', id: row._id })}
                  eager={index < 6}
                />
              ))}
            </ul>
          </>
        )}
        {isLoadingList ? (
          <div className="absolute inset-0 flex items-start justify-center pt-16">
            <span className="rounded-full bg-white p-3 shadow-md ring-1 ring-slate-200">
              <Spinner size={32} label="Loading products" className="text-accent" />
            </span>
          </div>
        ) : null}
      </div>

      {rows.length > 0 ? <BulkEditForm action={listHref} reply={bulkReply} /> : null}

      <Pager state={state} totalPages={totalPages} />

      {dialog?.kind === 'edit' ? (
        edit?.product ? (
          <Dialog title="Edit Product" closeTo={listHref} size="lg">
            <ProductForm
              key={`${edit.product._id}-${edit.product.values.stock}`}
              id={EDIT_FORM_ID}
              action={productListHref(state, dialog)}
              addFieldHref={withAddField(productListHref(state, dialog))}
              isAddFieldOpen={searchParams.has(ADD_FIELD_PARAM) && !formReply?.fieldAdded}
              categories={edit.categories}
              subCategories={edit.subCategories}
              defaultValue={edit.product.values}
              reply={formReply}
              submitLabel="Update"
              hiddenFields={{ _id: edit.product._id, updatedAt: edit.product.updatedAt }}
            />
            {edit.stocks.length > 0 ? (
              <ProductStoreStock
                key={edit.stocks.map((row) => row.stock).join(',')}
                productId={edit.product._id}
                stocks={edit.stocks}
                action={productListHref(state, dialog)}
                reply={stockReply}
              />
            ) : null}
          </Dialog>
        ) : (
          <MissingDialog title="Edit Product" noun="product" closeTo={listHref} />
        )
      ) : null}
      {dialog?.kind === 'delete' ? (
        <DeleteDialog targetId={deleting?._id} noun="product" cancelTo={listHref} action={productListHref(state, dialog)} />
      ) : null}
      {/* The open edit form shows its own reply's messages and toast; any other answer (a refused guard, an unreadable body) is a toast. */}
      <ToastNotice toast={formReply && dialog?.kind === 'edit' && edit?.product ? null : (reply?.toast ?? stockReply?.toast)} />
    </section>
  )
}

/** The ids ticked when the bulk edit was refused (its reply's values), so the selection survives the answer. */
function ticked(reply: BulkEditReply): Set<string> {
  const ids = reply.result.initialValue?.ids
  return new Set(Array.isArray(ids) ? ids.map(String) : typeof ids === 'string' ? [ids] : [])
}

/** Ticks or clears every row of the page (needs JavaScript, so it appears once hydrated). */
function SelectAll() {
  const isHydrated = useHydrated()
  if (!isHydrated) return null
  return (
    <input
      type="checkbox"
      aria-label="Select every product on this page"
      form={BULK_FORM_ID}
      className="size-5"
      onChange={(event) => {
        const boxes = document.querySelectorAll<HTMLInputElement>(`input[name="ids"][form="${BULK_FORM_ID}"]`)
        for (const box of boxes) box.checked = event.currentTarget.checked
      }}
    />
  )
}

/**
 * The bulk edit: new MRP, selling price and stock for every ticked row (blank: unchanged), checked
 * in the browser and again in the action with BulkEditFormSchema; a refused product's message stands
 * under its row (ProductGridItem), the rest above the button.
 */
function BulkEditForm({ action, reply }: { action: string; reply: BulkEditReply | null }) {
  const navigation = useNavigation()
  const isSaving = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'bulk'
  const [form, fields] = useSchemaForm(BULK_FORM_ID, BulkEditFormSchema, reply?.result)
  // With JavaScript the rows stay on screen after a saved edit: untick them and empty the fields, as
  // the reloaded page does without it. A refused edit (a reply) keeps both, to correct and send again.
  const sentBulk = useRef(false)
  useEffect(() => {
    if (navigation.state !== 'idle') {
      if (navigation.formData?.get('intent') === 'bulk') sentBulk.current = true
      return
    }
    if (!sentBulk.current) return
    sentBulk.current = false
    if (reply) return
    for (const box of document.querySelectorAll<HTMLInputElement>(`input[type="checkbox"][form="${BULK_FORM_ID}"]`)) box.checked = false
    form.reset()
  }, [navigation.state, navigation.formData, reply, form])
  return (
    <Form method="post" action={action} {...getFormProps(form)} className="mt-4 rounded-xl border border-slate-200 bg-white p-3">
      <fieldset className="grid gap-3">
        <legend className="px-1 text-sm font-semibold text-slate-800">Bulk edit the ticked products (at most {BULK_EDIT_MAX})</legend>
        <input type="hidden" name="intent" value="bulk" />
        <ErrorList id={fields.ids.errorId} errors={fields.ids.errors} role="alert" />
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
          {(
            [
              ['price', 'New MRP (₹)', 'decimal'],
              ['sellingPrice', 'New selling price (₹)', 'decimal'],
              ['stock', 'New stock (units)', 'numeric'],
            ] as const
          ).map(([name, label, inputMode]) => {
            const meta = fields[name]
            return (
              <div key={name} className="min-w-0">
                <label htmlFor={meta.id} className="mb-1 block text-sm font-medium text-slate-700">
                  {label}
                </label>
                <input
                  {...getInputProps(meta, { type: 'text' })}
                  key={meta.key}
                  inputMode={inputMode}
                  autoComplete="off"
                  placeholder="Unchanged"
                  className={inputClassName(Boolean(meta.errors?.length))}
                />
                <ErrorList id={meta.errorId} errors={meta.errors} />
              </div>
            )
          })}
        </div>
        <FormAlert form={form} reply={reply} />
        <button
          type="submit"
          disabled={isSaving}
          aria-busy={isSaving || undefined}
          className={cn(buttonClassName({ variant: 'primary', size: 'sm' }), 'self-start justify-self-start')}
        >
          Apply to ticked products
        </button>
      </fieldset>
    </Form>
  )
}

/**
 * The search box: a GET form (`?q=`, the other filters kept as hidden fields), so it works without
 * JavaScript. With JavaScript it submits itself SEARCH_DEBOUNCE_MS after the last keystroke,
 * replacing the history entry; `page` is not sent, so every new search starts at page 1
 * (docs/product.md, "States and transitions"). It matches the name, the brand or the SKU.
 */
function SearchBox({ filter }: { filter: AdminProductFilter }) {
  const submit = useSubmit()
  const inputRef = useRef<HTMLInputElement>(null)
  const q = filter.q ?? ''
  const others = new URLSearchParams(productGridQuery({ ...filter, q: undefined }))
  const search = useDebouncedCallback((text: string) => {
    const params = new URLSearchParams(others)
    const query = text.trim()
    if (query) params.set('q', query)
    submit(params, { method: 'get', action: PRODUCT_LIST_PATH, replace: true, preventScrollReset: true })
  }, SEARCH_DEBOUNCE_MS)

  // Back and forward change `q` under the box: show it, unless the admin is typing.
  useEffect(() => {
    const input = inputRef.current
    if (input && document.activeElement !== input && input.value !== q) input.value = q
  }, [q])

  return (
    <Form method="get" action={PRODUCT_LIST_PATH} role="search" className="relative w-full sm:w-80" onSubmit={() => search.cancel()}>
      <label htmlFor="product-search" className="sr-only">
        Search product by name, brand or SKU
      </label>
      {[...others].map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <input
        ref={inputRef}
        id="product-search"
        type="search"
        name="q"
        defaultValue={q}
        maxLength={ADMIN_PRODUCT_QUERY_MAX}
        placeholder={SEARCH_PLACEHOLDER}
        autoComplete="off"
        onChange={(event) => search(event.currentTarget.value)}
        className="block h-11 w-full rounded-lg border border-slate-300 bg-slate-50 pr-12 pl-3 text-base text-slate-900 placeholder:text-slate-400 focus:border-accent focus:bg-white focus:outline-none focus:ring-2 focus:ring-accent/30"
      />
      <button
        type="submit"
        aria-label="Search"
        className="absolute inset-y-0 right-0 flex w-11 items-center justify-center rounded-r-lg text-slate-500 hover:text-slate-900"
      >
        <SearchIcon size={20} />
      </button>
    </Form>
  )
}

/** Previous, "page/total" and Next (docs/product.md, "Product admin list"), as links that keep the filters. */
function Pager({ state, totalPages }: { state: GridState; totalPages: number }) {
  const { page } = state
  const linkClass = buttonClassName({ variant: 'secondary', size: 'sm' })
  const disabledClass = cn(linkClass, 'pointer-events-none opacity-50')
  return (
    <nav aria-label="Pages" className="mt-6 flex items-center justify-between gap-3 border-t border-slate-200 pt-4">
      {page > 1 ? (
        <Link to={productListHref({ ...state, page: Math.min(page - 1, totalPages) })} rel="prev" className={linkClass}>
          <ChevronLeftIcon size={16} />
          Previous
        </Link>
      ) : (
        <span aria-disabled="true" className={disabledClass}>
          <ChevronLeftIcon size={16} />
          Previous
        </span>
      )}
      <span className="text-sm font-semibold text-slate-700" aria-label={`Page ${page} of ${totalPages}`}>
        {page}/{totalPages}
      </span>
      {page < totalPages ? (
        <Link to={productListHref({ ...state, page: page + 1 })} rel="next" className={linkClass}>
          Next
          <ChevronRightIcon size={16} />
        </Link>
      ) : (
        <span aria-disabled="true" className={disabledClass}>
          Next
          <ChevronRightIcon size={16} />
        </span>
      )}
    </nav>
  )
}

export { AdminErrorBoundary as ErrorBoundary }
