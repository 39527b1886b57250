/**
 * Request context shared by the root middleware and every loader and action.
 * `sessionContext` holds the request's `RequestSession`; `sessionMiddleware` creates it before the
 * loaders run and, after they finish, appends one Set-Cookie if anything changed it (rotated
 * tokens, sign-in, sign-out, a flash toast), so no route can forget to commit a rotated token.
 */
import { createContext, type MiddlewareFunction, type RouterContextProvider } from 'react-router'
import { RequestSession } from './session.ts'

export const sessionContext = createContext<RequestSession>()

/** The request's session; throws if called outside a request that ran the root middleware. */
export function getSession(context: Readonly<RouterContextProvider>): RequestSession {
  return context.get(sessionContext)
}

/** Opens the session, runs the request, commits the session once. */
export const sessionMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
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
