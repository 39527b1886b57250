/**
 * /dashboard/product, the admin product list (docs/product.md, "Product admin list", "States and
 * transitions", "Constants" and "Roles and permissions"; `product/get`,
 * `product/update-product-details`, `product/delete-product`: docs/api-contract.md, "Endpoints";
 * without JavaScript: docs/decisions/0007-progressive-enhancement.md).
 *
 * - Guard: `requireAdmin` asks the API who the user is now; others see "Do not have permission".
 * - The address holds the state (`?q=<search>&page=<n>`) and Previous and Next are links, so both
 *   work without JavaScript and Next really advances (the original app's Next never did: its total
 *   was never updated; docs/product.md, "Differences from the original app"). The search box is a
 *   GET form that, with JavaScript, submits itself without `page`, so a new search starts at page 1.
 * - `?edit=<id>` (app/components/product-form.tsx in a dialog) and `?delete=<id>` post to this page
 *   and redirect back to the list (same search and page) with the API's message as a toast, so the
 *   list is loaded again: an edited product shows its new values, a deleted one is gone.
 * - The edit dialog also lists the product's stock in every dark store (docs/stores.md, "Admin"),
 *   saved by its own form (`intent=store-stock`, app/components/product-store-stock.tsx): a save
 *   redirects back to the open dialog with a toast; refused numbers are said under their stores.
 */
import { MAX_SEARCH_LENGTH } from '../../../contract/paging.ts'
import { useEffect, useRef } from 'react'
import { data, Form, Link, redirect, useNavigation, useSearchParams, useSubmit, type ShouldRevalidateFunctionArgs } from 'react-router'
import type { Route } from './+types/product'
import { throwFailure } from '../../.server/failure.ts'
import * as adminApi from '../../.server/api/admin.ts'
import * as catalogApi from '../../.server/api/catalog.ts'
import * as storeApi from '../../.server/api/store.ts'
import { requireAdmin, requireUser } from '../../.server/auth.ts'
import { getSession } from '../../.server/context.ts'
import { adminErrorReply, readAdminForm, uploadIntentReply } from '../../.server/admin-form.ts'
import { PRODUCT_FORM_LIMITS, productFormAction, type ProductActionReply } from '../../.server/product-form.ts'
import { readText } from '../../.server/form.ts'
import { redirectWithToast } from '../../.server/toast.ts'
import { AdminGuard } from '../../components/admin-guard.tsx'
import { DeleteDialog, MissingDialog } from '../../components/catalog-admin-dialogs.tsx'
import { GeneralErrorBoundary } from '../../components/error-boundary.tsx'
import { SHOP_NAME } from '../../components/header.tsx'
import { ChevronLeftIcon, ChevronRightIcon, SearchIcon } from '../../components/icons.tsx'
import { NoData } from '../../components/no-data.tsx'
import { ProductForm } from '../../components/product-form.tsx'
import { ProductStoreStock, type StoreStockReply } from '../../components/product-store-stock.tsx'
import { ResponsiveImage } from '../../components/responsive-image.tsx'
import { ToastNotice } from '../../components/toasts.tsx'
import { buttonClassName } from '../../components/ui/button.tsx'
import { cn } from '../../components/ui/cn.ts'
import { Dialog } from '../../components/ui/dialog.tsx'
import { Spinner } from '../../components/ui/spinner.tsx'
import { SEARCH_DEBOUNCE_MS, useDebouncedCallback } from '../../lib/use-debounce.ts'
import { shouldRevalidateAdminPage, withAddField } from '../../lib/admin-urls.ts'
import { readStoreStockForm } from '../../lib/schemas/store.ts'
import { ADD_FIELD_PARAM, PRODUCT_INTENT, productFormDefaults, productFormOptions } from '../../lib/schemas/product.ts'

export const meta: Route.MetaFunction = () => [
  { title: `Product | ${SHOP_NAME}` },
  { name: 'description', content: 'Admin: the product list, with edit and delete.' },
  { name: 'robots', content: 'noindex' },
]

