import type { Context } from 'hono'
import { z } from 'zod'
import type { AppDeps } from '../../deps.ts'
import { currentUser, requireAdmin } from '../../lib/auth.ts'
import { idempotencyClaim } from '../../lib/idempotency.ts'
import { ok } from '../../lib/envelope.ts'
import { DeleteByIdSchema } from '../../../contract/category.ts'
import { CreateSubCategorySchema, SubCategorySchema, UpdateSubCategorySchema } from '../../../contract/subcategory.ts'
import { IdempotencyHeaderSchema } from '../../../contract/idempotency.ts'
import { apiRouter } from '../../lib/openapi.ts'
import {
  createSubCategory,
  deleteSubCategory,
  listSubCategories,
  SUB_CATEGORY_CREATED,
  SUB_CATEGORY_DELETED,
  SUB_CATEGORY_UPDATED,
  updateSubCategory,
} from './service.ts'

/**
 * Routes of /api/subcategory (docs/api-contract.md, "Endpoints"). Writes need an ADMIN token (401 without a
 * valid one, 403 for anyone else: checked before the body is read); bodies are validated (400 with
 * `issues`).
 *
 * - POST /get (the original client's method; GET accepted too, it takes no body) → SubCategory[] sorted by
 *   name, `category` expanded to `{ _id, name, image }`.
 * - POST /create `{ name, image, category: [ids or { _id } objects] }` (+ optional `Idempotency-Key`
 *   header, api/lib/idempotency.ts) → 201 SubCategory (expanded); 400 bad body, image not uploaded or
 *   unknown category ids, 422 key reused for another body.
 * - PUT /update `{ _id, name, image, category }` → SubCategory; links replaced; 404 unknown id.
 * - DELETE /delete `{ _id }` → null; 404 unknown id, 409 while a product uses it.
 */
export function subCategoryRoutes(deps: AppDeps) {
  const { router, endpoint } = apiRouter('Sub category')
  const list = {
    path: '/get',
    summary: 'Every sub category, by name, its categories expanded',
    access: 'public',
    answers: { 200: { description: 'The sub categories', data: z.array(SubCategorySchema) } },
  } as const
  const get = async (c: Context) => ok(c, 'Sub Category data', await listSubCategories(deps))
  endpoint({ ...list, method: 'post' }, get)
  endpoint({ ...list, method: 'get', summary: `${list.summary} (GET accepted: it takes no body)` }, get)

  endpoint(
    {
      method: 'post',
      path: '/create',
      summary: 'Create a sub category under one or more categories (ADMIN); a repeated Idempotency-Key answers the first one',
      access: 'admin',
      body: CreateSubCategorySchema,
      headers: IdempotencyHeaderSchema,
      answers: { 201: { description: 'The new sub category', data: SubCategorySchema } },
      errors: [422],
    },
    requireAdmin(deps),
    async (c, input) => {
      const idempotency = idempotencyClaim(c, currentUser(c).id, 'subcategory:create', input)
      return ok(c, SUB_CATEGORY_CREATED, await createSubCategory({ ...deps, actor: currentUser(c).id }, input, idempotency), {}, 201)
    },
  )

  endpoint(
    {
      method: 'put',
      path: '/update',
      summary: 'Change a sub category; `category` replaces its links (ADMIN)',
      access: 'admin',
      body: UpdateSubCategorySchema,
      answers: { 200: { description: 'The updated sub category', data: SubCategorySchema } },
      errors: [404, 409],
    },
    requireAdmin(deps),
    async (c, input) => {
      return ok(c, SUB_CATEGORY_UPDATED, await updateSubCategory({ ...deps, actor: currentUser(c).id }, input))
    },
  )

  endpoint(
    {
      method: 'delete',
      path: '/delete',
      summary: 'Delete a sub category no product uses (ADMIN)',
      access: 'admin',
      body: DeleteByIdSchema,
      answers: { 200: { description: '`data` is null' } },
      errors: [404, 409],
    },
    requireAdmin(deps),
    async (c, { _id }) => {
      await deleteSubCategory({ ...deps, actor: currentUser(c).id }, _id)
      return ok(c, SUB_CATEGORY_DELETED, null)
    },
  )

  return router
}
