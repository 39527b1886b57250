/**
 * The sitemap endpoints' answers (docs/seo.md, "robots.txt and sitemaps"): the shelves (categories and their sub
 * categories) and the published products, each with the time it last changed.
 */
import { z } from 'zod'
import { TimestampSchema } from './fields.ts'

const NamedSchema = z.object({ _id: z.string(), name: z.string() })

/** GET /api/sitemap/shelves: every category and every category/sub category pair with products. */
export const SitemapShelvesSchema = z
  .object({
    categories: z.array(NamedSchema.extend({ updatedAt: TimestampSchema })),
    shelves: z.array(z.object({ category: NamedSchema, subCategory: NamedSchema, updatedAt: TimestampSchema })),
  })
  .meta({ id: 'SitemapShelves' })
export type SitemapShelves = z.output<typeof SitemapShelvesSchema>

/** One product of GET /api/sitemap/products. */
export const SitemapProductSchema = NamedSchema.extend({ updatedAt: TimestampSchema }).meta({ id: 'SitemapProduct' })
export type SitemapProduct = z.output<typeof SitemapProductSchema>

/** `?page=`: digits only (no signs, exponents or decimals), 1 to 10,000; absent = 1. */
export const SitemapPageSchema = z
  .string()
  .regex(/^[0-9]{1,5}$/, 'page must be a whole number')
  .transform(Number)
  .pipe(z.number().int().min(1, 'page must be at least 1').max(10_000, 'page must be at most 10000'))
  .optional()
