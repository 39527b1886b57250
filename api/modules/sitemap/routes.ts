/**
 * Routes of /api/sitemap: read-only lists for the storefront's `sitemap.xml` (docs/seo.md). Public,
 * like the catalogue they describe: nothing unpublished is listed.
 *
 * - GET /shelves → `{ categories, shelves }` (service.ts `SitemapShelves`).
 * - GET /products?page=N → one page of published products, 50,000 a page, with `totalCount`,
 *   `totalNoPage`; 400 when `page` is not a whole number from 1 to 10,000.
 */
import { z } from 'zod'
import type { AppDeps } from '../../deps.ts'
import { ok } from '../../lib/envelope.ts'
import { BadRequest } from '../../lib/errors.ts'
import { sitemapProducts, sitemapShelves } from './service.ts'
import { SitemapPageSchema, SitemapProductSchema, SitemapShelvesSchema } from '../../../contract/sitemap.ts'
import { apiRouter } from '../../lib/openapi.ts'
import { PagingExtraShape } from '../../../contract/paging.ts'

export function sitemapRoutes(deps: AppDeps) {
  const { router, endpoint } = apiRouter('Sitemap')

  endpoint(
    {
      method: 'get',
      path: '/shelves',
      summary: 'Every category and category/sub category pair with published products',
      access: 'public',
      answers: { 200: { description: 'The shelves', data: SitemapShelvesSchema } },
    },
    async (c) => ok(c, 'Sitemap shelves', await sitemapShelves(deps)),
  )

  endpoint(
    {
      method: 'get',
      path: '/products',
      summary: 'One page of published products, 50,000 a page',
      access: 'public',
      query: z.object({
        page: z
          .string()
          .regex(/^(?:[1-9][0-9]{0,3}|10000)$/)
          .optional()
          .meta({ description: 'A whole number from 1 to 10000; absent = 1' }),
      }),
      answers: {
        200: {
          description: 'One page of products',
          data: z.array(SitemapProductSchema),
          extra: { ...PagingExtraShape, page: z.number(), limit: z.number() },
        },
      },
    },
    async (c) => {
      const parsed = SitemapPageSchema.safeParse(c.req.query('page'))
      if (!parsed.success) {
        const message = parsed.error.issues[0]?.message ?? 'Invalid page'
        throw BadRequest(`page: ${message}`, [{ path: 'page', message }])
      }
      const { products, ...paging } = await sitemapProducts(deps, parsed.data ?? 1)
      return ok(c, 'Sitemap products', products, paging)
    },
  )

  return router
}
