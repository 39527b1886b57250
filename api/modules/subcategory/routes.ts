import { Hono, type Context } from 'hono'
import type { AppDeps } from '../../app.ts'
import { currentUser, requireAdmin } from '../../lib/auth.ts'
import { idempotencyClaim } from '../../lib/idempotency.ts'
import { ok } from '../../lib/envelope.ts'
import { readBody } from '../../lib/validate.ts'
import { DeleteByIdSchema } from '../category/schemas.ts'
import { CreateSubCategorySchema, UpdateSubCategorySchema } from './schemas.ts'
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
  const r = new Hono()
  const get = async (c: Context) => ok(c, 'Sub Category data', await listSubCategories(deps))
  r.post('/get', get)
  r.get('/get', get)

  r.post('/create', requireAdmin(deps), async (c) => {
    const input = await readBody(c, CreateSubCategorySchema)
    const idempotency = idempotencyClaim(c, currentUser(c).id, 'subcategory:create', input)
    return ok(c, SUB_CATEGORY_CREATED, await createSubCategory(deps, input, idempotency), {}, 201)
  })

  r.put('/update', requireAdmin(deps), async (c) => {
    const input = await readBody(c, UpdateSubCategorySchema)
    return ok(c, SUB_CATEGORY_UPDATED, await updateSubCategory(deps, input))
  })

  r.delete('/delete', requireAdmin(deps), async (c) => {
    const { _id } = await readBody(c, DeleteByIdSchema)
    await deleteSubCategory(deps, _id)
    return ok(c, SUB_CATEGORY_DELETED, null)
  })

  return r
}
