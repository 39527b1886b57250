/**
 * Removes stored images that nothing refers to (issue 4 item 8): an upload the admin abandoned (the
 * dialog was closed, the product form never sent) stays in `images` with no category, sub category,
 * product or avatar using it. Only images older than a grace period are swept, so an admin still
 * filling in a form keeps the picture just uploaded.
 */
import { sql } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import type { Storage } from './storage.ts'
import type { Logger } from './logger.ts'
import { deleteImageIfUnused } from './images.ts'

/** Uploads younger than this are never swept (milliseconds). */
export const SWEEP_GRACE_MS = 24 * 60 * 60 * 1000

/**
 * Deletes the files and rows of every recorded image created before `olderThan` that no entity
 * uses. Each candidate is re-checked just before deletion (deleteImageIfUnused).
 * @returns the number of images removed
 */
export async function sweepUnusedImages(opts: { db: Db; storage: Storage; olderThan: Date; logger?: Logger }): Promise<number> {
  const result = await opts.db.execute(sql`
    select i.url from images i
    where i.created_at < ${opts.olderThan.toISOString()}::timestamptz
      and not exists (select 1 from categories c where c.image = i.url)
      and not exists (select 1 from sub_categories s where s.image = i.url)
      and not exists (select 1 from products p where i.url = any(p.image))
      and not exists (select 1 from users u where u.avatar = i.url)`)
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { url: string }[]
  let removed = 0
  for (const { url } of rows) {
    if (await deleteImageIfUnused(opts.db, opts.storage, url)) removed++
  }
  if (removed > 0) opts.logger?.info({ removed }, 'removed unused uploaded images')
  return removed
}
