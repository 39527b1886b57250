/**
 * Where stored files (re-encoded images) live. Local disk by default (`DATA_DIR/uploads`, served by
 * server.ts under `/uploads/` with immutable cache headers); S3-compatible object storage with
 * `S3_BUCKET` (api/lib/storage-s3.ts; docs/decisions/0012-object-storage.md), so every instance
 * sees every image. Keys are content-addressed and immutable; public urls are `/uploads/<key>`
 * whichever store holds the bytes.
 */
import { createReadStream } from 'node:fs'
import fs from 'node:fs/promises'
import path from 'node:path'
import { randomBytes } from 'node:crypto'
import type { Readable } from 'node:stream'

/** A stored object to send: its bytes as a stream, type and length. */
export interface StoredObject {
  body: Readable
  contentType: string
  contentLength?: number
}

/** The keys a store accepts: a letter or digit, then letters, digits, ".", "_" and "-". */
export const STORAGE_KEY = /^[a-zA-Z0-9][a-zA-Z0-9._-]*$/

export interface Storage {
  /** Stores `bytes` under `key` (a relative path such as `ab12…-w256.webp`); returns its public url. */
  put(key: string, bytes: Buffer, contentType: string): Promise<string>
  /** Removes the object; a missing key is not an error. */
  delete(key: string): Promise<void>
  /** True when the key exists. */
  exists(key: string): Promise<boolean>
  /** The object of `key`, or null when there is none. */
  read(key: string): Promise<StoredObject | null>
  /** The public url of a key. */
  urlFor(key: string): string
  /** The key of a public url made by this storage, or null when the url is not ours. */
  keyFor(url: string): string | null
}

/** Disk storage under `dir`, public under `publicPrefix` (default `/uploads`). */
export function createDiskStorage(dir: string, publicPrefix = '/uploads'): Storage {
  const safe = (key: string) => {
    if (!STORAGE_KEY.test(key)) throw new Error(`Invalid storage key: ${key}`)
    return path.join(dir, key)
  }
  return {
    async put(key, bytes) {
      await fs.mkdir(dir, { recursive: true })
      const target = safe(key)
      const tmp = `${target}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`
      await fs.writeFile(tmp, bytes)
      await fs.rename(tmp, target)
      return `${publicPrefix}/${key}`
    },
    async delete(key) {
      await fs.rm(safe(key), { force: true })
    },
    async exists(key) {
      try {
        await fs.access(safe(key))
        return true
      } catch {
        return false
      }
    },
    async read(key) {
      try {
        const file = safe(key)
        const stat = await fs.stat(file)
        return { body: createReadStream(file), contentType: contentTypeOf(key), contentLength: stat.size }
      } catch {
        return null
      }
    },
    urlFor: (key) => `${publicPrefix}/${key}`,
    keyFor(url) {
      const prefix = `${publicPrefix}/`
      return url.startsWith(prefix) ? url.slice(prefix.length) : null
    },
  }
}

/** The media type of a stored key by its extension (the store only writes WebP images). */
export function contentTypeOf(key: string): string {
  if (key.endsWith('.webp')) return 'image/webp'
  if (key.endsWith('.png')) return 'image/png'
  if (key.endsWith('.jpg') || key.endsWith('.jpeg')) return 'image/jpeg'
  return 'application/octet-stream'
}
