/**
 * Route guards and the sign-in step of the BFF (spec section 4 "Login success" and "Signed in is
 * decided by the presence of a user _id"; section 6). Loaders and actions call these; the session
 * is the request's `RequestSession` (app/.server/context.ts), committed by the root middleware.
 */
import { data, redirect, type RouterContextProvider } from 'react-router'
import { getSession } from './context.ts'
import type { RequestSession, SessionUser, Tokens } from './session.ts'
import { toSessionUser, userDetails, type Failure } from './api/user.ts'

type Context = Readonly<RouterContextProvider>

/**
 * The path and query of `request`, the place to come back to after signing in. Client navigations
 * arrive as single-fetch data requests (`/x.data?_routes=…`, passed through unchanged by
 * `v8_passThroughRequests`), so that suffix and parameter are removed to get the page's own URL.
 */
export function returnPath(request: Request): string {
  const url = new URL(request.url)
  let pathname = url.pathname
  if (pathname === '/_root.data') pathname = '/'
  else if (pathname.endsWith('.data')) pathname = pathname.slice(0, -'.data'.length)
  url.searchParams.delete('_routes')
  const search = url.searchParams.toString()
  return `${pathname}${search ? `?${search}` : ''}`
}

/**
 * The signed-in user, or a thrown redirect to `/login?redirectTo=<path and query>` when signed out
 * (spec section 4: signed in = a user `_id` and, for the BFF, tokens to call the API with).
 */
export function requireUser(context: Context, request: Request): SessionUser {
  const session = getSession(context)
  const user = session.user
  if (user?._id && session.tokens) return user
  throw redirect(`/login?${new URLSearchParams({ redirectTo: returnPath(request) })}`)
}

/** For /login and /register: a signed-in user is sent to `/` (throws the redirect). */
export function requireAnonymous(context: Context): void {
  const session = getSession(context)
  if (session.user?._id && session.tokens) throw redirect('/')
}

/**
 * Signs the session in with fresh `tokens` from login: stores them, loads user-details with them and
 * keeps the header's summary (spec section 4 "Login success: tokens stored, user details loaded").
 * If the details cannot be loaded the session is signed out again, so no half-signed-in state stays.
 */
export async function signIn(session: RequestSession, tokens: Tokens): Promise<{ ok: true; user: SessionUser } | Failure> {
  session.setTokens(tokens)
  const details = await userDetails(session)
  if (!details.ok) {
    session.signOut()
    return details
  }
  const user = toSessionUser(details.data)
  session.setUser(user)
  return { ok: true, user }
}

/**
 * The admin check of the four admin dashboard routes (spec section 6; issue 4 item 2). Signed out →
 * the thrown `/login?redirectTo=…` redirect of `requireUser`. Signed in → the user as a fresh
 * `user-details` call answers it (the role may have changed since login, so the session's summary is
 * not trusted for this) and `isAdmin` = role ADMIN. The session's summary is brought in step when it
 * differs, so the menu's admin links follow the role. An API failure other than a signed-out 401 is
 * thrown as an error response (4xx as answered, 502 for an API fault). The API enforces the role on
 * every write anyway (contract, "Defects"); this check only decides what the page shows.
 */
export async function requireAdmin(context: Context, request: Request): Promise<{ user: SessionUser; isAdmin: boolean }> {
  requireUser(context, request)
  const session = getSession(context)
  const details = await userDetails(session)
  if (!details.ok) {
    // A 401 whose refresh failed has signed the session out: this sends the visitor to /login.
    requireUser(context, request)
    const status = details.status >= 400 && details.status < 500 ? details.status : 502
    throw data(details.message, { status })
  }
  const user = toSessionUser(details.data)
  if (JSON.stringify(user) !== JSON.stringify(session.user)) session.setUser(user)
  return { user, isAdmin: user.role === 'ADMIN' }
}
