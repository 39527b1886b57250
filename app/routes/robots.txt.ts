/**
 * `/robots.txt` (RFC 9309): crawl the catalogue, skip account and search pages, find the sitemap
 * (app/lib/seo.ts `robotsTxt`). The same for every visitor: a shared cache may keep it for an hour.
 */
import type { Route } from './+types/robots.txt'
import { publicOrigin } from '../.server/request.ts'
import { robotsTxt } from '../lib/seo.ts'

export function loader({ request }: Route.LoaderArgs) {
  return new Response(robotsTxt(publicOrigin(request)), {
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=3600' },
  })
}
