/**
 * SQL pieces shared by the catalogue read services (category, sub category, product). They build
 * answers in the wire shape (docs/api-contract.md, "Conventions": ids as `_id`, ISO 8601
 * timestamps) in the database so that every list costs one query, never one per row.
 */
import type { CatalogRef } from '../../contract/product.ts'
import { hasSqlState } from './faults.ts'
import { sql, type SQL } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import type { FieldIssue } from '../../contract/envelope.ts'

import { queryRows } from '../db/query.ts'

/**
 * A timestamptz column rendered as ISO 8601 UTC with milliseconds (`2024-05-01T10:00:00.000Z`),
 * the same text `Date#toISOString` gives. Done in SQL because the two drivers hand Drizzle raw
 * timestamps in slightly different text forms.
 */
export function isoTimestamp(column: SQL): SQL {
  return sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
}

/**
 * A JSON array of `{ _id, name, image }` of the categories linked to `ownerId` through `linkTable`
 * (`product_categories` or `sub_category_categories`), in the admin's chosen order (`position`),
 * ties by name then id. Always an array, `[]` when there is no link.
 */
export function expandedCategories(
  linkTable: 'product_categories' | 'sub_category_categories',
  ownerColumn: 'product_id' | 'sub_category_id',
  ownerId: SQL,
): SQL {
  return sql`(select coalesce(json_agg(json_build_object('_id', c.id, 'name', c.name, 'image', c.image)
      order by l.position, c.name, c.id), '[]'::json)
    from ${sql.identifier(linkTable)} l join categories c on c.id = l.category_id
    where l.${sql.identifier(ownerColumn)} = ${ownerId})`
}

/** The same for the sub categories of a product (`product_sub_categories`). */
export function expandedSubCategories(productId: SQL): SQL {
  return sql`(select coalesce(json_agg(json_build_object('_id', s.id, 'name', s.name, 'image', s.image)
      order by l.position, s.name, s.id), '[]'::json)
    from product_sub_categories l join sub_categories s on s.id = l.sub_category_id
    where l.product_id = ${productId})`
}

/** `{ _id, name, image }`: how a category or sub category appears inside another answer (contract/product.ts). */
export type { CatalogRef }

/**
 * The ids of `ids` that name no row of `table` (`categories` or `sub_categories`), in the order
 * given. One query whatever the number of ids.
 */
export async function unknownIds(db: Pick<Db, 'execute'>, table: 'categories' | 'sub_categories', ids: string[]): Promise<string[]> {
  if (ids.length === 0) return []
  const list = sql`array[${sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  )}]::text[]`
  // raw SQL: unnest … with ordinality keeps the order the ids were given in
  const rows = await queryRows<{ id: string }>(
    db,
    sql`select wanted.id from unnest(${list}) with ordinality as wanted(id, n)
        where not exists (select 1 from ${sql.identifier(table)} t where t.id = wanted.id)
        order by wanted.n`,
  )
  return rows.map((r) => r.id)
}

/**
 * True when `err` (or an error it wraps: Drizzle wraps driver errors) is PostgreSQL's
 * foreign_key_violation (SQLSTATE 23503): a row referred to was deleted by a concurrent write, or a
 * row still referred to was about to be deleted.
 */
export const isForeignKeyViolation = (err: unknown): boolean => hasSqlState(err, '23503')

/** "1 product", "3 products": a count with its noun in the right number. */
export function counted(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`
}

/**
 * Field issues for the ids of a body list (`category`, `subCategory`) that name no row: one per
 * unknown id, at the index where it was first given (`category.2`), saying which id.
 * @param list the ids as given (duplicates allowed)
 * @param label the entity's word for messages ("category", "sub category")
 */
export async function unknownRefIssues(
  db: Pick<Db, 'execute'>,
  table: 'categories' | 'sub_categories',
  list: string[],
  path: string,
  label: string,
): Promise<FieldIssue[]> {
  const unknown = new Set(await unknownIds(db, table, [...new Set(list)]))
  const reported = new Set<string>()
  const issues: FieldIssue[] = []
  list.forEach((id, index) => {
    if (!unknown.has(id) || reported.has(id)) return
    reported.add(id)
    issues.push({ path: `${path}.${index}`, message: `Unknown ${label}: ${id}` })
  })
  return issues
}
