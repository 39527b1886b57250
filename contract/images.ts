/**
 * Stored image urls, shared by the API and the app (pure string helpers, safe in the browser).
 *
 * Every stored image is a WebP main file plus narrower variants beside it (api/lib/images.ts writes
 * them; docs/decisions/0004-images.md):
 *   `<hash>.webp` (at most 1024 px wide), `<hash>-w128.webp`, `<hash>-w256.webp`, `<hash>-w512.webp`
 * where `<hash>` is 24 hex characters of the source's SHA-256, with `-sq` appended for square crops
 * (avatars), or `-il` for a product picture drawn from the product's data (api/lib/illustrations.ts;
 * docs/decisions/0030-drawn-product-pictures.md), whose `<hash>` is that of what it was drawn from. A variant is never wider than its source, so on a small source several files hold the
 * same pixels; every name always exists, which is what lets these helpers work from the url alone.
 */

/** Widths in CSS pixels of the variants stored beside every main image, narrowest first. */
export const IMAGE_VARIANT_WIDTHS = [128, 256, 512] as const
/** The main image's maximum width in pixels. */
export const IMAGE_MAIN_MAX_WIDTH = 1024

export type ImageVariantWidth = (typeof IMAGE_VARIANT_WIDTHS)[number]

/** The name of a stored main image without `.webp`: 24 hex characters, `-sq` for a square crop, `-il` for a drawn picture. */
const STORED_NAME = '[0-9a-f]{24}(?:-sq|-il)?'
// A drawn picture's main file or variant at the end of a url or key.
const ILLUSTRATION = /[0-9a-f]{24}-il(?:-w\d+)?\.webp(?=$|[?#])/
// `<24 hex>[-sq].webp` at the end of the path, optionally followed by a query or fragment.
const STORED_MAIN = new RegExp(`(${STORED_NAME})\\.webp(?=$|[?#])`)
// The same name as a whole path segment ending the url, with no query or fragment: what a row stores.
const STORED_PATH = new RegExp(`/${STORED_NAME}\\.webp$`)
// A storage key of a main image (variants such as `-w256` are not main images).
const STORED_KEY = new RegExp(`^${STORED_NAME}\\.webp$`)

/** What a product's picture is: `photo` (an uploaded image) or `illustration` (drawn from its data). */
export type ImageKind = 'photo' | 'illustration'

/** The stored name (without `.webp`) of a drawn picture whose source hashes to `hash` (24 hex). */
export function illustrationStem(hash: string): string {
  return `${hash}-il`
}

/** True when `url` (or a storage key) names a drawn product picture or one of its variants. */
export function isIllustrationUrl(url: string): boolean {
  return ILLUSTRATION.test(url)
}

/**
 * The kind of a product's pictures, judged by the first (the card's): `illustration` when it is a
 * drawn one, otherwise `photo` (also for no picture at all).
 */
export function imageKindOf(images: readonly string[]): ImageKind {
  return images.length > 0 && isIllustrationUrl(images[0]!) ? 'illustration' : 'photo'
}

/**
 * A product's image list as saved: when it holds any uploaded image, the drawn pictures are dropped
 * (an upload replaces the illustration, docs/product.md, "Pictures"); a list of drawn pictures only
 * is kept as given.
 */
export function withoutIllustrationsBesidePhotos(urls: readonly string[]): string[] {
  const photos = urls.filter((u) => !isIllustrationUrl(u))
  return photos.length > 0 ? photos : [...urls]
}

/** True when `url` names a main image made by the image pipeline (so its variants exist). */
export function isStoredImageUrl(url: string): boolean {
  return STORED_MAIN.test(url)
}

/** True when `url` ends in a stored main image's file name with no query or fragment (what a catalogue row may store). */
export function isStoredImagePath(url: string): boolean {
  return STORED_PATH.test(url)
}

/** True when `key` is the storage key of a main image (`<24 hex>[-sq].webp`). */
export function isStoredImageKey(key: string): boolean {
  return STORED_KEY.test(key)
}

/**
 * The url of the `width`-pixel variant of a stored main image, e.g.
 * `/uploads/ab…12.webp` → `/uploads/ab…12-w256.webp`. A url the pipeline did not make (an external
 * link, an empty string) comes back unchanged, so callers need no special case.
 */
export function variantUrl(url: string, width: ImageVariantWidth): string {
  return url.replace(STORED_MAIN, `$1-w${width}.webp`)
}

/**
 * A `srcset` value for a stored main image: every variant with its width descriptor plus the main
 * file at 1024w (HTML, "srcset attributes"). Pass `sourceWidth` (the stored main width, when known)
 * to leave out descriptors wider than the pixels really are, and `widths` to offer only those
 * widths (an image never drawn below 144 CSS pixels nor above 528 device pixels needs only 256w and
 * 512w: the browser takes the smallest candidate that covers its need). Returns '' for a url the
 * pipeline did not make: the caller then renders a plain `src`.
 */
export function srcSetFor(url: string, sourceWidth?: number, widths?: readonly number[]): string {
  if (!isStoredImageUrl(url)) return ''
  const maxWidth = sourceWidth && sourceWidth > 0 ? Math.min(sourceWidth, IMAGE_MAIN_MAX_WIDTH) : IMAGE_MAIN_MAX_WIDTH
  const offered = (width: number) => !widths || widths.includes(width)
  const candidates = IMAGE_VARIANT_WIDTHS.filter((w) => w < maxWidth && offered(w)).map((w) => `${variantUrl(url, w)} ${w}w`)
  if (offered(maxWidth) || candidates.length === 0) candidates.push(`${url} ${maxWidth}w`)
  return candidates.join(', ')
}
