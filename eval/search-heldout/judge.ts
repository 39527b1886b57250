/**
 * The held-out search evaluation's relevance judge (eval/search-heldout/README.md, "Judgment language").
 *
 * `isRelevant(judgment, product)` is pure: it reads only its two arguments. A judgment is either one
 * clause, or `{ anyOf: [clause, ...] }` (relevant if any clause accepts). A clause accepts a product only
 * when every field it sets accepts it; a field left out accepts everything.
 */

export interface Product {
  name: string
  brand: string
  category: string
  subCategory: string
  /** As in the catalogue's Quantity column: "500 g", "2x200 g", "1 L", "12 pcs", "Combo", ... */
  packSize?: string
}

export type SizeUnit = 'mg' | 'g' | 'kg' | 'ml' | 'l' | 'pcs'

export interface SizeSpec {
  value: number
  unit: SizeUnit
  /** Set for a multipack ("2 x 200 g" is `{ value: 200, unit: 'g', count: 2 }`): the pack must be exactly count x value. */
  count?: number
}

export interface Clause {
  /** Exact category strings from the catalogue; the product's category must be one of them. */
  categories?: string[]
  /** Exact sub category strings from the catalogue; the product's sub category must be one of them. */
  subCategories?: string[]
  /** Brand names, compared trimmed and case-insensitively; the product's brand must equal one of them. */
  brandIn?: string[]
  /** Every term must occur in the product name (whole words, see `termMatches`). */
  nameAll?: string[]
  /** At least one term must occur in the product name. */
  nameAny?: string[]
  /** No term may occur in the product name. */
  nameNone?: string[]
  /** The pack size must equal this (see `sizeMatches`). */
  size?: SizeSpec
  /** Reject bundles: a pack size or brand saying "Combo", or a name calling itself a combo. */
  noCombo?: boolean
}

export type Judgment = Clause | { anyOf: Clause[] }

/** Lower case, accents and punctuation dropped, words separated by single spaces, padded with one space each side. */
export function normalize(text: string): string {
  const words = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
  return ` ${words} `
}

/**
 * A term matches when its words occur in the text as whole consecutive words ("egg" does not match
 * "eggless", "tea" does not match "steak"). A term ending in `*` matches as a word prefix: "fennel*"
 * matches "fennelseeds".
 */
export function termMatches(term: string, text: string): boolean {
  const prefix = term.endsWith('*')
  const words = normalize(prefix ? term.slice(0, -1) : term).trimEnd()
  if (words.trim() === '') return false
  const haystack = normalize(text)
  return prefix ? haystack.includes(words) : haystack.includes(`${words} `)
}

export function isCombo(product: Product): boolean {
  return /combo/i.test(product.packSize ?? '') || /combo/i.test(product.brand) || /\bcombo\b/i.test(product.name)
}

const UNIT_BASE: Record<string, { base: 'g' | 'ml' | 'pcs'; factor: number }> = {
  mg: { base: 'g', factor: 0.001 },
  g: { base: 'g', factor: 1 },
  gm: { base: 'g', factor: 1 },
  gms: { base: 'g', factor: 1 },
  kg: { base: 'g', factor: 1000 },
  kgs: { base: 'g', factor: 1000 },
  ml: { base: 'ml', factor: 1 },
  l: { base: 'ml', factor: 1000 },
  ltr: { base: 'ml', factor: 1000 },
  litre: { base: 'ml', factor: 1000 },
  liter: { base: 'ml', factor: 1000 },
  pc: { base: 'pcs', factor: 1 },
  pcs: { base: 'pcs', factor: 1 },
  s: { base: 'pcs', factor: 1 },
  pulls: { base: 'pcs', factor: 1 },
  wipes: { base: 'pcs', factor: 1 },
  teabags: { base: 'pcs', factor: 1 },
  tablets: { base: 'pcs', factor: 1 },
  capsules: { base: 'pcs', factor: 1 },
}

export interface ParsedSize {
  /** How many units the pack holds (1 unless "N x ..."). */
  count: number
  /** One unit's quantity, in the base unit. */
  each: number
  base: 'g' | 'ml' | 'pcs'
}

/**
 * Reads a catalogue pack size: "500 g", "1.5 Kg", "2x200 g", "2 X 100 g", "3x(2x150 g)", "45ml each",
 * "2x36's pack", "1 pc (approx. 1 -3 kg)". Returns null for combos and anything else it cannot read.
 */
export function parsePackSize(packSize: string | undefined): ParsedSize | null {
  if (!packSize || /combo/i.test(packSize)) return null
  const m = /^\s*(?:(\d+)\s*x\s*)?\(?\s*(?:(\d+)\s*x\s*)?(\d+(?:\.\d+)?)\s*('s|[a-z]+)\b/i.exec(packSize.toLowerCase())
  if (!m) return null
  const unit = UNIT_BASE[m[4] === "'s" ? 's' : m[4]]
  if (!unit) return null
  const count = (m[1] ? Number(m[1]) : 1) * (m[2] ? Number(m[2]) : 1)
  return { count, each: Number(m[3]) * unit.factor, base: unit.base }
}

function close(a: number, b: number): boolean {
  return Math.abs(a - b) <= Math.max(a, b) * 0.005
}

/**
 * Without `count`, the pack's total quantity must equal the size ("1 kg" accepts "1 kg" and "2x500 g").
 * With `count`, the pack must be exactly that many units of that size ("2 x 200 g" accepts only "2x200 g").
 * Units must be of the same kind: mass (mg, g, kg), volume (ml, l) or count (pcs).
 */
export function sizeMatches(size: SizeSpec, packSize: string | undefined): boolean {
  const parsed = parsePackSize(packSize)
  const want = UNIT_BASE[size.unit]
  if (!parsed || !want || parsed.base !== want.base) return false
  const value = size.value * want.factor
  if (size.count !== undefined) return parsed.count === size.count && close(parsed.each, value)
  return close(parsed.count * parsed.each, value)
}

function clauseAccepts(clause: Clause, product: Product): boolean {
  if (clause.categories && !clause.categories.includes(product.category.trim())) return false
  if (clause.subCategories && !clause.subCategories.includes(product.subCategory.trim())) return false
  if (clause.brandIn) {
    const brand = product.brand.trim().toLowerCase()
    if (!clause.brandIn.some((b) => b.trim().toLowerCase() === brand)) return false
  }
  if (clause.nameAll && !clause.nameAll.every((t) => termMatches(t, product.name))) return false
  if (clause.nameAny && !clause.nameAny.some((t) => termMatches(t, product.name))) return false
  if (clause.nameNone && clause.nameNone.some((t) => termMatches(t, product.name))) return false
  if (clause.noCombo && isCombo(product)) return false
  if (clause.size && !sizeMatches(clause.size, product.packSize)) return false
  return true
}

export function isRelevant(judgment: Judgment, product: Product): boolean {
  if ('anyOf' in judgment) return judgment.anyOf.some((clause) => clauseAccepts(clause, product))
  return clauseAccepts(judgment, product)
}
