/**
 * What a search asks for (docs/search.md, "Matching"): the search's words grouped into the things
 * it names, each with the catalogue phrases that may stand for it, and what the shopper is told
 * about it ("Showing results for milk (doodh)", "Did you mean bread?", words left out).
 *
 * For each word (or two-word phrase that is a synonym key: "lal mirch", "wheat flour"):
 * - the word as typed, when the vocabulary knows it (api/modules/search/spelling.ts);
 * - its synonyms (api/modules/search/synonyms.ts): doodh → milk, dahi → curd and back;
 * - a spelling correction when the vocabulary lacks it or knows it as a rare misspelling, and the
 *   synonyms of the correction ("dahee" → curd); a word close to a synonym key is corrected to it;
 * - its completions as a word prefix ("choc" → chocolate) when it is the last word (still being
 *   typed) or the vocabulary lacks it.
 * A word with none of these is left out, and named in `ignored`; a search left with no word
 * matches nothing.
 *
 * A brand the store does not stock (a brand row of the vocabulary, one of whose words no product has:
 * "parle", "coke") is never corrected into another word ("parle" was "paris", a cosmetics brand):
 * it stands for what the brand makes ("biscuits"), and `notStocked` says so, so the shopper reads
 * "No Parle products" above the biscuits rather than taking them for Parle's.
 */
import type { SQL } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { chooseCorrection, lookUpWords } from './spelling.ts'
import { MAX_SYNONYM_WORDS, type SynonymMap, type Vocabulary } from './synonyms.ts'

/** Shortest word matched as a word prefix (one letter would match most of the catalogue). */
export const MIN_PREFIX_LENGTH = 2

/** One catalogue phrase a group may match. */
export interface Alternative {
  phrase: string[]
  /** The last word matches as a word prefix. */
  prefix: boolean
  source: 'typed' | 'synonym' | 'spelling' | 'completion'
}

/** One thing the search names: the words typed for it and every phrase that may stand for it. */
export interface Group {
  typed: string[]
  alternatives: Alternative[]
}

/** What a search was taken to mean; the three lists are what the results header tells the shopper. */
export interface Understanding {
  groups: Group[]
  /** Typed words and the catalogue words searched for them (synonyms). */
  synonyms: Array<{ typed: string; means: string[] }>
  /** Typed words and their spelling corrections. */
  corrections: Array<{ typed: string; to: string }>
  /** Typed words that matched nothing and were left out. */
  ignored: string[]
  /** Brands typed that no product of the store has, and what was searched for instead (what each makes). */
  notStocked: Array<{ typed: string; showing: string[] }>
}

/**
 * Understands `terms` (from `searchTerms`, at least one) with the store's vocabulary (a synonym map
 * alone: no brand rows); one vocabulary query on `db` (the search's transaction), which also makes
 * the transaction's `settings` (`lookUpWords`), and one more when a word needs a spelling correction.
 */
export async function understand(
  db: Pick<Db, 'execute'>,
  terms: string[],
  vocabulary: Vocabulary | SynonymMap,
  settings?: SQL,
): Promise<Understanding> {
  const { words: synonyms, brands } =
    'words' in vocabulary ? (vocabulary as Vocabulary) : { words: vocabulary, brands: new Map() as SynonymMap }
  const facts = await lookUpWords(db, terms, settings)
  const result: Understanding = { groups: [], synonyms: [], corrections: [], ignored: [], notStocked: [] }
  const synonymKeys = [...synonyms.keys()].filter((key) => !key.includes(' ')).map((word) => ({ word, products: 1 }))
  const unknown = (word: string) => (facts.get(word)?.known ?? 0) === 0
  for (let i = 0; i < terms.length;) {
    // A brand the catalogue lacks (one of its words is in no product) stands for what it makes.
    const brand = phraseAt(terms, i, brands)
    if (brands.has(brand.join(' ')) && brand.some(unknown)) {
      i += brand.length
      const showing = brands.get(brand.join(' '))!
      result.groups.push({ typed: brand, alternatives: showing.map((phrase) => ({ phrase, prefix: false, source: 'synonym' })) })
      result.notStocked.push({ typed: brand.join(' '), showing: showing.map((m) => m.join(' ')) })
      continue
    }
    const span = phraseAt(terms, i, synonyms)
    i += span.length
    const isLast = i === terms.length
    const typed = span.join(' ')
    const alternatives: Alternative[] = []
    const addSynonymsOf = (key: string, shownAs: string) => {
      const means = synonyms.get(key) ?? []
      for (const phrase of means) alternatives.push({ phrase, prefix: false, source: 'synonym' })
      if (means.length > 0) result.synonyms.push({ typed: shownAs, means: means.map((m) => m.join(' ')) })
    }
    if (span.length > 1) {
      alternatives.push({ phrase: span, prefix: false, source: 'typed' })
      addSynonymsOf(typed, typed)
    } else {
      const f = facts.get(typed) ?? { known: 0, completions: 0, candidates: [] }
      if (f.known > 0) alternatives.push({ phrase: span, prefix: false, source: 'typed' })
      addSynonymsOf(typed, typed)
      if (!synonyms.has(typed)) {
        const correction =
          chooseCorrection(typed, f.known, f.candidates) ?? (f.known === 0 ? chooseCorrection(typed, 0, synonymKeys) : null)
        if (correction) {
          // A correction to a synonym key (not a catalogue word) matches through its synonyms only.
          if (f.candidates.some((c) => c.word === correction.word)) {
            alternatives.push({ phrase: [correction.word], prefix: false, source: 'spelling' })
          }
          result.corrections.push({ typed, to: correction.word })
          addSynonymsOf(correction.word, correction.word)
        }
      }
      if (f.completions > 0 && typed.length >= MIN_PREFIX_LENGTH && (isLast || f.known === 0)) {
        alternatives.push({ phrase: span, prefix: true, source: 'completion' })
      }
    }
    if (alternatives.length > 0) result.groups.push({ typed: span, alternatives })
    else result.ignored.push(typed)
  }
  return result
}

/** The words at `i` that form one group: the longest synonym key starting there, else one word. */
function phraseAt(terms: string[], i: number, synonyms: SynonymMap): string[] {
  for (let n = Math.min(MAX_SYNONYM_WORDS, terms.length - i); n > 1; n--) {
    const phrase = terms.slice(i, i + n)
    if (synonyms.has(phrase.join(' '))) return phrase
  }
  return [terms[i]!]
}
