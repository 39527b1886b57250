/**
 * SQL functions, one source file each (docs/decisions/0047-cart-rule-and-sql-function-files.md):
 * `api/db/functions/<name>.sql` holds `CREATE OR REPLACE FUNCTION <name>` and nothing else that
 * changes data, so a change to a function is a diff of one file. `migrateDb` (api/db/client.ts)
 * applies them after the migrations, as Flyway's repeatable migrations do (Flyway docs, "Repeatable
 * migrations"): a file is run when the SHA-256 of its text differs from the one recorded in
 * `sql_function_files` (migration 0028_sql_function_files), and an unchanged file is not run again.
 *
 * What stays in migrations: tables, triggers (`CREATE TRIGGER` names a function that exists by then:
 * the migrations before 0028 still define every function as history), a function's removal, and a
 * change of its arguments or result type, which `CREATE OR REPLACE` refuses (PostgreSQL docs, "CREATE
 * FUNCTION"): the migration drops the old one and the file makes the new one. A migration never calls
 * a function first defined in a file: files are applied after every migration.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { sql } from 'drizzle-orm'
import type { Db } from './db.ts'
import { sqlFunctionFiles } from './schema.ts'

/** The folder of the function files. */
export const FUNCTIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'functions')

/** Advisory-lock key (an arbitrary constant) taken while files are applied: two starts apply one at a time. */
const FUNCTION_FILES_LOCK = 0x73716c_66 // "sqlf"

/** One function file: its name (the file's name without `.sql`), its text and that text's SHA-256 (hex). */
export interface FunctionFile {
  name: string
  text: string
  checksum: string
}

/** The function files of `dir`, by name (so the order of application is the same everywhere). */
export function readFunctionFiles(dir: string = FUNCTIONS_DIR): FunctionFile[] {
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .map((f) => {
      const text = fs.readFileSync(path.join(dir, f), 'utf8')
      return { name: f.slice(0, -'.sql'.length), text, checksum: crypto.createHash('sha256').update(text).digest('hex') }
    })
}

/** The files of `files` whose checksum is not the one recorded (new or edited since last applied). */
async function changedFiles(db: Pick<Db, 'select'>, files: FunctionFile[]): Promise<FunctionFile[]> {
  const recorded = new Map(
    (await db.select({ name: sqlFunctionFiles.name, checksum: sqlFunctionFiles.checksum }).from(sqlFunctionFiles)).map((r) => [
      r.name,
      r.checksum,
    ]),
  )
  return files.filter((f) => recorded.get(f.name) !== f.checksum)
}

/**
 * Applies every function file of `dir` that is new or changed, in one transaction with the record of
 * its checksum, so a file that fails applies nothing and is tried again at the next start. A file may
 * hold several statements separated by drizzle's `--> statement-breakpoint` line (each is run as one
 * query: PGlite's extended protocol takes one statement at a time). A file removed from the folder
 * leaves its function and its record in place (removing a function is a migration's work).
 * @returns the names applied, in order (empty when nothing changed: one read of the records)
 * @throws the database's error of a file that fails, its name added to the message
 */
export async function applyFunctionFiles(db: Db, dir: string = FUNCTIONS_DIR): Promise<string[]> {
  const files = readFunctionFiles(dir)
  if ((await changedFiles(db, files)).length === 0) return []
  return db.transaction(async (tx) => {
    // Another process starting at once may have applied them while this one waited.
    await tx.execute(sql`select pg_advisory_xact_lock(${FUNCTION_FILES_LOCK})`)
    const changed = await changedFiles(tx, files)
    for (const file of changed) {
      for (const statement of file.text.split('--> statement-breakpoint')) {
        if (!statement.trim()) continue
        try {
          await tx.execute(sql.raw(statement))
        } catch (err) {
          throw new Error(`SQL function file ${file.name}.sql failed: ${(err as Error).message}`, { cause: err })
        }
      }
      await tx
        .insert(sqlFunctionFiles)
        .values({ name: file.name, checksum: file.checksum })
        .onConflictDoUpdate({ target: sqlFunctionFiles.name, set: { checksum: file.checksum, appliedAt: sql`now()` } })
    }
    return changed.map((f) => f.name)
  })
}
