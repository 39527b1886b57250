/**
 * SQL function files (api/db/function-files.ts; docs/decisions/0047-cart-rule-and-sql-function-files.md):
 * every file is applied and recorded by `migrateDb`, defines the function it is named after, an
 * edited file is applied at the next start and an unchanged one is not run again, a failing file
 * applies nothing. On PGlite, or PostgreSQL with TEST_DATABASE_URL (then on a copy of the run's
 * template, which is how a template made before an edit gets the edit).
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase } from '../testing/db.ts'
import { migrateDb, MIGRATIONS_DIR, type Database } from './client.ts'
import { applyFunctionFiles, readFunctionFiles } from './function-files.ts'
import { queryRows } from './query.ts'

let database: Database
let dir: string

beforeAll(async () => {
  database = await createTestDatabase()
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'function-files-'))
})
afterAll(async () => {
  await database?.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

const recorded = async () =>
  new Map(
    (await queryRows<{ name: string; checksum: string }>(database.db, sql`select name, checksum from sql_function_files`)).map((r) => [
      r.name,
      r.checksum,
    ]),
  )
const answer = async (fn: string) => (await queryRows<{ v: number }>(database.db, sql.raw(`select ${fn}() as v`)))[0]!.v
const writeFn = (name: string, value: number) =>
  fs.writeFileSync(
    path.join(dir, `${name}.sql`),
    `-- A test function.\nCREATE OR REPLACE FUNCTION ${name}() RETURNS integer LANGUAGE sql AS $$ SELECT ${value} $$;\n`,
  )

describe('the function files of api/db/functions', () => {
  it('each defines the function it is named after, and nothing else that changes data', () => {
    for (const file of readFunctionFiles()) {
      expect(file.text, file.name).toMatch(new RegExp(`CREATE OR REPLACE FUNCTION "?${file.name}"?\\(`))
      expect(file.text.match(/CREATE OR REPLACE FUNCTION/g), file.name).toHaveLength(1)
      expect(file.text, file.name).not.toMatch(/^\s*(CREATE TABLE|ALTER TABLE|CREATE TRIGGER|DROP)/im)
    }
  })

  it('are all applied by migrateDb, recorded with the checksum of their text, and exist', async () => {
    const files = readFunctionFiles()
    // Every function a migration defined has its file (the migrations are history, the files today's text).
    const defined = fs
      .readdirSync(MIGRATIONS_DIR)
      .filter((f) => f.endsWith('.sql'))
      .flatMap((f) => [...fs.readFileSync(path.join(MIGRATIONS_DIR, f), 'utf8').matchAll(/CREATE OR REPLACE FUNCTION\s+"?(\w+)"?\s*\(/gi)])
      .map((m) => m[1]!)
    expect(defined.length).toBeGreaterThan(20)
    expect([...new Set(defined)].filter((name) => !files.some((f) => f.name === name))).toEqual([])
    const seen = await recorded()
    for (const file of files) expect(seen.get(file.name), file.name).toBe(file.checksum)
    const existing = await queryRows<{ proname: string }>(
      database.db,
      sql`select proname from pg_proc where pronamespace = 'public'::regnamespace`,
    )
    const names = new Set(existing.map((r) => r.proname))
    expect(files.filter((f) => !names.has(f.name))).toEqual([])
  })

  it('a file changed since the database was made (a template copied before the edit) is applied by the next migrateDb', async () => {
    await database.db.execute(sql`update sql_function_files set checksum = 'before the edit' where name = 'cart_limit'`)
    await migrateDb(database)
    expect((await recorded()).get('cart_limit')).toBe(readFunctionFiles().find((f) => f.name === 'cart_limit')!.checksum)
  })
})

describe('applyFunctionFiles', () => {
  it('applies a new or edited file at the next start, and never runs an unchanged one again', async () => {
    writeFn('zz_test_answer', 1)
    expect(await applyFunctionFiles(database.db, dir)).toEqual(['zz_test_answer'])
    expect(await answer('zz_test_answer')).toBe(1)

    // Changed behind the files' back: an unchanged file is not run again, so the change stays.
    await database.db.execute(sql.raw(`CREATE OR REPLACE FUNCTION zz_test_answer() RETURNS integer LANGUAGE sql AS $$ SELECT 99 $$`))
    expect(await applyFunctionFiles(database.db, dir)).toEqual([])
    expect(await answer('zz_test_answer')).toBe(99)

    writeFn('zz_test_answer', 2)
    expect(await applyFunctionFiles(database.db, dir)).toEqual(['zz_test_answer'])
    expect(await answer('zz_test_answer')).toBe(2)
    expect(await applyFunctionFiles(database.db, dir)).toEqual([])
  })

  it('a file that fails applies nothing, records nothing, and names the file', async () => {
    writeFn('zz_test_first', 7)
    fs.writeFileSync(
      path.join(dir, 'zz_test_second.sql'),
      'CREATE OR REPLACE FUNCTION zz_test_second() RETURNS integer LANGUAGE sql AS $$ SELECT nope $$;\n',
    )
    await expect(applyFunctionFiles(database.db, dir)).rejects.toThrow(/zz_test_second\.sql failed/)
    expect((await recorded()).has('zz_test_first')).toBe(false)
    const made = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from pg_proc where proname = 'zz_test_first'`)
    expect(made[0]!.n).toBe(0)
    fs.rmSync(path.join(dir, 'zz_test_second.sql'))
    expect(await applyFunctionFiles(database.db, dir)).toEqual(['zz_test_first'])
  })
})
