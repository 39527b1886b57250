/**
 * Search synonyms (docs/search.md, "Synonyms"): the `search_synonyms` table maps words shoppers
 * type, often Hindi-English ("doodh", "dahi", "chawal"), to the catalogue's words ("milk", "curd",
 * "rice"); a `both_ways` row also maps the catalogue word back ("curd" finds "Dahi"). The table is
 * seeded from api/db/seed/data/synonyms.csv (api/db/seed/synonyms.ts) and is the store's to edit. A
 * `brand` row names what a brand makes ("parle" → biscuits), for a brand the store does not stock.
 *
 * Read once into memory through the catalogue cache (`search:synonyms`), so a search costs no query
 * for it; a catalogue write clears it with everything else (api/lib/cache.ts).
 */
import { asc } from 'drizzle-orm'
import { searchSynonyms } from '../../db/schema.ts'
import type { CatalogDeps } from '../category/service.ts'
import { words } from './terms.ts'

/**
 * Shopper's words (one or two words, joined by one space) → the catalogue phrases they stand for,
 * each a list of words. Keys and phrases hold letters, marks and digits only (`words`).
 */
export type SynonymMap = ReadonlyMap<string, string[][]>

/** Longest key, in words: phrases of the query up to this length are looked up. */
export const MAX_SYNONYM_WORDS = 2

/** Builds the map from table rows: normalised like a search, both-way rows entered twice, no duplicates. */
export function synonymMap(rows: ReadonlyArray<{ word: string; means: string; bothWays: boolean }>): SynonymMap {
  const map = new Map<string, string[][]>()
  const add = (from: string[], to: string[]) => {
    if (from.length === 0 || from.length > MAX_SYNONYM_WORDS || to.length === 0) return
    const key = from.join(' ')
    const list = map.get(key) ?? []
    if (key !== to.join(' ') && !list.some((phrase) => phrase.join(' ') === to.join(' '))) list.push(to)
    map.set(key, list)
  }
  for (const row of rows) {
    const word = words(row.word)
    const means = words(row.means)
    add(word, means)
    if (row.bothWays) add(means, word)
  }
  return map
}

/**
 * The store's vocabulary: `words`, names for things (kind 'word': doodh → milk), and `brands`, brand
 * names and what each makes (kind 'brand': parle → biscuits; used only for a brand no product of the
 * store has, api/modules/search/understand.ts). Brand rows are never both ways.
 */
export interface Vocabulary {
  words: SynonymMap
  brands: SynonymMap
}

/** The store's vocabulary (`Vocabulary`), cached until the next catalogue write. */
export function loadSynonyms(deps: CatalogDeps): Promise<Vocabulary> {
  return deps.cache.get('search:synonyms', async () => {
    const rows = await deps.db
      .select({ word: searchSynonyms.word, means: searchSynonyms.means, bothWays: searchSynonyms.bothWays, kind: searchSynonyms.kind })
      .from(searchSynonyms)
      .orderBy(asc(searchSynonyms.word), asc(searchSynonyms.means))
    return {
      words: synonymMap(rows.filter((r) => r.kind !== 'brand')),
      brands: synonymMap(rows.filter((r) => r.kind === 'brand').map((r) => ({ ...r, bothWays: false }))),
    }
  })
}
