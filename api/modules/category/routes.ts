import { Hono, type Context } from 'hono'
import type { AppDeps } from '../../app.ts'
import { currentUser, requireAdmin } from '../../lib/auth.ts'
import { idempotencyClaim } from '../../lib/idempotency.ts'
import { ok } from '../../lib/envelope.ts'
import { readBody } from '../../lib/validate.ts'
import { AddCategorySchema, DeleteByIdSchema, UpdateCategorySchema } from './schemas.ts'
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
  const r = new Hono()
  const get = async (c: Context) => ok(c, 'Category list', await listCategories(deps))
  r.get('/get', get)
  r.post('/get', get)

  r.post('/add-category', requireAdmin(deps), async (c) => {
    const input = await readBody(c, AddCategorySchema)
    const idempotency = idempotencyClaim(c, currentUser(c).id, 'category:add', input)
    return ok(c, CATEGORY_ADDED, await addCategory(deps, input, idempotency), {}, 201)
  })

  r.put('/update', requireAdmin(deps), async (c) => {
    const input = await readBody(c, UpdateCategorySchema)
    return ok(c, CATEGORY_UPDATED, await updateCategory(deps, input))
  })

  r.delete('/delete', requireAdmin(deps), async (c) => {
    const { _id } = await readBody(c, DeleteByIdSchema)
    await deleteCategory(deps, _id)
    return ok(c, CATEGORY_DELETED, null)
  })

  return r
}
