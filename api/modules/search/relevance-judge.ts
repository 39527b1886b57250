/**
 * The tuning set's judge (api/modules/search/relevance-set.json; docs/search.md, "Relevance"), shared
 * by its test (./relevance.test.ts) and the search evaluation (eval/search-heldout/evaluate.ts), so
 * both score the tuning set by one rule.
 *
 * A query lists alternatives; a product is relevant when any alternative accepts it, and an
 * alternative accepts it when every field it sets holds: `shelf` = the sub category name and
 * `category` = the category name (exact), `brand` (ignoring case), `name` (a case-insensitive regular
 * expression on the product name), `size` (a pack size as a shopper types it, "500 g", "2 x 200 g":
 * the product's unit holds the same size by the rules of the search, api/modules/product/sizes.ts,
 * `sizeTier` 3; a product judged without its unit never matches it).
 */
import fs from 'node:fs'
import path from 'node:path'
import { eq, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { categories, productCategories, products, productSubCategories, subCategories } from '../../db/schema.ts'
import { packSize, sizeTier, takeSize } from '../product/sizes.ts'

/** One alternative of a judgment: every field it sets must hold. */
export interface Alternative {
  shelf?: string
  category?: string
  name?: string
  brand?: string
  size?: string
}

/** One query of the tuning set. `prompt`: a word of the header prompt, whose first result must be on a `firstShelves` shelf. */
export interface Judged {
  q: string
  kind: 'english' | 'hindi' | 'brand' | 'typo' | 'multi' | 'sized'
  prompt?: boolean
  firstShelves?: string[]
  relevant: Alternative[]
}

/** A catalogue product as the judges read it: brand from `more_details.brand`, shelf = sub category name, `unit` = pack size. */
export interface CatalogProduct {
  id: string
  name: string
  brand: string
  shelf: string
  category: string
  unit: string
}

/** The tuning set's kinds of query, in the order reports list them. */
export const TUNING_KINDS = ['english', 'hindi', 'brand', 'typo', 'multi', 'sized'] as const

/** The tuning set's queries, read from relevance-set.json beside this module. */
export function loadRelevanceSet(): Judged[] {
  const file = path.join(import.meta.dirname, 'relevance-set.json')
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as { queries: Judged[] }).queries
}

/** Whether `product` is relevant to a query judged by `alternatives` (any alternative, every field of it). */
export function isRelevant(
  product: Pick<CatalogProduct, 'name' | 'brand' | 'shelf' | 'category'> & { unit?: string },
  alternatives: Alternative[],
): boolean {
  return alternatives.some(
    (a) =>
      (a.shelf === undefined || product.shelf === a.shelf) &&
      (a.category === undefined || product.category === a.category) &&
      (a.brand === undefined || product.brand.toLowerCase() === a.brand.toLowerCase()) &&
      (a.name === undefined || new RegExp(a.name, 'i').test(product.name)) &&
      (a.size === undefined || hasSize(product.unit, a.size)),
  )
}

/** Whether a product's `unit` holds the size `wanted` (as typed: "500 g"); a size the parser cannot read is a mistake in the set. */
function hasSize(unit: string | undefined, wanted: string): boolean {
  const size = takeSize(wanted).size
  if (!size) throw new Error(`relevance set: "${wanted}" is not a pack size`)
  return unit !== undefined && sizeTier(size, packSize(unit)) === 3
}

/**
 * Every product of the database with its shelves and categories, one row per (product, sub category,
 * category) link: the catalogue a judgment's relevant count (the "R" of precision@5) is taken over.
 */
export async function judgingCatalogue(db: Pick<Db, 'select'>): Promise<CatalogProduct[]> {
  return await db
    .select({
      id: products.id,
      name: products.name,
      brand: sql<string>`coalesce(${products.moreDetails}->>'brand', '')`,
      shelf: subCategories.name,
      category: categories.name,
      unit: products.unit,
    })
    .from(products)
    .innerJoin(productSubCategories, eq(productSubCategories.productId, products.id))
    .innerJoin(subCategories, eq(subCategories.id, productSubCategories.subCategoryId))
    .innerJoin(productCategories, eq(productCategories.productId, products.id))
    .innerJoin(categories, eq(categories.id, productCategories.categoryId))
}
