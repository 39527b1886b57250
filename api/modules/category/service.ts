/**
 * Category rules and queries (spec section 3 "Category": _id, name, image).
 *
 * Reads go through `deps.cache` (api/lib/cache.ts) under keys starting with `category:`. Writes
 * (add-category, update, delete: a later issue) must call `deps.cache.invalidate()` after their
 * transaction commits, because products and sub categories embed category names and images.
 */
import { sql } from 'drizzle-orm'
import type { AppDeps } from '../../app.ts'
import { isoTimestamp, queryRows } from './catalog-sql.ts'

/** What the catalogue read services need from the app's dependencies. */
export type CatalogDeps = Pick<AppDeps, 'db' | 'cache'>

/** A category as answered (contract, "Endpoints": Category). */
export interface CategoryAnswer {
  _id: string
  name: string
  image: string
  createdAt: string
  updatedAt: string
}

/**
 * Every category, sorted by name (ties by id so the order never changes between calls).
 * Cached under `category:list`.
 */
export function listCategories(deps: CatalogDeps): Promise<CategoryAnswer[]> {
  return deps.cache.get('category:list', () =>
    queryRows<CategoryAnswer>(
      deps.db,
      sql`select c.id as "_id", c.name, c.image,
            ${isoTimestamp(sql`c.created_at`)} as "createdAt", ${isoTimestamp(sql`c.updated_at`)} as "updatedAt"
          from categories c
          order by c.name, c.id`,
    ),
  )
}
