/**
 * Removes stored images that nothing refers to (docs/decisions/0004-images.md): an upload the admin
 * abandoned (the dialog was closed, the product form never sent) stays in `images` with no category,
 * sub category, product or avatar using it. Only images older than a grace period are swept, so an
 * admin still filling in a form keeps the picture just uploaded.
 */
import { sql } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import type { Storage } from './storage.ts'
import type { Logger } from '../../server-shared/logger.ts'
import { queryRows } from '../db/query.ts'
import { deleteImageIfUnused, imageIsUsed } from './images.ts'

/** Uploads younger than this are never swept (milliseconds). */
export const SWEEP_GRACE_MS = 24 * 60 * 60 * 1000

/**
 * Deletes the files and rows of every recorded image created before `olderThan` that no entity
 * uses. Each candidate is re-checked just before deletion (deleteImageIfUnused).
 * @returns the number of images removed
 */
export async function sweepUnusedImages(opts: { db: Db; storage: Storage; olderThan: Date; logger?: Logger }): Promise<number> {
  // raw SQL: the "image in use" rule (imageIsUsed, ./images.ts), an EXISTS over four tables
  const rows = await queryRows<{ url: string }>(
    opts.db,
    sql`select i.url from images i
        where i.created_at < ${opts.olderThan.toISOString()}::timestamptz and not ${imageIsUsed(sql`i.url`)}`,
  )
  let removed = 0
  for (const { url } of rows) {
    if (await deleteImageIfUnused(opts.db, opts.storage, url)) removed++
  }
  if (removed > 0) opts.logger?.info({ removed }, 'removed unused uploaded images')
  return removed
}
