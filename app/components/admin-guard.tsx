/**
 * The permission guard of the admin and staff dashboard routes (docs/product.md, "Roles and permissions"):
 * the child only for a user whose role is ADMIN; anyone else sees "Do not have permission" in a red
 * box. The page's loader decides `isAdmin` from a fresh user-details call (app/.server/auth.ts
 * `requireAdmin`) and answers 403 with the box; the API refuses every catalogue write of a non-admin
 * on its own (docs/api-contract.md, "Differences from the original contract"), so this guard only
 * decides what is shown.
 */
import type { ReactNode } from 'react'
import { NO_PERMISSION_MESSAGE } from '../lib/roles.ts'

/** The red "Do not have permission" box, announced as an alert, under the page's (hidden) heading. */
export function NoPermission() {
  return (
    <div className="p-4 md:p-6">
      <h1 className="sr-only">{NO_PERMISSION_MESSAGE}</h1>
      <p role="alert" className="rounded-lg border border-red-300 bg-red-100 p-4 font-medium text-red-800">
        {NO_PERMISSION_MESSAGE}
      </p>
    </div>
  )
}

/** `children` when `isAdmin`, else the red box. */
export function AdminGuard({ isAdmin, children }: { isAdmin: boolean; children: ReactNode }) {
  return <RoleGuard allowed={isAdmin}>{children}</RoleGuard>
}

/** `children` when `allowed` (the staff pages pass ADMIN or STAFF: app/.server/auth.ts `requireStaff`), else the red box. */
export function RoleGuard({ allowed, children }: { allowed: boolean; children: ReactNode }) {
  return allowed ? <>{children}</> : <NoPermission />
}
