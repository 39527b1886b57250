/**
 * /dashboard/stores/:storeId/stock (admin or staff; docs/stores.md, "Admin"): one store's stock, searched by
 * name, brand or SKU (`?q=`), filtered to low (1..LOW_STOCK units) or out of stock (`?filter=`), in
 * pages of STOCK_PAGE_SIZE (`?page=`), each row with a small form that sets its stock through
 * PUT /api/inventory/update.
 *
 * Without JavaScript a row's form is a plain POST answered with a redirect back to the same address
 * and a toast; with JavaScript it goes through a fetcher (the form says `reply=data`), which answers
 * data, so the page keeps its place and only the loader's data is read again. A refused stock (not a
 * whole number, negative, above STOCK_MAX) is said under its row either way. Rows are cards that wrap,
 * so nothing scrolls sideways at 360 px. "Export CSV" downloads the store's stock (./export.ts) and
 * "Import CSV" opens its upload page (./import.tsx; docs/store-stock-csv.md).
 */
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link, useFetcher } from 'react-router'
import { useHydrated } from 'remix-utils/use-hydrated'
import type { Route } from './+types/index'
import * as storeApi from '../../../../../.server/api/store.ts'
import { adminErrorReply, readAdminForm } from '../../../../../.server/admin-form.ts'
import { requireStaff, requireUser } from '../../../../../.server/auth.ts'
import { getSession } from '../../../../../.server/context.ts'
import { throwFailure } from '../../../../../.server/failure.ts'
import { readText } from '../../../../../.server/form.ts'
import { redirectWithToast } from '../../../../../.server/toast.ts'
import { RoleGuard } from '../../../../../components/admin-guard.tsx'
import { GeneralErrorBoundary } from '../../../../../components/error-boundary.tsx'
import { SHOP_NAME } from '../../../../../components/header.tsx'
import { ResponsiveImage } from '../../../../../components/responsive-image.tsx'
import { ToastNotice } from '../../../../../components/toasts.tsx'
import { Button, buttonClassName } from '../../../../../components/ui/button.tsx'
import { Input } from '../../../../../components/ui/input.tsx'
import { countLabel } from '../../../../../lib/plural.ts'
import {
  LOW_STOCK,
  STOCK_FILTER_LABELS,
  STOCK_FILTERS,
  STOCK_MAX,
  STOCK_PAGE_SIZE,
  STOCK_SEARCH_MAX,
  StockRowFormSchema,
  readStockQuery,
  stockHref,
  stockLevel,
} from '../../../../../lib/schemas/store.ts'
import { stockExportHref, stockImportHref } from '../../../../../lib/schemas/stock-csv.ts'
import { apiOf } from '../../../../../.server/api-context.ts'

export const meta: Route.MetaFunction = ({ data: loaderData }) => [
  { title: `Stock${loaderData?.store ? ` of ${loaderData.store.name}` : ''} | ${SHOP_NAME}` },
  { name: 'robots', content: 'noindex' },
]

/**
 * The guard's decision and, for an admin or staff, the store (404 when unknown), the query of the address and
 * one page of its stock; `readOnly` for a staff member of another store.
 */
export async function loader({ context, url, params }: Route.LoaderArgs) {
  const api = apiOf(context)
  const { isStaff, storeId: ownStoreId } = await requireStaff(context, url)
  const query = readStockQuery(url.searchParams)
  const empty = { rows: [] as storeApi.InventoryRow[], totalCount: 0, totalNoPage: 0, readOnly: true }
  if (!isStaff) return data({ isStaff: false, store: null, query, ...empty }, { status: 403 })
  const session = getSession(context)
  const stores = await storeApi.listStores(api, session)
  if (!stores.ok) throwFailure(stores)
  const store = stores.data.find((s) => s._id === params.storeId)
  if (!store) throw data('Store not found', { status: 404, statusText: 'Store not found' })
  const page = await storeApi.listInventory(api, session, {
    storeId: store._id,
    ...(query.search ? { search: query.search } : {}),
    filter: query.filter,
    page: query.page,
    limit: STOCK_PAGE_SIZE,
  })
  if (!page.ok) throwFailure(page)
  return data({
    isStaff: true,
    store: { _id: store._id, name: store.name, area: store.area, active: store.active },
    query,
    ...page.data,
    // Staff change their own store's stock only; another store's they may read (docs/product.md, "Staff").
    readOnly: ownStoreId !== null && ownStoreId !== store._id,
  })
}

/** A row's answer: which product, its stock as saved or the message why not. */
export type StockReply = { intent: 'stock'; productId: string; stock: number | null; error: string | null; toast: null }

