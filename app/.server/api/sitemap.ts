/**
 * Typed upstream calls for the sitemap (GET /api/sitemap/shelves and /products, docs/seo.md). A failed
 * call throws a 502 response, as the catalogue reads do: a crawler then retries later instead of
 * reading an empty sitemap as "the shop has no pages".
 */
import { data } from 'react-router'
import { upstream } from '../upstream.ts'

/** Categories and shelves (a sub category under one of its categories), with last-change times. */
export interface SitemapShelves {
  categories: { _id: string; name: string; updatedAt: string }[]
  shelves: { category: { _id: string; name: string }; subCategory: { _id: string; name: string }; updatedAt: string }[]
}

/** One page (up to 50,000) of published products, and how many pages there are. */
export interface SitemapProducts {
  products: { _id: string; name: string; updatedAt: string }[]
  totalNoPage: number
}

async function get<T>(path: string, clientIp: string | undefined) {
  const result = await upstream<T>(path, { method: 'GET', clientIp })
  if (!result.ok) {
    const status = result.status === 400 || result.status === 404 ? 404 : 502
    throw data(result.message, { status })
  }
  return result
}

/** Every category and shelf. Throws a 502 response when the API fails. */
export async function sitemapShelves(clientIp?: string): Promise<SitemapShelves> {
  const result = await get<SitemapShelves>('sitemap/shelves', clientIp)
  return { categories: result.data?.categories ?? [], shelves: result.data?.shelves ?? [] }
}

/** Page `page` (1-based) of published products. Throws a 404 response for a page the API refuses. */
export async function sitemapProducts(page: number, clientIp?: string): Promise<SitemapProducts> {
  const result = await get<SitemapProducts['products']>(`sitemap/products?page=${page}`, clientIp)
  const totalNoPage = Number(result.extra.totalNoPage)
  return {
    products: Array.isArray(result.data) ? result.data : [],
    totalNoPage: Number.isInteger(totalNoPage) && totalNoPage > 0 ? totalNoPage : 1,
  }
}
