/**
 * GST rates of the catalogue's shelves (docs/commerce-api.md, "Tax invoice"): the default table, an
 * override from `GST_RATES`, and the look-up of one product's rate from its sub category and category
 * names.
 *
 * The defaults follow the CBIC GST rate schedule for goods (Schedules I-IV of Notification
 * 1/2017-Central Tax (Rate) as amended, effective 22 September 2025: slabs 0, 5, 18 and 40 %;
 * published by CBIC at https://cbic-gst.gov.in/gst-goods-services-rates.html) read for the headings a
 * grocery shelf holds: fresh fruit, vegetables, milk, eggs, fresh meat and fish, salt 0 %; packaged
 * foods, oils, spices, tea, coffee, biscuits, sweets, soap, shampoo, hair oil, toothpaste,
 * toothbrushes, diapers and steel or copper kitchenware 5 %; other personal care, cosmetics,
 * perfumes, detergents, cleaners, plastics, electricals and pet food 18 %; aerated drinks 40 %. The
 * delivery charge is a service (courier and local delivery, SAC 9968) at 18 %. They are defaults: the
 * seller's tax adviser checks them and a deployment overrides any of them with `GST_RATES`.
 * Rates are kept in basis points (5 % = 500) so every computation stays in integers.
 */

/** A rate table: lower-cased sub category or category name → rate in basis points; `default` and `delivery` always present. */
export interface GstRateTable {
  /** Rates by lower-cased sub category name (checked first). */
  subCategories: ReadonlyMap<string, number>
  /** Rates by lower-cased category name (checked when the sub category has none). */
  categories: ReadonlyMap<string, number>
  /** Rate of a product on no listed shelf (or a line whose product was deleted), basis points. */
  defaultBp: number
  /** Rate of the delivery charge, basis points. */
  deliveryBp: number
}

/** Default rates in percent by category name (the bundled catalogue's categories, api/db/seed/data/README.md). */
export const DEFAULT_CATEGORY_RATES: Readonly<Record<string, number>> = {
  'Fruits & Vegetables': 0,
  'Eggs, Meat & Fish': 0,
  'Foodgrains, Oil & Masala': 5,
  'Bakery, Cakes & Dairy': 5,
  Beverages: 5,
  'Snacks & Branded Foods': 5,
  'Gourmet & World Food': 5,
  'Beauty & Hygiene': 18,
  'Baby Care': 18,
  'Cleaning & Household': 18,
  'Kitchen, Garden & Pets': 18,
}

/** Default rates in percent by sub category name, where a shelf differs from its category. */
export const DEFAULT_SUB_CATEGORY_RATES: Readonly<Record<string, number>> = {
  // Prepared or frozen meat and fish, unlike fresh: 5 %.
  'Marinated Meat': 5,
  'Chicken Sausages': 5,
  'Frozen Fish & Seafood': 5,
  // Salt and milk are nil-rated.
  Salts: 0,
  Milk: 0,
  // Aerated drinks: 40 %.
  'Cold Drinks': 40,
  'Aerated, Still, Sparkling': 40,
  // Personal care moved to 5 % on 22 September 2025.
  'Bathing Bars & Soaps': 5,
  'Shampoo & Conditioner': 5,
  'Hair Oil & Serum': 5,
  Toothpaste: 5,
  Toothbrush: 5,
  'Shaving Care': 5,
  Talc: 5,
  Ayurveda: 5,
  'Everyday Medicine': 5,
  'Sanitary Napkins': 0,
  Diapers: 5,
  'Baby Oil & Shampoo': 5,
  'Baby Powder': 5,
  // Household goods at 5 %, stationery nil.
  'Agarbatti, Incense Sticks': 5,
  'Colours & Crayons': 0,
  'Erasers & Sharpeners': 0,
  'Steel Storage Containers': 5,
  'Steel Lunch Boxes': 5,
  'Copper Utensils': 5,
}

