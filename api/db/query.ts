/**
 * Raw SQL reads, for the queries Drizzle's query builder does not express well.
 *
 * When the builder is right (the rule; docs/decisions/0049-query-builder-for-plain-crud.md): every
 * plain read or write of one table, or of a few tables joined on their keys, goes through the
 * builder: `db.select({...}).from(t).where(...)`, `db.update(t).set(...).where(...).returning(...)`,
 * `db.insert(t).values(...).onConflictDoUpdate(...)`, `db.$count(t, where)`, `.for('update')`
 * for a row lock. Its rows are typed from api/db/schema.ts and a renamed column fails the type
 * check. A computed column inside a builder query (`sql<T>` in the select list) is still the builder.
 * A builder query is a thenable that runs again on every `await`: hand a cache (`deps.cache.get`)
 * its awaited rows, never the query itself.
 *
 * When raw SQL is right: the statement needs what the builder cannot say or says worse, namely
 * - a CTE, a window, a lateral join, a UNION, `unnest … with ordinality` or a JSON recordset
 *   (`jsonb_to_recordset`) that sends many rows as one parameter;
 * - a shared projection or WHERE written as SQL on a table alias (`productColumns`,
 *   `adminProductWhere`, `imageIsUsed`) so that every read of that shape says it once;
 * - a plan that was measured (the page query `newestPage`, search ranking and spelling,
 *   docs/search.md "Performance"; the availability bits of docs/decisions/0031-store-availability-bits.md):
 *   rewriting it would need measuring again;
 * - a database function or setting (`pg_advisory_xact_lock`, `set_config`, a PL/pgSQL function).
 * Each such call of `queryRows` carries a one-line `// raw SQL: <reason>` comment above it, and
 * api/db/raw-queries.test.ts fails above a ceiling on their number or when a reason is missing.
 */
import { sql, type SQL } from 'drizzle-orm'
import type { Db } from './db.ts'

/**
 * Runs a raw query and returns its rows. Both drivers (PGlite, node-postgres) answer `{ rows }`;
 * Drizzle's `execute` type is driver-generic, hence the cast in one place. `db` may be a
 * transaction. Rows are what the driver gives, without the schema's column mapping; `T` is a
 * promise the caller makes, not a check.
 */
export async function queryRows<T>(db: Pick<Db, 'execute'>, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] }
  return result.rows
}

/**
 * A list of strings as ONE `text[]` parameter, for `column = any(${textList(ids)})`: node-postgres and
 * PGlite both send a JS array as a PostgreSQL array, and the planner probes the column's index once
 * per element (an import's slice: 6.5 ms where `in (select jsonb_array_elements_text(…))` ORed with
 * a second list read the whole products table, 30 ms; docs/decisions/0061-imports-as-jobs.md,
 * "Shoppers first"). Unlike a list of bound parameters, an empty list is still valid SQL.
 */
export const textList = (items: string[]): SQL => sql`${sql.param(items)}::text[]`
