/**
 * The action of /dashboard/product, the admin product grid (app/routes/dashboard/product/index.tsx
 * re-exports it; docs/product.md, "Product admin list" and "States and transitions"; the bulk edit:
 * docs/product-csv.md, "The admin grid"; `product/bulk-update`, `product/update-product-details`,
 * `product/delete-product`: docs/api-contract.md, "Endpoints"). Every answer goes back to the grid
 * with the same filters and page. The edit dialog's form is checked as the Upload Product page's is
 * (app/.server/product-form.ts); the update call, the bulk edit, the delete and the stock per store
 * are this page's own.
 */
import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import type { Route } from './+types/index'
import * as adminApi from '../../../.server/api/admin.ts'
import * as gridApi from '../../../.server/api/product-admin.ts'
import * as storeApi from '../../../.server/api/store.ts'
import { requireUser } from '../../../.server/auth.ts'
import { getSession } from '../../../.server/context.ts'
import { adminErrorReply, readAdminForm, uploadIntentReply } from '../../../.server/admin-form.ts'
import { checkProductForm, PRODUCT_FORM_LIMITS, productSaveRefused } from '../../../.server/product-form.ts'
import { failedFormReply, invalidFormReply, readText, type FormReply } from '../../../.server/form.ts'
import { redirectWithToast } from '../../../.server/toast.ts'
import { countLabel } from '../../../lib/plural.ts'
import { productListHref, readProductGrid } from '../../../lib/product-grid.ts'
import { BulkEditFormSchema } from '../../../lib/schemas/product-grid.ts'
import { readStoreStockForm } from '../../../lib/schemas/store.ts'
import { PRODUCT_INTENT } from '../../../lib/schemas/product.ts'
import { type Api, apiOf } from '../../../.server/api-context.ts'

/** The bulk edit's answer when refused: Conform's reply, the toast, and each refused product's message by id. */
export type BulkEditReply = FormReply & { intent: 'bulk'; rowErrors: Record<string, string> }

/**
 * The bulk edit (`intent=bulk`): the ticked `ids` and the new MRP (`price`), selling price and/or
 * stock for all of them, sent as one `product/bulk-update` (one transaction). The API's issues
 * (`items.<i>.<field>`) are said under product i's row; a success redirects back with a toast.
 */
async function bulkEditAction(api: Api, session: ReturnType<typeof getSession>, formData: FormData, listHref: string) {
  const submission = parseWithZod(formData, { schema: BulkEditFormSchema })
  const extra = { intent: 'bulk' as const, rowErrors: {} as Record<string, string> }
  if (submission.status !== 'success') return invalidFormReply(submission, { extra })
  const { ids, price, sellingPrice, stock } = submission.value
  const result = await gridApi.bulkUpdateProducts(
    api,
    session,
    ids.map((_id) => ({ _id, price, sellingPrice, stock })),
  )
  if (!result.ok) {
    const rowErrors: Record<string, string> = {}
    for (const issue of result.issues) {
      const match = /^items\.(\d+)\./.exec(issue.path)
      const id = match ? ids[Number(match[1])] : undefined
      if (id && !rowErrors[id]) rowErrors[id] = issue.message
    }
    const refused = Object.keys(rowErrors).length
    const message = refused > 0 ? `${countLabel(refused, 'product')} refused: nothing was changed` : result.message
    return failedFormReply(submission, { ...result, message, issues: [] }, { extra: { ...extra, rowErrors } })
  }
  return redirectWithToast(session, listHref, { type: 'success', message: `${countLabel(result.data.updated, 'product')} updated` })
}

/**
 * The grid's forms, by `intent`: `upload` (answers an UploadReply), `bulk`, `delete` (always a
 * redirect back with a toast), `store-stock` (the edit dialog's stock per store), else the edit
 * dialog's product form (app/.server/product-form.ts): a save redirects back with a toast.
 */
export async function action({ request, context, url }: Route.ActionArgs) {
  const api = apiOf(context)
  requireUser(context, url)
  const session = getSession(context)
  const grid = readProductGrid(url.searchParams)
  const listHref = productListHref(grid)

  const form = await readAdminForm(request, session, PRODUCT_FORM_LIMITS)
  if (!form.ok) return form.response
  const { formData } = form
  const intent = readText(formData, 'intent')
  const _id = readText(formData, '_id')

  if (intent === PRODUCT_INTENT.upload) return uploadIntentReply(api, session, formData)
  if (intent === 'bulk') return bulkEditAction(api, session, formData, listHref)

  if (intent === PRODUCT_INTENT.delete) {
    if (!_id) return redirectWithToast(session, listHref, { type: 'error', message: 'Choose a product to delete' })
    const result = await adminApi.deleteProduct(api, session, { _id })
    // Either way the dialog closes and the list is loaded again (docs/product.md, "States and
    // transitions").
    if (!result.ok) return redirectWithToast(session, listHref, { type: 'error', message: result.message })
    return redirectWithToast(session, listHref, { type: 'success', message: result.message || 'Product deleted' })
  }

  if (!_id) return adminErrorReply('Choose a product to edit', 400)
  if (intent === 'store-stock') {
    const editHref = productListHref(grid, { kind: 'edit', id: _id })
    const read = readStoreStockForm(formData, _id)
    const refuse = (errors: Record<string, string>, message: string, status: number) =>
      // A StoreStockReply (app/components/product-store-stock.tsx).
      data({ intent: 'store-stock' as const, errors, toast: { type: 'error' as const, message } }, { status })
    if (!read.ok) return refuse(read.errors, Object.values(read.errors)[0] ?? 'Check the stock', 400)
    const result = await storeApi.updateInventory(api, session, read.rows)
    if (!result.ok) {
      const errors = Object.fromEntries(result.issues.map((issue) => ['', issue.message]))
      return refuse(errors, result.message, result.status)
    }
    return redirectWithToast(session, editHref, { type: 'success', message: 'Stock per store saved' })
  }
  const checked = await checkProductForm(api, session, formData)
  if (!checked.ok) return checked.response
  // The version the admin read: the API refuses the save with 409 if the product changed since.
  const version = readText(formData, 'updatedAt')
  const saved = await adminApi.updateProduct(api, session, { _id, ...(version ? { updatedAt: version } : {}), ...checked.value })
  if (!saved.ok) return productSaveRefused(checked.submission, saved)
  return redirectWithToast(session, listHref, { type: 'success', message: saved.message || 'Product updated' })
}
