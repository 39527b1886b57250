/**
 * GST rates and HSN headings of the catalogue's shelves (docs/commerce-api.md, "Tax invoice"): the
 * default table of {hsn, rate} per category and sub category, an override of the rates from
 * `GST_RATES`, and the look-up of one product's HSN code and rate from its own HSN code (an admin's)
 * or its sub category and category names.
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
  /** HSN headings by lower-cased sub category name, then by category name. */
  subCategoryHsn: ReadonlyMap<string, string>
  categoryHsn: ReadonlyMap<string, string>
  /** Rates in basis points by 4-digit HSN heading (a product's own HSN code is looked up here). */
  hsnRates: ReadonlyMap<string, number>
}

/**
 * One shelf's tax: its HSN heading (4 digits, Customs Tariff chapter headings as the CBIC rate
 * schedule lists them) and its GST rate in percent.
 */
export interface ShelfTax {
  hsn: string
  rate: number
}

/** Default HSN headings and rates by category name (the bundled catalogue's categories, api/db/seed/data/README.md). */
export const DEFAULT_CATEGORY_TAX: Readonly<Record<string, ShelfTax>> = {
  // 0709: other vegetables, fresh or chilled (Schedule "Nil", S. No. 45).
  'Fruits & Vegetables': { hsn: '0709', rate: 0 },
  // 0207: meat and edible offal of poultry, fresh or chilled.
  'Eggs, Meat & Fish': { hsn: '0207', rate: 0 },
  // 1006: rice, pre-packaged and labelled.
  'Foodgrains, Oil & Masala': { hsn: '1006', rate: 5 },
  // 1905: bread, pastry, cakes, biscuits.
  'Bakery, Cakes & Dairy': { hsn: '1905', rate: 5 },
  // 0902: tea.
  Beverages: { hsn: '0902', rate: 5 },
  // 2106: food preparations not elsewhere specified (namkeen, ready meals).
  'Snacks & Branded Foods': { hsn: '2106', rate: 5 },
  'Gourmet & World Food': { hsn: '2106', rate: 5 },
  // 3304: beauty or make-up preparations.
  'Beauty & Hygiene': { hsn: '3304', rate: 18 },
  // 3307: other toilet preparations.
  'Baby Care': { hsn: '3307', rate: 18 },
  // 3402: washing and cleaning preparations.
  'Cleaning & Household': { hsn: '3402', rate: 18 },
  // 3924: household articles of plastics.
  'Kitchen, Garden & Pets': { hsn: '3924', rate: 18 },
}

/** Default HSN headings and rates by sub category name, where a shelf differs from its category. */
export const DEFAULT_SUB_CATEGORY_TAX: Readonly<Record<string, ShelfTax>> = {
  // Fresh produce of their own headings, nil-rated.
  'Farm Eggs': { hsn: '0407', rate: 0 },
  'Protein Eggs': { hsn: '0407', rate: 0 },
  'Fresh Mutton': { hsn: '0204', rate: 0 },
  'Fresh Water Fish': { hsn: '0302', rate: 0 },
  'Marine Water Fish': { hsn: '0302', rate: 0 },
  'Apples & Pomegranate': { hsn: '0808', rate: 0 },
  'Seasonal Fruits': { hsn: '0810', rate: 0 },
  // Prepared or frozen meat and fish, unlike fresh: 5 %.
  'Marinated Meat': { hsn: '1602', rate: 5 },
  'Chicken Sausages': { hsn: '1601', rate: 5 },
  'Frozen Fish & Seafood': { hsn: '0303', rate: 5 },
  // Salt and milk are nil-rated.
  Salts: { hsn: '2501', rate: 0 },
  Milk: { hsn: '0401', rate: 0 },
  // Foodgrains, oils and spices at 5 %.
  'Atta Whole Wheat': { hsn: '1101', rate: 5 },
  'Toor, Channa & Moong Dal': { hsn: '0713', rate: 5 },
  'Urad & Other Dals': { hsn: '0713', rate: 5 },
  'Sugar & Jaggery': { hsn: '1701', rate: 5 },
  'Whole Spices': { hsn: '0908', rate: 5 },
  'Powdered Spices': { hsn: '0910', rate: 5 },
  'Ghee & Vanaspati': { hsn: '0405', rate: 5 },
  'Sunflower, Rice Bran Oil': { hsn: '1512', rate: 5 },
  'Butter & Margarine': { hsn: '0405', rate: 5 },
  Cheese: { hsn: '0406', rate: 5 },
  'Instant Coffee': { hsn: '2101', rate: 5 },
  'Ground Coffee': { hsn: '0901', rate: 5 },
  Chocolates: { hsn: '1806', rate: 5 },
  'Instant Noodles': { hsn: '1902', rate: 5 },
  Honey: { hsn: '0409', rate: 5 },
  // Aerated drinks: 40 %.
  'Cold Drinks': { hsn: '2202', rate: 40 },
  'Aerated, Still, Sparkling': { hsn: '2202', rate: 40 },
  // Personal care moved to 5 % on 22 September 2025.
  'Bathing Bars & Soaps': { hsn: '3401', rate: 5 },
  'Shampoo & Conditioner': { hsn: '3305', rate: 5 },
  'Hair Oil & Serum': { hsn: '3305', rate: 5 },
  Toothpaste: { hsn: '3306', rate: 5 },
  Toothbrush: { hsn: '9603', rate: 5 },
  'Shaving Care': { hsn: '3307', rate: 5 },
  Talc: { hsn: '3304', rate: 5 },
  Ayurveda: { hsn: '3004', rate: 5 },
  'Everyday Medicine': { hsn: '3004', rate: 5 },
  'Sanitary Napkins': { hsn: '9619', rate: 0 },
  Diapers: { hsn: '9619', rate: 5 },
  'Baby Oil & Shampoo': { hsn: '3305', rate: 5 },
  'Baby Powder': { hsn: '3304', rate: 5 },
  // Other personal care and household goods at 18 %.
  'Face Care': { hsn: '3304', rate: 18 },
  Perfume: { hsn: '3303', rate: 18 },
  'Detergent Powder, Liquid': { hsn: '3402', rate: 18 },
  'CFL & Led Bulbs': { hsn: '8539', rate: 18 },
  'Pet Meals & Treats': { hsn: '2309', rate: 18 },
  // Household goods at 5 %, stationery nil.
  'Agarbatti, Incense Sticks': { hsn: '3307', rate: 5 },
  'Colours & Crayons': { hsn: '9609', rate: 0 },
  'Erasers & Sharpeners': { hsn: '4016', rate: 0 },
  'Steel Storage Containers': { hsn: '7323', rate: 5 },
  'Steel Lunch Boxes': { hsn: '7323', rate: 5 },
  'Copper Utensils': { hsn: '7418', rate: 5 },
}

