/**
 * `/_personal`: a visitor's `Personal` (app/lib/personal.ts: the user summary and the cart summary) as
 * JSON, for the page cache only (app/.server/page-cache.ts; docs/decisions/0032-personal-parts-spliced.md).
 * The cache asks with the visitor's own cookie and its per-process render token; any other request
 * gets 404, so the route is no API of its own. The session middleware sends a refreshed token back as
 * a Set-Cookie, which the cache passes on with the page. Answers `null` for a visitor whose page may
 * not be spliced (an admin or staff user: their pages show more, e.g. SKUs).
 */
import type { Route } from './+types/_personal'
import { getSession } from '../.server/context.ts'
import { getCartSummary } from '../.server/api/cart.ts'
import { isPageCacheRender } from '../.server/page-cache.ts'
import { clientIp } from '../.server/request.ts'
import type { Personal } from '../lib/personal.ts'

export async function loader({ request, context }: Route.LoaderArgs) {
  if (!isPageCacheRender(request)) throw new Response('Not Found', { status: 404 })
  const session = getSession(context)
  const user = session.user
  if (user && user.role !== 'USER') return Response.json(null, { headers: { 'Cache-Control': 'no-store' } })
  // As the root loader: a failed cart read shows an empty cart, not an error.
  const personal: Personal = { user: session.user, cart: await getCartSummary(session, { clientIp: clientIp(request) }) }
  return Response.json(personal, { headers: { 'Cache-Control': 'no-store' } })
}
