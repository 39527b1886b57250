/**
 * Typed calls to the upstream catalogue WRITE endpoints (docs/api-contract.md, "Endpoints" and
 * "Catalogue"; docs/decisions/0008-catalogue-writes.md: every one needs an ADMIN access token,
 * answers 401 without a token, 403 for a
 * non-admin, 400 with `issues` for a bad body). Organised by resource: file upload, category,
 * sub category, product. Every call goes through `upstream()` with the request's session (Bearer
 * token, refresh once on 401). Answers are parsed with zod, so a malformed answer becomes a 502
 * failure here instead of a crash in a page. Failures come back as `{ ok: false }`, never thrown:
 * the admin pages show them as form errors and toasts (docs/product.md, "Error catalogue").
 */
import { z } from 'zod'
import { parseAnswer, parseData, upstream, type UpstreamResult } from '../upstream.ts'
import type { RequestSession } from '../session.ts'
import { failureStatus } from '../failure.ts'
import { env } from '../env.ts'
import { imageTooLargeMessage } from '../../lib/uploads.ts'
import { discountToTwoPlaces } from '../../lib/money.ts'
import { successOf } from '../../../contract/envelope.ts'
import { UploadAnswerSchema, type UploadAnswer } from '../../../contract/file.ts'
import {
  CategorySchema,
  type AddCategorySchema,
  type Category,
  type DeleteByIdSchema,
  type UpdateCategorySchema,
} from '../../../contract/category.ts'
import {
  SubCategorySchema,
  type CreateSubCategorySchema,
  type SubCategory,
  type UpdateSubCategorySchema,
} from '../../../contract/subcategory.ts'
import { ProductSchema, type CreateProductSchema, type Product, type UpdateProductSchema } from '../../../contract/product.ts'
import { PagingExtraShape, type PagingExtra } from '../../../contract/paging.ts'
import type { Api } from '../api-context.ts'

// ---------------------------------------------------------------------------------------------
// File upload (POST /api/file/upload)
// ---------------------------------------------------------------------------------------------

/**
 * `POST /api/file/upload`: forwards `file` as the multipart field `image` (docs/api-contract.md,
 * "Endpoints"). Answers the stored image (`url`, width and height in px, `format`, size in `bytes`);
 * failures: 400 no file, 413 larger than the API's cap, 415 not an image (checked by content, SVG refused).
 */
export async function uploadImage(api: Api, session: RequestSession, file: File): Promise<UpstreamResult<UploadAnswer>> {
  const formData = new FormData()
  formData.append('image', file, file.name || 'image')
  const result = await upstream<unknown>(api, 'file/upload', { method: 'POST', formData, session })
  return parseData(result, UploadAnswerSchema)
}

/**
 * Uploads an image picked in an admin form: refuses a file over the upload cap (`UPLOAD_MAX_BYTES`,
 * read by app/.server/env.ts as the API reads it) before sending it (413), then calls `uploadImage`. Answers the stored url, or the status to answer with
 * (the API's 4xx: 400, 401, 403, 413, 415; 502 for an API fault) and the message to show.
 */
export async function uploadFormImage(
  api: Api,
  session: RequestSession,
  file: File,
): Promise<{ ok: true; url: string } | { ok: false; status: number; message: string }> {
  if (file.size > env.uploadMaxBytes) return { ok: false, status: 413, message: imageTooLargeMessage(env.uploadMaxBytes) }
  const result = await uploadImage(api, session, file)
  if (!result.ok) return { ok: false, status: failureStatus(result), message: result.message }
  return { ok: true, url: result.data.url }
}

// ---------------------------------------------------------------------------------------------
// Category (docs/product.md, "Category admin"; docs/api-contract.md, "Endpoints")
// ---------------------------------------------------------------------------------------------

/** The body of a new category: its name and the url of an uploaded image (contract/category.ts). */
export type CategoryInput = z.input<typeof AddCategorySchema>

/** Options of a create: the form's idempotency key, sent as the `Idempotency-Key` header (app/.server/idempotency.ts). */
export interface CreateOptions {
  idempotencyKey?: string
}
const idempotencyHeaders = (opts: CreateOptions) => (opts.idempotencyKey ? { 'Idempotency-Key': opts.idempotencyKey } : undefined)

/**
 * `POST /api/category/add-category` `{ name, image }`. Answers the new category (a retry with the same
 * idempotency key answers the first one); 400 bad body, 409 duplicate name.
 */
export async function addCategory(
  api: Api,
  session: RequestSession,
  input: CategoryInput,
  opts: CreateOptions = {},
): Promise<UpstreamResult<Category>> {
  const result = await upstream<unknown>(api, 'category/add-category', {
    method: 'POST',
    json: input,
    session,
    headers: idempotencyHeaders(opts),
  })
  return parseData(result, CategorySchema)
}

/** `PUT /api/category/update` `{ _id, name, image, updatedAt? }`. Answers the updated category; 404 unknown id; 409 when `updatedAt` (the version read) is stale. */
export async function updateCategory(
  api: Api,
  session: RequestSession,
  input: z.input<typeof UpdateCategorySchema>,
): Promise<UpstreamResult<Category>> {
  const result = await upstream<unknown>(api, 'category/update', { method: 'PUT', json: input, session })
  return parseData(result, CategorySchema)
}

/**
 * `DELETE /api/category/delete` `{ _id }` (JSON body, contract). Failures: 404 unknown id, 409 while a
 * sub category or product still uses it (the API's message says so; the page shows it as a toast).
 */
export function deleteCategory(
  api: Api,
  session: RequestSession,
  input: z.input<typeof DeleteByIdSchema>,
): Promise<UpstreamResult<unknown>> {
  return upstream<unknown>(api, 'category/delete', { method: 'DELETE', json: input, session })
}

