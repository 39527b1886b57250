import { z } from 'zod'
import type { AppDeps } from '../../deps.ts'
import { currentUser, requireAdmin } from '../../lib/auth.ts'
import { idempotencyClaim } from '../../lib/idempotency.ts'
import { ok } from '../../lib/envelope.ts'
import { DeleteByIdSchema } from '../../../contract/category.ts'
import { apiRouter } from '../../lib/openapi.ts'
import { pageCount, PagingExtraShape } from '../../../contract/paging.ts'
import { IdempotencyHeaderSchema } from '../../../contract/idempotency.ts'
import {
  CategoryProductsSchema,
  CreateProductSchema,
  ProductDetailsSchema,
  ProductSchema,
  ProductsByCategorySchema,
  SimilarProductsSchema,
  UpdateProductSchema,
} from '../../../contract/product.ts'
import { readFileField } from '../../lib/multipart.ts'
import type { Context } from 'hono'
import {
  BulkUpdateSchema,
  ImportAnswerSchema,
  ImportApplySchema,
  ImportJobParamsSchema,
  ImportJobSchema,
} from '../../../contract/product-import.ts'
import { exportProductsCsv } from './export.ts'
import { adminListProducts } from './admin-list.ts'
import { AdminProductFilterSchema, AdminProductListSchema, AdminProductRowSchema } from '../../../contract/product-admin.ts'
import { BadRequest } from '../../lib/errors.ts'
import { applyImport, dryRunImport, IMPORT_APPLIED, IMPORT_CHECKED } from './import.ts'
import { CSV_MAX_BYTES } from './csv.ts'
import { IMPORT_JOB_STARTED, importJobStatus, startImportApply, startImportDryRun } from './import-jobs.ts'
import { BULK_UPDATED, bulkUpdateProducts } from './bulk.ts'
import { STORE_HEADER, productReadDeps, requestStore } from '../store/service.ts'
import {
  createProduct,
  deleteProduct,
  PRODUCT_CREATED,
  PRODUCT_DELETED,
  PRODUCT_UPDATED,
  productDetails,
  productsByCategory,
  productsByCategoryGrouped,
  similarProducts,
  updateProduct,
} from './service.ts'

/**
 * Routes of /api/product but its searched and paged lists (those are the search module's,
 * api/modules/search/routes.ts, mounted on the same prefix); each endpoint's body and answer:
 * docs/api-contract.md, "Endpoints" and "Catalogue". Every body is validated (400 with `issues` on wrong types). Writes need an ADMIN token
 * (401 without a valid one, 403 for anyone else), checked before the body is read
 * (docs/decisions/0008-catalogue-writes.md, "Guard first"); a create may carry an `Idempotency-Key`
 * (api/lib/idempotency.ts). The CSV export, import (dry run, then apply) and the grid's bulk edit:
 * docs/product-csv.md.
 */
