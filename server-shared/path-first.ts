/**
 * One path's requests answered ahead of Express (docs/decisions/0076-api-ahead-of-express.md): the
 * process's request listener sends a request whose target is `prefix` or a path below it through
 * the same steps Express would run for it (the same middleware functions, in the same order) and then
 * straight to that path's handler; every other request goes to Express as before. The API's answers
 * keep every header and rule of those steps (methods, the 413 close, the client address, compression,
 * the security headers, draining) and skip only Express's own work per request: its router's walk
 * past the page routes, the request and response prototypes it swaps in, its final handler.
 *
 * Only the plain origin form of a target (`/api`, `/api/…`, `/api?…`) of a method in `methods` is
 * taken here; anything else (an absolute-form target, an unknown method, which Express refuses with
 * its 405) still reaches Express, which mounts the same handler, so nothing is answered differently
 * for being rare.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'

/** A connect-style step (an Express middleware that needs nothing of Express): answers, or calls `next()`. */
export type FrontStep = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void

/** A Node request listener (what `http.createServer` takes; an Express app is one). */
export type RequestListener = (req: IncomingMessage, res: ServerResponse) => unknown

/**
 * True when the request target `url` is `prefix` or a path below it, in origin form: `prefix`
 * followed by nothing, `/` or `?` (`/api`, `/api/cart/create`, `/api?x`; not `/apis`, not
 * `http://host/api/…`).
 */
export function isUnder(url: string | undefined, prefix: string): boolean {
  if (!url || !url.startsWith(prefix)) return false
  if (url.length === prefix.length) return true
  const next = url.charCodeAt(prefix.length)
  return next === 0x2f || next === 0x3f
}

/**
 * The listener that answers `prefix`'s requests ahead of `rest`.
 * @param opts.methods the methods taken here (the others go to `rest`)
 * @param opts.steps the middleware Express runs before `handler`, in its order; each must call
 *   `next` at most once; an error passed to `next` (or thrown) is answered 500 without a body, as no
 *   step of server.ts ever does
 * @param opts.clientAddress the client's address as Express's `req.ip` gives it (its `trust proxy`),
 *   set as `req.ip` before the steps run, for the steps that read it
 * @param opts.handler the path's handler (the API's Hono listener)
 * @param opts.rest every other request (the Express app)
 */
export function pathFirst(opts: {
  prefix: string
  methods: readonly string[]
  steps: readonly FrontStep[]
  clientAddress: (req: IncomingMessage) => string | undefined
  handler: RequestListener
  rest: RequestListener
}): RequestListener {
  const { prefix, steps, clientAddress, handler, rest } = opts
  const methods = new Set(opts.methods)
  const failed = (res: ServerResponse) => {
    if (!res.headersSent) res.statusCode = 500
    res.end()
  }
  return (req, res) => {
    if (!isUnder(req.url, prefix) || !methods.has(req.method ?? '')) return rest(req, res)
    ;(req as IncomingMessage & { ip?: string }).ip = clientAddress(req)
    let at = 0
    const next = (err?: unknown): void => {
      if (err) return failed(res)
      const step = steps[at++]
      if (!step) {
        void handler(req, res)
        return
      }
      try {
        step(req, res, next)
      } catch {
        failed(res)
      }
    }
    next()
  }
}
