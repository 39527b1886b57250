/**
 * Typed upstream calls for the sitemap (GET /api/sitemap/shelves and /products, docs/seo.md). A failed
 * call throws a 502 response, as the catalogue reads do: a crawler then retries later instead of
 * reading an empty sitemap as "the shop has no pages".
 */
import { data } from 'react-router'
import { z } from 'zod'
import { parseAnswer, upstream } from '../upstream.ts'
import { successOf } from '../../../contract/envelope.ts'
import { SitemapProductSchema, SitemapShelvesSchema, type SitemapProduct, type SitemapShelves } from '../../../contract/sitemap.ts'
import { PagingExtraShape, type PagingExtra } from '../../../contract/paging.ts'
import type { Api } from '../api-context.ts'

export type { SitemapShelves } from '../../../contract/sitemap.ts'

/** One page (up to 50,000) of published products, and how many pages there are. */
export interface SitemapProducts extends Pick<PagingExtra, 'totalNoPage'> {
  products: SitemapProduct[]
}

const ProductsAnswerSchema = successOf(z.array(SitemapProductSchema), PagingExtraShape)

/** Reads `path` and parses the answer with `schema`; a 400 or 404 becomes a 404 response, anything else a 502. */
async function get<S extends z.ZodType>(api: Api, path: string, clientIp: string | undefined, schema: S): Promise<z.output<S>> {
  const result = parseAnswer(await upstream(api, path, { method: 'GET', clientIp }), schema)
  if (!result.ok) {
    const status = result.status === 400 || result.status === 404 ? 404 : 502
    throw data(result.message, { status })
  }
  return result.data
}

/** Every category and shelf. Throws a 502 response when the API fails. */
export async function sitemapShelves(api: Api, clientIp?: string): Promise<SitemapShelves> {
  return (await get(api, 'sitemap/shelves', clientIp, successOf(SitemapShelvesSchema))).data
}

/** Page `page` (1-based) of published products. Throws a 404 response for a page the API refuses. */
export async function sitemapProducts(api: Api, page: number, clientIp?: string): Promise<SitemapProducts> {
  const answer = await get(api, `sitemap/products?page=${page}`, clientIp, ProductsAnswerSchema)
  return { products: answer.data, totalNoPage: Math.max(1, answer.totalNoPage) }
}