/** Rate of a product on no listed shelf, percent. */
export const DEFAULT_GST_PERCENT = 18
/** Rate of the delivery charge (a service, SAC 9968), percent. */
export const DEFAULT_DELIVERY_GST_PERCENT = 18

const PERCENT = /^\d{1,2}(\.\d{1,2})?$/

/** A rate in percent (0-99.99, at most two decimals) → basis points. Throws a RangeError otherwise. */
export function percentToBp(percent: number, label: string): number {
  if (typeof percent !== 'number' || !PERCENT.test(String(percent)))
    throw new RangeError(`GST rate of "${label}" must be a percentage from 0 to 99.99 with at most two decimals, got ${String(percent)}`)
  return Math.round(percent * 100)
}

function toMap(record: Readonly<Record<string, number>>): Map<string, number> {
  return new Map(Object.entries(record).map(([name, percent]) => [name.trim().toLowerCase(), percentToBp(percent, name)]))
}

/**
 * The rate table: the defaults above, with `overrides` (the parsed `GST_RATES`) on top. In
 * `overrides`, `categories` and `subCategories` map names (any case) to percent; `default` and
 * `delivery` replace those two rates. Throws at start on a rate that is not 0-99.99 %.
 */
export function buildGstRates(overrides: GstRateOverrides = {}): GstRateTable {
  return {
    subCategories: toMap({ ...DEFAULT_SUB_CATEGORY_RATES, ...overrides.subCategories }),
    categories: toMap({ ...DEFAULT_CATEGORY_RATES, ...overrides.categories }),
    defaultBp: percentToBp(overrides.default ?? DEFAULT_GST_PERCENT, 'default'),
    deliveryBp: percentToBp(overrides.delivery ?? DEFAULT_DELIVERY_GST_PERCENT, 'delivery'),
  }
}

/** What `GST_RATES` may hold (JSON): rates in percent. */
export interface GstRateOverrides {
  categories?: Record<string, number>
  subCategories?: Record<string, number>
  default?: number
  delivery?: number
}

/**
 * `GST_RATES` (JSON, e.g. `{"subCategories":{"Ice Creams":18},"default":18}`) → the rate table;
 * unset or empty gives the defaults. Throws at start on malformed JSON, unknown keys or a bad rate.
 */
export function parseGstRates(raw: string | undefined): GstRateTable {
  if (raw === undefined || raw.trim() === '') return buildGstRates()
  let parsed: unknown
  try {
    parsed = JSON.parse(raw)
  } catch {
    throw new Error('GST_RATES must be JSON: {"categories":{…},"subCategories":{…},"default":18,"delivery":18}')
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('GST_RATES must be a JSON object')
  const known = new Set(['categories', 'subCategories', 'default', 'delivery'])
  for (const key of Object.keys(parsed)) if (!known.has(key)) throw new Error(`GST_RATES has an unknown key "${key}"`)
  const o = parsed as Record<string, unknown>
  const names = (key: string): Record<string, number> | undefined => {
    const value = o[key]
    if (value === undefined) return undefined
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`GST_RATES.${key} must map names to rates`)
    return value as Record<string, number>
  }
  return buildGstRates({
    categories: names('categories'),
    subCategories: names('subCategories'),
    default: o.default as number | undefined,
    delivery: o.delivery as number | undefined,
  })
}

/**
 * The rate in basis points of a product on `subCategory` of `category` (names as the catalogue
 * stores them, either may be null): the sub category's rate, else the category's, else the default.
 */
export function gstRateFor(table: GstRateTable, subCategory: string | null, category: string | null): number {
  const sub = subCategory === null ? undefined : table.subCategories.get(subCategory.trim().toLowerCase())
  if (sub !== undefined) return sub
  const cat = category === null ? undefined : table.categories.get(category.trim().toLowerCase())
  return cat ?? table.defaultBp
}
