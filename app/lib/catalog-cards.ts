/**
 * What the catalogue's cards and links show (docs/product.md, "Product cards"): loaders cut API
 * answers down to these shapes, so the browser receives only the fields a card or a tile renders
 * (app/components/product-card.tsx, category-grid.tsx).
 */

import { productPrice, type PriceView } from './money.ts'

/**
 * What a product card shows: a trimmed product. Its price is the view `PriceView` of
 * app/lib/money.ts (`mrp`, `sellingPrice` in rupees, `discount` in percent from the two, for the
 * badge), never the wire's `price`.
 */
export interface ProductCardData extends PriceView {
  _id: string
  name: string
  /** The first image url ('' when the product has none). */
  image: string
  unit: string
  /** Units in stock (0 = "Out of stock", no ADD button). */
  stock: number
  /** The brand ('' when unknown): four cards reading just "Tea" must be told apart. */
  brand: string
  /**
   * Every pack size of the product's group, itself included, smallest first, when it has others and
   * the list was asked to group them (docs/product.md, "Pack sizes"): the card's size picker.
   */
  packSizes?: PackSizeCardData[]
}

/** One size of a card's size picker: what the card shows and adds when that size is chosen (prices as `ProductCardData`). */
export interface PackSizeCardData extends PriceView {
  _id: string
  unit: string
  stock: number
}

/** The fields of an API product a card is cut from (app/.server/api/catalog.ts `Product`). */
export interface CardSource {
  _id: string
  name: string
  image?: readonly string[] | null
  unit?: string | null
  price: number
  sellingPrice?: number | null
  discount?: number | null
  stock?: number | null
  more_details?: Readonly<Record<string, unknown>> | null
  packSizes?: ReadonlyArray<{ _id: string; unit: string; price: number; sellingPrice: number; stock: number }> | null
}

/**
 * The brand of an API product: its `more_details.brand` trimmed ('' when there is none or it is not
 * text). Cards, cart lines and checkout lines show it beside the name (docs/product.md, "Product
 * cards").
 */
export function brandOf(product: Pick<CardSource, 'more_details'>): string {
  const brand = product.more_details?.brand
  return typeof brand === 'string' ? brand.trim() : ''
}

/** The card fields of an API product (its first image only). */
export function toCardData(product: CardSource): ProductCardData {
  return {
    _id: product._id,
    name: product.name,
    image: product.image?.[0] ?? '',
    unit: product.unit ?? '',
    ...productPrice(product),
    stock: Number(product.stock) || 0,
    brand: brandOf(product),
    ...(product.packSizes && product.packSizes.length > 1 ? { packSizes: product.packSizes.map(toPackSizeCard) } : {}),
  }
}

/** A pack size as a card's picker shows it (its price view as `toCardData`'s). */
function toPackSizeCard(size: { _id: string; unit: string; price: number; sellingPrice: number; stock: number }): PackSizeCardData {
  return {
    _id: size._id,
    unit: size.unit,
    ...productPrice(size),
    stock: Number(size.stock) || 0,
  }
}

/**
 * The picker's label of each size: its unit, and its price too when another size of the group has
 * the same unit (the catalogue has a few groups with two "1 L" products at different prices).
 */
export function packSizeLabels(sizes: readonly PackSizeCardData[], rupees: (n: number) => string): Map<string, string> {
  const units = new Map<string, number>()
  for (const s of sizes) units.set(s.unit.toLowerCase(), (units.get(s.unit.toLowerCase()) ?? 0) + 1)
  return new Map(sizes.map((s) => [s._id, (units.get(s.unit.toLowerCase()) ?? 0) > 1 ? `${s.unit} · ${rupees(s.sellingPrice)}` : s.unit]))
}

/** A category tile or sidebar entry: a category or sub category with the link it leads to. */
export interface CategoryLinkData {
  _id: string
  name: string
  image: string
  href: string
}
