import { Hono } from 'hono'
import type { AppDeps } from '../../app.ts'

/** Routes of /api/user (contract, "Endpoints"). */
export function userRoutes(_deps: AppDeps) {
  const r = new Hono()
  return r
}
