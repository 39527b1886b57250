/**
 * `/sitemaps/{shelves,products-N}.xml`: one file of the sitemap index of `/sitemap.xml`
 * (app/.server/sitemap.ts, docs/seo.md); any other name, or a page past the end, is a 404.
 */
import type { Route } from './+types/$file'
import { clientIp, publicOrigin } from '../../.server/request.ts'
import { sitemapFile, sitemapResponse } from '../../.server/sitemap.ts'
import { apiOf } from '../../.server/api-context.ts'

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const api = apiOf(context)
  return sitemapResponse(await sitemapFile(api, publicOrigin(request), params.file, clientIp(request)))
}
