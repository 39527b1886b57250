/**
 * Seeds the search synonyms (`search_synonyms`, docs/search.md "Synonyms") from the data file kept in
 * the repository, api/db/seed/data/synonyms.csv (`word,means,both_ways,kind,source,seed`: what shoppers
 * type, the catalogue word it stands for, 1 when the catalogue word should find the shopper's word too,
 * `word` or `brand`, where the meaning can be checked, the batch that added the row).
 *
 * Each batch runs once per database, after the migrations (api/db/client.ts `migrateDb`): the run is
 * recorded in `data_fixes` in the same transaction as the rows, so rows the store edits or deletes
 * later are never put back. An advisory lock makes instances starting together seed once.
 */
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse } from 'csv-parse/sync'
import { inArray, sql } from 'drizzle-orm'
import type { Db } from '../db.ts'
import { queryRows } from '../query.ts'
import { dataFixes } from '../schema.ts'

export const SYNONYMS_CSV = path.join(path.dirname(fileURLToPath(import.meta.url)), 'data', 'synonyms.csv')
/**
 * The `data_fixes` name of each seeding, by the data file's `seed` column: a database seeded before
 * a later batch of rows gets that batch once (and only it, so a row of an earlier batch that the
 * store removed stays removed).
 */
export const SYNONYM_SEEDS = {
  '2026-11': 'search-synonyms-2026-11',
  '2026-12': 'search-synonyms-2026-12',
  '2027-01': 'search-synonyms-2027-01',
  '2027-02': 'search-synonyms-2027-02',
} as const
/** The first seeding's name (kept for databases seeded before the batches). */
export const SYNONYMS_SEED = SYNONYM_SEEDS['2026-11']
/** Advisory-lock key of the seeding (arbitrary, distinct from the import's and the data fixes'). */
const SEED_LOCK_KEY = 73_310_005

/** What a row names: a thing ("doodh" → milk), or a brand and what it makes ("parle" → biscuits). */
export type SynonymKind = 'word' | 'brand'

/** One row of the data file. */
export interface SynonymRow {
  word: string
  means: string
  bothWays: boolean
  kind: SynonymKind
  /** Where the meaning can be checked (a source key of the data file's header, with the entry named). */
  source: string
  seed: keyof typeof SYNONYM_SEEDS
}

/**
 * Reads the data file (lines starting with # are its header notes): trimmed, word and meaning
 * lower-cased, each pair once.
 * @throws on a row without a word, a meaning or a source, a `both_ways` other than 0 or 1, a `kind`
 *   other than word or brand, or a `seed` not in `SYNONYM_SEEDS`
 */
export function readSynonymsCsv(text: string | Buffer): SynonymRow[] {
  const records = parse(text, { columns: true, skip_empty_lines: true, trim: true, comment: '#' }) as Array<Record<string, string>>
  const seen = new Set<string>()
  const rows: SynonymRow[] = []
  records.forEach((r, i) => {
    const word = (r.word ?? '').toLowerCase()
    const means = (r.means ?? '').toLowerCase()
    const kind = r.kind ?? ''
    const seed = r.seed ?? ''
    const source = r.source ?? ''
    if (
      !word ||
      !means ||
      !source ||
      !['0', '1'].includes(r.both_ways ?? '') ||
      (kind !== 'word' && kind !== 'brand') ||
      !(seed in SYNONYM_SEEDS)
    ) {
      throw new Error(`synonyms.csv data row ${i + 1} (${word || '?'}) is malformed`)
    }
    const key = `${word}\u0000${means}`
    if (seen.has(key)) return
    seen.add(key)
    rows.push({ word, means, bothWays: r.both_ways === '1', kind, source, seed: seed as SynonymRow['seed'] })
  })
  return rows
}

/**
 * Seeds each batch of synonyms not seeded before (`SYNONYM_SEEDS`), in one transaction; returns the
 * rows written, or null when every batch was seeded before.
 */
export async function seedSynonyms(db: Db, csvPath = SYNONYMS_CSV): Promise<number | null> {
  const rows = readSynonymsCsv(fs.readFileSync(csvPath))
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK_KEY})`)
    const names = Object.values(SYNONYM_SEEDS)
    const done = new Set(
      (await tx.select({ name: dataFixes.name }).from(dataFixes).where(inArray(dataFixes.name, names))).map((r) => r.name),
    )
    const batches = (Object.keys(SYNONYM_SEEDS) as Array<keyof typeof SYNONYM_SEEDS>).filter((seed) => !done.has(SYNONYM_SEEDS[seed]))
    if (batches.length === 0) return null
    let total = 0
    for (const seed of batches) {
      const batch = rows.filter((r) => r.seed === seed)
      const json = JSON.stringify(
        batch.map((r) => ({ word: r.word, means: r.means, both_ways: r.bothWays, kind: r.kind, source: r.source })),
      )
      // raw SQL: INSERT … SELECT from one JSON recordset, one statement per batch however long
      const written = await queryRows<{ word: string }>(
        tx,
        sql`insert into search_synonyms (word, means, both_ways, kind, source)
            select word, means, both_ways, kind, source
            from jsonb_to_recordset(${json}::jsonb) as s(word text, means text, both_ways boolean, kind text, source text)
            on conflict do nothing
            returning word`,
      )
      await tx.execute(sql`insert into data_fixes (name, rows) values (${SYNONYM_SEEDS[seed]}, ${written.length})`)
      total += written.length
    }
    return total
  })
}
