/**
 * What the BFF needs of a separately deployed API (`API_URL`; docs/scale-out.md, "API and BFF
 * apart"): its readiness, and the stored images, which pages name `/uploads/<key>` and this host
 * fetches from the API host, so images show whichever host a browser asks.
 */
import { Readable } from 'node:stream'
import type { ReadableStream as WebReadableStream } from 'node:stream/web'

/** A stored image's key: the content-addressed names the API makes (letters, digits, ".", "_", "-"). */
const UPLOAD_KEY = /^[a-zA-Z0-9][a-zA-Z0-9._-]{0,199}$/

/** Headers passed on from the API's image answer. */
const PASSED_HEADERS = ['content-type', 'content-length', 'cache-control', 'etag', 'last-modified']

/** Resolves when `${apiUrl}/readyz` answers 2xx within 2 s; rejects otherwise. */
export async function pingApi(apiUrl: string): Promise<void> {
  const res = await fetch(`${apiUrl.replace(/\/$/, '')}/readyz`, { signal: AbortSignal.timeout(2000) })
  await res.arrayBuffer()
  if (!res.ok) throw new Error(`API not ready: ${res.status}`)
}

type Req = { params: Record<string, string | undefined>; headers: Record<string, string | string[] | undefined> }
type Res = {
  status(code: number): Res
  setHeader(name: string, value: string): void
  end(body?: string): void
  headersSent: boolean
}

/**
 * Express handler of `GET /uploads/:key`: streams the API host's `/uploads/<key>` (status, type,
 * length and cache headers passed on; conditional requests passed through), 404 for a key that is
 * not one of ours, 502 when the API cannot be reached.
 */
export function proxyUpload(apiUrl: string) {
  const base = apiUrl.replace(/\/$/, '')
  return async (req: Req, res: Res & NodeJS.WritableStream) => {
    const key = req.params.key ?? ''
    if (!UPLOAD_KEY.test(key)) {
      res.status(404).end('Not found')
      return
    }
    try {
      const ifNoneMatch = req.headers['if-none-match']
      const upstream = await fetch(`${base}/uploads/${key}`, {
        headers: typeof ifNoneMatch === 'string' ? { 'if-none-match': ifNoneMatch } : {},
        signal: AbortSignal.timeout(15_000),
      })
      res.status(upstream.status)
      for (const name of PASSED_HEADERS) {
        const value = upstream.headers.get(name)
        if (value) res.setHeader(name, value)
      }
      if (!upstream.body || upstream.status === 304) {
        res.end()
        return
      }
      Readable.fromWeb(upstream.body as WebReadableStream<Uint8Array>).pipe(res)
    } catch {
      if (!res.headersSent) res.status(502).end('Bad gateway')
    }
  }
}