/**
 * Rates by HSN heading (4 digits), for a product an admin gave an HSN code of its own: every heading
 * of the shelves above that has one rate in them. A heading the schedule rates differently by
 * sub-heading (3304 talc 5 %, other make-up 18 %) is left out, as is one not listed: such a product
 * keeps its shelf's rate.
 */
export const DEFAULT_HSN_RATES: Readonly<Record<string, number>> = singleRateHeadings([
  ...Object.values(DEFAULT_CATEGORY_TAX),
  ...Object.values(DEFAULT_SUB_CATEGORY_TAX),
])

function singleRateHeadings(list: ShelfTax[]): Record<string, number> {
  const seen = new Map<string, Set<number>>()
  for (const t of list) seen.set(t.hsn, (seen.get(t.hsn) ?? new Set()).add(t.rate))
  return Object.fromEntries([...seen].filter(([, r]) => r.size === 1).map(([hsn, r]) => [hsn, [...r][0]!]))
}

/** Default rates in percent by category name (the rates of DEFAULT_CATEGORY_TAX). */
export const DEFAULT_CATEGORY_RATES: Readonly<Record<string, number>> = rates(DEFAULT_CATEGORY_TAX)

/** Default rates in percent by sub category name (the rates of DEFAULT_SUB_CATEGORY_TAX). */
export const DEFAULT_SUB_CATEGORY_RATES: Readonly<Record<string, number>> = rates(DEFAULT_SUB_CATEGORY_TAX)

function rates(table: Readonly<Record<string, ShelfTax>>): Record<string, number> {
  return Object.fromEntries(Object.entries(table).map(([name, t]) => [name, t.rate]))
}

/** SAC of the delivery charge: 9968, postal and courier services (local delivery). */
export const DELIVERY_SAC = '9968'

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
    subCategoryHsn: hsnMap(DEFAULT_SUB_CATEGORY_TAX),
    categoryHsn: hsnMap(DEFAULT_CATEGORY_TAX),
    hsnRates: new Map(Object.entries(DEFAULT_HSN_RATES).map(([hsn, percent]) => [hsn, percentToBp(percent, hsn)])),
  }
}

function hsnMap(table: Readonly<Record<string, ShelfTax>>): Map<string, string> {
  return new Map(Object.entries(table).map(([name, t]) => [name.trim().toLowerCase(), t.hsn]))
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

/**
 * A product's HSN code and rate (basis points): its own `hsn` (an admin's, 4-8 digits) at its
 * heading's rate in `hsnRates` (a heading not there: the shelf's rate), else its sub category's or
 * category's heading at the shelf's rate (`gstRateFor`). The HSN is null only for a product on no
 * listed shelf without a code of its own (CGST Rules 2017, rule 46(g): the HSN code of the goods).
 */
export function gstTaxFor(
  table: GstRateTable,
  product: { hsn: string | null; subCategory: string | null; category: string | null },
): { hsn: string | null; rateBp: number } {
  const shelfRate = gstRateFor(table, product.subCategory, product.category)
  if (product.hsn) return { hsn: product.hsn, rateBp: table.hsnRates.get(product.hsn.slice(0, 4)) ?? shelfRate }
  const key = (name: string | null) => (name === null ? '' : name.trim().toLowerCase())
  const hsn = table.subCategoryHsn.get(key(product.subCategory)) ?? table.categoryHsn.get(key(product.category)) ?? null
  return { hsn, rateBp: shelfRate }
}
