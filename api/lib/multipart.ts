/**
 * Reads one file field of a multipart/form-data body (the two uploads of docs/api-contract.md,
 * "Uploads") with a size cap
 * that holds before the body is buffered (OWASP File Upload Cheat Sheet, "Set a file size limit";
 * docs/api-contract.md, "Differences from the original contract": "Uploads had no size or type limit").
 *
 * Three gates, cheapest first: the declared Content-Length (refused before one byte is read), the
 * bytes actually streamed (a chunked or lying client is cut off at the cap, so memory stays bounded),
 * and the file part's own size. Whether the bytes are an image is not decided here: that is
 * lib/images.ts's `processImage`, which reads the content, never the name or the part's type.
 */
import type { Context } from 'hono'
import { BadRequest, PayloadTooLarge } from './errors.ts'
import { readCappedStream } from '../../server-shared/capped-body.ts'
import { formatByteSize } from './images.ts'

/**
 * Room for the multipart framing around the file: boundaries, part headers, a few small text
 * fields. A body over `maxBytes + MULTIPART_OVERHEAD_BYTES` cannot hold a file within the cap.
 */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024

/** The file part as received. `name` and `type` are the client's claims: never trust them. */
export interface UploadedFile {
  bytes: Buffer
  /** File name the client sent (untrusted, for logs only). */
  name: string
  /** Content-Type of the part as the client sent it (untrusted). */
  type: string
}

/** The 413 message for a cap of `maxBytes` ("File is larger than 5 MB"). */
export function tooLargeMessage(maxBytes: number): string {
  return `File is larger than ${formatByteSize(maxBytes)}`
}

/**
 * Reads the file in `field` of the request's multipart body.
 * @param maxBytes cap of the file in bytes (deps.uploadMaxBytes)
 * @returns the file's bytes and the client's claimed name and type
 * @throws 413 when Content-Length, the streamed body or the file exceeds the cap;
 *   400 when the body is not multipart/form-data, cannot be parsed, or has no non-empty file in `field`
 */
export async function readFileField(c: Context, field: string, maxBytes: number): Promise<UploadedFile> {
  const contentType = c.req.header('content-type') ?? ''
  if (!/^multipart\/form-data\s*;/i.test(contentType)) {
    throw BadRequest(`Send the file as multipart/form-data in the field "${field}"`)
  }
  const bodyCap = maxBytes + MULTIPART_OVERHEAD_BYTES
  const declared = Number(c.req.header('content-length'))
  if (Number.isFinite(declared) && declared > bodyCap) throw PayloadTooLarge(tooLargeMessage(maxBytes))

  const body = await readCappedStream(c.req.raw.body, bodyCap, () => PayloadTooLarge(tooLargeMessage(maxBytes)))
  let form: FormData
  try {
    form = await new Response(body, { headers: { 'content-type': contentType } }).formData()
  } catch {
    throw BadRequest('Malformed multipart/form-data body')
  }
  const entry = form.get(field)
  if (!entry || typeof entry === 'string' || entry.size === 0) {
    throw BadRequest(`Attach a file in the field "${field}"`, [{ path: field, message: 'A file is required' }])
  }
  if (entry.size > maxBytes) throw PayloadTooLarge(tooLargeMessage(maxBytes))
  return { bytes: Buffer.from(await entry.arrayBuffer()), name: entry.name, type: entry.type }
}
