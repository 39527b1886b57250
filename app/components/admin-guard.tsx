/**
 * The permission guard of the admin and staff dashboard routes (docs/product.md, "Roles and permissions"):
 * anyone but the role the page needs sees "Do not have permission" in a red box. An admin page's
 * loader calls app/.server/auth.ts `requireAdmin`, which throws a 403 for anyone but an admin (from a
 * fresh user-details call); the page's `AdminErrorBoundary` shows the box for it, with or without
 * JavaScript. The staff pages decide with `RoleGuard`. The API refuses every catalogue write of a
 * non-admin on its own (docs/api-contract.md, "Differences from the original contract"), so these
 * guards only decide what is shown.
 */
import type { ReactNode } from 'react'
import { useRouteError } from 'react-router'
import { NO_PERMISSION_MESSAGE } from '../lib/roles.ts'
import { describeError, GeneralErrorBoundary } from './error-boundary.tsx'

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

/** The error boundary of an admin page: a 403 (thrown by `requireAdmin`) is the red box, anything else the general fallback. */
export function AdminErrorBoundary() {
  const { status } = describeError(useRouteError())
  return status === 403 ? <NoPermission /> : <GeneralErrorBoundary />
}

/** `children` when `allowed` (the staff pages pass ADMIN or STAFF: app/.server/auth.ts `requireStaff`), else the red box. */
export function RoleGuard({ allowed, children }: { allowed: boolean; children: ReactNode }) {
  return allowed ? <>{children}</> : <NoPermission />
}
