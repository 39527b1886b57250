/**
 * Slugs and links for catalogue pages: the rule is docs/product.md, "Slugs" (a readable name, a dash
 * and the id, which is the last dash-separated piece; ids never contain a dash: api/lib/ids.ts).
 *
 * Why more characters become hyphens than in the original app (spaces, commas and `$` only): every
 * generated link must be a clean path segment (RFC 3986 section 3.3), and
 * `/ ? # % & + . : ; = @ ( ) [ ] " < >` would end or change the meaning of one or look odd in it;
 * apostrophes are dropped so they do not split a word; the same name must always give the same slug,
 * since stale-slug redirects on the product page compare against it. Case is kept because the listing
 * page shows the slug's words as its title.
 *
 * Slugs are plain (decoded) strings, as React Router hands route params to loaders. The path builders
 * percent-encode each segment, so names in other scripts still make valid `Location` headers.
 */

/** Anything with an id and a readable name: a category, sub category or product. */
export interface Named {
  _id: string
  name: string
}

const APOSTROPHES = /['\u2018\u2019\u02bc`]/gu
const NOT_WORD = /[^\p{L}\p{M}\p{N}]+/gu

/**
 * The readable part of a slug: `name` with spaces, commas, dollar signs (docs/product.md, "Slugs")
 * and every other non-letter, non-digit character turned into single hyphens, trimmed of hyphens at
 * both ends. Returns '' for a name with no letters or digits.
 */
export function slugify(name: string): string {
  return name
    .normalize('NFC')
    .replace(APOSTROPHES, '')
    .replace(NOT_WORD, '-')
    .replace(/^-+|-+$/g, '')
}

/** `${slugify(name)}-${id}`, or just the id when the name has no letters or digits. */
export function toSlug(name: string, id: string): string {
  const readable = slugify(name)
  return readable ? `${readable}-${id}` : id
}

/**
 * The id in a slug: its last dash-separated piece (docs/product.md, "Slugs"). Returns null when that
 * piece is empty (a slug that is empty or ends with a dash), so loaders can answer 404 without a lookup.
 */
export function idFromSlug(slug: string): string | null {
  const id = slug.slice(slug.lastIndexOf('-') + 1)
  return id ? id : null
}

/**
 * The words before the id, hyphens read as spaces: the original app's listing title, now a fallback
 * when the sub category's real name is unknown (docs/product.md, "Listings"). '' when there are none.
 */
export function nameFromSlug(slug: string): string {
  const dash = slug.lastIndexOf('-')
  return dash < 0 ? '' : slug.slice(0, dash).split('-').filter(Boolean).join(' ')
}

/** True when `slug` is exactly the canonical slug of `item` (else the product page redirects). */
export function isCanonicalSlug(slug: string, item: Named): boolean {
  return slug === toSlug(item.name, item._id)
}

function segment(item: Named): string {
  return encodeURIComponent(toSlug(item.name, item._id))
}

/** The product page, `/product/{name}-{id}` (docs/product.md, "Slugs"; product cards link here). */
export function productPath(product: Named): string {
  return `/product/${segment(product)}`
}

/** A category's own page, `/{name}-{id}` (the category route picks a sub category to show). */
export function categoryPath(category: Named): string {
  return `/${segment(category)}`
}

/** The product list of a category and sub category, `/{category}/{subCategory}` (docs/product.md, "Slugs"). */
export function listingPath(category: Named, subCategory: Named): string {
  return `/${segment(category)}/${segment(subCategory)}`
}
