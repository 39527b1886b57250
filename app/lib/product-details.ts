/**
 * The "Product details" rows of the product page (docs/product.md, "Product page"): every text entry
 * of `more_details` with its key as a label ("source_sku" → "Source SKU"). The catalogue's stock
 * keeping unit (the import's `sku`, any key naming a SKU) is an internal number: only admins see it
 * (docs/product.md, "Roles and permissions").
 */

/** One row: its label and its text. */
export interface DetailRow {
  label: string
  value: string
}

/** A key naming a SKU: "sku", "source_sku", "Source SKU", "vendor-sku". */
const SKU_KEY = /(^|[\s_-])sku$/i

/** A `more_details` key as a label: "brand" → "Brand", "source_sku" → "Source SKU". */
export function detailLabel(key: string): string {
  return key
    .split(/[_\s]+/)
    .filter(Boolean)
    .map((word) => (/^(sku|id|mrp|ean|upc|fssai)$/i.test(word) ? word.toUpperCase() : word[0]!.toUpperCase() + word.slice(1)))
    .join(' ')
}

/**
 * The rows to show for `moreDetails` (entries whose value is non-blank text, in their order), without
 * the SKU unless `isAdmin`.
 */
export function productDetailRows(moreDetails: Readonly<Record<string, unknown>> | null | undefined, isAdmin: boolean): DetailRow[] {
  return Object.entries(moreDetails ?? {})
    .filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1].trim() !== '')
    .filter(([key]) => isAdmin || !SKU_KEY.test(key.trim()))
    .map(([key, value]) => ({ label: detailLabel(key), value }))
}
