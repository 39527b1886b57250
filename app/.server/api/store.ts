/**
 * Typed calls to the upstream dark-store admin endpoints (docs/stores.md, "Admin"): the stores
 * (`store/list`, `store/create`, `store/update`) and their stock (`inventory/list`,
 * `inventory/update`, `inventory/product`). Every one needs an ADMIN access token (401 without,
 * 403 for a shopper). Answers are parsed with the schemas of contract/location.ts, so an
 * answer off contract becomes a 502 failure; failures come back as `{ ok: false }`, never thrown.
 * Stock is in units (whole numbers, 0..STOCK_MAX); radius in km; times "HH:MM" IST.
 */
import { z } from 'zod'
import type { RequestSession } from '../session.ts'
import { parseData, UNEXPECTED_ANSWER, upstream, type UpstreamResult } from '../upstream.ts'
import {
  InventoryRowSchema,
  ProductStockSchema,
  StoreSchema,
  type CreateStoreInput,
  type InventoryRow,
  type ProductStock,
  type Store,
  type UpdateStoreInput,
} from '../../../contract/location.ts'
import { PagingExtraSchema, type PagingExtra } from '../../../contract/paging.ts'
import type { Api } from '../api-context.ts'

export type { InventoryRow, ProductStock, Store } from '../../../contract/location.ts'

/** `GET /api/store/list`: every store, active or not, by position, with its open orders. */
export async function listStores(api: Api, session: RequestSession): Promise<UpstreamResult<Store[]>> {
  return parseData(await upstream(api, 'store/list', { session }), z.array(StoreSchema))
}

/**
 * `POST /api/store/create`: a new store (coordinates default to the PIN code's centre). Failures: 400
 * with field `issues` (an unknown PIN code is said on `pincode`).
 */
export async function createStore(api: Api, session: RequestSession, input: CreateStoreInput): Promise<UpstreamResult<Store>> {
  return parseData(await upstream(api, 'store/create', { method: 'POST', json: input, session }), StoreSchema)
}

/**
 * `PUT /api/store/update` `{ _id, version?, …fields }`: changes a store, or (de)activates it with
 * `active`. Failures: 400 field issues, 404 unknown store, 409 when `version` is stale (someone else
 * saved it since it was read).
 */
export async function updateStore(api: Api, session: RequestSession, input: UpdateStoreInput): Promise<UpstreamResult<Store>> {
  return parseData(await upstream(api, 'store/update', { method: 'PUT', json: input, session }), StoreSchema)
}

/** One page of a store's stock and the totals of the query. */
export interface InventoryPage extends PagingExtra {
  rows: InventoryRow[]
}

/**
 * `POST /api/inventory/list`: one page of store `storeId`'s stock, by name; `search` matches name,
 * brand or SKU; `filter` `low` (1..LOW_STOCK units) or `out` (0). 404 unknown store.
 */
export async function listInventory(
  api: Api,
  session: RequestSession,
  query: { storeId: string; search?: string; filter: 'all' | 'low' | 'out'; page: number; limit: number },
): Promise<UpstreamResult<InventoryPage>> {
  const result = parseData(await upstream(api, 'inventory/list', { method: 'POST', json: query, session }), z.array(InventoryRowSchema))
  if (!result.ok) return result
  const paging = PagingExtraSchema.safeParse(result.extra)
  if (!paging.success) return { ...UNEXPECTED_ANSWER, issues: [] }
  return { ...result, data: { rows: result.data, ...paging.data } }
}

/**
 * `PUT /api/inventory/update` `{ rows: [{ storeId, productId, stock }] }`: sets the stock (units) of
 * products in stores, all rows or none (one transaction). 400 naming each unknown store or product.
 */
export async function updateInventory(
  api: Api,
  session: RequestSession,
  rows: Array<{ storeId: string; productId: string; stock: number }>,
): Promise<UpstreamResult<unknown>> {
  return upstream(api, 'inventory/update', { method: 'PUT', json: { rows }, session })
}

/** `POST /api/inventory/product` `{ productId }`: the product's stock in every store (0 where none). 404 unknown product. */
export async function productStocks(api: Api, session: RequestSession, productId: string): Promise<UpstreamResult<ProductStock[]>> {
  return parseData(await upstream(api, 'inventory/product', { method: 'POST', json: { productId }, session }), z.array(ProductStockSchema))
}
