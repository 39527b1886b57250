/**
 * `/sitemap.xml` and `/sitemaps/{shelves,products-N}.xml` (app/.server/sitemap.ts, docs/seo.md). Built
 * from the API's catalogue cache, which every catalogue write clears, so the sitemap follows the
 * catalogue; `no-cache` makes crawlers and proxies check again each time.
 */
import { data } from 'react-router'
import type { Route } from './+types/sitemap'
import { clientIp, publicOrigin } from '../.server/request.ts'
import { rootSitemap, sitemapFile } from '../.server/sitemap.ts'

const XML_HEADERS = { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, no-cache' }

export async function loader({ request, params }: Route.LoaderArgs) {
  const origin = publicOrigin(request)
  const ip = clientIp(request)
  const xml = params.file === undefined ? await rootSitemap(origin, ip) : await sitemapFile(origin, params.file, ip)
  if (xml === null) throw data('Not Found', { status: 404 })
  return new Response(xml, { headers: XML_HEADERS })
}
