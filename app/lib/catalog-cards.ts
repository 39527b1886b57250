/**
 * What the catalogue's cards and links show (docs/product.md, "Product cards"): loaders cut API
 * answers down to these shapes, so the browser receives only the fields a card or a tile renders
 * (app/components/product-card.tsx, category-grid.tsx).
 */

import { discountPercentOf } from './money.ts'

/** What a product card shows: a trimmed product. Prices in rupees. */
export interface ProductCardData {
  _id: string
  name: string
  /** The first image url ('' when the product has none). */
  image: string
  unit: string
  /** MRP in rupees. */
  price: number
  /** Selling price in rupees, as the catalogue gives it. */
  sellingPrice: number
  /** Discount in percent (0-100) of the selling price off the MRP, for the badge. */
  discount: number
  /** Units in stock (0 = "Out of stock", no ADD button). */
  stock: number
  /** The brand ('' when unknown): four cards reading just "Tea" must be told apart. */
  brand: string
}

/** The fields of an API product a card is cut from (app/.server/api/catalog.ts `Product`). */
interface CardSource {
  _id: string
  name: string
  image?: readonly string[] | null
  unit?: string | null
  price: number
  sellingPrice?: number | null
  discount?: number | null
  stock?: number | null
  more_details?: Readonly<Record<string, unknown>> | null
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
  const price = Number(product.price) || 0
  const sellingPrice = Number(product.sellingPrice ?? product.price) || 0
  return {
    _id: product._id,
    name: product.name,
    image: product.image?.[0] ?? '',
    unit: product.unit ?? '',
    price,
    sellingPrice,
    // From the two prices, not the API's `discount` (docs/commerce-api.md, "The discount on the wire").
    discount: product.sellingPrice == null ? Number(product.discount) || 0 : discountPercentOf(price, sellingPrice),
    stock: Number(product.stock) || 0,
    brand: brandOf(product),
  }
}

/** A category tile or sidebar entry: a category or sub category with the link it leads to. */
export interface CategoryLinkData {
  _id: string
  name: string
  image: string
  href: string
}
