/**
 * Sub category rules and queries (spec section 3 "SubCategory": _id, name, image, category[]).
 *
 * Reads go through `deps.cache` under keys starting with `subcategory:`. Writes (create, update,
 * delete: a later issue) must call `deps.cache.invalidate()` after their transaction commits.
 */
import { sql } from 'drizzle-orm'
import { expandedCategories, isoTimestamp, queryRows, type CatalogRef } from '../category/catalog-sql.ts'
import type { CatalogDeps } from '../category/service.ts'

/** A sub category as answered: `category` expanded to `{ _id, name, image }` (contract, "Endpoints"). */
export interface SubCategoryAnswer {
  _id: string
  name: string
  image: string
  category: CatalogRef[]
  createdAt: string
  updatedAt: string
}

/**
 * Every sub category, sorted by name (ties by id), each with its categories in the admin's order.
 * One query: the categories come from a correlated `json_agg`, not one query per row.
 * Cached under `subcategory:list`.
 */
export function listSubCategories(deps: CatalogDeps): Promise<SubCategoryAnswer[]> {
  return deps.cache.get('subcategory:list', () =>
    queryRows<SubCategoryAnswer>(
      deps.db,
      sql`select s.id as "_id", s.name, s.image,
            ${expandedCategories('sub_category_categories', 'sub_category_id', sql`s.id`)} as category,
            ${isoTimestamp(sql`s.created_at`)} as "createdAt", ${isoTimestamp(sql`s.updated_at`)} as "updatedAt"
          from sub_categories s
          order by s.name, s.id`,
    ),
  )
}
