/**
 * Seeds the search synonyms (`search_synonyms`, docs/search.md "Synonyms") from the data file kept in
 * the repository, api/db/seed/data/synonyms.csv (`word,means,both_ways`: what shoppers type, the
 * catalogue word it stands for, 1 when the catalogue word should find the shopper's word too).
 *
 * Runs once per database, after the migrations (api/db/client.ts `migrateDb`): the run is recorded in
 * `data_fixes` in the same transaction as the rows, so rows the store edits or deletes later are
 * never put back. An advisory lock makes instances starting together seed once.
 */
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse } from 'csv-parse/sync'
import { sql } from 'drizzle-orm'
import type { Db } from '../db.ts'
import { queryRows } from '../query.ts'

export const SYNONYMS_CSV = path.join(path.dirname(fileURLToPath(import.meta.url)), 'data', 'synonyms.csv')
/** The `data_fixes` name of the first seeding. */
export const SYNONYMS_SEED = 'search-synonyms-2026-11'
/** Advisory-lock key of the seeding (arbitrary, distinct from the import's and the data fixes'). */
const SEED_LOCK_KEY = 73_310_005

/** One row of the data file. */
export interface SynonymRow {
  word: string
  means: string
  bothWays: boolean
}

/**
 * Reads the data file: trimmed, lower-cased, each pair once.
 * @throws on a row without a word or a meaning, or a `both_ways` other than 0 or 1
 */
export function readSynonymsCsv(text: string | Buffer): SynonymRow[] {
  const records = parse(text, { columns: true, skip_empty_lines: true, trim: true }) as Array<Record<string, string>>
  const seen = new Set<string>()
  const rows: SynonymRow[] = []
  records.forEach((r, i) => {
    const word = (r.word ?? '').toLowerCase()
    const means = (r.means ?? '').toLowerCase()
    if (!word || !means || !['0', '1'].includes(r.both_ways ?? '')) throw new Error(`synonyms.csv row ${i + 2} is malformed`)
    const key = `${word}\u0000${means}`
    if (seen.has(key)) return
    seen.add(key)
    rows.push({ word, means, bothWays: r.both_ways === '1' })
  })
  return rows
}

/** Seeds the synonyms unless already done; returns the rows written, or null when seeded before. */
export async function seedSynonyms(db: Db, csvPath = SYNONYMS_CSV): Promise<number | null> {
  const rows = readSynonymsCsv(fs.readFileSync(csvPath))
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK_KEY})`)
    const done = await queryRows(tx, sql`select 1 from data_fixes where name = ${SYNONYMS_SEED}`)
    if (done.length > 0) return null
    const json = JSON.stringify(rows.map((r) => ({ word: r.word, means: r.means, both_ways: r.bothWays })))
    const written = await queryRows<{ word: string }>(
      tx,
      sql`insert into search_synonyms (word, means, both_ways)
          select word, means, both_ways from jsonb_to_recordset(${json}::jsonb) as s(word text, means text, both_ways boolean)
          on conflict do nothing
          returning word`,
    )
    await tx.execute(sql`insert into data_fixes (name, rows) values (${SYNONYMS_SEED}, ${written.length})`)
    return written.length
  })
}
