/**
 * app/lib/seo.ts: absolute URLs, description cutting, the head tags of a page, JSON-LD shapes, XML
 * escaping and the 50,000-URL limit of the sitemaps.org protocol, and robots.txt.
 */
import { describe, expect, it } from 'vitest'
import {
  absoluteUrl,
  breadcrumbJsonLd,
  metaDescription,
  originFromMatches,
  pageMeta,
  productJsonLd,
  robotsTxt,
  sitemapIndexXml,
  SITEMAP_MAX_URLS,
  urlsetXml,
  xmlEscape,
} from './seo.ts'

const ORIGIN = 'https://shop.example'

describe('absoluteUrl', () => {
  it('puts a path on the origin, keeping its percent-encoding and query', () => {
    expect(absoluteUrl(ORIGIN, '/product/Milk-abc')).toBe('https://shop.example/product/Milk-abc')
    expect(absoluteUrl(ORIGIN, '/Dairy-%E0%A4%A6-x1?page=2')).toBe('https://shop.example/Dairy-%E0%A4%A6-x1?page=2')
    expect(absoluteUrl('http://localhost:3000', '/')).toBe('http://localhost:3000/')
  })
  it('never leaves the origin, whatever the path says', () => {
    expect(new URL(absoluteUrl(ORIGIN, '/uploads/a.webp')).origin).toBe(ORIGIN)
  })
})

describe('metaDescription', () => {
  it('keeps short text, folding white space', () => {
    expect(metaDescription('  Fresh\n milk  ')).toBe('Fresh milk')
  })
  it('cuts long text at a word within 160 characters, with an ellipsis', () => {
    const long = 'word '.repeat(60)
    const cut = metaDescription(long)
    expect(cut.length).toBeLessThanOrEqual(160)
    expect(cut.endsWith('word…')).toBe(true)
  })
})

describe('originFromMatches', () => {
  it('reads the root loader data, or gives an empty origin', () => {
    expect(
      originFromMatches([
        { id: 'root', data: { origin: ORIGIN } },
        { id: 'routes/index', data: {} },
      ]),
    ).toBe(ORIGIN)
    expect(originFromMatches([{ id: 'root', data: undefined }])).toBe('')
    expect(originFromMatches([])).toBe('')
  })
})

describe('pageMeta', () => {
  it('gives title, description, an absolute canonical and Open Graph tags with an absolute image', () => {
    const tags = pageMeta({
      origin: ORIGIN,
      path: '/product/Milk-1',
      title: 'Milk | Shop',
      description: 'Fresh',
      image: '/uploads/m.webp',
      type: 'product',
      siteName: 'Shop',
    })
    expect(tags).toContainEqual({ title: 'Milk | Shop' })
    expect(tags).toContainEqual({ name: 'description', content: 'Fresh' })
    expect(tags).toContainEqual({ tagName: 'link', rel: 'canonical', href: 'https://shop.example/product/Milk-1' })
    expect(tags).toContainEqual({ property: 'og:image', content: 'https://shop.example/uploads/m.webp' })
    expect(tags).toContainEqual({ property: 'og:type', content: 'product' })
    expect(tags).toContainEqual({ name: 'twitter:card', content: 'summary_large_image' })
  })
  it('has no og:image without an image', () => {
    const tags = pageMeta({ origin: ORIGIN, path: '/', title: 'Shop', description: 'd', siteName: 'Shop' })
    expect(tags.some((t) => t.property === 'og:image')).toBe(false)
  })
})

describe('JSON-LD', () => {
  it('describes a product with an INR offer and availability from the stock', () => {
    const base = {
      name: 'Paneer',
      path: '/product/Paneer-1',
      images: ['/uploads/p.webp'],
      description: 'Soft',
      brand: 'Milky Mist',
      sellingPrice: 440,
      stock: 3,
    }
    const ld = productJsonLd(ORIGIN, base)['script:ld+json'] as Record<string, any>
    expect(ld).toMatchObject({
      '@type': 'Product',
      name: 'Paneer',
      image: ['https://shop.example/uploads/p.webp'],
      brand: { '@type': 'Brand', name: 'Milky Mist' },
      offers: {
        '@type': 'Offer',
        priceCurrency: 'INR',
        price: '440.00',
        availability: 'https://schema.org/InStock',
        url: 'https://shop.example/product/Paneer-1',
      },
    })
    const out = productJsonLd(ORIGIN, { ...base, stock: 0, sellingPrice: 52.5, brand: '' })['script:ld+json'] as Record<string, any>
    expect(out.offers.availability).toBe('https://schema.org/OutOfStock')
    expect(out.offers.price).toBe('52.50')
    expect(out.brand).toBeUndefined()
  })
  it('numbers breadcrumb steps from 1 with absolute URLs', () => {
    const ld = breadcrumbJsonLd(ORIGIN, [
      { name: 'Home', path: '/' },
      { name: 'Dairy', path: '/Dairy-1' },
    ])['script:ld+json'] as Record<string, any>
    expect(ld.itemListElement).toEqual([
      { '@type': 'ListItem', position: 1, name: 'Home', item: 'https://shop.example/' },
      { '@type': 'ListItem', position: 2, name: 'Dairy', item: 'https://shop.example/Dairy-1' },
    ])
  })
})

describe('sitemaps', () => {
  it('escapes XML special characters in URLs', () => {
    expect(xmlEscape(`a&b<c>'d"`)).toBe('a&amp;b&lt;c&gt;&apos;d&quot;')
    const xml = urlsetXml([{ loc: 'https://shop.example/search?q=a&b', lastmod: '2026-01-01T00:00:00Z' }])
    expect(xml).toContain('<url><loc>https://shop.example/search?q=a&amp;b</loc><lastmod>2026-01-01T00:00:00Z</lastmod></url>')
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true)
  })
  it('refuses more than 50,000 URLs in one file', () => {
    const many = Array.from({ length: SITEMAP_MAX_URLS + 1 }, (_, i) => ({ loc: `${ORIGIN}/p/${i}` }))
    expect(() => urlsetXml(many)).toThrow(RangeError)
    expect(() => urlsetXml(many.slice(1))).not.toThrow()
  })
  it('writes a sitemap index', () => {
    const xml = sitemapIndexXml([{ loc: `${ORIGIN}/sitemaps/shelves.xml` }])
    expect(xml).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">')
    expect(xml).toContain('<sitemap><loc>https://shop.example/sitemaps/shelves.xml</loc></sitemap>')
  })
})

describe('robotsTxt', () => {
  it('opens the catalogue, closes private pages and names the sitemap by its absolute URL', () => {
    const txt = robotsTxt(ORIGIN)
    expect(txt).toMatch(/^User-agent: \*$/m)
    expect(txt).toMatch(/^Disallow: \/dashboard$/m)
    expect(txt).toMatch(/^Disallow: \/checkout$/m)
    expect(txt).not.toMatch(/^Disallow: \/login$/m)
    expect(txt).not.toMatch(/^Disallow: \/$/m)
    expect(txt).toMatch(/^Sitemap: https:\/\/shop\.example\/sitemap\.xml$/m)
  })
})
