import { Hono } from 'hono'
import type { AppDeps } from '../../app.ts'

/** Routes of /api/product (contract, "Endpoints"). */
export function productRoutes(_deps: AppDeps) {
  const r = new Hono()
  return r
}
