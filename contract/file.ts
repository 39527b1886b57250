/**
 * Uploads (docs/api-contract.md, "Endpoints": POST /api/file/upload and PUT /api/user/upload-avatar):
 * the size cap both sides apply, and the answer of an upload. The API reads `UPLOAD_MAX_BYTES`
 * (api/config.ts) and the BFF reads the same variable (app/.server/env.ts) through
 * `parseUploadMaxBytes`, so a changed cap changes both.
 */
import { z } from 'zod'

/** The upload cap when `UPLOAD_MAX_BYTES` is not set: 5 MB (5 MiB). */
export const DEFAULT_UPLOAD_MAX_BYTES = 5 * 1024 * 1024

/** Room for the multipart boundaries and the small text fields around one file, in bytes. */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024

/**
 * The upload cap in bytes from the text of `UPLOAD_MAX_BYTES`: unset or empty gives the default.
 * @throws Error when the text is not a whole number of bytes of at least 1
 */
export function parseUploadMaxBytes(text: string | undefined): number {
  if (text === undefined || text.trim() === '') return DEFAULT_UPLOAD_MAX_BYTES
  const bytes = Number(text)
  if (!Number.isInteger(bytes) || bytes < 1) throw new Error('UPLOAD_MAX_BYTES must be a whole number of bytes (at least 1)')
  return bytes
}

/** A size in bytes as people read it: "5 MB", "512 KB", "900 bytes" (1 KB = 1024 bytes). */
export function formatByteSize(bytes: number): string {
  const mb = bytes / (1024 * 1024)
  if (mb >= 1) return `${Number.isInteger(mb) ? mb : Number(mb.toFixed(1))} MB`
  const kb = bytes / 1024
  if (kb >= 1) return `${Number.isInteger(kb) ? kb : Number(kb.toFixed(1))} KB`
  return `${bytes} bytes`
}

/** The answer of POST /api/file/upload: the stored main image's url, width and height in px, format and size in bytes. */
export const UploadAnswerSchema = z
  .object({ url: z.string(), width: z.number(), height: z.number(), format: z.literal('webp'), bytes: z.number() })
  .meta({ id: 'UploadedImage' })
export type UploadAnswer = z.output<typeof UploadAnswerSchema>
