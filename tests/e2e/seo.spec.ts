/**
 * What crawlers read (docs/seo.md): robots.txt naming the sitemap, a sitemap listing real product
 * pages, and on a product page an absolute canonical URL, Open Graph tags and Product JSON-LD with
 * an INR offer; listings carry a BreadcrumbList. The same with JavaScript on and off: it is all in
 * the server's HTML.
 */
import { test, expect } from '@playwright/test'

test('robots.txt and sitemap.xml lead a crawler to product pages with structured data', async ({ page, request, baseURL }) => {
  const robots = await request.get('/robots.txt')
  expect(robots.ok()).toBe(true)
  expect(await robots.text()).toContain(`Sitemap: ${baseURL}/sitemap.xml`)

  const sitemap = await request.get('/sitemap.xml')
  expect(sitemap.headers()['content-type']).toContain('application/xml')
  const xml = await sitemap.text()
  const urls = [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1])
  // The real catalogue: 8,208 products plus home, categories and shelves, all in one file.
  expect(urls.filter((u) => u.includes('/product/')).length).toBeGreaterThan(8000)
  const productUrl = urls.find((u) => u.includes('/product/'))!
  expect(productUrl.startsWith(`${baseURL}/product/`)).toBe(true)

  await page.goto(productUrl)
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', productUrl)
  await expect(page.locator('meta[property="og:image"]')).toHaveAttribute('content', new RegExp(`^${baseURL}/uploads/`))
  const ld = await page.locator('script[type="application/ld+json"]').allTextContents()
  const product = ld.map((text) => JSON.parse(text)).find((item) => item['@type'] === 'Product')
  expect(product.offers).toMatchObject({ '@type': 'Offer', priceCurrency: 'INR', url: productUrl })
  expect(product.offers.price).toMatch(/^\d+\.\d{2}$/)

  const listingUrl = urls.find((u) => /\/[^/]+-[0-9a-f]{24}\/[^/]+-[0-9a-f]{24}$/.test(u))!
  await page.goto(listingUrl)
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', listingUrl)
  const crumbs = (await page.locator('script[type="application/ld+json"]').allTextContents()).map((t) => JSON.parse(t))
  expect(crumbs.find((item) => item['@type'] === 'BreadcrumbList').itemListElement).toHaveLength(3)
})

test('sign-in pages have their own title and description', async ({ page }) => {
  await page.goto('/login')
  await expect(page).toHaveTitle(/^Login \|/)
  await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /.{50,}/)
})
