import type { Context } from 'hono'
import { z } from 'zod'
import type { AppDeps } from '../../deps.ts'
import { currentUser, requireAdmin } from '../../lib/auth.ts'
import { idempotencyClaim } from '../../lib/idempotency.ts'
import { ok } from '../../lib/envelope.ts'
import { AddCategorySchema, CategorySchema, DeleteByIdSchema, UpdateCategorySchema } from '../../../contract/category.ts'
import { IdempotencyHeaderSchema } from '../../../contract/idempotency.ts'
import { apiRouter } from '../../lib/openapi.ts'
import {
  addCategory,
  CATEGORY_ADDED,
  CATEGORY_DELETED,
  CATEGORY_UPDATED,
  deleteCategory,
  listCategories,
  updateCategory,
} from './service.ts'

/**
 * Routes of /api/category (docs/api-contract.md, "Endpoints"). Writes need an ADMIN token (401
 * without a valid one, 403 for anyone else: checked before the body is read); bodies are validated
 * (400 with `issues`).
 *
 * - GET /get (POST accepted too: it takes no body) → Category[] sorted by name.
 * - POST /add-category `{ name, image }` (+ optional `Idempotency-Key` header, api/lib/idempotency.ts) → 201
 *   Category; 400 bad body or image not uploaded, 409 name taken, 422 key reused for another body.
 * - PUT /update `{ _id, name, image }` → Category; 404 unknown id, 409 name taken.
 * - DELETE /delete `{ _id }` → null; 404 unknown id, 409 while a sub category or product uses it.
 */
export function categoryRoutes(deps: AppDeps) {
  const { router, endpoint } = apiRouter('Category')
  const list = {
    path: '/get',
    summary: 'Every category, by name',
    access: 'public',
    answers: { 200: { description: 'The categories', data: z.array(CategorySchema) } },
  } as const
  const get = async (c: Context) => ok(c, 'Category list', await listCategories(deps))
  endpoint({ ...list, method: 'get' }, get)
  endpoint({ ...list, method: 'post', summary: `${list.summary} (POST accepted: it takes no body)` }, get)

  endpoint(
    {
      method: 'post',
      path: '/add-category',
      summary: 'Create a category (ADMIN); a repeated Idempotency-Key answers the first one',
      access: 'admin',
      body: AddCategorySchema,
      headers: IdempotencyHeaderSchema,
      answers: { 201: { description: 'The new category', data: CategorySchema } },
      errors: [409, 422],
    },
    requireAdmin(deps),
    async (c, input) => {
      const idempotency = idempotencyClaim(c, currentUser(c).id, 'category:add', input)
      return ok(c, CATEGORY_ADDED, await addCategory({ ...deps, actor: currentUser(c).id }, input, idempotency), {}, 201)
    },
  )

  endpoint(
    {
      method: 'put',
      path: '/update',
      summary: 'Rename a category or change its image (ADMIN)',
      access: 'admin',
      body: UpdateCategorySchema,
      answers: { 200: { description: 'The updated category', data: CategorySchema } },
      errors: [404, 409],
    },
    requireAdmin(deps),
    async (c, input) => {
      return ok(c, CATEGORY_UPDATED, await updateCategory({ ...deps, actor: currentUser(c).id }, input))
    },
  )

  endpoint(
    {
      method: 'delete',
      path: '/delete',
      summary: 'Delete a category no sub category or product uses (ADMIN)',
      access: 'admin',
      body: DeleteByIdSchema,
      answers: { 200: { description: '`data` is null' } },
      errors: [404, 409],
    },
    requireAdmin(deps),
    async (c, { _id }) => {
      await deleteCategory({ ...deps, actor: currentUser(c).id }, _id)
      return ok(c, CATEGORY_DELETED, null)
    },
  )

  return router
}