// ---------------------------------------------------------------------------------------------
// Sub category (docs/product.md, "Sub Category admin"; docs/api-contract.md, "Endpoints")
// ---------------------------------------------------------------------------------------------

/** The body of a new sub category: name, image url and its categories (at least one; contract/subcategory.ts). */
export type SubCategoryInput = z.input<typeof CreateSubCategorySchema>

/**
 * `POST /api/subcategory/create` `{ name, image, category: [ids] }`. Answers the new sub category (a
 * retry with the same idempotency key answers the first one); 400 unknown category ids.
 */
export async function createSubCategory(
  api: Api,
  session: RequestSession,
  input: SubCategoryInput,
  opts: CreateOptions = {},
): Promise<UpstreamResult<SubCategory>> {
  const result = await upstream<unknown>(api, 'subcategory/create', {
    method: 'POST',
    json: input,
    session,
    headers: idempotencyHeaders(opts),
  })
  return parseData(result, SubCategorySchema)
}

/** `PUT /api/subcategory/update` `{ _id, name, image, category }`. Answers the updated sub category; 404 unknown id. */
export async function updateSubCategory(
  api: Api,
  session: RequestSession,
  input: z.input<typeof UpdateSubCategorySchema>,
): Promise<UpstreamResult<SubCategory>> {
  const result = await upstream<unknown>(api, 'subcategory/update', { method: 'PUT', json: input, session })
  return parseData(result, SubCategorySchema)
}

/** `DELETE /api/subcategory/delete` `{ _id }`. Failures: 404 unknown id, 409 while a product still uses it. */
export function deleteSubCategory(
  api: Api,
  session: RequestSession,
  input: z.input<typeof DeleteByIdSchema>,
): Promise<UpstreamResult<unknown>> {
  return upstream<unknown>(api, 'subcategory/delete', { method: 'DELETE', json: input, session })
}

// ---------------------------------------------------------------------------------------------
// Product (docs/product.md, "Upload Product" and "Product admin list"; docs/api-contract.md, "Endpoints")
// ---------------------------------------------------------------------------------------------

/**
 * The product form's payload (app/lib/schemas/product.ts ProductFormSchema output): the create body
 * of contract/product.ts (docs/api-contract.md, "Catalogue") less `discount`, which `productBody`
 * derives, with `price` (the MRP) and `sellingPrice` as numbers of rupees, both required.
 */
export type ProductInput = Omit<z.input<typeof CreateProductSchema>, 'discount' | 'price' | 'sellingPrice'> & {
  price: number
  sellingPrice: number
}

/**
 * The API body of a product form: the form's fields and the `discount` the API requires, in percent
 * (two decimals) of the selling price off the MRP. The API stores the selling price as sent and
 * derives its own discount from the two (docs/commerce-api.md, "Products (addition)"), so a save
 * that does not change the prices leaves them to the paisa.
 */
export function productBody<T extends ProductInput>(input: T): T & { discount: number } {
  return { ...input, discount: discountToTwoPlaces(input.price, input.sellingPrice) }
}

/**
 * `POST /api/product/create` with the create payload. Answers the new product (a retry with the same
 * idempotency key answers the first one); 400 with issues (unknown ids, bad fields).
 */
export async function createProduct(
  api: Api,
  session: RequestSession,
  input: ProductInput,
  opts: CreateOptions = {},
): Promise<UpstreamResult<Product>> {
  const result = await upstream<unknown>(api, 'product/create', {
    method: 'POST',
    json: productBody(input),
    session,
    headers: idempotencyHeaders(opts),
  })
  return parseData(result, ProductSchema)
}

/** `PUT /api/product/update-product-details` `{ _id, ...create fields }`. Answers the updated product; 404 unknown id. */
export async function updateProduct(
  api: Api,
  session: RequestSession,
  input: ProductInput & Pick<z.input<typeof UpdateProductSchema>, '_id' | 'updatedAt'>,
): Promise<UpstreamResult<Product>> {
  const result = await upstream<unknown>(api, 'product/update-product-details', { method: 'PUT', json: productBody(input), session })
  return parseData(result, ProductSchema)
}

/** `DELETE /api/product/delete-product` `{ _id }` (JSON body, contract). Failures: 404 unknown id. */
export function deleteProduct(
  api: Api,
  session: RequestSession,
  input: z.input<typeof DeleteByIdSchema>,
): Promise<UpstreamResult<unknown>> {
  return upstream<unknown>(api, 'product/delete-product', { method: 'DELETE', json: input, session })
}

/** One page of the admin product list: the products, the total match count and the page count. */
export interface AdminProductPage extends PagingExtra {
  products: Product[]
}

const ProductListAnswerSchema = successOf(z.array(ProductSchema), PagingExtraShape)

/**
 * `POST /api/product/get` `{ page, limit, search }` (docs/api-contract.md, "Endpoints";
 * docs/product.md, "Constants": the admin list asks for 12 a page). `page` is 1-based; `search` ''
 * lists every product. Sent with the admin's token, so an API that shows admins unpublished products
 * may do so.
 */
export async function listProducts(
  api: Api,
  session: RequestSession,
  query: { page: number; limit: number; search: string },
): Promise<UpstreamResult<AdminProductPage>> {
  const result = parseAnswer(await upstream<unknown>(api, 'product/get', { method: 'POST', json: query, session }), ProductListAnswerSchema)
  if (!result.ok) return result
  return { ...result, data: { products: result.data.data, totalCount: result.data.totalCount, totalNoPage: result.data.totalNoPage } }
}
