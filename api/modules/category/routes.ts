import { Hono } from 'hono'
import type { AppDeps } from '../../app.ts'

/** Routes of /api/category (contract, "Endpoints"). */
export function categoryRoutes(_deps: AppDeps) {
  const r = new Hono()
  return r
}
