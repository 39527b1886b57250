/**
 * Raw-SQL helper shared by every service that needs a query Drizzle's builder does not express.
 */
import type { SQL } from 'drizzle-orm'
import type { Db } from './db.ts'

/**
 * Runs a raw query and returns its rows. Both drivers (PGlite, node-postgres) answer `{ rows }`;
 * Drizzle's `execute` type is driver-generic, hence the cast in one place. `db` may be a
 * transaction.
 */
export async function queryRows<T>(db: Pick<Db, 'execute'>, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] }
  return result.rows
}