const PRODUCT_LIST_PATH = '/dashboard/product'
/** docs/product.md, "Constants": the product admin list's page size. */
const PRODUCT_LIST_PAGE_SIZE = 12
/** Longest search text sent: the API's limit (contract/paging.ts). */
const SEARCH_MAX_LENGTH = MAX_SEARCH_LENGTH
/** Highest page number the address may ask for. */
const MAX_PAGE = 100_000
/** docs/product.md, "Product admin list", verbatim. */
const SEARCH_PLACEHOLDER = 'Search product here ...'
const EDIT_FORM_ID = 'edit-product'

/** The list's own state in the address: search text and page (1-based). */
function readListState(search: URLSearchParams): { q: string; page: number } {
  const q = (search.get('q') ?? '').trim().slice(0, SEARCH_MAX_LENGTH)
  const raw = Number.parseInt(search.get('page') ?? '', 10)
  const page = Number.isFinite(raw) && raw >= 1 ? Math.min(raw, MAX_PAGE) : 1
  return { q, page }
}

/**
 * The list's address for `state`, with at most one dialog open (`edit` or `delete` of an id); `q` and
 * `page` are left out at their defaults. E.g. `/dashboard/product?q=milk&page=2&edit=ab12`.
 */
function productListHref(state: { q: string; page: number }, dialog?: { kind: 'edit' | 'delete'; id: string }): string {
  const params = new URLSearchParams()
  if (state.q) params.set('q', state.q)
  if (state.page > 1) params.set('page', String(state.page))
  if (dialog) params.set(dialog.kind, dialog.id)
  const query = params.toString()
  return query ? `${PRODUCT_LIST_PATH}?${query}` : PRODUCT_LIST_PATH
}

/** The dialog the address names: `?edit=<id>` or `?delete=<id>`, else none. */
function readDialog(search: URLSearchParams): { kind: 'edit' | 'delete'; id: string } | null {
  for (const kind of ['edit', 'delete'] as const) {
    const id = search.get(kind)?.trim()
    if (id) return { kind, id }
  }
  return null
}

/** What a card shows (docs/product.md, "Product admin list": first image, name, unit). */
interface ProductCard {
  _id: string
  name: string
  image: string
  unit: string
}

export async function loader({ context, url }: Route.LoaderArgs) {
  const { isAdmin } = await requireAdmin(context, url)
  const empty = { products: [] as ProductCard[], totalCount: 0, totalPages: 1, page: 1, q: '', edit: null, deleting: null }
  if (!isAdmin) return data({ isAdmin: false, ...empty }, { status: 403 })

  const session = getSession(context)
  const state = readListState(url.searchParams)
  const dialog = readDialog(url.searchParams)
  const [list, edit] = await Promise.all([
    adminApi.listProducts(session, { page: state.page, limit: PRODUCT_LIST_PAGE_SIZE, search: state.q }),
    dialog?.kind === 'edit' ? loadEdit(session, dialog.id) : null,
  ])
  if (!list.ok) throwFailure(list)

  const totalPages = Math.max(1, list.data.totalNoPage)
  // Past the last page (the last product of the last page was deleted): show the last page.
  if (state.page > totalPages && list.data.totalCount > 0) {
    throw redirect(productListHref({ q: state.q, page: totalPages }, dialog ?? undefined))
  }

  const products: ProductCard[] = list.data.products.map((product) => ({
    _id: product._id,
    name: product.name,
    image: product.image[0] ?? '',
    unit: product.unit,
  }))
  let deleting: { _id: string; name: string } | null = null
  if (dialog?.kind === 'delete') {
    const onPage = products.find((product) => product._id === dialog.id)
    const found = onPage ?? (await catalogApi.productDetails(dialog.id))
    deleting = found ? { _id: found._id, name: found.name } : null
  }
  return data({ isAdmin: true, products, totalCount: list.data.totalCount, totalPages, page: state.page, q: state.q, edit, deleting })
}

/**
 * The edit dialog's data: the product as form values, the category choices and its stock in every
 * store (empty when the API cannot say: the section is then left out); product null when it is gone.
 */
