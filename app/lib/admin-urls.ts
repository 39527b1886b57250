/**
 * Addresses of the admin pages' dialogs (docs/decisions/0007-progressive-enhancement.md: every
 * dialog is a search parameter, so it opens by URL without JavaScript and closes with a link back):
 * `?dialog=add`, `?edit=<id>`, `?delete=<id>`, `?view=<id>` of the category and sub category pages,
 * the table page `?page=N`, and the product form's Add Field dialog `?add-field=1`. Also which
 * submissions of those pages change no data, so the page's loader need not run again.
 */
import { ADD_FIELD_PARAM } from './schemas/product.ts'

/** The category admin page (app/routes/dashboard/category.tsx); its action redirects here. */
export const CATEGORY_PATH = '/dashboard/category'
/** The sub category admin page (app/routes/dashboard/subcategory.tsx). */
export const SUBCATEGORY_PATH = '/dashboard/subcategory'
/** The Upload Product page (app/routes/dashboard/upload-product.tsx). */
export const UPLOAD_PRODUCT_PATH = '/dashboard/upload-product'
/** The sub category table's own filters (`?q=`, `?category=`), kept by every link and redirect of the page. */
export const SUBCATEGORY_FILTER_PARAMS = ['q', 'category'] as const

/** The search parameter of the table's page (`?page=N`, 1-based). */
export const PAGE_PARAM = 'page'

/** The dialog a URL opens: add, edit, delete or view (an image) of the entity `id`, or none. */
export type AdminDialog =
  { kind: 'add' } | { kind: 'edit'; id: string } | { kind: 'delete'; id: string } | { kind: 'view'; id: string } | null

/** The dialog named by `search` (`?dialog=add`, `?edit=<id>`, `?delete=<id>`, `?view=<id>`); the first found wins. */
export function readDialog(search: URLSearchParams): AdminDialog {
  if (search.get('dialog') === 'add') return { kind: 'add' }
  for (const kind of ['edit', 'delete', 'view'] as const) {
    const id = search.get(kind)?.trim()
    if (id) return { kind, id }
  }
  return null
}

/** The search parameters of `dialog` (empty for none). */
function dialogParams(dialog: AdminDialog): Record<string, string> {
  if (!dialog) return {}
  if (dialog.kind === 'add') return { dialog: 'add' }
  return { [dialog.kind]: dialog.id }
}

/**
 * `pathname` with the table page of `search` kept (when above 1) and `dialog` opened, e.g.
 * `/dashboard/subcategory?page=2&edit=ab12`. Every other parameter is dropped, except the non-empty
 * ones named in `keep` (a page's own filters, `?q=&category=`), so closing a dialog is a link to
 * `adminHref(path, search, null)`.
 */
export function adminHref(
  pathname: string,
  search: URLSearchParams,
  dialog: AdminDialog,
  page?: number,
  keep: readonly string[] = [],
): string {
  const next = new URLSearchParams()
  for (const key of keep) {
    const value = search.get(key)?.trim()
    if (value) next.set(key, value)
  }
  const keptPage = page ?? Number(search.get(PAGE_PARAM))
  if (Number.isInteger(keptPage) && keptPage > 1) next.set(PAGE_PARAM, String(keptPage))
  for (const [key, value] of Object.entries(dialogParams(dialog))) next.set(key, value)
  const query = next.toString()
  return query ? `${pathname}?${query}` : pathname
}

/** `href` with `add-field=1` added to its query: the address of the product form's open Add Field dialog. */
export function withAddField(href: string): string {
  const [path, query = ''] = href.split('?')
  const params = new URLSearchParams(query)
  params.set(ADD_FIELD_PARAM, '1')
  return `${path}?${params.toString()}`
}

/**
 * The `shouldRevalidate` of the admin form pages (React Router): an image upload through a fetcher
 * (`intent=upload`) and opening or closing the Add Field dialog (only `add-field` differs in the
 * address) change no data, so the page's loader is not run again for them.
 */
export function shouldRevalidateAdminPage({
  formData,
  currentUrl,
  nextUrl,
  defaultShouldRevalidate,
}: {
  formData?: FormData
  currentUrl: URL
  nextUrl: URL
  defaultShouldRevalidate: boolean
}): boolean {
  if (formData?.get('intent') === 'upload') return false
  if (!formData && currentUrl.pathname === nextUrl.pathname) {
    const strip = (url: URL) => {
      const params = new URLSearchParams(url.search)
      params.delete(ADD_FIELD_PARAM)
      params.sort()
      return params.toString()
    }
    if (strip(currentUrl) === strip(nextUrl)) return false
  }
  return defaultShouldRevalidate
}
