/**
 * `/sitemap.xml`: one urlset, or above the protocol's limit a sitemap index over `/sitemaps/*.xml`
 * (app/routes/sitemaps/$file.ts; app/.server/sitemap.ts, docs/seo.md). Built from the API's catalogue
 * cache, which every catalogue write clears, so the sitemap follows the catalogue; `no-cache` makes
 * crawlers and proxies check again each time.
 */
import type { Route } from './+types/sitemap.xml'
import { clientIp, publicOrigin } from '../.server/request.ts'
import { rootSitemap, sitemapResponse } from '../.server/sitemap.ts'
import { apiOf } from '../.server/api-context.ts'

export async function loader({ context, request }: Route.LoaderArgs) {
  const api = apiOf(context)
  return sitemapResponse(await rootSitemap(api, publicOrigin(request), clientIp(request)))
}
