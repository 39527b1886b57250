/**
 * Routes of /api/sitemap: read-only lists for the storefront's `sitemap.xml` (docs/seo.md). Public,
 * like the catalogue they describe: nothing unpublished is listed.
 *
 * - GET /shelves → `{ categories, shelves }` (service.ts `SitemapShelves`).
 * - GET /products?page=N → one page of published products, 50,000 a page, with `totalCount`,
 *   `totalNoPage`; 400 when `page` is not a whole number from 1 to 10,000.
 */
import { Hono } from 'hono'
import { z } from 'zod'
import type { AppDeps } from '../../deps.ts'
import { ok } from '../../lib/envelope.ts'
import { BadRequest } from '../../lib/errors.ts'
import { sitemapProducts, sitemapShelves } from './service.ts'

/** `?page=`: digits only (no signs, exponents or decimals), 1 to 10,000; absent = 1. */
export const SitemapPageSchema = z
  .string()
  .regex(/^[0-9]{1,5}$/, 'page must be a whole number')
  .transform(Number)
  .pipe(z.number().int().min(1, 'page must be at least 1').max(10_000, 'page must be at most 10000'))
  .optional()

export function sitemapRoutes(deps: AppDeps) {
  const r = new Hono()
  r.get('/shelves', async (c) => ok(c, 'Sitemap shelves', await sitemapShelves(deps)))
  r.get('/products', async (c) => {
    const parsed = SitemapPageSchema.safeParse(c.req.query('page'))
    if (!parsed.success) {
      const message = parsed.error.issues[0]?.message ?? 'Invalid page'
      throw BadRequest(`page: ${message}`, [{ path: 'page', message }])
    }
    const { products, ...paging } = await sitemapProducts(deps, parsed.data ?? 1)
    return ok(c, 'Sitemap products', products, paging)
  })
  return r
}
