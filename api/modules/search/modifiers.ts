/**
 * Words that qualify the thing a search names rather than name it (docs/search.md, "Modifiers";
 * docs/decisions/0059-search-modifiers-and-absent-brands.md): colours, in English and in Hindi
 * ("kala chana", "red chilli powder"), and attributes ("sugar free biscuits", "organic atta", "low
 * fat curd"). Pure tables and functions: no database.
 *
 * A modifier narrows by ranking, never by leaving products out: the products whose names carry it
 * come first, and the same kind of product without it fills the rest of the page. A search of
 * modifiers alone ("organic", "black") takes them as the thing searched.
 */
import { sameWord, words } from './terms.ts'

/**
 * Colour words a shopper types → the colour words the catalogue prints. Hindi colours for pulses,
 * rice and spices: kālā black (a "kala chana" is sold as brown or black chana), safed white, lāl red,
 * harā green, pīlā yellow. Source: R. S. McGregor, The Oxford Hindi-English Dictionary (1993),
 * entries kālā, safed, lāl, harā, pīlā. "kali" is left out: "kali mirch" is a phrase of the synonym
 * table (black pepper), and alone it is a bud.
 */
export const COLOURS: ReadonlyMap<string, readonly string[]> = new Map([
  ['kala', ['black', 'brown']],
  ['kaala', ['black', 'brown']],
  ['kaali', ['black', 'brown']],
  ['safed', ['white']],
  ['safaid', ['white']],
  ['lal', ['red']],
  ['laal', ['red']],
  ['hara', ['green']],
  ['hari', ['green']],
  ['hare', ['green']],
  ['peela', ['yellow']],
  ['pila', ['yellow']],
  ['peeli', ['yellow']],
  ['black', ['black']],
  ['white', ['white']],
  ['red', ['red']],
  ['green', ['green']],
  ['brown', ['brown']],
  ['yellow', ['yellow']],
])

/**
 * Attributes of a food or product as shoppers type them → the phrases the catalogue prints for them
 * (the bundled catalogue's names say "Sugar Free", "Sugar-Free", "No Added Sugar", "Gluten Free",
 * "Low Fat", "Unsalted", "Whole Wheat", "Eggless", "Organic"). Each key is matched as a phrase of the
 * search; each phrase as a phrase of a name.
 */
export const ATTRIBUTES: ReadonlyMap<string, readonly string[]> = new Map([
  ['sugar free', ['sugar free', 'sugarfree', 'no added sugar', 'sugarless', 'no sugar']],
  ['sugarfree', ['sugar free', 'sugarfree', 'no added sugar', 'sugarless', 'no sugar']],
  ['no added sugar', ['no added sugar', 'sugar free', 'sugarfree', 'no sugar']],
  ['no sugar', ['no sugar', 'no added sugar', 'sugar free', 'sugarfree']],
  ['sugarless', ['sugarless', 'sugar free', 'sugarfree', 'no added sugar']],
  ['diabetic', ['diabetic', 'sugar free', 'sugarfree', 'no added sugar']],
  ['low fat', ['low fat', 'fat free', 'lite']],
  ['fat free', ['fat free', 'low fat']],
  ['gluten free', ['gluten free', 'glutenfree']],
  ['lactose free', ['lactose free']],
  ['organic', ['organic']],
  ['unsalted', ['unsalted', 'no salt', 'salt free']],
  ['salted', ['salted']],
  ['whole wheat', ['whole wheat', 'wholewheat', 'atta']],
  ['multigrain', ['multigrain', 'multi grain', 'multi millet']],
  ['eggless', ['eggless', 'egg free', 'no egg']],
  ['low sodium', ['low sodium', 'less sodium']],
  ['unsweetened', ['unsweetened', 'no added sugar']],
  ['vegan', ['vegan', 'plant based']],
])

/** Longest attribute key, in words. */
const MAX_ATTRIBUTE_WORDS = Math.max(...[...ATTRIBUTES.keys()].map((k) => k.split(' ').length))

/**
 * The attribute at `terms[i]`: its words as typed and the catalogue phrases for it (longest key
 * first), or null.
 */
export function attributeAt(terms: string[], i: number): { typed: string[]; phrases: string[][] } | null {
  for (let n = Math.min(MAX_ATTRIBUTE_WORDS, terms.length - i); n >= 1; n--) {
    const typed = terms.slice(i, i + n)
    const phrases = ATTRIBUTES.get(typed.join(' '))
    if (phrases) return { typed, phrases: phrases.map(words) }
  }
  return null
}

/** The catalogue's colour words for a typed colour word ("kala" → black, brown), or null. */
export function colourOf(word: string): readonly string[] | null {
  return COLOURS.get(word) ?? null
}

/**
 * Whether `text` (a product name) carries `phrase`: its words in order, next to each other, or,
 * with `anyOrder`, anywhere, each up to a plural (`sameWord`). How the search tells which
 * modifiers the page's products carry (api/modules/search/service.ts).
 */
export function carries(text: string, phrase: string[], anyOrder = false): boolean {
  const have = words(text)
  if (anyOrder) return phrase.every((w) => have.some((h) => sameWord(w, h)))
  for (let i = 0; i + phrase.length <= have.length; i++) {
    if (phrase.every((w, k) => sameWord(w, have[i + k]!))) return true
  }
  return false
}
