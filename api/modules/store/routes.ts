/**
 * Routes of /api/store and /api/inventory (docs/stores.md, "Admin API"): the dark stores and their
 * stock. Store settings are ADMIN only; the store list and the stock are ADMIN or STAFF
 * (docs/product.md, "Roles and permissions").
 *
 * - GET /api/store/list → every store, active or not, by position, with its open orders
 * - POST /api/store/create → 201 Store; PUT /api/store/update `{ _id, version?, ...fields }` → Store
 *   (deactivate with `active: false`: its shoppers move to the next store serving them)
 * - POST /api/inventory/list `{ storeId, search?, filter?, page?, limit? }` → one page of its stock
 * - PUT /api/inventory/update `{ rows: [{ storeId, productId, stock }] }` → null (one transaction)
 * - POST /api/inventory/product `{ productId }` → the product's stock in every store
 * - GET /api/inventory/export?storeId= → the store's stock as CSV (docs/store-stock-csv.md)
 * - POST /api/inventory/import?storeId= (multipart `file`) → the dry run: changes and row errors, nothing written
 * - POST /api/inventory/import/apply?storeId= (the same file) → written in one transaction, or 400 and nothing
 */
import { z } from 'zod'
import type { AppDeps } from '../../deps.ts'
import { assertOwnStore, currentUser, requireAdmin, requireStaff } from '../../lib/auth.ts'
import { ok } from '../../lib/envelope.ts'
import { apiRouter } from '../../lib/openapi.ts'
import { pageCount, PagingExtraShape } from '../../../contract/paging.ts'
import {
  CreateStoreSchema,
  InventoryListSchema,
  InventoryRowSchema,
  ProductStockQuerySchema,
  ProductStockSchema,
  StoreSchema,
  UpdateInventorySchema,
  UpdateStoreSchema,
} from '../../../contract/location.ts'
import { listInventory, productStocks, updateInventory } from '../inventory/service.ts'
import { exportStockCsv, requireStore } from '../inventory/export.ts'
import { applyStockImport, dryRunStockImport } from '../inventory/import.ts'
import { readFileField } from '../../lib/multipart.ts'
import { BadRequest } from '../../lib/errors.ts'
import { StockCsvQuerySchema, StockImportAnswerSchema, STOCK_CSV_MAX_BYTES } from '../../../contract/stock-csv.ts'
import { createStore, listStoresForAdmin, updateStore } from './service.ts'

/** Builds the /api/store router. */
export function storeRoutes(deps: AppDeps) {
  const { router, endpoint } = apiRouter('Store')
  const admin = requireAdmin(deps)

  endpoint(
    {
      method: 'get',
      path: '/list',
      summary: 'Every dark store, by position (ADMIN or STAFF)',
      access: 'staff',
      answers: { 200: { description: 'The stores', data: z.array(StoreSchema) } },
    },
    requireStaff(deps),
    async (c) => ok(c, 'Stores', await listStoresForAdmin(deps)),
  )

  endpoint(
    {
      method: 'post',
      path: '/create',
      summary: 'Add a dark store (ADMIN); coordinates default to the pincode centre',
      access: 'admin',
      body: CreateStoreSchema,
      answers: { 201: { description: 'The new store', data: StoreSchema } },
    },
    admin,
    async (c, input) => ok(c, 'Store added', await createStore({ ...deps, actor: currentUser(c).id }, input), {}, 201),
  )

  endpoint(
    {
      method: 'put',
      path: '/update',
      summary: "Change a store's fields, or deactivate it (ADMIN)",
      access: 'admin',
      body: UpdateStoreSchema,
      answers: { 200: { description: 'The store', data: StoreSchema } },
      errors: [404, 409],
    },
    admin,
    async (c, input) => ok(c, 'Store updated', await updateStore({ ...deps, actor: currentUser(c).id }, input)),
  )

  return router
}

