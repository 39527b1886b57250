/**
 * Body validation: every JSON body is read with a size cap, decoded as strict UTF-8, parsed, checked
 * for unsafe text (api/lib/safe-text.ts) and parsed by a zod schema. A body that is too large is a
 * 413 (the cap holds while streaming: a chunked or lying client is cut off, never buffered whole);
 * one that is not JSON, not UTF-8, or fails the schema (wrong types, missing fields, an object where a
 * string belongs) is a 400 with field issues (OWASP Input Validation Cheat Sheet).
 */
import type { Context } from 'hono'
import type { z } from 'zod'
import { BadRequest, PayloadTooLarge, UnsupportedMediaType } from './errors.ts'
import { findUnsafeValue } from './safe-text.ts'
import { readCappedStream } from '../../server-shared/capped-body.ts'
import { relativizeImageUrls } from './public-urls.ts'

export { readCappedStream }

/** Default cap of a JSON body in bytes (1 MiB); `JSON_BODY_MAX_BYTES` changes it (api/config.ts). */
export const DEFAULT_JSON_BODY_MAX_BYTES = 1024 * 1024

declare module 'hono' {
  interface ContextVariableMap {
    /** Cap of a JSON body in bytes for this request, set by the app (api/app.ts). */
    jsonBodyMaxBytes: number
  }
}

/** The 413 message of a JSON body over `maxBytes`. */
export const bodyTooLargeMessage = (maxBytes: number) => `Request body is larger than ${Math.floor(maxBytes / 1024)} KB`

const utf8 = new TextDecoder('utf-8', { fatal: true })

/**
 * Reads and validates the JSON body of `c`. An empty body is treated as `{}`. With `PUBLIC_URL`, an
 * image url on it is read as the stored `/uploads/<key>` path. A body with a content
 * type must say JSON (`application/json` or `+json`): a form or text body is a 415, so a cross-site
 * form cannot post to the API (its content types are not JSON).
 * @throws 413 over the cap; 415 for another content type; 400 for bad JSON, bad UTF-8, unsafe text,
 *   nesting deeper than 32, or a schema failure (with `issues`)
 */
export async function readBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  const cap = c.get('jsonBodyMaxBytes') ?? DEFAULT_JSON_BODY_MAX_BYTES
  const declared = Number(c.req.header('content-length'))
  if (Number.isFinite(declared) && declared > cap) throw PayloadTooLarge(bodyTooLargeMessage(cap))
  // Off a socket, a declared length within the cap is the body's length (Node's HTTP parser reads no
  // more, RFC 9112 §6.3): read it whole, without the web stream a capped read needs. A chunked body
  // has no length, and a Request made in this process (the BFF's) may declare anything.
  const fromSocket = Boolean((c.env as { incoming?: unknown } | undefined)?.incoming)
  const bytes =
    fromSocket && Number.isFinite(declared) && !c.req.header('transfer-encoding')
      ? new Uint8Array(await c.req.raw.arrayBuffer())
      : await readCappedStream(c.req.raw.body, cap, () => PayloadTooLarge(bodyTooLargeMessage(cap)))
  let text: string
  try {
    text = utf8.decode(bytes)
  } catch {
    throw BadRequest('Request body must be UTF-8 encoded JSON')
  }
  let raw: unknown = {}
  if (text.trim() !== '') {
    const type = c.req.header('content-type')
    if (type && !/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(type)) throw UnsupportedMediaType('Send the body as application/json')
    try {
      raw = JSON.parse(text)
    } catch {
      throw BadRequest('Request body must be JSON')
    }
  }
  const unsafe = findUnsafeValue(raw)
  if (unsafe) {
    const field = unsafe.path || 'body'
    throw BadRequest(`${field}: ${unsafe.message}`, [{ path: unsafe.path, message: unsafe.message }])
  }
  // An image url answered on the public origin comes back as the stored path (api/lib/public-urls.ts).
  const publicUrl = c.get('publicUrl')
  if (publicUrl) raw = relativizeImageUrls(raw, publicUrl)
  const result = schema.safeParse(raw)
  if (!result.success) {
    const issues = result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }))
    throw BadRequest(issues[0] ? `${issues[0].path || 'body'}: ${issues[0].message}` : 'Invalid body', issues)
  }
  return result.data
}
