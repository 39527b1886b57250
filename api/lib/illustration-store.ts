/**
 * Drawn product pictures on first request (docs/decisions/0030-drawn-product-pictures.md): the
 * import records what each picture is drawn from (table `illustrations`) and names its url; the
 * first request for one of its files draws every width (api/lib/illustrations.ts) and stores them
 * through the storage interface (disk or S3, api/lib/storage.ts), so later requests, and every other
 * instance, read the stored files. Files are immutable like every stored image: a redraw of the same
 * row writes the same bytes.
 */
import { eq } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { illustrations } from '../db/schema.ts'
import type { Logger } from '../../server-shared/logger.ts'
import type { Storage } from './storage.ts'
import { isIllustrationSubject, renderIllustration } from './illustrations.ts'

// `<24 hex>-il.webp` or one of its variants `<24 hex>-il-w<width>.webp`: the stem is group 1.
const ILLUSTRATION_KEY = /^([0-9a-f]{24}-il)(?:-w(\d+))?\.webp$/

/** The stored name (`<24 hex>-il`) of a drawn picture's storage key, or null when the key is not one. */
export function illustrationStemOfKey(key: string): string | null {
  return ILLUSTRATION_KEY.exec(key)?.[1] ?? null
}

/** Draws (when missing) the files of the picture a storage key names; see `createIllustrationDrawer`. */
export type IllustrationDrawer = (key: string) => Promise<boolean>

/**
 * A drawer of pictures on demand: `draw(key)` stores every file of the picture `key` belongs to when
 * `key` names a recorded illustration. Two requests for one picture at once draw it once; at most
 * `parallel` pictures are drawn at a time (default 2, the machine's cores), so a first home page
 * asking for sixty pictures queues them rather than starving other requests.
 * @returns a function answering true when the picture's files are now stored, false when `key` is
 *   not a recorded illustration; it throws when the database or the store fails
 */
export function createIllustrationDrawer(opts: { db: Db; storage: Storage; logger?: Logger; parallel?: number }): IllustrationDrawer {
  const { db, storage, logger } = opts
  const parallel = Math.max(1, opts.parallel ?? 2)
  const inFlight = new Map<string, Promise<boolean>>()
  let running = 0
  const waiting: (() => void)[] = []
  const slot = async () => {
    if (running >= parallel) await new Promise<void>((resolve) => waiting.push(resolve))
    running++
  }
  const release = () => {
    running--
    waiting.shift()?.()
  }

  const drawStem = async (stem: string): Promise<boolean> => {
    const [row] = await db.select({ subject: illustrations.subject }).from(illustrations).where(eq(illustrations.id, stem)).limit(1)
    if (!row || !isIllustrationSubject(row.subject)) return false
    await slot()
    try {
      const started = performance.now()
      const files = await renderIllustration(row.subject, stem)
      await Promise.all([...files].map(([key, bytes]) => storage.put(key, bytes, 'image/webp')))
      logger?.debug({ picture: stem, ms: Math.round(performance.now() - started) }, 'drew a product picture')
      return true
    } finally {
      release()
    }
  }

  return (key: string) => {
    const stem = illustrationStemOfKey(key)
    if (!stem) return Promise.resolve(false)
    const pending = inFlight.get(stem)
    if (pending) return pending
    const drawing = drawStem(stem).finally(() => inFlight.delete(stem))
    inFlight.set(stem, drawing)
    return drawing
  }
}
