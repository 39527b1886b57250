/**
 * The database handle's type, apart from the code that opens it (api/db/client.ts), so that the
 * helpers client.ts itself uses (the seeds, `queryRows`) can name it without an import cycle.
 */
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import type * as schema from './schema.ts'

export type Schema = typeof schema
/** The Drizzle database handle every service takes; identical API on PGlite and PostgreSQL. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>
/** A transaction of `Db` (the argument of `db.transaction`'s callback): every `Db` method, plus `rollback`. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]
