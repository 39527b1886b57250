/**
 * Words of a search and of the catalogue's shelf names, and the full-text queries built from them
 * (docs/search.md, "Matching"). Pure functions: no database.
 *
 * The catalogue is indexed with PostgreSQL's 'simple' text-search configuration (no stemming, no
 * stop words: product names mix English, Hindi-English and brand words), so plural and singular
 * forms are matched by listing both forms in the query (`wordForms`).
 */

/** Most words of a search used; the rest are ignored (docs/security.md, "Search cost"). */
export const MAX_SEARCH_TERMS = 8

/**
 * Words of any text, lower-cased, split on anything that is not a letter, mark or digit (as the
 * full-text parser does; marks keep Devanagari words whole), after Unicode NFKC normalisation.
 * `"  Amul  PANNER!"` → `["amul", "panner"]`.
 */
export function words(text: string): string[] {
  return (
    text
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{M}\p{N}]+/gu) ?? []
  )
}

/**
 * Hindi-English connectives shoppers type between the words that name a thing ("sarson ka tel",
 * "aloo aur pyaz", "doodh wala"): "of", "and", "with", "-wala". They name nothing, so a search
 * leaves them out before anything else: read as words to match, they either matched nothing and made
 * the search drop its real words, or matched any name with a word starting so. Source: R. S.
 * McGregor, The Oxford Hindi-English Dictionary (1993), entries kā, aur, vālā, sāth.
 */
export const CONNECTIVES: ReadonlySet<string> = new Set([
  'ka',
  'ki',
  'ke',
  'ko',
  'aur',
  'wala',
  'wali',
  'wale',
  'vala',
  'vali',
  'sath',
  'saath',
])

/**
 * The words of a search without its connectives (`CONNECTIVES`), at most `MAX_SEARCH_TERMS`. Only these words (and words derived from them
 * here and in the synonym and vocabulary tables, which hold the same characters) reach the SQL, as
 * bound parameters inside tsquery text: letters, marks and digits only, never tsquery syntax.
 */
export function searchTerms(search: string): string[] {
  const all = words(search)
  const kept = all.filter((word) => !CONNECTIVES.has(word))
  // A search of connectives alone ("ka") is taken as typed, so it is answered like any unknown word.
  return (kept.length > 0 ? kept : all).slice(0, MAX_SEARCH_TERMS)
}

/**
 * The singular forms a word may have if it is an English plural, the word itself first:
 * `eggs` → eggs, egg; `tomatoes` → tomatoes, tomatoe, tomato; `berries` → berries, berrie, berri, berry.
 * Short words (3 letters or fewer) are taken as they are ("gas" is not a plural).
 */
export function singulars(word: string): string[] {
  const forms = [word]
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) forms.push(word.slice(0, -1))
  if (word.length > 4 && word.endsWith('es')) forms.push(word.slice(0, -2))
  if (word.length > 4 && word.endsWith('ies')) forms.push(`${word.slice(0, -3)}y`)
  return forms
}

/** Whether two words are the same word up to an English plural (`egg` ~ `eggs`, `cookie` ~ `cookies`). */
export function sameWord(a: string, b: string): boolean {
  if (a === b) return true
  const of = new Set(singulars(a))
  return singulars(b).some((form) => of.has(form))
}

/**
 * Every form a word is searched as: itself, its plain English plurals, and its singulars when it
 * looks plural. `egg` → egg, eggs, egges; `berry` → berry, berrys, berryes, berries.
 */
export function wordForms(word: string): string[] {
  const forms = new Set([word, ...singulars(word)])
  if (!word.endsWith('s')) {
    forms.add(`${word}s`)
    forms.add(`${word}es`)
  }
  if (word.length > 3 && word.endsWith('y')) forms.add(`${word.slice(0, -1)}ies`)
  return [...forms]
}

/**
 * A tsquery (text, for `to_tsquery('simple', …)`) matching one word in any of its forms, or as a
 * word prefix (`choc:*`). `weight` restricts it to the name (`A`) or the brand (`B`) of the
 * product's `search_doc` (migration 0006_search). `egg` → `(egg | eggs | egges)`.
 */
export function wordQuery(word: string, opts: { prefix?: boolean; weight?: 'A' | 'B' } = {}): string {
  const w = opts.weight ?? ''
  if (opts.prefix) return `${word}:*${w}`
  return `(${wordForms(word)
    .map((form) => (w ? `${form}:${w}` : form))
    .join(' | ')})`
}

/** A tsquery for words in this order, next to each other (`wheat <-> flour`), each in any form. */
export function phraseQuery(phrase: string[], opts: { prefix?: boolean; weight?: 'A' | 'B' } = {}): string {
  return phrase.map((word, i) => wordQuery(word, { ...opts, prefix: opts.prefix && i === phrase.length - 1 })).join(' <-> ')
}
