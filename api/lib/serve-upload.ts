/**
 * `GET /uploads/:key` from a store that is not the local disk (S3-compatible object storage;
 * docs/decisions/0012-object-storage.md), so every instance serves every image: the object is
 * streamed with the immutable year-long cache headers the disk route uses, or, when the store has a
 * public url (a CDN), answered with a redirect there. A key that is not one of ours is a 404 without
 * asking the store. With a `draw` function, a drawn product picture not stored yet is drawn and
 * stored first (api/lib/illustration-store.ts); on disk this handler then runs after the static
 * files, for the keys they do not have.
 */
import type { Logger } from '../../server-shared/logger.ts'
import { STORAGE_KEY, type Storage } from './storage.ts'
import { describeFault } from './faults.ts'
import { illustrationStemOfKey, type IllustrationDrawer } from './illustration-store.ts'

type Req = { params: Record<string, string | undefined> }
type Res = NodeJS.WritableStream & {
  status(code: number): Res
  setHeader(name: string, value: string | number): void
  redirect(status: number, url: string): void
  end(body?: string): void
  headersSent: boolean
}

/** Express handler serving `storage` objects by key (see the module comment). */
export function serveStoredObject(storage: Storage & { publicUrl?: string }, logger: Logger, draw?: IllustrationDrawer) {
  return async (req: Req, res: Res) => {
    const key = req.params.key ?? ''
    if (!STORAGE_KEY.test(key) || key.length > 200) {
      res.status(404).end('Not found')
      return
    }
    if (storage.publicUrl) {
      try {
        // Only drawn pictures pay the existence check: their files may not be there yet.
        if (draw && illustrationStemOfKey(key) && !(await storage.exists(key))) await draw(key)
      } catch (err) {
        logger.warn(describeFault(err), 'product picture could not be drawn')
      }
      // Permanent: the key names the same bytes forever.
      res.setHeader('Cache-Control', 'public, max-age=31536000, immutable')
      res.redirect(301, `${storage.publicUrl}/${key}`)
      return
    }
    try {
      let object = await storage.read(key)
      if (!object && draw && (await draw(key))) object = await storage.read(key)
      if (!object) {
        res.status(404).end('Not found')
        return
      }
      res.status(200)
      res.setHeader('Content-Type', object.contentType)
      if (object.contentLength !== undefined) res.setHeader('Content-Length', object.contentLength)
      res.setHeader('Cache-Control', 'public, max-age=31536000, immutable')
      object.body.on('error', () => res.end())
      object.body.pipe(res)
    } catch (err) {
      logger.warn(describeFault(err), 'stored image could not be read')
      if (!res.headersSent) res.status(503).end('Image store unavailable')
    }
  }
}

/**
 * Express middleware for `/uploads`: with `API_ALLOWED_ORIGINS` set, the stored images may be shown by
 * pages of other origins. The site-wide `Cross-Origin-Resource-Policy: same-origin`
 * (app/.server/security-headers.ts) makes a browser drop an image a page of another origin asks for
 * (Fetch standard, "Cross-Origin-Resource-Policy header"); the header cannot name origins, so it
 * becomes `cross-origin` here: these are the public catalogue's pictures, the same for everyone. A
 * CORS request (`<img crossorigin>`, `fetch`) from a listed origin also gets its origin echoed.
 * Without listed origins nothing changes.
 */
export function uploadsForAllowedOrigins(allowedOrigins: readonly string[]) {
  const listed = new Set(allowedOrigins)
  return (
    req: { headers: Record<string, string | string[] | undefined> },
    res: { setHeader(name: string, value: string): unknown; vary?(field: string): unknown },
    next: () => void,
  ) => {
    if (listed.size > 0) {
      res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin')
      const origin = req.headers.origin
      if (typeof origin === 'string' && listed.has(origin)) res.setHeader('Access-Control-Allow-Origin', origin)
      res.setHeader('Vary', 'Origin')
    }
    next()
  }
}