async function loadEdit(session: ReturnType<typeof getSession>, productId: string) {
  const [product, categories, subCategories, stocks] = await Promise.all([
    catalogApi.productDetails(productId),
    catalogApi.listCategories(),
    catalogApi.listSubCategories(),
    storeApi.productStocks(session, productId),
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

export async function action({ request, context, url }: Route.ActionArgs) {
  requireUser(context, url)
  const session = getSession(context)
  const listHref = productListHref(readListState(url.searchParams))

  const form = await readAdminForm(request, session, PRODUCT_FORM_LIMITS)
  if (!form.ok) return form.response
  const { formData } = form
  const intent = readText(formData, 'intent')
  const _id = readText(formData, '_id')

  if (intent === PRODUCT_INTENT.upload) return uploadIntentReply(session, formData)

  if (intent === PRODUCT_INTENT.delete) {
    if (!_id) return redirectWithToast(session, listHref, { type: 'error', message: 'Choose a product to delete' })
    const result = await adminApi.deleteProduct(session, { _id })
    // Either way the dialog closes and the list is loaded again (docs/product.md, "States and
    // transitions").
    if (!result.ok) return redirectWithToast(session, listHref, { type: 'error', message: result.message })
    return redirectWithToast(session, listHref, { type: 'success', message: result.message || 'Product deleted' })
  }

  if (!_id) return adminErrorReply('Choose a product to edit', 400)
  if (intent === 'store-stock') {
    const editHref = productListHref(readListState(url.searchParams), { kind: 'edit', id: _id })
    const read = readStoreStockForm(formData, _id)
    const refuse = (errors: Record<string, string>, message: string, status: number) =>
      data<StoreStockReply>({ intent: 'store-stock', errors, toast: { type: 'error', message } }, { status })
    if (!read.ok) return refuse(read.errors, Object.values(read.errors)[0] ?? 'Check the stock', 400)
    const result = await storeApi.updateInventory(session, read.rows)
    if (!result.ok) {
      const errors = Object.fromEntries(result.issues.map((issue) => ['', issue.message]))
      return refuse(errors, result.message, result.status)
    }
    return redirectWithToast(session, editHref, { type: 'success', message: 'Stock per store saved' })
  }
  return productFormAction({
    session,
    formData,
    // The version the admin read: the API refuses the save with 409 if the product changed since.
    save: (value) => {
      const version = readText(formData, 'updatedAt')
      return adminApi.updateProduct(session, { _id, ...(version ? { updatedAt: version } : {}), ...value })
    },
    onSaved: (_product, message) => redirectWithToast(session, listHref, { type: 'success', message: message || 'Product updated' }),
  })
}

export default function ProductAdmin({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <AdminGuard isAdmin={loaderData.isAdmin}>
      <ProductAdminPage loaderData={loaderData} actionData={actionData} />
    </AdminGuard>
  )
}

function ProductAdminPage({ loaderData, actionData }: Pick<Route.ComponentProps, 'loaderData' | 'actionData'>) {
  const { products, totalPages, page, q, edit, deleting } = loaderData
  const [searchParams] = useSearchParams()
  const navigation = useNavigation()
  const anyReply = (actionData as ProductActionReply | StoreStockReply | undefined) ?? null
  const stockReply = anyReply?.intent === 'store-stock' ? anyReply : null
  const reply = anyReply?.intent === 'store-stock' ? null : anyReply
  const formReply = reply?.intent === 'form' ? reply : null
  const dialog = readDialog(searchParams)
  const state = { q, page }
  const listHref = productListHref(state)
  const isLoadingList = navigation.state === 'loading' && navigation.location?.pathname === PRODUCT_LIST_PATH && !navigation.formData

  return (
    <section className="p-4 md:p-6">
      <div className="sticky top-0 z-10 -mx-4 -mt-4 mb-4 flex flex-wrap items-center justify-between gap-3 border-b border-slate-200 bg-white px-4 py-3 md:-mx-6 md:-mt-6 md:px-6">
        <h1 className="text-lg font-semibold text-slate-900">Product</h1>
        <SearchBox q={q} />
      </div>

      <div className="relative min-h-40" aria-busy={isLoadingList || undefined}>
        {products.length === 0 ? (
          <NoData message={q ? `No product matches "${q}"` : 'No Data'} />
        ) : (
          <ul className={cn('grid grid-cols-2 gap-3 md:grid-cols-4 lg:grid-cols-6', isLoadingList && 'opacity-50')}>
            {products.map((product, index) => (
              <li key={product._id} data-card="product" className="flex flex-col rounded-lg border border-slate-200 bg-white p-2 shadow-sm">
                <div className="flex aspect-square items-center justify-center overflow-hidden rounded-md bg-slate-50">
                  <ResponsiveImage
                    src={product.image}
                    alt=""
                    width={160}
                    height={160}
                    sizes="(min-width: 1024px) 160px, (min-width: 768px) 25vw, 50vw"
                    loading={index < 6 ? 'eager' : 'lazy'}
                    className="size-full object-contain"
                  />
                </div>
                <p className="mt-2 line-clamp-2 min-h-10 text-sm font-medium text-slate-800" title={product.name}>
                  {product.name}
                </p>
                <p className="truncate text-xs text-slate-500">{product.unit}</p>
                <div className="mt-2 grid grid-cols-2 gap-2">
                  <Link
                    to={productListHref(state, { kind: 'edit', id: product._id })}
                    preventScrollReset
                    aria-label={`Edit ${product.name}`}
                    className="inline-flex min-h-10 items-center justify-center rounded-md bg-green-100 text-sm font-medium text-green-800 hover:bg-green-200"
                  >
                    Edit
                  </Link>
                  <Link
                    to={productListHref(state, { kind: 'delete', id: product._id })}
                    preventScrollReset
                    aria-label={`Delete ${product.name}`}
                    className="inline-flex min-h-10 items-center justify-center rounded-md bg-red-100 text-sm font-medium text-red-700 hover:bg-red-200"
                  >
                    Delete
                  </Link>
                </div>
              </li>
            ))}
          </ul>
        )}
        {isLoadingList ? (
          <div className="absolute inset-0 flex items-start justify-center pt-16">
            <span className="rounded-full bg-white p-3 shadow-md ring-1 ring-slate-200">
              <Spinner size={32} label="Loading products" className="text-accent" />
            </span>
          </div>
        ) : null}
      </div>

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

/**
 * The search box: a GET form (`?q=`), so it works without JavaScript. With JavaScript it submits
 * itself SEARCH_DEBOUNCE_MS after the last keystroke, replacing the history entry; `page` is not
 * sent, so every new search starts at page 1 (docs/product.md, "States and transitions").
 */
function SearchBox({ q }: { q: string }) {
  const submit = useSubmit()
  const inputRef = useRef<HTMLInputElement>(null)
  const search = useDebouncedCallback((text: string) => {
    const query = text.trim()
    submit(query ? { q: query } : {}, { method: 'get', action: PRODUCT_LIST_PATH, replace: true, preventScrollReset: true })
  }, SEARCH_DEBOUNCE_MS)

  // Back and forward change `q` under the box: show it, unless the admin is typing.
  useEffect(() => {
    const input = inputRef.current
    if (input && document.activeElement !== input && input.value !== q) input.value = q
  }, [q])

  return (
    <Form method="get" action={PRODUCT_LIST_PATH} role="search" className="relative w-full sm:w-80" onSubmit={() => search.cancel()}>
      <label htmlFor="product-search" className="sr-only">
        Search product
      </label>
      <input
        ref={inputRef}
        id="product-search"
        type="search"
        name="q"
        defaultValue={q}
        maxLength={SEARCH_MAX_LENGTH}
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

/** Previous, "page/total" and Next (docs/product.md, "Product admin list"), as links that keep the search. */
function Pager({ state, totalPages }: { state: { q: string; page: number }; totalPages: number }) {
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

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
