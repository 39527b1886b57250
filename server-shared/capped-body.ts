/**
 * Reading a request body with a size cap that holds while the body streams in (OWASP Input
 * Validation Cheat Sheet): a chunked or lying client is cut off as soon as it passes the cap, so the
 * body is never buffered whole. No dependencies: the API's JSON reader (api/lib/validate.ts), its
 * upload reader (api/lib/multipart.ts) and the BFF's form reader (app/lib/form-body.ts) share it.
 */

/**
 * Buffers `stream`, throwing `tooLarge()` as soon as more than `cap` bytes arrived (the rest is
 * never read: the 413 answer closes the connection, api/lib/too-large.ts).
 * @returns the bytes read (empty for no body)
 */
export async function readCappedStream(
  stream: ReadableStream<Uint8Array> | null,
  cap: number,
  tooLarge: () => Error,
): Promise<Uint8Array<ArrayBuffer>> {
  if (!stream) return new Uint8Array(0)
  const reader = stream.getReader()
  const chunks: Uint8Array[] = []
  let total = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    total += value.byteLength
    if (total > cap) {
      // Stop pulling, but leave the request alone: cancelling would destroy it, and with it the
      // socket, before the 413 is written. The answer closes the connection (api/lib/too-large.ts).
      reader.releaseLock()
      throw tooLarge()
    }
    chunks.push(value)
  }
  const body = new Uint8Array(total)
  let at = 0
  for (const chunk of chunks) {
    body.set(chunk, at)
    at += chunk.byteLength
  }
  return body
}
