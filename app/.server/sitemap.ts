/**
 * The XML behind `/sitemap.xml` and `/sitemaps/*.xml` (docs/seo.md): the home page, every category,
 * every shelf and every published product, with absolute URLs and last-change times. Up to 50,000
 * URLs it is one `<urlset>`; above, `/sitemap.xml` is a sitemap index over `/sitemaps/shelves.xml`
 * and `/sitemaps/products-N.xml` (sitemaps.org protocol limits).
 */
import { data } from 'react-router'
import { categoryPath, listingPath, productPath } from '../lib/slug.ts'
import { absoluteUrl, SITEMAP_MAX_URLS, sitemapIndexXml, urlsetXml, type SitemapEntry } from '../lib/seo.ts'
import { sitemapProducts, sitemapShelves, type SitemapProducts, type SitemapShelves } from './api/sitemap.ts'
import type { Api } from './api-context.ts'

function shelfEntries(origin: string, s: SitemapShelves): SitemapEntry[] {
  return [
    { loc: absoluteUrl(origin, '/') },
    ...s.categories.map((c) => ({ loc: absoluteUrl(origin, categoryPath(c)), lastmod: c.updatedAt })),
    ...s.shelves.map((x) => ({ loc: absoluteUrl(origin, listingPath(x.category, x.subCategory)), lastmod: x.updatedAt })),
  ]
}

function productEntries(origin: string, p: SitemapProducts): SitemapEntry[] {
  return p.products.map((product) => ({ loc: absoluteUrl(origin, productPath(product)), lastmod: product.updatedAt }))
}

/**
 * `/sitemap.xml`: one urlset when everything fits in `maxUrls` (the protocol's 50,000; tests pass a
 * smaller one), else a sitemap index.
 */
export async function rootSitemap(api: Api, origin: string, clientIp?: string, maxUrls = SITEMAP_MAX_URLS): Promise<string> {
  const [shelves, first] = await Promise.all([sitemapShelves(api, clientIp), sitemapProducts(api, 1, clientIp)])
  const shelfList = shelfEntries(origin, shelves)
  if (first.totalNoPage === 1 && shelfList.length + first.products.length <= maxUrls) {
    return urlsetXml([...shelfList, ...productEntries(origin, first)])
  }
  const files = ['/sitemaps/shelves.xml', ...Array.from({ length: first.totalNoPage }, (_, i) => `/sitemaps/products-${i + 1}.xml`)]
  return sitemapIndexXml(files.map((file) => ({ loc: absoluteUrl(origin, file) })))
}

/**
 * One file of a sitemap index: `shelves.xml` or `products-N.xml`. Returns null for any other name
 * or a page past the end (the route answers 404).
 */
export async function sitemapFile(api: Api, origin: string, file: string, clientIp?: string): Promise<string | null> {
  if (file === 'shelves.xml') return urlsetXml(shelfEntries(origin, await sitemapShelves(api, clientIp)).slice(0, SITEMAP_MAX_URLS))
  const match = /^products-([1-9][0-9]{0,3})\.xml$/.exec(file)
  if (!match) return null
  const page = await sitemapProducts(api, Number(match[1]), clientIp)
  if (page.products.length === 0) return null
  return urlsetXml(productEntries(origin, page))
}

const XML_HEADERS = { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, no-cache' }

/**
 * The answer of a sitemap route: the XML with `no-cache` (crawlers and proxies check again each
 * time, docs/seo.md), or a thrown 404 when `xml` is null (a file that does not exist).
 */
export function sitemapResponse(xml: string | null): Response {
  if (xml === null) throw data('Not Found', { status: 404 })
  return new Response(xml, { headers: XML_HEADERS })
}