/** Builds the /api/inventory router. */
export function inventoryRoutes(deps: AppDeps) {
  const { router, endpoint } = apiRouter('Inventory')
  const staff = requireStaff(deps)

  endpoint(
    {
      method: 'post',
      path: '/list',
      summary: "One page of a store's stock, by name; search by name, brand or SKU; low or out of stock only (ADMIN or STAFF)",
      access: 'staff',
      body: InventoryListSchema,
      answers: {
        200: {
          description: 'One page of stock rows',
          data: z.array(InventoryRowSchema),
          extra: PagingExtraShape,
        },
      },
      errors: [404],
    },
    staff,
    async (c, input) => {
      const page = await listInventory(deps, input)
      return ok(c, 'Stock', page.data, { totalCount: page.totalCount, totalNoPage: pageCount(page.totalCount, input.limit) })
    },
  )

  endpoint(
    {
      method: 'put',
      path: '/update',
      summary: 'Set the stock of products in stores, all or nothing (ADMIN or STAFF)',
      access: 'staff',
      body: UpdateInventorySchema,
      answers: { 200: { description: 'Saved', data: z.null() } },
    },
    staff,
    async (c, input) => {
      // Staff change their own store's stock; other stores' they may read (docs/product.md, "Staff").
      for (const row of input.rows) assertOwnStore(currentUser(c), row.storeId)
      await updateInventory({ ...deps, actor: currentUser(c).id }, input)
      return ok(c, 'Stock updated', null)
    },
  )

  endpoint(
    {
      method: 'post',
      path: '/product',
      summary: "A product's stock in every store (ADMIN or STAFF)",
      access: 'staff',
      body: ProductStockQuerySchema,
      answers: { 200: { description: "The product's stock per store", data: z.array(ProductStockSchema) } },
      errors: [404],
    },
    staff,
    async (c, { productId }) => ok(c, 'Stock', await productStocks(deps, productId)),
  )

  /** The `?storeId=` of the CSV endpoints. @throws 400 when it is missing or blank */
  const storeIdOf = (query: Record<string, string>): string => {
    const parsed = StockCsvQuerySchema.safeParse(query)
    if (!parsed.success) {
      const message = parsed.error.issues[0]!.message
      throw BadRequest(`storeId: ${message}`, [{ path: 'storeId', message }])
    }
    return parsed.data.storeId
  }
  const uploadDescription = `The stock CSV (docs/store-stock-csv.md), UTF-8 with or without a byte order mark, at most ${STOCK_CSV_MAX_BYTES / 1024 / 1024} MB`

  endpoint(
    {
      method: 'get',
      path: '/export',
      summary: "A store's stock as CSV, by SKU (ADMIN or STAFF), in the format the stock import reads",
      access: 'staff',
      query: StockCsvQuerySchema,
      answers: { 200: { description: 'CSV text, byte order mark and header first', raw: { mediaType: 'text/csv', schema: z.string() } } },
      errors: [404],
    },
    staff,
    async (c) => {
      const store = await requireStore(deps.db, storeIdOf(c.req.query()))
      const day = new Date().toISOString().slice(0, 10)
      return c.body(exportStockCsv(deps.db, store.id), 200, {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="stock-${store.id}-${day}.csv"`,
        'Cache-Control': 'no-store',
      })
    },
  )

  endpoint(
    {
      method: 'post',
      path: '/import',
      summary: "Dry run of a store's stock CSV (ADMIN or STAFF): the changes and every row error; writes nothing",
      access: 'staff',
      query: StockCsvQuerySchema,
      upload: 'file',
      uploadDescription,
      answers: { 200: { description: 'The check: rows to change and row errors', data: StockImportAnswerSchema } },
      errors: [404, 413],
    },
    staff,
    async (c) => {
      const storeId = storeIdOf(c.req.query())
      assertOwnStore(currentUser(c), storeId)
      const file = await readFileField(c, 'file', STOCK_CSV_MAX_BYTES)
      return ok(c, 'File checked', await dryRunStockImport(deps, storeId, file.bytes))
    },
  )

  endpoint(
    {
      method: 'post',
      path: '/import/apply',
      summary: "Apply a store's stock CSV (ADMIN or STAFF): every changed stock in one transaction, or nothing",
      access: 'staff',
      query: StockCsvQuerySchema,
      upload: 'file',
      uploadDescription,
      answers: { 200: { description: 'Applied', data: StockImportAnswerSchema } },
      errors: [404, 413],
    },
    staff,
    async (c) => {
      const storeId = storeIdOf(c.req.query())
      assertOwnStore(currentUser(c), storeId)
      const file = await readFileField(c, 'file', STOCK_CSV_MAX_BYTES)
      return ok(c, 'Stock imported', await applyStockImport({ ...deps, actor: currentUser(c).id }, storeId, file.bytes))
    },
  )

  return router
}
