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
import { IMAGE_URL_MAX_LENGTH, ImageUrlSchema, NOT_OUR_IMAGE } from '../../../contract/fields.ts'
import type { UploadAnswer } from '../../../contract/file.ts'
import { isStoredImageKey } from '../../../contract/images.ts'
import type { AppDeps } from '../../deps.ts'
import { BadRequest } from '../../lib/errors.ts'
import type { FieldIssue } from '../../../contract/envelope.ts'
import { deleteImageIfUnused, processImage, recordImage } from '../../lib/images.ts'
import type { Storage } from '../../lib/storage.ts'
import { illustrationStemOfKey } from '../../lib/illustration-store.ts'
import type { Db } from '../../db/client.ts'
import { illustrations } from '../../db/schema.ts'
import { eq, inArray } from 'drizzle-orm'

export const UPLOAD_DONE = 'Upload done'
export { IMAGE_URL_MAX_LENGTH, ImageUrlSchema, NOT_OUR_IMAGE }

export type { UploadAnswer }

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

/**
 * True when `url` is a main image this storage made and its file is there, or, given `db`, a drawn
 * product picture recorded in `illustrations` (its files are drawn on first request, so they may not
 * be there yet; api/lib/illustration-store.ts).
 */
export async function isStoredImage(storage: Storage, url: string, db?: Pick<Db, 'select'>): Promise<boolean> {
  const key = storage.keyFor(url)
  if (!key || !isStoredImageKey(key)) return false
  const stem = db ? illustrationStemOfKey(key) : null
  if (stem) {
    const rows = await db!.select({ id: illustrations.id }).from(illustrations).where(eq(illustrations.id, stem))
    return rows.length > 0
  }
  return storage.exists(key)
}

/**
 * Which of `urls` pass `isStoredImage`, for many at once (a slice of a catalogue import names a
 * hundred): the drawn pictures in ONE read of `illustrations`, the files by `storage.exists`, 50 at a
 * time. One statement instead of one per url keeps a slice's hold on the embedded database short
 * (docs/decisions/0061-imports-as-jobs.md).
 * @returns the urls that are stored images
 */
export async function storedImagesAmong(storage: Storage, urls: string[], db: Pick<Db, 'select'>): Promise<Set<string>> {
  const stored = new Set<string>()
  const byStem = new Map<string, string[]>()
  const files: { url: string; key: string }[] = []
  for (const url of new Set(urls)) {
    const key = storage.keyFor(url)
    if (!key || !isStoredImageKey(key)) continue
    const stem = illustrationStemOfKey(key)
    if (stem) byStem.set(stem, [...(byStem.get(stem) ?? []), url])
    else files.push({ url, key })
  }
  if (byStem.size > 0) {
    const rows = await db
      .select({ id: illustrations.id })
      .from(illustrations)
      .where(inArray(illustrations.id, [...byStem.keys()]))
    for (const { id } of rows) for (const url of byStem.get(id)!) stored.add(url)
  }
  for (let i = 0; i < files.length; i += 50) {
    const batch = files.slice(i, i + 50)
    const found = await Promise.all(batch.map((f) => storage.exists(f.key)))
    batch.forEach((f, j) => {
      if (found[j]) stored.add(f.url)
    })
  }
  return stored
}

/**
 * Checks that every url is one of the store's stored images (see the module comment).
 * @param images each url with the body path to report it under (`image`, `image.2`)
 * @throws 400 with one issue per url that is not (NOT_OUR_IMAGE)
 */
export async function assertStoredImages(
  storage: Storage,
  images: { path: string; url: string }[],
  db?: Pick<Db, 'select'>,
): Promise<void> {
  const checked = await Promise.all(images.map(async (i) => ((await isStoredImage(storage, i.url, db)) ? null : i.path)))
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
