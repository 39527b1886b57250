/**
 * Reading a form body within its limits (OWASP Input Validation Cheat Sheet): the method must be
 * POST (405), the body a web form (`application/x-www-form-urlencoded` or `multipart/form-data`; 415
 * otherwise, a JSON body included), within its size cap (413, enforced while the body streams in:
 * a chunked or lying client is cut off, never buffered whole), and parseable (400). Pure: it reads
 * only the request it is given. Actions use app/.server/form.ts (`readForm`, `tryReadForm`).
 */
import { readCappedStream } from '../../server-shared/capped-body.ts'

/** Cap of a url-encoded form body: sign-in and profile forms are a few hundred bytes. */
export const URLENCODED_MAX_BYTES = 64 * 1024

/** A failed read: the status and the message shown to the shopper. */
export class FormReadError extends Error {
  constructor(
    readonly status: 400 | 405 | 413 | 415,
    message: string,
  ) {
    super(message)
    this.name = 'FormReadError'
  }
}

const TOO_LARGE = 'The form is too large to send'

/**
 * Reads the form of `request`.
 * @param opts.multipartMaxBytes cap of a multipart body in bytes, always given by the caller: it
 *   follows the configured `UPLOAD_MAX_BYTES`, which only the server knows (app/.server/form.ts
 *   defaults it to one upload of that cap plus overhead), so no compile-time default can stand in
 *   for it; url-encoded bodies are capped at {@link URLENCODED_MAX_BYTES}
 * @throws FormReadError (405, 415, 413, 400) — actions read through app/.server/form.ts (`readForm`
 *   throws it as a response, `tryReadForm` answers it as a value)
 */
export async function readFormOrFail(request: Request, opts: { multipartMaxBytes: number }): Promise<FormData> {
  if (request.method !== 'POST') throw new FormReadError(405, 'Send this form with POST')
  const multipartCap = opts.multipartMaxBytes
  const declared = Number(request.headers.get('Content-Length'))
  // Refused before anything else is looked at when no form of any kind may be that large.
  if (Number.isFinite(declared) && declared > Math.max(multipartCap, URLENCODED_MAX_BYTES)) throw new FormReadError(413, TOO_LARGE)
  const type = (request.headers.get('Content-Type') ?? '').toLowerCase()
  const isMultipart = type.startsWith('multipart/form-data')
  if (!isMultipart && !type.startsWith('application/x-www-form-urlencoded')) {
    throw new FormReadError(415, 'Send this form as a web form (url-encoded or multipart)')
  }
  const cap = isMultipart ? multipartCap : URLENCODED_MAX_BYTES
  if (Number.isFinite(declared) && declared > cap) throw new FormReadError(413, TOO_LARGE)
  const body = await readCappedStream(request.body, cap, () => new FormReadError(413, TOO_LARGE))
  try {
    return await new Response(body, { headers: { 'Content-Type': request.headers.get('Content-Type')! } }).formData()
  } catch {
    throw new FormReadError(400, 'The form could not be read, please try again')
  }
}
