/**
 * Search-engine metadata, shared by the page `meta` functions and the `robots.txt` / `sitemap.xml`
 * resource routes (docs/seo.md). Pure functions: no request, no server state.
 *
 * - Canonical and Open Graph URLs are absolute (Google Search Central, "Specify a canonical URL":
 *   relative canonicals are fragile), built from the site's public origin (`PUBLIC_URL`).
 * - Structured data is schema.org JSON-LD: `Product` with an `Offer` (price in INR, availability
 *   from stock) and `BreadcrumbList`.
 * - Sitemaps follow the sitemaps.org protocol: at most 50,000 URLs per file, a sitemap index above.
 */
import { decimalRupees } from './money.ts'

/** The sitemaps.org limit of URLs in one sitemap file (and of sitemaps in one index). */
export const SITEMAP_MAX_URLS = 50_000

/** Longest meta description kept whole; longer ones are cut at a word with an ellipsis. */
export const META_DESCRIPTION_MAX = 160

/** `path` (starting with `/`, already percent-encoded) on `origin` (`https://shop.example`, no trailing slash). */
export function absoluteUrl(origin: string, path: string): string {
  return new URL(path, `${origin}/`).href
}

/** A description cut to {@link META_DESCRIPTION_MAX} characters at a word boundary, with "…". */
export function metaDescription(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  if (flat.length <= META_DESCRIPTION_MAX) return flat
  const cut = flat.slice(0, META_DESCRIPTION_MAX - 1)
  const space = cut.lastIndexOf(' ')
  return `${(space > 80 ? cut.slice(0, space) : cut).trimEnd()}…`
}

/** The site's origin as the root loader put it in its data; '' when the root data is missing. */
export function originFromMatches(matches: ReadonlyArray<{ id: string; data?: unknown } | undefined>): string {
  const root = matches.find((m) => m?.id === 'root')?.data as { origin?: unknown } | undefined
  return typeof root?.origin === 'string' ? root.origin : ''
}

/** A meta descriptor list entry, as React Router's `meta` functions return them. */
export type MetaDescriptor = Record<string, unknown>

/**
 * The usual head of an indexable page: title, description, absolute canonical link and the Open
 * Graph / Twitter card tags (og:image absolute when given).
 */
export function pageMeta(opts: {
  origin: string
  path: string
  title: string
  description: string
  image?: string
  type?: 'website' | 'product'
  siteName: string
}): MetaDescriptor[] {
  const url = absoluteUrl(opts.origin, opts.path)
  const description = metaDescription(opts.description)
  const image = opts.image ? absoluteUrl(opts.origin, opts.image) : undefined
  return [
    { title: opts.title },
    { name: 'description', content: description },
    { tagName: 'link', rel: 'canonical', href: url },
    { property: 'og:type', content: opts.type ?? 'website' },
    { property: 'og:site_name', content: opts.siteName },
    { property: 'og:title', content: opts.title },
    { property: 'og:description', content: description },
    { property: 'og:url', content: url },
    ...(image ? [{ property: 'og:image', content: image }] : []),
    { name: 'twitter:card', content: image ? 'summary_large_image' : 'summary' },
  ]
}

/** One step of a breadcrumb trail: its name and its path on the site. */
export interface Crumb {
  name: string
  path: string
}

/** schema.org `BreadcrumbList` JSON-LD for `crumbs` (first = Home), with absolute item URLs. */
export function breadcrumbJsonLd(origin: string, crumbs: Crumb[]): MetaDescriptor {
  return {
    'script:ld+json': {
      '@context': 'https://schema.org',
      '@type': 'BreadcrumbList',
      itemListElement: crumbs.map((crumb, index) => ({
        '@type': 'ListItem',
        position: index + 1,
        name: crumb.name,
        item: absoluteUrl(origin, crumb.path),
      })),
    },
  }
}

/** What a product page knows that its structured data needs. Prices in rupees. */
export interface ProductFacts {
  name: string
  path: string
  images: string[]
  description: string
  brand?: string
  sku?: string
  /** The selling price in rupees (what the shopper pays). */
  sellingPrice: number
  stock: number
}

/**
 * schema.org `Product` JSON-LD with one `Offer`: price in INR with two decimals (schema.org `price`
 * uses a dot and no currency symbol), availability `InStock` / `OutOfStock` from the stock.
 */
export function productJsonLd(origin: string, product: ProductFacts): MetaDescriptor {
  const url = absoluteUrl(origin, product.path)
  return {
    'script:ld+json': {
      '@context': 'https://schema.org',
      '@type': 'Product',
      name: product.name,
      url,
      ...(product.images.length > 0 ? { image: product.images.map((image) => absoluteUrl(origin, image)) } : {}),
      ...(product.description ? { description: metaDescription(product.description) } : {}),
      ...(product.brand ? { brand: { '@type': 'Brand', name: product.brand } } : {}),
      ...(product.sku ? { sku: product.sku } : {}),
      offers: {
        '@type': 'Offer',
        url,
        priceCurrency: 'INR',
        price: decimalRupees(product.sellingPrice),
        availability: product.stock > 0 ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock',
        itemCondition: 'https://schema.org/NewCondition',
      },
    },
  }
}

/** `&`, `<`, `>`, `'` and `"` as XML entities (sitemaps.org: URLs must be entity-escaped). */
export function xmlEscape(text: string): string {
  return text.replace(/[&<>'"]/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', "'": '&apos;', '"': '&quot;' })[ch]!)
}

/** A URL in a sitemap (absolute) with its last change (W3C datetime, e.g. `2026-11-22T10:00:00Z`). */
export interface SitemapEntry {
  loc: string
  lastmod?: string
}

function entries(tag: 'url' | 'sitemap', list: SitemapEntry[]): string {
  return list
    .map((e) => `<${tag}><loc>${xmlEscape(e.loc)}</loc>${e.lastmod ? `<lastmod>${xmlEscape(e.lastmod)}</lastmod>` : ''}</${tag}>`)
    .join('\n')
}

/**
 * A sitemaps.org `<urlset>`. Throws a RangeError above {@link SITEMAP_MAX_URLS} entries: the caller
 * must split into several files behind a sitemap index instead.
 */
export function urlsetXml(list: SitemapEntry[]): string {
  if (list.length > SITEMAP_MAX_URLS) throw new RangeError(`a sitemap holds at most ${SITEMAP_MAX_URLS} URLs`)
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries('url', list)}\n</urlset>\n`
}

/** A sitemaps.org `<sitemapindex>` pointing at sitemap files. */
export function sitemapIndexXml(list: SitemapEntry[]): string {
  if (list.length > SITEMAP_MAX_URLS) throw new RangeError(`a sitemap index holds at most ${SITEMAP_MAX_URLS} sitemaps`)
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries('sitemap', list)}\n</sitemapindex>\n`
}

/**
 * `robots.txt` (RFC 9309): the catalogue is open to crawlers; account, checkout, sign-in and
 * search-result pages are not worth crawling; the sitemap is named by its absolute URL. Sign-in
 * pages stay crawlable: a page blocked here cannot be read for its own `noindex` or canonical.
 */
export function robotsTxt(origin: string): string {
  const closed = ['/dashboard', '/user', '/cart', '/checkout', '/success', '/logout', '/search', '/api/']
  return [
    'User-agent: *',
    'Allow: /',
    ...closed.map((p) => `Disallow: ${p}`),
    '',
    `Sitemap: ${absoluteUrl(origin, '/sitemap.xml')}`,
    '',
  ].join('\n')
}
