/**
 * Route guards and the sign-in step of the BFF (docs/product.md, "States and transitions": signed
 * in is decided by the presence of a user _id; docs/product.md, "Roles and permissions"). Loaders and
 * actions call these; the session is the request's `RequestSession` (app/.server/context.ts),
 * committed by the root middleware.
 */
import { mergeGuestCart } from './api/cart.ts'
import { syncLocationAtSignIn } from './location.server.ts'
import { data, redirect, type RouterContextProvider } from 'react-router'
import { getSession } from './context.ts'
import type { RequestSession, SessionUser, Tokens } from './session.ts'
import { toSessionUser, userDetails, type User } from './api/user.ts'
import { throwFailure, type UpstreamFailure } from './failure.ts'
import { isStaffRole, NO_PERMISSION_MESSAGE } from '../lib/roles.ts'
import { type Api, apiOf } from './api-context.ts'

type Context = Readonly<RouterContextProvider>

/**
 * The path and query of the page being opened, the place to come back to after signing in.
 * `page` is the route's `url` argument (the page's own address) or the raw request: client
 * navigations arrive as single-fetch data requests (`/x.data?_routes=…`, passed through unchanged by
 * `v8_passThroughRequests`), so that suffix and parameter are removed either way.
 */
export function returnPath(page: Request | URL): string {
  const url = new URL(page instanceof URL ? page.href : page.url)
  let pathname = url.pathname
  if (pathname === '/_root.data') pathname = '/'
  else if (pathname.endsWith('.data')) pathname = pathname.slice(0, -'.data'.length)
  url.searchParams.delete('_routes')
  const search = url.searchParams.toString()
  return `${pathname}${search ? `?${search}` : ''}`
}

/**
 * The signed-in user, or a thrown redirect to `/login?redirectTo=<path and query>` when signed out
 * (docs/product.md, "States and transitions": signed in = a user `_id` and, for the BFF, tokens to
 * call the API with).
 */
export function requireUser(context: Context, page: Request | URL): SessionUser {
  const session = getSession(context)
  const user = session.user
  if (user?._id && session.tokens) return user
  throw redirect(`/login?${new URLSearchParams({ redirectTo: returnPath(page) })}`)
}

/** For /login and /register: a signed-in user is sent to `/` (throws the redirect). */
export function requireAnonymous(context: Context): void {
  const session = getSession(context)
  if (session.user?._id && session.tokens) throw redirect('/')
}

/**
 * Signs the session in with fresh `tokens` from login: stores them, loads user-details with them and
 * keeps the header's summary (docs/product.md, "States and transitions": on login success tokens
 * are stored and user details loaded), merges the guest cart and brings the delivery location in step
 * with the account's.
 * If the details cannot be loaded the session is signed out again, so no half-signed-in state stays.
 */
export async function signIn(
  api: Api,
  session: RequestSession,
  tokens: Tokens,
): Promise<{ ok: true; user: SessionUser } | UpstreamFailure> {
  session.setTokens(tokens)
  const details = await userDetails(api, session)
  if (!details.ok) {
    session.signOut()
    return details
  }
  const user = toSessionUser(details.data)
  session.setUser(user)
  // The visitor's guest cart joins the account's cart (docs/commerce-api.md, "Guest carts").
  await mergeGuestCart(api, session)
  // The account's saved location comes back, or the one chosen as a visitor is saved to the account
  // (docs/stores.md, "Location (BFF)"); after the merge, so the merged cart is fitted to that store.
  await syncLocationAtSignIn(api, session)
  return { ok: true, user }
}

/**
 * The signed-in user as the API knows them now (a fresh `user-details` call), for pages that must
 * not trust the session's summary: the profile form and the admin check. Signed out → the thrown
 * `/login?redirectTo=…` redirect of `requireUser` (also after a 401 whose refresh failed, which has
 * signed the session out). Another API failure is thrown as an error response (4xx as answered, 502
 * for an API fault). The session's summary is brought in step when it differs, so the header and
 * the menu's admin links follow the account.
 */
export async function requireFreshUser(context: Context, page: Request | URL): Promise<User> {
  const api = apiOf(context)
  requireUser(context, page)
  const session = getSession(context)
  const details = await userDetails(api, session)
  if (!details.ok) {
    requireUser(context, page)
    throwFailure(details)
  }
  const summary = toSessionUser(details.data)
  if (JSON.stringify(summary) !== JSON.stringify(session.user)) session.setUser(summary)
  return details.data
}

/**
 * The admin check of the admin dashboard routes (docs/product.md, "Roles and permissions"): the
 * fresh user of `requireFreshUser` (the role may have changed since login) when the role is ADMIN;
 * anyone else gets a thrown 403 "Do not have permission", as the API answers (api/lib/auth.ts), which
 * the page's error boundary shows as the red box (app/components/admin-guard.tsx
 * `AdminErrorBoundary`). Signed out: the `/login?redirectTo=…` redirect. The API enforces the role
 * on every write anyway (docs/api-contract.md, "Differences from the original contract").
 */
export async function requireAdmin(context: Context, page: Request | URL): Promise<SessionUser> {
  const user = toSessionUser(await requireFreshUser(context, page))
  if (user.role !== 'ADMIN') throw data(NO_PERMISSION_MESSAGE, { status: 403 })
  return user
}

/**
 * The check of the order desk and stock pages (docs/product.md, "Roles and permissions"): the fresh
 * user of `requireFreshUser`, with `isStaff` = role ADMIN or STAFF and `isAdmin` = role ADMIN (what only an
 * admin may do on those pages, such as a store's settings).
 */
export async function requireStaff(
  context: Context,
  page: Request | URL,
): Promise<{ user: SessionUser; isStaff: boolean; isAdmin: boolean; storeId: string | null }> {
  const fresh = await requireFreshUser(context, page)
  const user = toSessionUser(fresh)
  return { user, isStaff: isStaffRole(user.role), isAdmin: user.role === 'ADMIN', storeId: fresh.storeId }
}
