/**
 * Where stored files (re-encoded images) live. Local disk by default (`DATA_DIR/uploads`, served by
 * server.ts under `/uploads/` with immutable cache headers); an S3-compatible implementation of the
 * same interface is the scale-out target (docs/decisions/0004-images.md).
 */
import fs from 'node:fs/promises'
import path from 'node:path'
import { randomBytes } from 'node:crypto'

export interface Storage {
  /** Stores `bytes` under `key` (a relative path such as `ab12…-w256.webp`); returns its public url. */
  put(key: string, bytes: Buffer, contentType: string): Promise<string>
  /** Removes the object; a missing key is not an error. */
  delete(key: string): Promise<void>
  /** True when the key exists. */
  exists(key: string): Promise<boolean>
  /** The public url of a key. */
  urlFor(key: string): string
  /** The key of a public url made by this storage, or null when the url is not ours. */
  keyFor(url: string): string | null
}

/** Disk storage under `dir`, public under `publicPrefix` (default `/uploads`). */
export function createDiskStorage(dir: string, publicPrefix = '/uploads'): Storage {
  const safe = (key: string) => {
    if (!/^[a-zA-Z0-9][a-zA-Z0-9._-]*$/.test(key)) throw new Error(`Invalid storage key: ${key}`)
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
    urlFor: (key) => `${publicPrefix}/${key}`,
    keyFor(url) {
      const prefix = `${publicPrefix}/`
      return url.startsWith(prefix) ? url.slice(prefix.length) : null
    },
  }
}