export function productRoutes(deps: AppDeps) {
  const { router, endpoint } = apiRouter('Product')
  const product = { data: ProductSchema }
  const products = z.array(ProductSchema)

  endpoint(
    {
      method: 'post',
      path: '/get-product-by-category',
      summary: 'At most 15 products of each category named, or one row per category with `grouped: true`',
      access: 'public',
      body: ProductsByCategorySchema,
      answers: {
        200: {
          description: 'The products (flat), or `{ categoryId, products }` rows when grouped',
          data: z.union([products, z.array(CategoryProductsSchema)]),
        },
      },
    },
    async (c, { id, grouped, groupSizes }) => {
      if (grouped)
        return ok(
          c,
          'category product list',
          await productsByCategoryGrouped(await productReadDeps(deps, c.req.header(STORE_HEADER)), id, { groupSizes }),
        )
      return ok(c, 'category product list', await productsByCategory(await productReadDeps(deps, c.req.header(STORE_HEADER)), id))
    },
  )

  endpoint(
    {
      method: 'post',
      path: '/get-product-details',
      summary: 'One published product',
      access: 'public',
      body: ProductDetailsSchema,
      answers: { 200: { description: 'The product', ...product } },
      errors: [404],
    },
    async (c, { productId }) => {
      return ok(c, 'product details', await productDetails(await productReadDeps(deps, c.req.header(STORE_HEADER)), productId))
    },
  )

  endpoint(
    {
      method: 'post',
      path: '/similar',
      summary: "Products like one published product: its shelf's nearest in price, more of its brand",
      access: 'public',
      body: ProductDetailsSchema,
      answers: { 200: { description: 'Two rows, in stock in the store first', data: SimilarProductsSchema } },
      errors: [404],
    },
    async (c, { productId }) => {
      return ok(c, 'similar products', await similarProducts(await productReadDeps(deps, c.req.header(STORE_HEADER)), productId))
    },
  )

  endpoint(
    {
      method: 'post',
      path: '/create',
      summary: 'Create a product (ADMIN); a repeated Idempotency-Key answers the first product',
      access: 'admin',
      body: CreateProductSchema,
      headers: IdempotencyHeaderSchema,
      answers: { 201: { description: 'The new product', ...product } },
      errors: [422],
    },
    requireAdmin(deps),
    async (c, input) => {
      const idempotency = idempotencyClaim(c, currentUser(c).id, 'product:create', input)
      return ok(
        c,
        PRODUCT_CREATED,
        await createProduct(
          { ...deps, actor: currentUser(c).id, storeId: (await requestStore(deps, c.req.header(STORE_HEADER))).id },
          input,
          idempotency,
        ),
        {},
        201,
      )
    },
  )

  endpoint(
    {
      method: 'put',
      path: '/update-product-details',
      summary: 'Change any fields of a product (ADMIN); `updatedAt` as read makes a stale edit a 409',
      access: 'admin',
      body: UpdateProductSchema,
      answers: { 200: { description: 'The updated product', ...product } },
      errors: [404, 409],
    },
    requireAdmin(deps),
    async (c, input) => {
      return ok(
        c,
        PRODUCT_UPDATED,
        await updateProduct(
          { ...deps, actor: currentUser(c).id, storeId: (await requestStore(deps, c.req.header(STORE_HEADER))).id },
          input,
        ),
      )
    },
  )

  endpoint(
    {
      method: 'delete',
      path: '/delete-product',
      summary: 'Delete a product (ADMIN)',
      access: 'admin',
      body: DeleteByIdSchema,
      answers: { 200: { description: '`data` is null' } },
      errors: [404],
    },
    requireAdmin(deps),
    async (c, { _id }) => {
      await deleteProduct({ ...deps, actor: currentUser(c).id }, _id)
      return ok(c, PRODUCT_DELETED, null)
    },
  )

  endpoint(
    {
      method: 'post',
      path: '/admin-list',
      summary: "One page of the admin grid (ADMIN): every product, published or not, with the default store's stock",
      description:
        'Filters: `q` (name, brand or SKU, part of it), `stock` (`out`, `low`), `category`, `subCategory`, `brand`; `sort`. `brands` lists the distinct brands for the filter menu (docs/product-csv.md, "The admin grid").',
      access: 'admin',
      body: AdminProductListSchema,
      answers: {
        200: {
          description: 'One page of rows',
          data: z.array(AdminProductRowSchema),
          extra: { ...PagingExtraShape, brands: z.array(z.string()) },
        },
      },
    },
    requireAdmin(deps),
    async (c, input) => {
      const { data, totalCount, brands } = await adminListProducts(deps.db, input)
      return ok(c, 'Product data', data, { totalCount, totalNoPage: pageCount(totalCount, input.limit), brands })
    },
  )

  endpoint(
    {
      method: 'get',
      path: '/export',
      summary: 'The products as CSV (ADMIN), in the format the import reads (docs/product-csv.md)',
      description:
        "Every product, or those the admin grid's filters in the query select (`q`, `stock`, `category`, `subCategory`, `brand`; as POST /admin-list).",
      access: 'admin',
      query: AdminProductFilterSchema,
      answers: { 200: { description: 'CSV text, header first', raw: { mediaType: 'text/csv', schema: z.string() } } },
    },
    requireAdmin(deps),
    (c) => {
      const parsed = AdminProductFilterSchema.safeParse(c.req.query())
      if (!parsed.success) {
        const issues = parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }))
        throw BadRequest(`${issues[0]!.path || 'query'}: ${issues[0]!.message}`, issues)
      }
      const day = new Date().toISOString().slice(0, 10)
      return c.body(exportProductsCsv(deps.db, parsed.data), 200, {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="products-${day}.csv"`,
        'Cache-Control': 'no-store',
      })
    },
  )

  endpoint(
    {
      method: 'post',
      path: '/import',
      summary: 'Dry run of a product CSV (ADMIN): every error by line and column, and what each row would do; writes nothing',
      access: 'admin',
      upload: 'file',
      uploadDescription: `The product CSV (docs/product-csv.md), UTF-8, at most ${CSV_MAX_BYTES / 1024 / 1024} MB`,
      answers: {
        200: { description: 'The check; `upload` names the file for the apply when `errors` is empty', data: ImportAnswerSchema },
      },
    },
    requireAdmin(deps),
    async (c) => {
      const file = await readFileField(c, 'file', CSV_MAX_BYTES)
      return ok(c, IMPORT_CHECKED, await dryRunImport(deps, file.bytes, currentUser(c).id))
    },
  )

  endpoint(
    {
      method: 'post',
      path: '/import/apply',
      summary: 'Apply a checked product CSV (ADMIN) in one transaction: upsert by SKU',
      access: 'admin',
      body: ImportApplySchema,
      answers: { 200: { description: 'Applied', data: ImportAnswerSchema } },
      errors: [404],
    },
    requireAdmin(deps),
    async (c, { upload }) => {
      return ok(c, IMPORT_APPLIED, await applyImport({ ...deps, actor: currentUser(c).id }, upload))
    },
  )

  endpoint(
    {
      method: 'post',
      path: '/import/jobs',
      summary: 'Start a dry run of a product CSV as a job (ADMIN): the file is stored and checked in the background',
      description:
        'Answers at once with the job (`status` `queued`); GET /import/jobs/{jobId} follows its progress and result (docs/product-csv.md, "Imports as jobs").',
      access: 'admin',
      upload: 'file',
      uploadDescription: `The product CSV (docs/product-csv.md), UTF-8, at most ${CSV_MAX_BYTES / 1024 / 1024} MB`,
      answers: { 202: { description: 'The queued dry run', data: ImportJobSchema } },
    },
    requireAdmin(deps),
    async (c) => {
      const file = await readFileField(c, 'file', CSV_MAX_BYTES)
      return ok(c, IMPORT_JOB_STARTED, await startImportDryRun(deps, file.bytes, currentUser(c).id), {}, 202)
    },
  )

  endpoint(
    {
      method: 'post',
      path: '/import/jobs/{jobId}/apply',
      summary: 'Apply a dry run that found no error (ADMIN), as a job writing the file in slices; once per dry run',
      description:
        'A second call answers the apply already started. 409 when the dry run is still running, found errors, or is older than a day.',
      access: 'admin',
      params: ImportJobParamsSchema,
      answers: { 202: { description: 'The queued (or already started) apply', data: ImportJobSchema } },
      errors: [404, 409],
    },
    requireAdmin(deps),
    async (c) => {
      return ok(c, IMPORT_JOB_STARTED, await startImportApply(deps, jobIdOf(c), currentUser(c).id), {}, 202)
    },
  )

  endpoint(
    {
      method: 'get',
      path: '/import/jobs/{jobId}',
      summary: "An import job's progress (rows done of total) and, once finished, its result (ADMIN)",
      access: 'admin',
      params: ImportJobParamsSchema,
      answers: { 200: { description: 'The job', data: ImportJobSchema } },
      errors: [404],
    },
    requireAdmin(deps),
    async (c) => {
      return ok(c, 'Import job', await importJobStatus(deps, jobIdOf(c)))
    },
  )

  endpoint(
    {
      method: 'post',
      path: '/bulk-update',
      summary: 'Change the MRP, selling price and stock of many products (ADMIN), in one transaction',
      access: 'admin',
      body: BulkUpdateSchema,
      answers: { 200: { description: 'How many products changed', data: z.object({ updated: z.number().int() }) } },
      errors: [404],
    },
    requireAdmin(deps),
    async (c, input) => {
      return ok(c, BULK_UPDATED, await bulkUpdateProducts({ ...deps, actor: currentUser(c).id }, input))
    },
  )

  return router
}

/**
 * The `{jobId}` of an import job route, checked by its schema (contract/product-import.ts).
 * @throws 400 naming `jobId` when it is not an import job id
 */
function jobIdOf(c: Context): string {
  const parsed = ImportJobParamsSchema.safeParse({ jobId: c.req.param('jobId') })
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message ?? 'Not an import job id'
    throw BadRequest(`jobId: ${message}`, [{ path: 'jobId', message }])
  }
  return parsed.data.jobId
}
