import { Hono } from 'hono'
import type { AppDeps } from '../../app.ts'

/** Routes of /api/file (contract, "Endpoints"). */
export function fileRoutes(_deps: AppDeps) {
  const r = new Hono()
  return r
}
