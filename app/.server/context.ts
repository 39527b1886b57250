/**
 * Request context shared by the root middleware and every loader and action.
 * `sessionContext` holds the request's `RequestSession`; `sessionMiddleware` creates it before the
 * loaders run and, after they finish, appends one Set-Cookie if anything changed it (rotated
 * tokens, sign-in, sign-out, a flash toast), so no route can forget to commit a rotated token.
 *
 * It also opens the request's upstream scope: everything after it (the session's own refresh, every
 * loader and action) calls the API through the wiring server.ts put into the router context with
 * `getLoadContext` (app/.server/api-context.ts).
 */
import { createContext, type MiddlewareFunction, type RouterContextProvider } from 'react-router'
import { apiContext, runWithApi } from './api-context.ts'
import { RequestSession } from './session.ts'

export const sessionContext = createContext<RequestSession>()

/** The request's session; throws if called outside a request that ran the root middleware. */
export function getSession(context: Readonly<RouterContextProvider>): RequestSession {
  return context.get(sessionContext)
}

/** Opens the session and the upstream scope, runs the request, commits the session once. */
export const sessionMiddleware: MiddlewareFunction<Response> = ({ request, context }, next) =>
  runWithApi(context.get(apiContext), () => withSession(request, context, next))

async function withSession(request: Request, context: Readonly<RouterContextProvider>, next: () => Promise<Response>): Promise<Response> {
  const session = await RequestSession.fromRequest(request)
  context.set(sessionContext, session)
  let response = await next()
  if (session.dirty) {
    // Some responses (Response.redirect) have immutable headers: copy before adding the cookie.
    response = new Response(response.body, response)
    response.headers.append('Set-Cookie', await session.commit())
    response.headers.set('Cache-Control', 'private, no-store')
  }
  return response
}
