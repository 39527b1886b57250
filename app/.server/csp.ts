/**
 * Content-Security-Policy of documents (CSP Level 3; OWASP CSP Cheat Sheet). A page rendered for one
 * request carries a fresh nonce: scripts run only with it. A page kept in the page cache
 * (app/.server/page-cache.ts) is sent to many visitors, so a nonce in it would be a nonce reused;
 * its policy lists instead the SHA-256 hash of each inline script, computed when it was rendered,
 * and our own origin for the module files those scripts import (docs/decisions/0018-page-cache.md).
 * Styles allow 'unsafe-inline' because react-hot-toast renders inline `style` attributes
 * (docs/security.md, "Content-Security-Policy").
 * Development adds Vite's websocket for hot reload. With PAYMENT_PROVIDER=razorpay only, Razorpay's
 * checkout is allowed: its script (https://checkout.razorpay.com/v1/checkout.js), the frames it
 * opens, and the hosted checkout form post (docs/payments.md, "Content-Security-Policy").
 */
import { createHash, randomBytes } from 'node:crypto'
import { env } from './env.ts'

/** A fresh base64 nonce of 128 bits. */
export function createNonce(): string {
  return randomBytes(16).toString('base64')
}

/**
 * The policy header value for a document rendered with `nonce`.
 * @param imageOrigins origins besides our own that pages load images from: the CDN or bucket base of
 *   `S3_PUBLIC_URL`, to which `/uploads/*` redirects (docs/decisions/0012-object-storage.md)
 */
export function contentSecurityPolicy(
  nonce: string,
  isProduction = env.isProduction,
  imageOrigins: string[] = env.imageOrigins,
  paymentProvider: string = env.paymentProvider,
): string {
  const razorpay = paymentProvider === 'razorpay'
  return policy(
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${razorpay ? ` ${RAZORPAY_ORIGINS.script}` : ''}`,
    isProduction,
    imageOrigins,
    razorpay,
  )
}

/** Razorpay's origins (Razorpay docs, "Checkout: Content Security Policy"), allowed only with PAYMENT_PROVIDER=razorpay. */
export const RAZORPAY_ORIGINS = {
  script: 'https://checkout.razorpay.com',
  frame: 'https://api.razorpay.com https://checkout.razorpay.com',
  form: 'https://api.razorpay.com',
  connect: 'https://lumberjack.razorpay.com',
}

/**
 * The policy header value for a cached document: its inline scripts by hash (`hashes`, as
 * `inlineScriptHashes` answers them) and script files from our own origin only. No
 * 'strict-dynamic': it would ignore 'self', and the imports of a hashed inline module carry no nonce
 * to be trusted by (CSP Level 3, "strict-dynamic").
 */
export function hashedContentSecurityPolicy(
  hashes: string[],
  isProduction = env.isProduction,
  imageOrigins: string[] = env.imageOrigins,
): string {
  return policy(["script-src 'self'", ...hashes.map((h) => `'${h}'`)].join(' '), isProduction, imageOrigins)
}

// An inline script element: no `src` attribute. React escapes `</script` inside a script's text, so
// the first closing tag ends it.
const INLINE_SCRIPT = /<script\b(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/gi

/**
 * The hash source of every distinct inline script of `html` (`sha256-<base64>` of its text as UTF-8,
 * CSP Level 3 "hash-source"), in order of first appearance; empty scripts are skipped.
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>()
  for (const match of html.matchAll(INLINE_SCRIPT)) {
    const text = match[1] ?? ''
    if (text) hashes.add(`sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}`)
  }
  return [...hashes]
}

function policy(scriptSrc: string, isProduction: boolean, imageOrigins: string[], razorpay = false): string {
  return [
    "default-src 'self'",
    scriptSrc,
    "style-src 'self' 'unsafe-inline'",
    ["img-src 'self' data: blob:", ...imageOrigins].join(' '),
    "font-src 'self'",
    `connect-src 'self'${isProduction ? '' : ' ws: wss:'}${razorpay ? ` ${RAZORPAY_ORIGINS.connect}` : ''}`,
    ...(razorpay ? [`frame-src ${RAZORPAY_ORIGINS.frame}`] : []),
    "object-src 'none'",
    "base-uri 'self'",
    `form-action 'self'${razorpay ? ` ${RAZORPAY_ORIGINS.form}` : ''}`,
    "frame-ancestors 'none'",
  ].join('; ')
}