/**
 * Sets one product's stock in this store (`productId`, `stock`). A fetcher's post (`reply=data`)
 * answers a StockReply (400 with the message for a refused stock); a plain post is redirected back to
 * the page it came from with a toast, or answers the StockReply with 400 to show under the row.
 */
export async function action({ request, context, url, params }: Route.ActionArgs) {
  const api = apiOf(context)
  requireUser(context, url)
  const session = getSession(context)
  const form = await readAdminForm(request, session, { staff: true })
  if (!form.ok) return form.response
  const { formData } = form
  if (readText(formData, 'intent') !== 'stock') return adminErrorReply('Unknown action', 400)
  const asData = readText(formData, 'reply') === 'data'
  const productId = readText(formData, 'productId')
  const back = stockHref(params.storeId, readStockQuery(url.searchParams))
  const submission = parseWithZod(formData, { schema: StockRowFormSchema })
  if (submission.status !== 'success') {
    const message = Object.values(submission.error ?? {}).flat()[0] ?? 'Check the stock'
    return data<StockReply>({ intent: 'stock', productId, stock: null, error: message, toast: null }, { status: 400 })
  }
  const { stock } = submission.value
  const result = await storeApi.updateInventory(api, session, [{ storeId: params.storeId, productId, stock }])
  if (!result.ok) {
    const message = result.issues[0]?.message ?? result.message
    return data<StockReply>({ intent: 'stock', productId, stock: null, error: message, toast: null }, { status: result.status })
  }
  if (asData) return data<StockReply>({ intent: 'stock', productId, stock, error: null, toast: null })
  return redirectWithToast(session, back, { type: 'success', message: `Stock set to ${stock}` })
}

type Row = storeApi.InventoryRow

export default function StoreStockPage({ loaderData, actionData }: Route.ComponentProps) {
  const { isStaff, store, query, rows, totalCount, totalNoPage, readOnly } = loaderData
  const rowReply = actionData && 'productId' in actionData ? actionData : null
  return (
    <RoleGuard allowed={isStaff}>
      {store ? (
        <section className="p-4 md:p-6">
          <p className="mb-1 text-sm">
            <Link to="/dashboard/stores" className="font-semibold text-accent hover:underline">
              ‹ Stores
            </Link>
          </p>
          <h1 className="mb-3 text-lg font-semibold break-words text-slate-900">
            Stock of {store.name}
            {store.active ? null : <span className="ml-2 text-sm font-normal text-slate-600">(inactive)</span>}
          </h1>
          <p className="mb-3 flex flex-wrap gap-2">
            <a href={stockExportHref(store._id)} download className={buttonClassName({ variant: 'secondary', size: 'sm' })}>
              Export CSV
            </a>
            {readOnly ? null : (
              <Link to={stockImportHref(store._id)} className={buttonClassName({ variant: 'secondary', size: 'sm' })}>
                Import CSV
              </Link>
            )}
          </p>
          {readOnly ? (
            <p role="note" className="mb-3 rounded-lg bg-slate-100 p-3 text-sm text-slate-700">
              Read only: staff change the stock of their own store.
            </p>
          ) : null}

          <Form method="get" action={stockHref(store._id, {})} className="mb-3 flex flex-wrap gap-2" role="search">
            <label htmlFor="stock-search" className="sr-only">
              Search by name, brand or SKU
            </label>
            <Input
              id="stock-search"
              type="search"
              name="q"
              defaultValue={query.search}
              maxLength={STOCK_SEARCH_MAX}
              placeholder="Name, brand or SKU"
              className="min-w-0 flex-1 basis-40"
            />
            {query.filter !== 'all' ? <input type="hidden" name="filter" value={query.filter} /> : null}
            <Button type="submit" variant="secondary">
              Search
            </Button>
          </Form>

          <nav aria-label="Filter by stock" className="mb-3 flex flex-wrap gap-2">
            {STOCK_FILTERS.map((filter) => (
              <Link
                key={filter}
                to={stockHref(store._id, { search: query.search, filter })}
                aria-current={filter === query.filter ? 'page' : undefined}
                className={`rounded-full border px-3 py-1 text-sm font-semibold ${filter === query.filter ? 'border-accent bg-accent text-white' : 'border-slate-300 bg-white text-slate-700 hover:border-slate-400'}`}
              >
                {STOCK_FILTER_LABELS[filter]}
              </Link>
            ))}
          </nav>

          <p className="mb-2 text-sm text-slate-600" data-testid="stock-count">
            {countLabel(totalCount, 'product')}
          </p>

          {rows.length === 0 ? (
            <p className="rounded-xl border border-dashed border-slate-300 p-6 text-center text-slate-600">No products here.</p>
          ) : (
            <ul aria-label="Stock" className="grid gap-2">
              {rows.map((row) => (
                <StockRowCard
                  key={row.productId}
                  row={row}
                  readOnly={readOnly}
                  action={stockHref(store._id, query)}
                  reply={rowReply?.productId === row.productId ? rowReply : null}
                />
              ))}
            </ul>
          )}

          {totalNoPage > 1 ? (
            <nav aria-label="Pages" className="mt-4 flex items-center justify-between gap-2 text-sm">
              {query.page > 1 ? (
                <Link to={stockHref(store._id, { ...query, page: query.page - 1 })} className="font-semibold text-accent hover:underline">
                  ‹ Previous
                </Link>
              ) : (
                <span />
              )}
              <span>
                Page {query.page} of {totalNoPage}
              </span>
              {query.page < totalNoPage ? (
                <Link to={stockHref(store._id, { ...query, page: query.page + 1 })} className="font-semibold text-accent hover:underline">
                  Next ›
                </Link>
              ) : (
                <span />
              )}
            </nav>
          ) : null}
          <ToastNotice toast={actionData && !('productId' in actionData) ? actionData.toast : null} />
        </section>
      ) : null}
    </RoleGuard>
  )
}

