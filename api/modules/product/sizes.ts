/**
 * Pack sizes and counts, in a search and on a product (docs/search.md, "Pack sizes"). Pure: no
 * database. A size is normalised to a base unit: grams (mg, kg), millilitres (l, ltr, litre) or
 * pieces (pc, pcs, tablets, "set of 6"), as its total and, for a multipack, its count and the
 * size of each ("2 x 200 g" → 2 of 200 g, 400 g in all).
 *
 * The product side (`packSize`) reads the catalogue's unit strings ("500 g", "1 kg", "2x200 g",
 * "200 g Pouch", "6 pcs", "Combo" → none); the SQL function `pack_size` (migration
 * 0009_pack_size) reads them by the same rules for the search, and a test holds the two to the
 * same answers over the whole bundled catalogue. The search side (`takeSize`) also reads what
 * shoppers type: "500g", "1 ltr", "half kg", "1/2 kg", "a dozen". The file sits in the product
 * module, the lower of the two that read it (the search builds on the product's reads:
 * docs/decisions/0048-module-layering.md); migration 0009's comment names its old place under search.
 */

/** Base units: grams, millilitres, pieces. Mass, volume and count never compare with each other. */
export type BaseUnit = 'g' | 'ml' | 'pc'

/** A normalised size: `total` = `count` × `each`, in `unit`. */
export interface Size {
  unit: BaseUnit
  total: number
  /** Packs in a multipack (1 for a single pack). */
  count: number
  each: number
}

/** A size asked for in a search; `count` is set only when the search names a multipack ("2 x 200 g"). */
export interface QuerySize {
  unit: BaseUnit
  total: number
  count: number | null
  each: number
  /** The words as typed, for the answer ("500g"). */
  typed: string
  /**
   * A pack count alone ("maggi 4 pack", "pack of 4"): `count` packs of any size. It matches a
   * multipack of that many ("4x70 g") or that many pieces ("4 pcs"), and says nothing of the weight.
   */
  packs?: true
}

/** Unit words and their factor to the base unit. Longer spellings first where a regex alternation needs it. */
const UNITS: Record<string, { unit: BaseUnit; factor: number }> = {
  mg: { unit: 'g', factor: 0.001 },
  g: { unit: 'g', factor: 1 },
  gm: { unit: 'g', factor: 1 },
  gms: { unit: 'g', factor: 1 },
  gr: { unit: 'g', factor: 1 },
  grm: { unit: 'g', factor: 1 },
  gram: { unit: 'g', factor: 1 },
  grams: { unit: 'g', factor: 1 },
  kg: { unit: 'g', factor: 1000 },
  kgs: { unit: 'g', factor: 1000 },
  kilo: { unit: 'g', factor: 1000 },
  kilos: { unit: 'g', factor: 1000 },
  ml: { unit: 'ml', factor: 1 },
  l: { unit: 'ml', factor: 1000 },
  lt: { unit: 'ml', factor: 1000 },
  ltr: { unit: 'ml', factor: 1000 },
  ltrs: { unit: 'ml', factor: 1000 },
  litre: { unit: 'ml', factor: 1000 },
  litres: { unit: 'ml', factor: 1000 },
  liter: { unit: 'ml', factor: 1000 },
  liters: { unit: 'ml', factor: 1000 },
  pc: { unit: 'pc', factor: 1 },
  pcs: { unit: 'pc', factor: 1 },
  piece: { unit: 'pc', factor: 1 },
  pieces: { unit: 'pc', factor: 1 },
  nos: { unit: 'pc', factor: 1 },
}
/** Count words that name a product's pieces in the catalogue's units ("10 tablets"); not read in a search. */
const PIECE_WORDS = ['tablets', 'capsules', 'softgels', 'wipes', 'teabags', 'pulls', 'sachet', 'sachets']

const NUMBER = String.raw`(\d+(?:\.\d+)?)`
const UNIT_ALTERNATION = Object.keys(UNITS)
  .sort((a, b) => b.length - a.length)
  .join('|')

/** `count x each unit` or `amount unit`, the unit a whole word (a letter or digit may not follow it). */
const PRODUCT_SIZE = new RegExp(
  String.raw`(?<![\p{L}\p{N}.])${NUMBER}\s*(?:[x×*]\s*${NUMBER}\s*)?(${UNIT_ALTERNATION}|${PIECE_WORDS.join('|')})(?![\p{L}\p{N}])`,
  'u',
)
/** "set of 6", "pack of 6", "(pack of 3)", "6's pack": pieces. */
const PIECES_OF = /(?:set|pack) of (\d+)|(\d+)'s pack/

/** Rounds away binary noise (1.5 × 1000 stays 1500, 0.1 × 3 stays 0.3). */
function clean(n: number): number {
  return Math.round(n * 1000) / 1000
}

function sized(unitWord: string, count: number, amount: number): Size | null {
  const u = UNITS[unitWord] ?? (PIECE_WORDS.includes(unitWord) ? { unit: 'pc' as const, factor: 1 } : undefined)
  if (!u || !(amount > 0) || !(count > 0)) return null
  const each = clean(amount * u.factor)
  return { unit: u.unit, count, each, total: clean(count * each) }
}

/**
 * The size of a product from its unit as the catalogue stores it, or null when it has none or is
 * a combo (a bundle of different things has no one size). The first size in the text counts:
 * "200 g Pouch" → 200 g; "2x200 g" → 2 of 200 g; "1l (1 kg)" → 1,000 ml; "6 pcs + 2 pcs" → 6 pieces;
 * "set of 4" → 4 pieces.
 */
