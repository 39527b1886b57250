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
import { attributeAt, colourOf } from './modifiers.ts'
import { chooseCorrection, lookUpWords } from './spelling.ts'
import { sameWord } from './terms.ts'
import { MAX_SYNONYM_WORDS, type SynonymMap, type Vocabulary } from './synonyms.ts'

/** Shortest word matched as a word prefix (one letter would match most of the catalogue). */
export const MIN_PREFIX_LENGTH = 2

/** One catalogue phrase a group may match. */
export interface Alternative {
  phrase: string[]
  /** The last word matches as a word prefix. */
  prefix: boolean
  source: 'typed' | 'synonym' | 'spelling' | 'completion'
  /** The words may stand anywhere in the name, in any order ("Chana - Brown" for kala chana). */
  anyOrder?: true
  /**
   * A shelf whose name lists the phrase as any of its items holds it ("Jams, Marmalade, Spreads"
   * for jam): for a word no product name has, and for what a brand the store lacks makes.
   */
  byShelf?: true
}

/** One thing the search names: the words typed for it and every phrase that may stand for it. */
export interface Group {
  typed: string[]
  alternatives: Alternative[]
  /**
   * A modifier (./modifiers.ts: a colour, an attribute) of the search's other groups: it ranks the
   * products that carry it first but leaves none out (docs/search.md, "Modifiers").
   */
  soft?: true
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
  namesShelf: (word: string) => boolean = () => false,
): Promise<Understanding> {
  const { words: synonyms, brands } =
    'words' in vocabulary ? (vocabulary as Vocabulary) : { words: vocabulary, brands: new Map() as SynonymMap }
  const facts = await lookUpWords(db, terms, settings)
  const result: Understanding = { groups: [], synonyms: [], corrections: [], ignored: [], notStocked: [] }
  const synonymKeys = [...synonyms.keys()].filter((key) => !key.includes(' ')).map((word) => ({ word, products: 1 }))
  const unknown = (word: string) => (facts.get(word)?.known ?? 0) === 0
  const absentBrands = new Set<Group>()
  for (let i = 0; i < terms.length;) {
    // A brand the catalogue lacks (one of its words is in no product) stands for what it makes.
    const brand = phraseAt(terms, i, brands)
    if (brands.has(brand.join(' ')) && brand.some(unknown)) {
      i += brand.length
      const showing = brands.get(brand.join(' '))!
      const group: Group = {
        typed: brand,
        alternatives: showing.map((phrase) => ({ phrase, prefix: false, source: 'synonym', byShelf: true })),
      }
      result.groups.push(group)
      absentBrands.add(group)
      result.notStocked.push({ typed: brand.join(' '), showing: showing.map((m) => m.join(' ')) })
      continue
    }
    // An attribute ("sugar free", "organic") or a colour ("kala", "red") qualifies the other words.
    const attribute = synonyms.has(terms.slice(i, i + 2).join(' ')) ? null : attributeAt(terms, i)
    if (attribute) {
      i += attribute.typed.length
      const alternatives = attribute.phrases.map((phrase): Alternative => ({ phrase, prefix: false, source: 'typed' }))
      result.groups.push({ typed: attribute.typed, alternatives, soft: true })
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
    const colours = colourOf(span[0]!)
    if (span.length > 1) {
      alternatives.push({ phrase: span, prefix: false, source: 'typed' })
      addSynonymsOf(typed, typed)
      if (colours && span.length === 2) {
        colouredPhrase(result, span, alternatives, colours, synonyms)
        continue
      }
    } else if (colours && terms.length > 1) {
      // A colour beside other words qualifies them: the colour's catalogue words, as a modifier.
      for (const colour of colours) alternatives.push({ phrase: [colour], prefix: false, source: colour === typed ? 'typed' : 'synonym' })
      if (colours[0] !== typed) result.synonyms.push({ typed, means: [...colours] })
      result.groups.push({ typed: span, alternatives, soft: true })
      continue
    } else {
      const f = facts.get(typed) ?? { known: 0, completions: 0, candidates: [] }
      if (f.known > 0) alternatives.push({ phrase: span, prefix: false, source: 'typed' })
      // A word no product name has but a shelf's name lists ("jam" of "Jams, Marmalade, Spreads")
      // names that shelf's products, and is never corrected into another word ("jam" was "jar").
      const shelfWord = f.known === 0 && namesShelf(typed)
      if (shelfWord) alternatives.push({ phrase: span, prefix: false, source: 'typed', byShelf: true })
      addSynonymsOf(typed, typed)
      if (!synonyms.has(typed) && !shelfWord) {
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
  for (const brand of absentBrands) insteadOfBrand(result, brand)
  // Modifiers alone are what was searched ("organic", "black"): they match as any word does.
  if (result.groups.every((g) => g.soft)) for (const g of result.groups) delete g.soft
  return result
}

/**
 * A phrase that starts with a colour ("kala chana", "lal mirch", "safed chana"; `alternatives` its
 * phrase as typed and its synonyms) becomes two groups: the thing (chana; the head nouns of the
 * synonyms too: chilli of "red chilli"), which every listed product must name, and the colour as a
 * modifier (`soft`), carried by the whole phrase or by the colour's catalogue words anywhere beside
 * the thing ("Brown Chana", "Chana - Brown/Kadale Kaalu"), which ranks those first. So the coloured
 * product leads, and the same thing in other colours fills the page (docs/search.md, "Modifiers").
 */
function colouredPhrase(
  result: Understanding,
  span: string[],
  alternatives: Alternative[],
  colours: readonly string[],
  synonyms: SynonymMap,
): void {
  const [colourWord, thing] = span as [string, string]
  const coloured: Alternative[] = [...alternatives]
  for (const a of alternatives) {
    const leading = colourOf(a.phrase[0]!)
    for (const colour of a === alternatives[0] ? colours : (leading ?? [])) {
      coloured.push({ phrase: [colour, ...a.phrase.slice(1)], prefix: false, source: 'synonym', anyOrder: true })
    }
  }
  const nouns = new Set([thing, ...(synonyms.get(thing) ?? []).map((m) => m.join(' ')), ...alternatives.map((a) => a.phrase.at(-1)!)])
  const things: Alternative[] = [...nouns].map((noun) => ({
    phrase: noun.split(' '),
    prefix: false,
    source: noun === thing ? 'typed' : 'synonym',
  }))
  result.groups.push({ typed: [colourWord], alternatives: coloured, soft: true })
  result.groups.push({ typed: [thing], alternatives: [...alternatives, ...things] })
}

/**
 * What a search shows for a brand the store lacks (`brand`, one of `result.groups`), when the search
 * names more than the brand (docs/search.md, "Matching"): the notice and the list must agree.
 * - The other words are part of what the brand makes ("vim bar": Vim makes dishwash bars): the
 *   brand's phrases that hold them stand for the whole, and those words are not searched apart (so
 *   "bar" does not list protein bars under a notice about dishwash bars).
 * - Otherwise they name what the shopper wants of another brand ("kissan jam": jam, not the ketchup
 *   Kissan is known for): the brand's group is dropped and the notice shows those words.
 * A brand alone stands for what it makes. Modifiers (`soft`) are neither.
 */
function insteadOfBrand(result: Understanding, brand: Group): void {
  const others = result.groups.filter((g) => g !== brand && !g.soft)
  if (others.length === 0) return
  const notice = result.notStocked.find((n) => n.typed === brand.typed.join(' '))!
  const inPhrase = (g: Group, phrase: string[]) => g.typed.every((w) => phrase.some((p) => sameWord(w, p)))
  const absorbed = others.filter((g) => brand.alternatives.some((a) => inPhrase(g, a.phrase)))
  if (absorbed.length > 0) {
    brand.alternatives = brand.alternatives.filter((a) => absorbed.every((g) => inPhrase(g, a.phrase)))
    brand.typed = [...brand.typed, ...absorbed.flatMap((g) => g.typed)]
    result.groups = result.groups.filter((g) => !absorbed.includes(g))
    notice.showing = brand.alternatives.map((a) => a.phrase.join(' '))
    return
  }
  result.groups = result.groups.filter((g) => g !== brand)
  notice.showing = [others.flatMap((g) => g.typed).join(' ')]
}

/** The words at `i` that form one group: the longest synonym key starting there, else one word. */
function phraseAt(terms: string[], i: number, synonyms: SynonymMap): string[] {
  for (let n = Math.min(MAX_SYNONYM_WORDS, terms.length - i); n > 1; n--) {
    const phrase = terms.slice(i, i + n)
    if (synonyms.has(phrase.join(' '))) return phrase
  }
  return [terms[i]!]
}
