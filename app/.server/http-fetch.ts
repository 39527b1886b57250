/**
 * The BFF's calls to a separately deployed API (`API_URL`; docs/scale-out.md, "API and BFF apart")
 * over Node's own HTTP client (Node docs, "http.request") with kept-alive connections, instead of
 * the WHATWG `fetch`: a JSON call of a few hundred bytes cost the BFF about as much CPU in `fetch`'s
 * machinery (its Request, streams and body mixins) as in the rest of its part of an add-to-cart
 * (docs/decisions/0055-what-an-add-to-cart-costs.md). The answer is a standard `Response` with the
 * whole body read, so callers read it as they read `fetch`'s.
 *
 * Only text bodies (or none) go this way; a multipart upload (FormData) keeps `fetch`, which encodes
 * it. `init.signal` aborts the call, the reading of the answer included, as `fetch`'s does.
 */
import http from 'node:http'
import https from 'node:https'

/**
 * Kept-alive connections to the API, reused call after call, an idle one closed after 4 s as
 * `fetch`'s pool does (or sooner when the API's `Keep-Alive: timeout=N` says so; Node's agent
 * honours that hint only below its own `timeout`), so a call never takes a connection the API is
 * closing.
 */
const IDLE_MS = 4000
const agents = {
  'http:': new http.Agent({ keepAlive: true, timeout: IDLE_MS }),
  'https:': new https.Agent({ keepAlive: true, timeout: IDLE_MS }),
}

/** Statuses whose answer has no body: a `Response` refuses one (WHATWG Fetch, "null body status"). */
const NULL_BODY = new Set([101, 103, 204, 205, 304])

/**
 * Sends `init` (method, headers, a string body or none, a signal) to `url` and answers the whole
 * answer as a `Response`. Any other body goes through the global `fetch`.
 * @throws as `fetch` does: a refused or cut connection, or the signal's reason once aborted
 */
export function httpFetch(url: string, init: RequestInit = {}): Promise<Response> {
  if (init.body !== undefined && init.body !== null && typeof init.body !== 'string') return fetch(url, init)
  const target = new URL(url)
  const client = target.protocol === 'https:' ? https : http
  const agent = agents[target.protocol as keyof typeof agents]
  const headers: Record<string, string> = {}
  new Headers(init.headers).forEach((value, name) => {
    headers[name] = value
  })
  const body = init.body ?? undefined
  if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body))
  return new Promise<Response>((resolve, reject) => {
    const signal = init.signal ?? undefined
    if (signal?.aborted) return reject(signal.reason)
    const request = client.request(target, { method: init.method ?? 'GET', headers, agent }, (answer) => {
      const chunks: Buffer[] = []
      answer.on('data', (chunk: Buffer) => chunks.push(chunk))
      answer.on('error', reject)
      answer.on('end', () => {
        signal?.removeEventListener('abort', onAbort)
        const status = answer.statusCode ?? 502
        const answerHeaders = new Headers()
        for (const [name, value] of Object.entries(answer.headers)) {
          if (Array.isArray(value)) for (const one of value) answerHeaders.append(name, one)
          else if (value !== undefined) answerHeaders.set(name, value)
        }
        const bytes = NULL_BODY.has(status) ? null : Buffer.concat(chunks)
        resolve(new Response(bytes, { status, statusText: answer.statusMessage ?? '', headers: answerHeaders }))
      })
      // A connection closed before the answer's end: never a silent partial body.
      answer.on('close', () => {
        if (!answer.complete) reject(new Error('The API closed the connection before the answer ended'))
      })
    })
    const onAbort = () => request.destroy(signal?.reason instanceof Error ? signal.reason : new Error('aborted'))
    signal?.addEventListener('abort', onAbort, { once: true })
    request.on('error', (err) => {
      signal?.removeEventListener('abort', onAbort)
      reject(err)
    })
    request.end(body)
  })
}
