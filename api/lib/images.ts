/**
 * The one image pipeline: every stored image (the catalogue's artwork now, admin uploads and avatars
 * later, docs/decisions/0004-images.md) goes through `processImage`. It trusts nothing the client
 * says about a file: the bytes are sniffed and decoded, never the name or the Content-Type (OWASP
 * File Upload Cheat Sheet: "validate the file type, don't trust the Content-Type header"; "change the
 * filename"; "set a file size limit"), then re-encoded with sharp so whatever metadata or payload the
 * original carried (EXIF GPS, scripts in SVG, polyglots) is never served. Decision:
 * docs/decisions/0004-images.md.
 */
import { createHash } from 'node:crypto'
import sharp, { type Metadata, type OutputInfo } from 'sharp'
import { eq, sql, type SQL } from 'drizzle-orm'
import { queryRows } from '../db/query.ts'
import type { Db } from '../db/client.ts'
import { images as imagesTable } from '../db/schema.ts'
import { PayloadTooLarge, UnsupportedMediaType } from './errors.ts'
import type { Storage } from './storage.ts'
import { IMAGE_MAIN_MAX_WIDTH, IMAGE_VARIANT_WIDTHS, isStoredImageUrl } from '../../contract/images.ts'
import { formatByteSize } from '../../contract/file.ts'

export { IMAGE_MAIN_MAX_WIDTH, IMAGE_VARIANT_WIDTHS, isStoredImageUrl, srcSetFor, variantUrl } from '../../contract/images.ts'

/** Decoded pixels allowed per image (width × height): a decompression-bomb guard (40 megapixels). */
export const MAX_INPUT_PIXELS = 40_000_000
/** WebP quality of every stored file (0-100). */
export const WEBP_QUALITY = 80

/** The formats accepted, as sharp names them ('heif' only with AV1 compression, i.e. AVIF). */
export type AcceptedFormat = 'jpeg' | 'png' | 'webp' | 'avif' | 'gif'

const ACCEPTED_LIST = 'JPEG, PNG, WebP, AVIF or GIF'

/** What `processImage` stored. */
export interface StoredImage {
  /** Public url of the main file (`<hash>.webp`, at most 1024 px wide). */
  url: string
  /** Storage key of the main file. */
  key: string
  /** Main file width and height in pixels (after EXIF rotation, cropping and downscaling). */
  width: number
  height: number
  format: 'webp'
  /** Size of the main WebP file in bytes. */
  bytes: number
}

export interface ProcessImageOptions {
  storage: Storage
  /** Size cap of the source in bytes; larger input is refused with 413. */
  maxBytes: number
  /** Crop to a centred square (avatars). Stored under a different name than the uncropped image. */
  square?: boolean
}

/** The size cap as people read it (contract/file.ts). */
export { formatByteSize }

/**
 * The format the first bytes announce, or null. A cheap gate before any decoder sees the file, so
 * SVG/XML, PDF, TIFF and the like never reach a parser (librsvg, poppler) at all.
 * Signatures: JPEG FF D8 FF; PNG 89 'PNG' 0D 0A 1A 0A; GIF 'GIF87a'/'GIF89a'; WebP 'RIFF'....'WEBP';
 * AVIF an ISO-BMFF 'ftyp' box whose major or compatible brand is 'avif' or 'avis'.
 */
