/**
 * Product descriptions for the imported catalogue, written from the data alone (brand, name, unit,
 * sub category, category): the source has none (catalogue README). Deterministic: the same row
 * always reads the same, and the wording varies between products by a hash of the source id, so a
 * listing does not repeat one sentence 8,208 times. Nothing is claimed that the data does not say.
 */
import { createHash } from 'node:crypto'

export interface DescribeInput {
  /** Source id (ProductID), picks the wording. */
  id: string
  name: string
  /** Brand, already trimmed. */
  brand: string
  /** The unit as sold ("2 kg", "12 pcs", "2x200 g", "Combo"). */
  unit: string
  subCategory: string
  category: string
}

/** A stable number from a string (first 32 bits of its SHA-256). */
export function stableHash(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32BE(0)
}

/** "2x200 g" → "2 x 200 g"; trims and collapses spaces. */
function tidyUnit(unit: string): string {
  return unit
    .trim()
    .replace(/\s+/g, ' ')
    .replace(/(\d)\s*[xX]\s*(?=[\d(])/g, '$1 x ')
}

/**
 * How the unit reads after "sold" or "comes": "in a 2 kg pack", "in a pack of 12", "as a single
 * piece", "as a multipack of 2 x 200 g", "as a combo"; anything unusual as given ("as 30 Tablets").
 */
export function unitPhrase(unit: string): string {
  const u = tidyUnit(unit).replace(/\.$/, '')
  if (!u) return 'as listed'
  if (/^(bb )?combo$/i.test(u)) return 'as a combo'
  const pieces = u.match(/^(\d+)\s*(pcs?|pieces?)$/i)
  if (pieces) return Number(pieces[1]) === 1 ? 'as a single piece' : `in a pack of ${pieces[1]}`
  const approx = u.match(/^1 pc \((.*)\)$/i)
  if (approx) return `as a single piece (${approx[1]})`
  const packOf = u.match(/^\(?pack of (\d+)\)?$/i) ?? u.match(/^(\d+)'s pack$/i)
  if (packOf) return `in a pack of ${packOf[1]}`
  const counted = u.match(/^(\d+) (tablets?|capsules?|softgels?|wipes?|pulls?|teabags?|sachets?)$/i)
  if (counted) return `in a pack of ${counted[1]} ${counted[2].toLowerCase()}`
  const set = u.match(/^set of (\d+)(?: pcs)?$/i)
  if (set) return `as a set of ${set[1]}`
  if (/^\d+(\.\d+)? x /.test(u)) return `as a multipack of ${u}`
  if (/^\d+(\.\d+)?\s*(g|gm|kg|mg|ml|l|litre)$/i.test(u)) {
    // Normalize the unit's case ("1 Kg" → "1 kg", "1 l" → "1 L"), keep a space before it.
    const [, amount, , rawUnit] = u.match(/^(\d+(\.\d+)?)\s*([a-z]+)$/i)!
    const lower = rawUnit.toLowerCase()
    const unitName = lower === 'l' || lower === 'litre' ? 'L' : lower === 'gm' ? 'g' : lower
    return `in a ${amount} ${unitName} pack`
  }
  return `as ${u}`
}

/** The product's title with its brand in front, unless the name already starts with the brand. */
export function brandedName(brand: string, name: string): string {
  if (!brand || name.toLowerCase().startsWith(brand.toLowerCase())) return name
  return `${brand} ${name}`
}

// One short line per category that holds for every product in it (no health or origin claims).
const CATEGORY_NOTE: Record<string, string> = {
  'Fruits & Vegetables': 'Wash well before use.',
  'Eggs, Meat & Fish': 'Keep refrigerated and cook thoroughly.',
  'Foodgrains, Oil & Masala': 'Store in a cool, dry place.',
  Beverages: 'See the pack for preparation and storage.',
  'Bakery, Cakes & Dairy': 'Best enjoyed before the date on the pack.',
  'Snacks & Branded Foods': 'Reseal after opening to keep it fresh.',
  'Gourmet & World Food': 'See the pack for ingredients and storage.',
  'Cleaning & Household': 'Read the label before use.',
  'Kitchen, Garden & Pets': 'See the pack for care instructions.',
  'Beauty & Hygiene': 'Read the label before use.',
  'Baby Care': 'Read the label before use.',
}

/**
 * A short description, e.g. "Fresho Onion (Loose), sold in a 2 kg pack. Part of our Potato, Onion &
 * Tomato range in Fruits & Vegetables. Wash well before use."
 */
export function describeProduct(p: DescribeInput): string {
  const name = p.name.trim()
  const brand = p.brand.trim()
  const title = brandedName(brand, name)
  const unit = unitPhrase(p.unit)
  const sub = p.subCategory.trim()
  const category = p.category.trim()
  const hasOwnBrand = title !== name
  const variants = [
    `${title}, sold ${unit}. Part of our ${sub} range in ${category}.`,
    hasOwnBrand
      ? `${name} from ${brand}, sold ${unit}. You'll find it with the rest of our ${sub} in ${category}.`
      : `${title}, sold ${unit}. You'll find it with the rest of our ${sub} in ${category}.`,
    `${title} comes ${unit}. One of our ${sub} picks in ${category}.`,
  ]
  const first = variants[stableHash(`describe:${p.id}`) % variants.length]
  const note = CATEGORY_NOTE[category]
  return note ? `${first} ${note}` : first
}
