import { Hono, type Context } from 'hono'
import type { AppDeps } from '../../app.ts'
import { ok } from '../../lib/envelope.ts'
import { listCategories } from './service.ts'

/**
 * Routes of /api/category (contract, "Endpoints"). Reads only for now; add-category, update and
 * delete (ADMIN) come with the admin issue.
 *
 * - GET /get (POST accepted too: it takes no body) → Category[] sorted by name.
 */
export function categoryRoutes(deps: AppDeps) {
  const r = new Hono()
  const get = async (c: Context) => ok(c, 'Category list', await listCategories(deps))
  r.get('/get', get)
  r.post('/get', get)
  return r
}
