/**
 * The API's own description (docs/api.md): the OpenAPI 3.1 document generated from contract/'s
 * schemas, and a reference page that renders it (Scalar, @scalar/hono-api-reference).
 *
 * - GET /openapi.json → the document (not the envelope: it is the OpenAPI object itself)
 * - GET /docs → the reference page, under its own Content-Security-Policy: its two scripts carry a
 *   per-request nonce and load nothing from another origin (OWASP CSP Cheat Sheet)
 * - GET /docs/scalar.js → Scalar's standalone browser bundle, served from our origin rather than a
 *   CDN, so the page works on a closed network and the policy needs no outside host
 *
 * The bundle is @scalar/api-reference's `dist/browser/standalone.js`, a development dependency;
 * `npm run build` copies it to build/vendor/ (scripts/vendor-scalar.mjs) for a production image
 * without development dependencies. Without either copy the page answers 404 with a message.
 */
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { Scalar } from '@scalar/hono-api-reference'
import type { Context } from 'hono'
import { z } from 'zod'
import { apiRouter } from '../../lib/openapi.ts'
import { failure } from '../../lib/envelope.ts'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..')
/** Where the bundle may be, in order: the build's copy, then the development dependency. */
export const SCALAR_BUNDLE_PATHS = [
  path.join(ROOT, 'build/vendor/scalar-api-reference.js'),
  path.join(ROOT, 'node_modules/@scalar/api-reference/dist/browser/standalone.js'),
]

/** The reference page's policy: scripts by nonce only, everything else from our origin. */
export function referencePolicy(nonce: string): string {
  return [
    "default-src 'self'",
    `script-src 'nonce-${nonce}' 'strict-dynamic'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ')
}

let bundle: Promise<Buffer | null> | null = null
const readBundle = () =>
  (bundle ??= (async () => {
    for (const candidate of SCALAR_BUNDLE_PATHS) {
      try {
        return await fs.promises.readFile(candidate)
      } catch {
        // Try the next place.
      }
    }
    return null
  })())

/**
 * The routes of the document and the reference page, mounted under /api.
 * @param document the OpenAPI object, built once on first use from every declared route
 */
export function referenceRoutes(document: () => unknown) {
  const { router, endpoint } = apiRouter('Reference')

  endpoint(
    {
      method: 'get',
      path: '/openapi.json',
      summary: 'This document: OpenAPI 3.1, generated from contract/',
      access: 'public',
      answers: {
        200: { description: 'The OpenAPI object', raw: { mediaType: 'application/json', schema: z.record(z.string(), z.unknown()) } },
      },
    },
    (c) => c.json(document() as Record<string, unknown>),
  )

  const page = Scalar({
    url: '/api/openapi.json',
    cdn: '/api/docs/scalar.js',
    pageTitle: 'Grocery storefront API',
    withDefaultFonts: false,
    telemetry: false,
    // The "Ask AI" agent calls Scalar's servers: off (and the policy would block it anyway).
    agent: { disabled: true },
  })
  endpoint(
    {
      method: 'get',
      path: '/docs',
      summary: 'The API reference page (Scalar), rendering this document',
      access: 'public',
      answers: { 200: { description: 'An HTML page', raw: { mediaType: 'text/html', schema: z.string() } } },
    },
    async (c: Context) => {
      const nonce = randomBytes(16).toString('base64')
      const answer = (await page(c, async () => {})) as Response
      const html = (await answer.text()).replaceAll('<script', `<script nonce="${nonce}"`)
      c.header('Content-Security-Policy', referencePolicy(nonce))
      c.header('Cache-Control', 'no-store')
      return c.html(html)
    },
  )

  endpoint(
    {
      method: 'get',
      path: '/docs/scalar.js',
      summary: "Scalar's standalone browser bundle, served from this origin",
      access: 'public',
      answers: { 200: { description: 'JavaScript', raw: { mediaType: 'text/javascript', schema: z.string() } } },
      errors: [404],
    },
    async (c: Context) => {
      const bytes = await readBundle()
      if (!bytes)
        return c.json(failure('The reference page is not installed: run npm run build (or npm ci with development dependencies)'), 404)
      c.header('Content-Type', 'text/javascript; charset=utf-8')
      c.header('Cache-Control', 'public, max-age=3600')
      return c.body(new Uint8Array(bytes))
    },
  )

  return router
}
