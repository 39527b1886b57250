/**
 * Server rendering of documents: streams the React tree, waits for everything for bots and for
 * JavaScript-off shoppers alike (isbot), and sets the Content-Security-Policy with this request's
 * nonce, which the root passes to every script it renders.
 *
 * A render for the page cache (app/.server/page-cache.ts) is different: the page will be sent to
 * many visitors, so it carries no nonce; it is rendered whole, and its policy lists the hashes of
 * its inline scripts (app/.server/csp.ts, docs/decisions/0018-page-cache.md).
 */
import { PassThrough } from 'node:stream'
import { createReadableStreamFromReadable } from '@react-router/node'
import { isbot } from 'isbot'
import { renderToPipeableStream } from 'react-dom/server'
import { isRouteErrorResponse, ServerRouter, type EntryContext, type HandleErrorFunction } from 'react-router'
import { logger } from '../api/lib/logger.ts'
import { contentSecurityPolicy, createNonce, hashedContentSecurityPolicy, inlineScriptHashes } from './.server/csp.ts'
import { isPageCacheRender } from './.server/page-cache.ts'
import { NonceProvider } from './components/nonce.tsx'

export const streamTimeout = 5_000

/**
 * Errors React Router reports while answering. A client's mistake (a 4xx such as a POST to a page
 * without a form, 405) is one warning line with its status, method and path (no query string: it
 * may carry personal data), not a stack trace; a request the client abandoned is not logged; anything
 * else is a fault, logged in full.
 */
export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return
  if (isRouteErrorResponse(error) && error.status < 500) {
    logger.warn({ status: error.status, method: request.method, path: new URL(request.url).pathname }, 'request refused')
    return
  }
  console.error(isRouteErrorResponse(error) && (error as { error?: unknown }).error ? (error as { error?: unknown }).error : error)
}

export default function handleRequest(request: Request, responseStatusCode: number, responseHeaders: Headers, routerContext: EntryContext) {
  const forCache = isPageCacheRender(request)
  const nonce = forCache ? undefined : createNonce()
  if (nonce) responseHeaders.set('Content-Security-Policy', contentSecurityPolicy(nonce))
  // Who is signed in, the cart and flash messages all come from the cookie (RFC 9110 section 12.5.5).
  responseHeaders.append('Vary', 'Cookie')
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false
    const userAgent = request.headers.get('user-agent')
    const readyOption = forCache || (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? 'onAllReady' : 'onShellReady'
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        [readyOption]() {
          shellRendered = true
          const body = new PassThrough()
          responseHeaders.set('Content-Type', 'text/html; charset=utf-8')
          if (forCache) {
            // The whole page first: the policy names the hashes of scripts anywhere in it.
            const chunks: Buffer[] = []
            body.on('data', (chunk: Buffer) => chunks.push(chunk))
            body.on('error', reject)
            body.on('end', () => {
              const html = Buffer.concat(chunks)
              responseHeaders.set('Content-Security-Policy', hashedContentSecurityPolicy(inlineScriptHashes(html.toString('utf8'))))
              resolve(new Response(html, { headers: responseHeaders, status: responseStatusCode }))
            })
          } else {
            resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }))
          }
          pipe(body)
        },
        onShellError(error: unknown) {
          reject(error)
        },
        onError(error: unknown) {
          responseStatusCode = 500
          if (shellRendered) console.error(error)
        },
      },
    )
    setTimeout(abort, streamTimeout + 1000)
  })
}
