import { Hono, type Context } from 'hono'
import type { AppDeps } from '../../app.ts'
import { ok } from '../../lib/envelope.ts'
import { listSubCategories } from './service.ts'

/**
 * Routes of /api/subcategory (contract, "Endpoints"). Reads only for now; create, update and
 * delete (ADMIN) come with the admin issue.
 *
 * - POST /get (the spec's method; GET accepted too, it takes no body) → SubCategory[] sorted by
 *   name, `category` expanded to `{ _id, name, image }`.
 */
export function subCategoryRoutes(deps: AppDeps) {
  const r = new Hono()
  const get = async (c: Context) => ok(c, 'Sub Category data', await listSubCategories(deps))
  r.post('/get', get)
  r.get('/get', get)
  return r
}
