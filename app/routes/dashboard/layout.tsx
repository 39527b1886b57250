/**
 * /dashboard (docs/product.md, "Dashboard": a layout with the side menu on desktop, a 250 px column,
 * and the content on the right; on screens narrower than 768 px only the content). Its children are
 * the profile, My Orders and the order pages, the saved addresses and the admin pages (those wrap
 * themselves in the permission guard of docs/product.md, "Roles and permissions"). /dashboard itself
 * goes to /dashboard/profile.
 *
 * The sign-in check is route middleware, so it runs on every request that matches any dashboard page,
 * document or data request, before any child loader or action: a signed-out visitor is sent to
 * /login?redirectTo=<the page> (docs/product.md, "States and transitions") and comes back after
 * signing in. So is a visitor whose session the API ended during the request (a 401 that cleared it).
 */
import { Outlet, redirect } from 'react-router'
import type { Route } from './+types/layout'
import { requireUser } from '../../.server/auth.ts'
import { getSession } from '../../.server/context.ts'
import { DashboardMenu } from '../../components/dashboard-menu.tsx'
import { GeneralErrorBoundary } from '../../components/error-boundary.tsx'
import { useRootData } from '../../root.tsx'

export const middleware: Route.MiddlewareFunction[] = [
  async ({ context, url }, next) => {
    requireUser(context, url)
    if (url.pathname === '/dashboard' || url.pathname === '/dashboard/') throw redirect('/dashboard/profile')
    const response = await next()
    // The session ended during this request (its refresh token was revoked: signed out elsewhere, or
    // the account deactivated); the API's 401 cleared it. Signed out now: to the sign-in page, as
    // any signed-out visit is, rather than an error page.
    if (response instanceof Response && response.status === 401 && !getSession(context).tokens) requireUser(context, url)
    return response
  },
]

export default function DashboardLayout() {
  // The root loader runs on every navigation, so the menu shows a renamed user at once.
  const user = useRootData()?.user
  return (
    <div className="mx-auto w-full max-w-7xl px-0 py-0 md:grid md:grid-cols-[250px_minmax(0,1fr)] md:gap-6 md:px-4 md:py-6">
      {user ? <DashboardMenu user={user} /> : null}
      <div data-card="dashboard" className="min-h-[60vh] min-w-0 bg-white md:rounded-lg md:shadow-sm md:ring-1 md:ring-slate-200">
        <Outlet />
      </div>
    </div>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
