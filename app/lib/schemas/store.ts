/**
 * The dark-store admin forms (docs/stores.md, "Admin"): the store form checks with the API's own
 * rules and messages (contract/location.ts `CreateStoreSchema`), so the browser (Conform) and the BFF
 * action decide alike; the stock page's address (`?q=&filter=&page=`) and its per-row stock form.
 */
import { z } from 'zod'
import { CreateStoreSchema, StockSchema, type CreateStoreInput, type UpdateStoreInput } from '../../../contract/location.ts'

export { LOW_STOCK, STOCK_MAX } from '../../../contract/location.ts'

/**
 * Add or edit a store: every field of CreateStoreSchema but `active` (that is the separate
 * deactivate/activate confirmation). Empty `lat`/`lng` mean "the PIN code's centre".
 */
export const StoreFormSchema = CreateStoreSchema.omit({ active: true })
export type StoreFormValue = z.output<typeof StoreFormSchema>

/** The store form's field names (the API's issues on them are shown under them). */
export const STORE_FORM_FIELDS = Object.keys(StoreFormSchema.shape)

/**
 * The body of PUT /api/store/update for an edit of store `_id` read at `version`: every field of the
 * form; empty coordinates are sent as null, so the store goes back to its PIN code's centre
 * (contract/location.ts `UpdateStoreSchema`: "null go back to the PIN code's centre"), and an empty
 * GSTIN, registered address or rider speed as null (the seller's GSTIN, the store's address line,
 * the global `DELIVERY_RIDER_KMPH`). An empty invoice code is left as it is.
 */
export function storeUpdateInput(value: StoreFormValue, _id: string, version: number | undefined): UpdateStoreInput {
  // Only a new store starts from another's stock.
  const { copyStockFrom: _copy, ...fields } = value
  return {
    ...fields,
    _id,
    ...(version !== undefined ? { version } : {}),
    lat: value.lat ?? null,
    lng: value.lng ?? null,
    // Emptied: back to the seller's GSTIN and the store's own address (contract/location.ts `StoreSchema`).
    gstin: value.gstin ?? null,
    registeredAddress: value.registeredAddress ?? null,
    // Emptied: back to the global rider speed (contract/location.ts `StoreSchema.riderKmph`).
    riderKmph: value.riderKmph ?? null,
  }
}

/** The body of POST /api/store/create: the form's fields, coordinates and the store to copy the stock from only when given, active. */
export function storeCreateInput(value: StoreFormValue): CreateStoreInput {
  const { lat, lng, gstin, registeredAddress, invoiceCode, copyStockFrom, ...rest } = value
  return {
    ...rest,
    ...(copyStockFrom ? { copyStockFrom } : {}),
    ...(lat != null && lng != null ? { lat, lng } : {}),
    ...(gstin ? { gstin } : {}),
    ...(registeredAddress ? { registeredAddress } : {}),
    ...(invoiceCode ? { invoiceCode } : {}),
    active: true,
  }
}

/** The stock page's filters: every product, low stock (1..LOW_STOCK units) or out of stock (0). */
export const STOCK_FILTERS = ['all', 'low', 'out'] as const
export type StockFilter = (typeof STOCK_FILTERS)[number]
export const STOCK_FILTER_LABELS: Record<StockFilter, string> = { all: 'All', low: 'Low stock', out: 'Out of stock' }

/** Rows per page of the stock page. */
export const STOCK_PAGE_SIZE = 20
/** Longest search text the stock page sends (the API's cap, contract/location.ts `InventoryListSchema`). */
export const STOCK_SEARCH_MAX = 200

/** The stock page's query as read from its address. */
export interface StockQuery {
  search: string
  filter: StockFilter
  page: number
}

/**
 * Reads `?q=` (trimmed, at most STOCK_SEARCH_MAX characters), `?filter=` (all|low|out, else all) and
 * `?page=` (1..10 000, else 1) of the stock page: a hand-made address never becomes a 400.
 */
export function readStockQuery(params: URLSearchParams): StockQuery {
  const search = (params.get('q') ?? '').trim().slice(0, STOCK_SEARCH_MAX)
  const rawFilter = params.get('filter')
  const filter = STOCK_FILTERS.includes(rawFilter as StockFilter) ? (rawFilter as StockFilter) : 'all'
  const page = Math.min(10_000, Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1))
  return { search, filter, page }
}

/** The stock page's address for `query` (defaults left out): `/dashboard/stores/<id>/stock?q=milk&filter=low&page=2`. */
export function stockHref(storeId: string, query: Partial<StockQuery>): string {
  const params = new URLSearchParams()
  if (query.search) params.set('q', query.search)
  if (query.filter && query.filter !== 'all') params.set('filter', query.filter)
  if (query.page && query.page > 1) params.set('page', String(query.page))
  const text = params.toString()
  return `/dashboard/stores/${encodeURIComponent(storeId)}/stock${text ? `?${text}` : ''}`
}

/** One row's stock form: the product and its new stock in units (0..STOCK_MAX, whole). */
export const StockRowFormSchema = z.object({
  productId: z.string({ error: 'Choose a product' }).trim().min(1, 'Choose a product').max(64),
  stock: StockSchema,
})

/** "Out of stock", "Low stock" (1..LOW_STOCK units) or "In stock": the badge of a stock row. */
export function stockLevel(stock: number, low: number): 'out' | 'low' | 'in' {
  if (stock <= 0) return 'out'
  return stock <= low ? 'low' : 'in'
}

/** The name prefix of a store's stock input in the product form's "Stock per store" section: `stock:<storeId>`. */
export const STORE_STOCK_PREFIX = 'stock:'

/** What the "Stock per store" form posted: the rows to save, or each refused store's message. */
export type StoreStockForm =
  { ok: true; rows: Array<{ storeId: string; productId: string; stock: number }> } | { ok: false; errors: Record<string, string> }

/**
 * Reads the "Stock per store" form of product `productId`: every `stock:<storeId>` field, checked
 * with the API's own StockSchema (contract/location.ts: a whole number 0..STOCK_MAX). Answers the
 * rows for one PUT /api/inventory/update (at most 100, the API's cap), or the message per store id.
 */
export function readStoreStockForm(formData: FormData, productId: string): StoreStockForm {
  const rows: Array<{ storeId: string; productId: string; stock: number }> = []
  const errors: Record<string, string> = {}
  for (const [name, value] of formData.entries()) {
    if (!name.startsWith(STORE_STOCK_PREFIX)) continue
    const storeId = name.slice(STORE_STOCK_PREFIX.length)
    if (!storeId || storeId.length > 64) continue
    const text = typeof value === 'string' ? value.trim() : ''
    const parsed = StockSchema.safeParse(text === '' ? undefined : text)
    if (parsed.success) rows.push({ storeId, productId, stock: parsed.data })
    else errors[storeId] = parsed.error.issues[0]?.message ?? 'Stock must be a whole number'
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors }
  if (rows.length === 0) return { ok: false, errors: { '': 'Nothing to update' } }
  if (rows.length > 100) return { ok: false, errors: { '': 'At most 100 stores at once' } }
  return { ok: true, rows }
}
