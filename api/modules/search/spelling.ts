/**
 * Spelling (docs/search.md, "Spelling"): each search word is looked up in the catalogue's own
 * vocabulary (`search_vocabulary`, every distinct word of the published products' names and brands
 * with the number of products that have it, kept current by triggers; migration 0006_search). A
 * word the vocabulary lacks is corrected to a close, frequent vocabulary word: pg_trgm's
 * spelling-suggestion pattern (PostgreSQL docs, pg_trgm, "Text Search Integration": trigram
 * similarity `%` against a table of the documents' words, GIN index `search_vocabulary_trgm_idx`),
 * then Damerau-Levenshtein edit distance to keep only real typos.
 *
 * Rules: a word the vocabulary knows is never replaced (toor stays toor), except a rare word of 5
 * letters or more next to a far more common one (a misspelt product name must not hide the
 * obvious products); a correction keeps the first letter, is at most 1 edit away for words of up to
 * 4 letters, 2 up to 7, 3 beyond; among those the fewest edits win, then the most products
 * ("bred" → bread, 13 products, not brew, 5).
 */
import levenshtein from 'damerau-levenshtein'
import { sql, type SQL } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { queryRows } from '../../db/query.ts'
import { wordForms } from './terms.ts'

/** Shortest word corrected by spelling; shorter words only match as typed or as a prefix. */
export const MIN_CORRECTED_LENGTH = 3
/** A known word with at most this many products may still be corrected to a far commoner word. */
export const RARE_WORD_PRODUCTS = 2
/** How many times more products the correction of a known rare word must have. */
const RARE_WORD_RATIO = 10
/** pg_trgm similarity a vocabulary word needs to be a candidate (the `%` operator's threshold). */
export const CANDIDATE_SIMILARITY = 0.3
/**
 * Most words of one search looked up by trigram similarity (the first ones that need it): the
 * trigram look-up is the costly part of understanding a search, and a shopper's typos are few;
 * the other unknown words are left out.
 */
export const MAX_CORRECTED_TERMS = 3
/** Candidates read per word, most similar first. */
const CANDIDATES_PER_WORD = 12

/** What the vocabulary says about one search word. */
export interface WordFacts {
  /** Products having the word in any of its forms (0 = unknown to the catalogue). */
  known: number
  /** Products having a word that starts with it (of the first 100 such words; 0 = none). */
  completions: number
  /** Close vocabulary words, when the word is unknown or rare and long enough to correct. */
  candidates: Array<{ word: string; products: number }>
}

/**
 * Looks up `terms` in the vocabulary, inside the caller's transaction (which sets
 * `pg_trgm.similarity_threshold` and turns sequential scans off: the planner prices a scan of the
 * whole vocabulary below the trigram index but then computes the similarity of every word, 70 ms
 * instead of 1.5 ms for one word on 12,000, measured): one query for the forms (primary key) and
 * completions (`text_pattern_ops` index) of every term, and one more for the trigram candidates of
 * the terms that need them (unknown or rare, long enough; index on `lower(word)`).
 * @param settings `set_config` calls for the caller's transaction, made by the first query (once
 *   per term: they take effect for the statements after it), which saves the search a round trip
 */
export async function lookUpWords(db: Pick<Db, 'execute'>, terms: string[], settings?: SQL): Promise<Map<string, WordFacts>> {
  const input = JSON.stringify([...new Set(terms)].map((term) => ({ term, forms: wordForms(term) })))
  // raw SQL: a JSON recordset with lateral look-ups per term and set_config calls; measured (see above)
  const rows = await queryRows<{ term: string; known: number; completions: number }>(
    db,
    sql`select t.term, k.known, c.completions${settings ? sql`, ${settings}` : sql``}
        from jsonb_to_recordset(${input}::jsonb) as t(term text, forms text[])
        cross join lateral (
          select coalesce(max(v.products), 0)::int as known from search_vocabulary v where v.word = any(t.forms)
        ) k
        cross join lateral (
          select coalesce(sum(x.products), 0)::int as completions
          from (select v.products from search_vocabulary v
                where v.word ~>=~ t.term and v.word ~<~ (t.term || chr(1114111)) and v.word <> all(t.forms)
                limit 100) x
        ) c`,
  )
  const facts = new Map(
    rows.map((r) => [r.term, { known: r.known, completions: r.completions, candidates: [] as WordFacts['candidates'] }]),
  )
  const needing = terms
    .filter((term, i) => terms.indexOf(term) === i)
    .filter((term) => {
      const f = facts.get(term)
      return f !== undefined && f.known <= RARE_WORD_PRODUCTS && term.length >= MIN_CORRECTED_LENGTH
    })
    .slice(0, MAX_CORRECTED_TERMS)
  if (needing.length > 0) {
    // raw SQL: pg_trgm candidates per term through unnest and a lateral join on the trigram index
    const found = await queryRows<{ term: string; candidates: WordFacts['candidates'] }>(
      db,
      sql`select t.term, coalesce(s.candidates, '[]'::json) as candidates
          from unnest(${sql`array[${sql.join(
            needing.map((t) => sql`${t}`),
            sql`, `,
          )}]::text[]`}) as t(term)
          cross join lateral (
            select json_agg(json_build_object('word', x.word, 'products', x.products)) as candidates
            from (select v.word, v.products from search_vocabulary v where lower(v.word) % t.term
                  order by similarity(v.word, t.term) desc, v.products desc
                  limit ${CANDIDATES_PER_WORD}) x
          ) s`,
    )
    for (const f of found) facts.get(f.term)!.candidates = f.candidates
  }
  return facts
}

/** Letters and marks only (no digits, hyphens or other characters the text-search parser keeps). */
const PLAIN_WORD = /^[\p{L}\p{M}]+$/u

/** Most edits a correction of a word of `length` letters may take. */
export function maxEdits(length: number): number {
  return length <= 4 ? 1 : length <= 7 ? 2 : 3
}

/**
 * The correction of `term` among `candidates` (vocabulary words or synonym keys), or null (see the
 * module comment for the rules). `known`: products having the term itself.
 */
export function chooseCorrection(
  term: string,
  known: number,
  candidates: Array<{ word: string; products: number }>,
): { word: string; products: number } | null {
  if (term.length < MIN_CORRECTED_LENGTH || known > RARE_WORD_PRODUCTS) return null
  if (known > 0 && term.length < 5) return null
  const forms = new Set(wordForms(term))
  const scored = candidates
    // Plain words only: a vocabulary entry such as "non-stick" would carry query syntax into the tsquery text.
    .filter((c) => c.word[0] === term[0] && !forms.has(c.word) && PLAIN_WORD.test(c.word))
    .filter((c) => known === 0 || c.products >= Math.max(5, known * RARE_WORD_RATIO))
    .map((c) => ({ ...c, edits: levenshtein(term, c.word).steps }))
    .filter((c) => c.edits <= maxEdits(term.length))
    .sort((a, b) => a.edits - b.edits || b.products - a.products || a.word.localeCompare(b.word))
  const best = scored[0]
  return best ? { word: best.word, products: best.products } : null
}