const LEVEL_BADGES = {
  out: { label: 'Out of stock', className: 'bg-red-100 text-red-800' },
  low: { label: 'Low stock', className: 'bg-amber-100 text-amber-900' },
  in: { label: 'In stock', className: 'bg-green-100 text-green-800' },
} as const

/**
 * One product's card: image, name, brand, unit and SKU, its stock level and the stock form. With
 * JavaScript the form is a fetcher's (`reply=data`): the saved number stays in the box and the badge
 * follows once the loader is read again.
 */
function StockRowCard({ row, readOnly, action, reply }: { row: Row; readOnly: boolean; action: string; reply: StockReply | null }) {
  const fetcher = useFetcher<StockReply>()
  const isHydrated = useHydrated()
  const answer = fetcher.data ?? reply
  const isSaving = fetcher.state !== 'idle'
  const badge = LEVEL_BADGES[stockLevel(row.stock, LOW_STOCK)]
  const errorId = `stock-${row.productId}-error`
  const error = answer?.error ?? null
  return (
    <li
      data-card="stock"
      data-product-id={row.productId}
      className="flex min-w-0 flex-wrap items-center gap-3 rounded-xl border border-slate-200 bg-white p-3"
    >
      <div className="size-12 shrink-0 overflow-hidden rounded-md bg-slate-50">
        {row.image ? (
          <ResponsiveImage src={row.image} alt="" width={48} height={48} sizes="48px" className="size-full object-contain" />
        ) : null}
      </div>
      <div className="min-w-0 flex-1 basis-40">
        <p className="font-medium break-words text-slate-900">{row.name}</p>
        <p className="text-xs break-words text-slate-600">
          {[row.brand, row.unit, row.sku ? `SKU ${row.sku}` : null].filter(Boolean).join(' · ')}
          {row.publish ? null : ' · not published'}
        </p>
        <span className={`mt-1 inline-block rounded-full px-2 py-0.5 text-xs font-semibold ${badge.className}`} data-testid="stock-level">
          {badge.label}
          {row.stock > 0 ? ` · ${row.stock}` : null}
        </span>
      </div>
      {readOnly ? null : (
        <fetcher.Form method="post" action={action} className="flex shrink-0 items-start gap-2" aria-label={`Stock of ${row.name}`}>
          <input type="hidden" name="intent" value="stock" />
          <input type="hidden" name="productId" value={row.productId} />
          {isHydrated ? <input type="hidden" name="reply" value="data" /> : null}
          <div>
            <label htmlFor={`stock-${row.productId}`} className="sr-only">
              Stock of {row.name}
            </label>
            <Input
              key={row.stock}
              id={`stock-${row.productId}`}
              name="stock"
              type="number"
              inputMode="numeric"
              min={0}
              max={STOCK_MAX}
              step={1}
              required
              defaultValue={row.stock}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? errorId : undefined}
              className="w-24"
            />
          </div>
          <button type="submit" disabled={isSaving} className={buttonClassName({ variant: 'primary', size: 'sm' }) + ' min-h-11'}>
            {isSaving ? 'Saving…' : 'Save'}
          </button>
        </fetcher.Form>
      )}
      {error ? (
        <p id={errorId} role="alert" className="w-full text-sm text-red-600">
          {error}
        </p>
      ) : answer && answer.stock !== null && !isSaving ? (
        <p role="status" className="w-full text-sm text-green-800">
          Saved: {answer.stock} in stock
        </p>
      ) : null}
    </li>
  )
}

/** Failures of the loader (unknown store: 404; an API fault: 502) as the fallback page. */
export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
