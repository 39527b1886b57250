import { Hono } from 'hono'
import type { AppDeps } from '../../app.ts'

/** Routes of /api/subcategory (contract, "Endpoints"). */
export function subCategoryRoutes(_deps: AppDeps) {
  const r = new Hono()
  return r
}