export function sniffImageFormat(bytes: Buffer): AcceptedFormat | null {
  if (bytes.length < 12) return null
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg'
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png'
  const head6 = bytes.toString('latin1', 0, 6)
  if (head6 === 'GIF87a' || head6 === 'GIF89a') return 'gif'
  if (bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'webp'
  if (bytes.toString('latin1', 4, 8) === 'ftyp') {
    const boxSize = Math.min(bytes.readUInt32BE(0), bytes.length, 4096)
    // Brands: the major brand at 8, then compatible brands from 16, four bytes each.
    for (let at = 8; at + 4 <= boxSize; at += at === 8 ? 8 : 4) {
      const brand = bytes.toString('latin1', at, at + 4)
      if (brand === 'avif' || brand === 'avis') return 'avif'
    }
  }
  return null
}

/** `<hash>` of a source: the first 24 hex characters of its SHA-256 (96 bits: collisions are not a concern). */
export function contentHash(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex').slice(0, 24)
}

/**
 * The storage key `processImage` gives the main file of these bytes (`<hash>.webp`, or
 * `<hash>-sq.webp` when cropped square), known before any processing: the name depends only on
 * the source bytes.
 */
export function mainImageKey(bytes: Buffer, square = false): string {
  return `${contentHash(bytes)}${square ? '-sq' : ''}.webp`
}

/**
 * Validates, re-encodes and stores an image: the main WebP (at most 1024 px wide) and its 128, 256
 * and 512 px variants, under content-addressed keys (`<hash>.webp`, `<hash>-w128.webp`, …; see
 * contract/images.ts). Never enlarges: a variant wider than the source holds the source's pixels.
 * Auto-rotates by EXIF orientation and drops all metadata. Animated GIF/WebP keep their first frame.
 * Storing the same bytes again writes nothing and returns the same url.
 *
 * @param bytes the uploaded file as received (name and Content-Type are ignored on purpose)
 * @returns the stored main image's url, key, pixel size and byte size
 * @throws PayloadTooLarge (413) over `maxBytes` or over 40 megapixels
 * @throws UnsupportedMediaType (415) when the bytes are not a JPEG, PNG, WebP, AVIF or GIF image
 *   (SVG included: it can carry scripts) or cannot be decoded
 */
export async function processImage(bytes: Buffer, opts: ProcessImageOptions): Promise<StoredImage> {
  const { storage, maxBytes, square = false } = opts
  if (bytes.length > maxBytes) throw PayloadTooLarge(`Image is larger than ${formatByteSize(maxBytes)}`)
  const notAnImage = () => UnsupportedMediaType(`Only images can be uploaded: ${ACCEPTED_LIST}`)
  const sniffed = sniffImageFormat(bytes)
  if (!sniffed) throw notAnImage()

  const input = () => sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error', autoOrient: true, pages: 1 })
  let meta: Metadata
  try {
    // Header only, so no pixel limit yet: the limit is checked below with its own message.
    meta = await sharp(bytes, { limitInputPixels: false, autoOrient: true, pages: 1 }).metadata()
  } catch {
    throw notAnImage()
  }
  // The decoder has the last word: the signature and the decoded format must agree.
  const decoded = meta.format === 'heif' ? (meta.compression === 'av1' ? 'avif' : 'heif') : meta.format
  if (decoded !== sniffed) throw notAnImage()
  const sourceWidth = meta.autoOrient?.width ?? meta.width
  const sourceHeight = meta.autoOrient?.height ?? meta.height
  if (!sourceWidth || !sourceHeight) throw notAnImage()
  // Reading the header is cheap; refusing here means a bomb is never decompressed.
  if (sourceWidth * sourceHeight > MAX_INPUT_PIXELS) {
    throw PayloadTooLarge(`Image is larger than ${MAX_INPUT_PIXELS / 1_000_000} megapixels`)
  }

  const stem = mainImageKey(bytes, square).replace(/\.webp$/, '')
  const side = Math.min(sourceWidth, sourceHeight)
  const fullWidth = square ? side : sourceWidth
  const targets = [
    { key: `${stem}.webp`, width: Math.min(IMAGE_MAIN_MAX_WIDTH, fullWidth) },
    ...IMAGE_VARIANT_WIDTHS.map((w) => ({ key: `${stem}-w${w}.webp`, width: Math.min(w, fullWidth) })),
  ]

  // One encode per distinct width: on a 256 px source the main, w256 and w512 files are the same bytes.
  const encoded = new Map<number, Promise<{ data: Buffer; info: OutputInfo }>>()
  for (const { width } of targets) {
    if (encoded.has(width)) continue
    const pipeline = input().resize(
      square ? { width, height: width, fit: 'cover', position: 'centre' } : { width, withoutEnlargement: true },
    )
    encoded.set(width, pipeline.webp({ quality: WEBP_QUALITY }).toBuffer({ resolveWithObject: true }))
  }
  let results: Map<number, { data: Buffer; info: OutputInfo }>
  try {
    const settled = await Promise.all([...encoded].map(async ([w, p]) => [w, await p] as const))
    results = new Map(settled)
  } catch {
    throw UnsupportedMediaType(`The image could not be read (damaged or incomplete file); send a ${ACCEPTED_LIST} image`)
  }

  // Existing keys hold the same bytes (same source, same encoder), so they are left untouched.
  let url = storage.urlFor(targets[0].key)
  await Promise.all(
    targets.map(async ({ key, width }, i) => {
      if (await storage.exists(key)) return
      const stored = await storage.put(key, results.get(width)!.data, 'image/webp')
      if (i === 0) url = stored
    }),
  )
  const main = results.get(targets[0].width)!
  return {
    url,
    key: targets[0].key,
    width: main.info.width,
    height: main.info.height,
    format: 'webp',
    bytes: main.data.length,
  }
}

/** Every storage key of a stored image (main first), or [] when `url` is not one of ours. */
export function storedImageKeys(storage: Storage, url: string): string[] {
  const key = storage.keyFor(url)
  if (!key || !isStoredImageUrl(key)) return []
  const stem = key.replace(/\.webp$/, '')
  return [key, ...IMAGE_VARIANT_WIDTHS.map((w) => `${stem}-w${w}.webp`)]
}

/**
 * Removes a stored image's main file and its variants. Content addressing means two entities that
 * were given the same bytes share one set of files: call this only once nothing refers to the url
 * (see `deleteImageIfUnused`). A url that is not ours (external, empty) is ignored.
 * @returns true when the url was one of ours and its files are now gone
 */
export async function deleteImage(storage: Storage, url: string): Promise<boolean> {
  const keys = storedImageKeys(storage, url)
  if (keys.length === 0) return false
  await Promise.all(keys.map((k) => storage.delete(k)))
  return true
}

/**
 * True when a category, sub category, product or user avatar still refers to `url` (one indexed
 * query per table would be ideal; these tables are small enough for a scan on delete).
 */
export async function isImageInUse(db: Db, url: string): Promise<boolean> {
  // raw SQL: the one "image in use" rule (imageIsUsed), an EXISTS over four tables shared with the sweep
  const [row] = await queryRows<{ used: boolean }>(db, sql`select ${imageIsUsed(sql`${url}`)} as used`)
  return Boolean(row?.used)
}

/**
 * The one rule of "an image is in use": a category, sub category, product, avatar, order line or a
 * shopper's problem report (docs/help-after-delivery.md) refers to the
 * url `urlExpr` (an SQL expression: a bound value or a column such as `i.url`). isImageInUse and the
 * upload sweep (image-sweep.ts) both use it, so a new table that holds image urls is added here once.
 */
export function imageIsUsed(urlExpr: SQL): SQL {
  return sql`(exists(select 1 from categories where image = ${urlExpr})
    or exists(select 1 from sub_categories where image = ${urlExpr})
    or exists(select 1 from products where ${urlExpr} = any(image))
    or exists(select 1 from users where avatar = ${urlExpr})
    or exists(select 1 from order_lines where image = ${urlExpr})
    or exists(select 1 from order_issues where photo = ${urlExpr}))`
}

/**
 * Deletes the files of `url` (and its `images` row) unless something still refers to it; call it
 * after the entity that held the url is deleted or changed (docs/decisions/0004-images.md: no
 * orphaned files).
 * @returns true when files were removed
 */
export async function deleteImageIfUnused(db: Db, storage: Storage, url: string): Promise<boolean> {
  if (!isStoredImageUrl(url) || (await isImageInUse(db, url))) return false
  await db.delete(imagesTable).where(eq(imagesTable.url, url))
  return deleteImage(storage, url)
}

/** Records a stored image in the `images` table (id = its key's stem); a second record is a no-op. */
export async function recordImage(db: Db, image: StoredImage): Promise<void> {
  await db
    .insert(imagesTable)
    .values({
      id: image.key.replace(/\.webp$/, ''),
      url: image.url,
      width: image.width,
      height: image.height,
      bytes: image.bytes,
    })
    .onConflictDoNothing()
}
