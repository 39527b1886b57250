/**
 * Catalogue images (docs/decisions/0004-images.md; docs/api-contract.md, "Endpoints": POST
 * /api/file/upload): the admin's upload, the rule every catalogue write applies to the image urls it
 * is given, and the cleanup of files nothing refers to any more. Decision:
 * docs/decisions/0008-catalogue-writes.md.
 *
 * Image url rule: a category, sub category or product may only point at an image this store made,
 * i.e. a url the storage hands out (`/uploads/<24 hex>.webp` on disk) whose file exists. An upload
 * through `file/upload` is the way to get one. So no `javascript:` or `data:` url, no hotlinked
 * picture and no dangling reference ever reaches a page (OWASP XSS Prevention Cheat Sheet, rule on
 * URL contexts; docs/decisions/0004-images.md: no dangling references).
 */
import { z } from 'zod'
import type { AppDeps } from '../../app.ts'
import { BadRequest, type FieldIssue } from '../../lib/errors.ts'
import { deleteImageIfUnused, processImage, recordImage } from '../../lib/images.ts'
import type { Storage } from '../../lib/storage.ts'

export const UPLOAD_DONE = 'Upload done'
/** Issue message of an image url that is not one of the store's stored images. */
export const NOT_OUR_IMAGE = 'Not an uploaded image: upload it with /api/file/upload first'
/** Longest image url accepted, in characters. */
export const IMAGE_URL_MAX_LENGTH = 2048

/**
 * The end of a stored main image's url: `<24 hex>.webp` (`-sq` for square avatar crops), with no
 * query or fragment. Variants (`-w256`) are derived by the pages, never stored in a row.
 */
const STORED_IMAGE_NAME = /\/[0-9a-f]{24}(?:-sq)?\.webp$/
/** A storage key of a main image, as `processImage` names it. */
const STORED_IMAGE_KEY = /^[0-9a-f]{24}(?:-sq)?\.webp$/
/** A site-relative path (not `//host`, which is another site) or an https/http url. */
const SAFE_URL_START = /^(?:\/(?!\/)|https?:\/\/)/i

/**
 * An image url in a request body: text of the stored-image shape (a path or an http(s) url ending in
 * `<hash>.webp`). `javascript:`, `data:` and anything else is refused here; whether the storage
 * really holds it is checked by `assertStoredImages`, which needs the storage.
 */
export const ImageUrlSchema = z
  .string({ error: (iss) => (iss.input === undefined ? 'Image is required' : 'Expected an image url (text)') })
  .trim()
  .min(1, 'Image is required')
  .max(IMAGE_URL_MAX_LENGTH, 'Image url is too long')
  // An empty url is already reported as required: one issue per problem.
  .refine((url) => url === '' || (SAFE_URL_START.test(url) && STORED_IMAGE_NAME.test(url)), NOT_OUR_IMAGE)

/** The answer of POST /api/file/upload (contract): url, main file's width and height in px, format, size in bytes. */
export interface UploadAnswer {
  url: string
  width: number
  height: number
  format: 'webp'
  bytes: number
}

/**
 * Stores an uploaded catalogue image: checked by content, re-encoded to WebP in four widths
 * (lib/images.ts `processImage`) and recorded in the `images` table. Not a catalogue change, so the
 * catalogue cache is left alone: nothing shows the image until a write refers to it.
 * @param bytes the uploaded file as received (its name and type header are ignored)
 * @returns the stored main image's url, width and height in pixels, format and size in bytes
 * @throws 413 over deps.uploadMaxBytes or 40 megapixels; 415 not a JPEG, PNG, WebP, AVIF or GIF (SVG
 *   and renamed text files included). Nothing is stored when it throws.
 */
export async function uploadCatalogImage(deps: Pick<AppDeps, 'db' | 'storage' | 'uploadMaxBytes'>, bytes: Buffer): Promise<UploadAnswer> {
  const image = await processImage(bytes, { storage: deps.storage, maxBytes: deps.uploadMaxBytes })
  try {
    await recordImage(deps.db, image)
  } catch (err) {
    // Unrecorded files would be orphans; files another row already uses are kept by the check.
    await deleteImageIfUnused(deps.db, deps.storage, image.url).catch(() => {})
    throw err
  }
  return { url: image.url, width: image.width, height: image.height, format: image.format, bytes: image.bytes }
}

/** True when `url` is a main image this storage made and its file is there. */
export async function isStoredImage(storage: Storage, url: string): Promise<boolean> {
  const key = storage.keyFor(url)
  if (!key || !STORED_IMAGE_KEY.test(key)) return false
  return storage.exists(key)
}

/**
 * Checks that every url is one of the store's stored images (see the module comment).
 * @param images each url with the body path to report it under (`image`, `image.2`)
 * @throws 400 with one issue per url that is not (NOT_OUR_IMAGE)
 */
export async function assertStoredImages(storage: Storage, images: { path: string; url: string }[]): Promise<void> {
  const checked = await Promise.all(images.map(async (i) => ((await isStoredImage(storage, i.url)) ? null : i.path)))
  const issues: FieldIssue[] = checked.filter((p): p is string => p !== null).map((path) => ({ path, message: NOT_OUR_IMAGE }))
  if (issues.length > 0) throw BadRequest(`${issues[0]!.path}: ${NOT_OUR_IMAGE}`, issues)
}

/**
 * After a write committed: removes the files of each url that no category, sub category, product or
 * avatar refers to any more (docs/decisions/0004-images.md: no orphaned files). Best effort: the
 * write stands, a file left behind is logged, never the admin's error.
 */
export async function releaseImages(deps: Pick<AppDeps, 'db' | 'storage' | 'logger'>, urls: Iterable<string>): Promise<void> {
  for (const url of new Set(urls)) {
    if (!url) continue
    try {
      await deleteImageIfUnused(deps.db, deps.storage, url)
    } catch (err) {
      deps.logger.warn({ err, url }, 'image files no longer used could not be removed')
    }
  }
}