export function packSize(unit: string): Size | null {
  const text = unit.toLowerCase()
  if (text.includes('combo')) return null
  const m = PRODUCT_SIZE.exec(text)
  if (m) {
    const [, first, second, word] = m
    return second === undefined ? sized(word!, 1, Number(first)) : sized(word!, Number(first), Number(second))
  }
  const p = PIECES_OF.exec(text)
  if (p) return sized('pc', 1, Number(p[1] ?? p[2]))
  return null
}

/** Every size a text names, `PRODUCT_SIZE` read throughout ("Strong Teeth, 150 gm, 2X Stronger" → "150 gm"). */
const PRODUCT_SIZES = new RegExp(PRODUCT_SIZE.source, 'gu')

/**
 * `text` lower-cased with every size in it ("500 g", "2x200 g", "1 kg") replaced by a space, read by
 * the rules of `packSize`: the name of a product without the size some names repeat from the unit
 * ("Colgate Strong Teeth, 150 gm, …"), for telling pack sizes of one product apart
 * (api/modules/product/pack-groups.ts). The SQL function `pack_group_key` (migration
 * 0019_pack_groups) removes the same sizes.
 */
export function withoutSizes(text: string): string {
  return text.toLowerCase().replace(PRODUCT_SIZES, ' ')
}

/** Fractions a shopper types before a unit: "half kg", "1/2 kg", "quarter kg". */
const FRACTIONS: Record<string, number> = { half: 0.5, '1/2': 0.5, quarter: 0.25, '1/4': 0.25, '3/4': 0.75 }

/**
 * A size typed in a search: a number (or "half", "quarter", "1/2", "3/4") and a unit word, or
 * "count x size unit", with or without spaces ("500g", "500 g", "1.5 kg", "2 x 200 g", "2x200g",
 * "half kg", "6 pcs"), or "dozen" (12 pieces; "2 dozen" 24). A decimal comma counts as a point.
 */
const QUERY_SIZE = new RegExp(
  String.raw`(?<![\p{L}\p{N}.,/])(?:(half|quarter|1/2|1/4|3/4)|(?:(\d+)\s*[x×*]\s*)?(\d+(?:[.,]\d+)?))\s*(${UNIT_ALTERNATION})(?![\p{L}\p{N}])|(?<![\p{L}\p{N}])(?:(\d+)\s*)?(dozen)(?![\p{L}\p{N}])`,
  'u',
)

/**
 * A pack count typed in a search: "4 pack", "4 packs", "4 pkt", "pack of 4", "box of 6", "set of 2".
 * It is a quantity, never a word to match ("maggi 4 pack" is four packs of Maggi, not a face pack).
 */
const QUERY_PACKS =
  /(?<![\p{L}\p{N}.,/])(?:(\d+)\s*(?:packs?|pkts?|packets?|pouches)|(?:pack|packet|pkt|box|set)\s+of\s+(\d+))(?![\p{L}\p{N}])/u

/**
 * The first size in a search and the search without it (docs/search.md, "Pack sizes"). The size's
 * words never stay among the words to match: "amul butter 500g" → "amul butter" and 500 g. A
 * search without a size comes back as it was, with `size` null.
 */
export function takeSize(search: string): { size: QuerySize | null; rest: string } {
  const text = search.normalize('NFKC').toLowerCase()
  const m = QUERY_SIZE.exec(text)
  if (!m) return takePacks(search, text)
  const [whole, fraction, count, amount, unitWord, dozens, dozen] = m
  const typed = whole.trim()
  const rest = `${text.slice(0, m.index)} ${text.slice(m.index + whole.length)}`.replace(/\s+/g, ' ').trim()
  let size: Size | null
  if (dozen) size = sized('pc', 1, 12 * (dozens ? Number(dozens) : 1))
  else if (fraction) size = sized(unitWord!, 1, FRACTIONS[fraction]!)
  else size = sized(unitWord!, count ? Number(count) : 1, Number(amount!.replace(',', '.')))
  if (!size) return { size: null, rest: search }
  return { size: { unit: size.unit, total: size.total, count: count ? size.count : null, each: size.each, typed }, rest }
}

/** `takeSize` for a search without a unit size: its pack count ("4 pack", `QUERY_PACKS`), if any. */
function takePacks(search: string, text: string): { size: QuerySize | null; rest: string } {
  const m = QUERY_PACKS.exec(text)
  const packs = Number(m?.[1] ?? m?.[2])
  if (!m || !(packs > 0) || packs > 1000) return { size: null, rest: search }
  const rest = `${text.slice(0, m.index)} ${text.slice(m.index + m[0].length)}`.replace(/\s+/g, ' ').trim()
  return { size: { unit: 'pc', total: packs, count: packs, each: 1, typed: m[0].trim(), packs: true }, rest }
}

/**
 * How well a product's size answers a search's: 3 the same size (the same total; for a multipack
 * search, the same count of the same size), 2 near it (the same kind of unit, within half to twice
 * the total), 1 the same kind of unit, 0 another kind or none; for a pack count, 3 a multipack of that
 * many or that many pieces, else 0. The SQL of the search
 * (api/modules/search/ranking.ts) computes the same tiers.
 */
export function sizeTier(wanted: QuerySize, product: Size | null): 0 | 1 | 2 | 3 {
  // A pack count: a multipack of that many, or that many pieces; other sizes are neither near nor far.
  if (wanted.packs) return product && (product.count === wanted.total || (product.unit === 'pc' && product.total === wanted.total)) ? 3 : 0
  if (!product || product.unit !== wanted.unit) return 0
  const same = product.total === wanted.total && (wanted.count === null || (product.count === wanted.count && product.each === wanted.each))
  if (same) return 3
  if (product.total >= wanted.total / 2 && product.total <= wanted.total * 2) return 2
  return 1
}
